/** Learning pages: learners, registrations, completions, average grade, most active courses, one learner. */
import { localDate, type Kpi, type LearnerCourse, type LearnerRow } from '../../../shared/contract';
import { ApiError } from '../platform';
import type { AnalyticsApi } from './api';
import { kpi, wholeDaysKpi, WHOLE_DAYS_NOTE } from './dashboard';
import { chartIsEmpty } from './emptiness';
import type { Resolved } from './services';

const quick = { quick: true };

const seconds = (value: string | number) => {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

/** What the learning endpoints are asked for: the range's days (the platform counts UTC days) and the department. */
export const learningDates = (r: Pick<Resolved, 'range' | 'department'>) => ({
  start_date: r.range.from,
  end_date: r.range.to,
  department_id: r.department,
});

/** A per-day answer's values in day order. */
const inDayOrder = (values: Record<string, number>) => Object.entries(values).sort(([a], [b]) => a.localeCompare(b));

/** `completions`' count per day: what the Learning tab's chart draws and its export writes (`today`: not over yet). */
export function completionSeries(answer: { data: { overtime: Record<string, number> } }, today?: string) {
  return inDayOrder(answer.data.overtime).map(([date, completions]) => ({
    date,
    completions,
    partial: date === today,
  }));
}

/** The platform gives these figures as they stand, with nothing to compare them with. */
const NOT_COMPARED = 'Not compared: the platform gives it as it stands.';

export async function learningOverview(r: Resolved) {
  const { api, range } = r;
  const dates = learningDates(r);
  const [active, registered, completions, grade, courses] = await Promise.all([
    api.activeUsers(dates, quick),
    api.registeredUsers(dates, quick),
    api.completions(dates, quick),
    api.averageGrade({ department_id: r.department }, quick),
    api.mostActiveCourses({ ...dates, page: 1, length: 10 }, quick),
  ]);
  // The platform gives the completions' change in percent only (0 when there were none before: not a change).
  const before = range.previous ? (completions.meta?.change_range_percent ?? null) : null;
  const completed: Kpi = {
    ...kpi('completions', 'Course completions', 'count', completions.data.completed_count, null),
    change: range.partial || before === 0 ? null : before,
    note: range.partial && range.previous ? WHOLE_DAYS_NOTE : null,
  };
  const averageGrade = grade.data.average === null ? null : Math.round(grade.data.average * 1000) / 10;
  const activeUsers = wholeDaysKpi('activeUsers', 'Active learners', range, active);
  const registeredUsers = wholeDaysKpi('registeredUsers', 'New registered users', range, registered);
  const series = completionSeries(completions, range.partial ? localDate(r.now, r.timeZone) : undefined);
  return {
    activeUsers,
    registeredUsers,
    completions: completed,
    completionRate: completions.data.completed_percent,
    averageGrade,
    kpis: [
      activeUsers,
      registeredUsers,
      completed,
      kpi('completionRate', 'Completion rate', 'percent', completions.data.completed_percent, null, NOT_COMPARED),
      kpi('averageGrade', 'Average grade', 'percent', averageGrade, null, 'Over all time: not compared.'),
    ],
    completionSeries: series,
    empty: chartIsEmpty('completions', { completionSeries: series }),
    courses: courses.data.map((c) => ({
      courseId: c.course_id,
      name: c.name,
      timeSpentSeconds: c.time_spent,
      averageTimeSeconds: c.average_time,
    })),
    notes: r.mentorId ? ['Learning analytics are not filtered by mentor (the platform cannot).'] : [],
  };
}

export function toLearnerRow(l: {
  username: string;
  full_name?: string;
  name?: string;
  enrollments?: number;
  completions?: number;
  last_active?: string;
  time_spent?: string | number;
  engagement_index: number;
  performance_index: number;
}): LearnerRow {
  return {
    username: l.username,
    name: l.full_name ?? l.name ?? l.username,
    enrollments: l.enrollments ?? null,
    completions: l.completions ?? null,
    lastActive: l.last_active || null,
    timeSpentSeconds: l.time_spent === undefined ? null : seconds(l.time_spent),
    engagementIndex: l.engagement_index,
    performanceIndex: l.performance_index,
  };
}

export async function learnerList(
  api: AnalyticsApi,
  input: {
    kind: 'registered' | 'active';
    from: string;
    to: string;
    department?: number | undefined;
    search?: string | undefined;
    page: number;
    pageSize: number;
  },
) {
  const paging = { page: input.page, length: input.pageSize, department_id: input.department };
  const answer =
    input.kind === 'registered'
      ? await api.registeredLearners({ ...paging, search: input.search || undefined }, quick)
      : await api.activeLearners({ ...paging, start_date: input.from, end_date: input.to }, quick);
  const rows: LearnerRow[] = (answer.data as Parameters<typeof toLearnerRow>[0][]).map(toLearnerRow);
  return { total: answer.pagination.totalItems, rows };
}

/** Calls a per-learner endpoint the tenant may not offer: a 404 means "not available here", not an error. */
async function optional<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405 || error.status === 501))
      return null;
    throw error;
  }
}

