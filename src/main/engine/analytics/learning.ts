/** Learning pages: learners, registrations, completions, average grade, most active courses, one learner. */
import { percentChange, type Kpi, type LearnerRow } from '../../../shared/contract';
import { ApiError } from '../platform';
import type { AnalyticsApi } from './api';
import type { Resolved } from './services';

const quick = { quick: true };

const seconds = (value: string | number) => {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

function overtimeKpi(
  key: Kpi['key'],
  label: string,
  o: { total: number; meta?: { change_range?: number | undefined } | undefined },
  hasPrevious: boolean,
): Kpi {
  const previous = hasPrevious && o.meta?.change_range !== undefined ? o.total - o.meta.change_range : null;
  return { key, label, unit: 'count', value: o.total, previous, change: percentChange(o.total, previous) };
}

export async function learningOverview(r: Resolved) {
  const { api, range } = r;
  const dates = { start_date: range.from, end_date: range.to, department_id: r.department };
  const [active, registered, completions, grade, courses] = await Promise.all([
    api.activeUsers(dates, quick),
    api.registeredUsers(dates, quick),
    api.completions(dates, quick),
    api.averageGrade({ department_id: r.department }, quick),
    api.mostActiveCourses({ ...dates, page: 1, length: 10 }, quick),
  ]);
  const hasPrevious = range.previous !== null;
  const completionChange = hasPrevious ? (completions.meta?.change_range_percent ?? null) : null;
  return {
    activeUsers: overtimeKpi('activeUsers', 'Active learners', active, hasPrevious),
    registeredUsers: overtimeKpi('registeredUsers', 'New registered users', registered, hasPrevious),
    completions: {
      key: 'sessions' as const,
      label: 'Course completions',
      unit: 'count' as const,
      value: completions.data.completed_count,
      previous: null,
      change: completionChange,
    },
    completionRate: completions.data.completed_percent,
    averageGrade: grade.data.average === null ? null : Math.round(grade.data.average * 1000) / 10,
    completionSeries: Object.entries(completions.data.overtime)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, n]) => ({ date, completions: n })),
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

export async function learnerPage(api: AnalyticsApi, username: string) {
  const [list, average, grades, time] = await Promise.all([
    api.learners({ search: username, page: 1, length: 50 }, quick),
    optional(() => api.averageGrade({ learner_id: username }, quick)),
    optional(() => api.learnerGrades(username, quick)),
    optional(() => api.learnerTime(username, {}, quick)),
  ]);
  const found = list.data.find((l) => l.username.toLowerCase() === username.toLowerCase());
  const notes: string[] = [];
  if (grades === null) notes.push('Grades per course are not available from this tenant.');
  if (time === null) notes.push('Time over time is not available from this tenant.');
  const gradeRows = grades === null ? null : Array.isArray(grades) ? grades : grades.data;
  return {
    info: found ? toLearnerRow(found) : null,
    email: null,
    averageGrade: average?.data.average == null ? null : Math.round(average.data.average * 1000) / 10,
    grades:
      gradeRows?.map((g) => ({
        courseId: g.course_id ?? '',
        course: g.name ?? g.course_name ?? g.course_id ?? '',
        grade: g.grade ?? g.percent ?? null,
      })) ?? null,
    time: time
      ? Object.entries(time.data)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([date, s]) => ({ date, seconds: s }))
      : null,
    notes,
  };
}
