/**
 * A course completion milestone (`/api/catalog/milestones/completions/course/manage/`): whether one person (the
 * spec's required integer `user_id`) completed one course (`course_id`), read from the learning analytics'
 * enrolments. The spec's answer is an open object: `{course_id, user_id, username, completed, completed_at}`.
 */
import type { AreaDeps } from '../../area';
import { badRequest, notFound } from '../../http/errors';
import type { Router } from '../../http/router';

export const COMPLETIONS = '/api/catalog/milestones/completions/course/manage/';
const MISSING = 'Bad request - missing or invalid parameters';

export function milestoneRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const courseOf = db.prepare('SELECT id FROM courses WHERE course_id = ? AND org = ?').pluck();
  const userOf = db.prepare('SELECT id, username FROM users WHERE id = ? AND org = ?');
  const completion = db
    .prepare(
      'SELECT completed_at FROM learning_enrollments WHERE course_pk = ? AND user_id = ? AND completed_at IS NOT NULL',
    )
    .pluck();
  router.get(
    COMPLETIONS,
    (ctx) => {
      const org = ctx.caller!.org;
      const courseId = ctx.query.get('course_id');
      const userParam = ctx.query.get('user_id') ?? '';
      if (!courseId || !/^\d+$/.test(userParam)) throw badRequest(MISSING);
      const course = courseOf.get(courseId, org) as number | undefined;
      const user = userOf.get(Number(userParam), org) as { id: number; username: string } | undefined;
      if (course === undefined || !user) throw notFound('Not found.');
      const completedAt = (completion.get(course, user.id) as string | undefined) ?? null;
      return {
        status: 200,
        body: {
          course_id: courseId,
          user_id: user.id,
          username: user.username,
          completed: completedAt !== null,
          completed_at: completedAt,
        },
      };
    },
    { auth: 'admin' },
  );
}