/** `over-time`'s seconds per day, in day order. */
export function timeSeries(answer: { data: Record<string, number> }) {
  return inDayOrder(answer.data).map(([date, seconds]) => ({ date, seconds }));
}

/** One learner's seconds per day over the range: what the learner page's chart draws and its export writes. */
export function learnerTime(r: Pick<Resolved, 'api' | 'range'>, username: string, options?: typeof quick) {
  return r.api.learnerTime(username, { start_date: r.range.from, end_date: r.range.to }, options);
}

/** A 0–1 grade as a percent with one decimal. */
const percent = (grade: number | null | undefined) => (grade == null ? null : Math.round(grade * 1000) / 10);

/**
 * One learner: who (the learner list's row and the per-learner information), grades and time per course, and time
 * per day over the range. Per-learner endpoints a tenant does not offer leave their part empty with a note.
 */
export async function learnerPage(r: Resolved, username: string) {
  const { api } = r;
  const [list, info, average, grades, activity, time] = await Promise.all([
    api.learners({ search: username, page: 1, length: 50 }, quick),
    optional(() => api.learnerInfo(username, quick)),
    optional(() => api.averageGrade({ learner_id: username }, quick)),
    optional(() => api.learnerGrades(username, quick)),
    optional(() => api.learnerActivity(username, quick)),
    optional(() => learnerTime(r, username, quick)),
  ]);
  const wanted = username.toLowerCase();
  const found = list.data.find(
    (l) => l.username.toLowerCase() === wanted || l.username.toLowerCase() === info?.data.username.toLowerCase(),
  );
  const notes: string[] = [];
  if (grades === null) notes.push('Grades per course are not available from this tenant.');
  if (activity === null) notes.push('Time per course is not available from this tenant.');
  if (time === null) notes.push('Time over time is not available from this tenant.');
  else if (r.timeZone !== 'UTC') notes.push('Time per day is counted per UTC day, as the platform does.');

  // Courses from both answers, by course id: the grade from one, the time from the other.
  const courses = new Map<string, LearnerCourse>();
  const course = (courseId: string, name: string) => {
    let row = courses.get(courseId);
    if (!row) {
      row = {
        courseId,
        course: name,
        grade: null,
        classAverage: null,
        timeSpentSeconds: null,
        daysAccessed: null,
        lastAccess: null,
      };
      courses.set(courseId, row);
    }
    return row;
  };
  const gradeRows = grades === null ? [] : Array.isArray(grades) ? grades : grades.data;
  for (const g of gradeRows) {
    const row = course(g.course_id ?? g.name ?? g.course_name ?? '', g.name ?? g.course_name ?? g.course_id ?? '');
    row.grade = g.grade != null ? percent(g.grade) : (g.percent ?? null);
    row.classAverage = percent(g.class_average);
  }
  for (const a of activity?.data ?? []) {
    const row = course(a.course_id, a.name);
    row.timeSpentSeconds = a.time_invested;
    row.daysAccessed = a.days_accessed;
    row.lastAccess = a.last_access_date || null;
  }
  const seconds = info?.data.total_time_spent;
  return {
    info: found ? toLearnerRow(found) : null,
    email: info?.data.email || null,
    joined: info?.data.date_joined || null,
    lastActivity: info?.data.last_activity || null,
    totalTimeSeconds: seconds ?? (found ? toLearnerRow(found).timeSpentSeconds : null),
    averageGrade: percent(average?.data.average),
    grades:
      grades === null && activity === null
        ? null
        : [...courses.values()].sort(
            (a, b) => a.course.localeCompare(b.course) || a.courseId.localeCompare(b.courseId),
          ),
    time: time ? timeSeries(time) : null,
    timeTotalSeconds: time ? time.total : null,
    empty: chartIsEmpty('learner-time', { time: time ? timeSeries(time) : null }),
    notes,
  };
}
