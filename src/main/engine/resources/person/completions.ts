/**
 * A person's course completions for their page (`people.completions`): their enrolments, then each course's
 * completion milestone, a few at a time through a limiter (the spec asks it per course and person). The spec's 404
 * on the milestone includes "completion record not found", so for a course they are enrolled in it reads as not
 * completed; any other refusal is the section's error.
 */
import type { CourseCompletion } from '../../../../shared/contract';
import { MILESTONE_READS, readCourseCompletion } from '../../badges';
import { Limiter } from '../../jobs';
import { ApiError, type CallOptions, type PlatformClient } from '../../platform';
import { readEnrolments } from './platform';

const OPTIONS: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };
const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

export async function readPersonCompletions(
  client: PlatformClient,
  org: string,
  person: { username: string; userId: number },
): Promise<CourseCompletion[]> {
  const enrolments = await readEnrolments(client, org, person.username, OPTIONS);
  const names = new Map<string, string | null>();
  for (const row of enrolments) {
    const course = text(row.course_id);
    if (course && !names.get(course)) names.set(course, text(row.course_name) ?? text(row.name));
  }
  const limiter = new Limiter(MILESTONE_READS);
  const courses = await Promise.all(
    [...names].map(([courseId, name]) =>
      limiter.run(async (): Promise<CourseCompletion> => {
        try {
          return { courseId, name, ...(await readCourseCompletion(client, courseId, person.userId, OPTIONS)) };
        } catch (error) {
          if (error instanceof ApiError && error.status === 404)
            return { courseId, name, completed: false, completedAt: null };
          throw error;
        }
      }),
    ),
  );
  // Completed first, newest completion first; then the rest by name.
  return courses.sort(
    (a, b) =>
      Number(b.completed) - Number(a.completed) ||
      (b.completedAt ?? '').localeCompare(a.completedAt ?? '') ||
      (a.name ?? a.courseId).localeCompare(b.name ?? b.courseId),
  );
}
