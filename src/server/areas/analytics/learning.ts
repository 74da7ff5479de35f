import type { AreaDeps } from '../../area';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { legacyPage } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { DAY_MS, dayOf, INVALID_PARAMETERS, percentChange, queryRange, startOfDay } from './dates';
import { derivedTables, type DerivedTables } from './derived';
import { StatementCache } from './sql';

const A = '/api/ai-analytics';
export const round = (n: number | null | undefined, digits = 2) => Math.round((n ?? 0) * 10 ** digits) / 10 ** digits;

/** The learning-analytics query parameters every operation shares: format, include_main_platform, department_id. */
export interface Scope {
  org: string;
  department: number | null;
}

export function scopeOf(ctx: RequestContext): Scope {
  const q = ctx.query;
  const format = q.get('format');
  if (format !== null && format !== 'json') throw badRequest(INVALID_PARAMETERS);
  const main = q.get('include_main_platform');
  if (main !== null && !/^(true|false|True|False|1|0)$/.test(main)) throw badRequest(INVALID_PARAMETERS);
  const department = q.get('department_id');
  if (department !== null && department !== '' && !/^\d+$/.test(department)) throw badRequest(INVALID_PARAMETERS);
  return { org: ctx.params.org!, department: department ? Number(department) : null };
}

/** SQL restricting a user-id column to the scope's department (empty when no department is asked for). */
const inDepartment = (scope: Scope, column: string) =>
  scope.department === null
    ? ''
    : ` AND ${column} IN (SELECT id FROM users WHERE org = @org AND department_id = @department)`;

/** A day range [startDay, endDay) from start_date/end_date; the last 7 days (today included) when none is given. */
export function dayRange(ctx: RequestContext, now: number, fallbackDays: number | null = 7) {
  const range = queryRange(ctx.query, { dateTime: true });
  const today = startOfDay(now);
  let startMs = range.startMs === undefined ? undefined : startOfDay(range.startMs);
  let endMs = range.endMs === undefined ? undefined : startOfDay(range.endMs + DAY_MS - 1);
  if (fallbackDays !== null) {
    endMs ??= startMs === undefined ? today + DAY_MS : Math.max(startMs + DAY_MS, today + DAY_MS);
    startMs ??= endMs - fallbackDays * DAY_MS;
  }
  return { startMs, endMs };
}

export const daysBetween = (startMs: number, endMs: number) => {
  const days: string[] = [];
  for (let t = startMs; t < endMs && days.length < 20_000; t += DAY_MS) days.push(dayOf(t));
  return days;
};

/**
 * `OvertimeWithChangeInfo`: the per-day values over the range, the range's value and how it changed against the
 * previous range of the same length, and over the last 7 and 30 days against the 7 and 30 days before them.
 */
function overtime(
  perDay: Map<string, number>,
  valueFor: (startMs: number, endMs: number) => number,
  startMs: number,
  endMs: number,
) {
  const total = valueFor(startMs, endMs);
  const change = (length: number) => {
    const current = valueFor(endMs - length, endMs);
    const previous = valueFor(endMs - 2 * length, endMs - length);
    return { diff: current - previous, percent: percentChange(current, previous) };
  };
  const range = { diff: total - valueFor(2 * startMs - endMs, startMs), percent: 0 };
  range.percent = percentChange(total, total - range.diff);
  const week = change(7 * DAY_MS);
  const month = change(30 * DAY_MS);
  return {
    data: Object.fromEntries(daysBetween(startMs, endMs).map((day) => [day, perDay.get(day) ?? 0])),
    total,
    meta: {
      total,
      change_range: range.diff,
      change_range_percent: range.percent,
      change_last_seven_days: week.diff,
      change_last_seven_days_percent: week.percent,
      change_last_thirty_days: month.diff,
      change_last_thirty_days_percent: month.percent,
    },
  };
}

export interface LearnerRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
}
export const fullName = (u: LearnerRow) => `${u.first_name} ${u.last_name}`.trim() || u.username;

export function learningRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const sql = new StatementCache(db);
  const admin = { auth: 'admin' as const };
  const now = () => deps.now().getTime();

  const derived = derivedTables(db);
  /** The department filter on the derived tables, which carry each learner's department. */
  const departmentKey = (scope: Scope) => (scope.department === null ? '' : ' AND department_id = @department');

  // Learners active in [start, end): each counted once, at their first active day in the range (learning_activity_gaps).
  const activeUsers = (scope: Scope) => (startMs: number, endMs: number) => {
    derived.ensure();
    return sql
      .get(
        `SELECT coalesce(sum(users), 0) FROM learning_activity_gaps WHERE org = @org AND day >= @start AND day < @end
         AND prev_day < @start${departmentKey(scope)}`,
      )
      .pluck()
      .get({ ...scope, start: dayOf(startMs), end: dayOf(endMs) }) as number;
  };

  const activeUsersOverTime = (ctx: RequestContext) => {
    const scope = scopeOf(ctx);
    const { startMs, endMs } = dayRange(ctx, now()) as { startMs: number; endMs: number };
    derived.ensure();
    const rows = sql
      .get(
        `SELECT day, sum(users) AS n FROM learning_activity_gaps WHERE org = @org AND day >= @start AND day < @end
         ${departmentKey(scope)} GROUP BY day`,
      )
      .raw()
      .all({ ...scope, start: dayOf(startMs), end: dayOf(endMs) }) as [string, number][];
    return { status: 200, body: overtime(new Map(rows), activeUsers(scope), startMs, endMs) };
  };
  router.get(`${A}/overview/orgs/{org}/active-users`, activeUsersOverTime, admin);
  router.get(`${A}/audience/orgs/{org}/active-users/over-time`, activeUsersOverTime, admin);

  const registrations = (scope: Scope) => (startMs: number, endMs: number) =>
    sql
      .get(
        `SELECT count(*) FROM users WHERE org = @org AND date_joined >= @start AND date_joined < @end
         ${scope.department === null ? '' : 'AND department_id = @department'}`,
      )
      .pluck()
      .get({ ...scope, start: dayOf(startMs), end: dayOf(endMs) }) as number;
  const registeredOverTime = (ctx: RequestContext) => {
    const scope = scopeOf(ctx);
    const { startMs, endMs } = dayRange(ctx, now()) as { startMs: number; endMs: number };
    const rows = sql
      .get(
        `SELECT substr(date_joined, 1, 10) AS day, count(*) AS n FROM users WHERE org = @org AND date_joined >= @start
         AND date_joined < @end ${scope.department === null ? '' : 'AND department_id = @department'} GROUP BY day`,
      )
      .raw()
      .all({ ...scope, start: dayOf(startMs), end: dayOf(endMs) }) as [string, number][];
    return { status: 200, body: overtime(new Map(rows), registrations(scope), startMs, endMs) };
  };
  router.get(`${A}/overview/orgs/{org}/registered-users`, registeredOverTime, admin);
  router.get(`${A}/audience/orgs/{org}/registered-users/over-time`, registeredOverTime, admin);

  /** Enrollments, completions, grades, time and activity of a page of learners (each query by user id index). */
  const learnerStats = (ids: number[], since: string) => {
    const list = JSON.stringify(ids);
    const enrollments = sql
      .get(
        `SELECT user_id, count(*), count(completed_at), avg(grade) FROM learning_enrollments
         WHERE user_id IN (SELECT value FROM json_each(?)) GROUP BY user_id`,
      )
      .raw()
      .all(list) as [number, number, number, number | null][];
    const time = sql
      .get(
        'SELECT user_id, sum(seconds) FROM learning_time WHERE user_id IN (SELECT value FROM json_each(?)) GROUP BY user_id',
      )
      .raw()
      .all(list) as [number, number][];
    const activity = sql
      .get(
        `SELECT user_id, max(day), sum(day >= ?) FROM learning_activity
         WHERE user_id IN (SELECT value FROM json_each(?)) GROUP BY user_id`,
      )
      .raw()
      .all(since, list) as [number, string, number][];
    return {
      enrollments: new Map(enrollments.map(([id, n, done, grade]) => [id, { n, done, grade }])),
      time: new Map(time),
      activity: new Map(activity.map(([id, last, recent]) => [id, { last, recent }])),
    };
  };

  // Every learner with enrollments, completions, time spent (seconds, as a string), last active day and indexes:
  // engagement = share of the last 30 days with activity (0–100), performance = mean grade (0–100).
  const learnerList = (ctx: RequestContext) => {
    const scope = scopeOf(ctx);
    const search = ctx.query.get('search');
    const where = `FROM users WHERE org = @org AND role = 'student'
      ${scope.department === null ? '' : 'AND department_id = @department'}
      ${search ? "AND (username LIKE @q OR email LIKE @q OR first_name || ' ' || last_name LIKE @q)" : ''}`;
    const params = { ...scope, q: `%${search ?? ''}%` };
    const total = sql.get(`SELECT count(*) ${where}`).pluck().get(params) as number;
    const since = dayOf(startOfDay(now()) - 29 * DAY_MS);
    const body = legacyPage(ctx.query, total, (offset, length) => {
      const users = sql
        .get(
          `SELECT id, username, email, first_name, last_name ${where} ORDER BY username LIMIT @length OFFSET @offset`,
        )
        .all({ ...params, length, offset }) as LearnerRow[];
      const stats = learnerStats(
        users.map((u) => u.id),
        since,
      );
      return users.map((u) => {
        const e = stats.enrollments.get(u.id);
        const a = stats.activity.get(u.id);
        return {
          username: u.username,
          full_name: fullName(u),
          enrollments: e?.n ?? 0,
          completions: e?.done ?? 0,
          last_active: a?.last ?? '',
          time_spent: String(stats.time.get(u.id) ?? 0),
          engagement_index: round(((a?.recent ?? 0) / 30) * 100, 1),
          performance_index: round((e?.grade ?? 0) * 100, 1),
        };
      });
    });
    return { status: 200, body };
  };
  router.get(`${A}/overview/orgs/{org}/learners`, learnerList, admin);
  router.get(`${A}/audience/orgs/{org}/registered-users/`, learnerList, admin);

  // Learners active in the range (last 7 days by default), most active first.
  router.get(
    `${A}/audience/orgs/{org}/active-users/users`,
    (ctx) => {
      const scope = scopeOf(ctx);
      const { startMs, endMs } = dayRange(ctx, now()) as { startMs: number; endMs: number };
      const params = { ...scope, start: dayOf(startMs), end: dayOf(endMs) };
      const active = `FROM learning_activity a WHERE a.org = @org AND a.day >= @start AND a.day < @end
        ${inDepartment(scope, 'a.user_id')}`;
      const total = sql.get(`SELECT count(DISTINCT a.user_id) ${active}`).pluck().get(params) as number;
      const rangeDays = Math.max(1, Math.round((endMs - startMs) / DAY_MS));
      const body = legacyPage(ctx.query, total, (offset, length) => {
        const page = sql
          .get(
            `SELECT a.user_id, count(*) AS days ${active} GROUP BY a.user_id ORDER BY days DESC, a.user_id LIMIT @length OFFSET @offset`,
          )
          .raw()
          .all({ ...params, length, offset }) as [number, number][];
        const ids = page.map(([id]) => id);
        const users = new Map(
          (
            sql
              .get(
                'SELECT id, username, email, first_name, last_name FROM users WHERE id IN (SELECT value FROM json_each(?))',
              )
              .all(JSON.stringify(ids)) as LearnerRow[]
          ).map((u) => [u.id, u]),
        );
        const grades = learnerStats(ids, params.start).enrollments;
        return page.map(([id, days]) => {
          const user = users.get(id)!;
          return {
            username: user.username,
            name: fullName(user),
            engagement_index: round((days / rangeDays) * 100, 1),
            performance_index: round((grades.get(id)?.grade ?? 0) * 100, 1),
          };
        });
      });
      return { status: 200, body };
    },
    admin,
  );

  interface CourseRow {
    id: number;
    course_id: string;
    name: string;
    start_date: string | null;
    end_date: string | null;
  }
  const courses = (org: string) =>
    sql
      .get('SELECT id, course_id, name, start_date, end_date FROM courses WHERE org = ? ORDER BY name')
      .all(org) as CourseRow[];

  // Courses by time spent in the range (all time when no dates are given).
  router.get(
    `${A}/overview/orgs/{org}/most-active-courses`,
    (ctx) => {
      const scope = scopeOf(ctx);
      const { startMs, endMs } = dayRange(ctx, now(), null);
      // Without dates the course index answers alone; with dates the (org, day) key bounds the scan.
      const days = [startMs === undefined ? '' : 'AND day >= @start', endMs === undefined ? '' : 'AND day < @end'].join(
        ' ',
      );
      const rows = sql
        .get(
          `SELECT course_pk, sum(seconds), count(DISTINCT user_id) FROM learning_time
           WHERE org = @org ${days} ${inDepartment(scope, 'user_id')} GROUP BY course_pk`,
        )
        .raw()
        .all({
          ...scope,
          start: startMs === undefined ? null : dayOf(startMs),
          end: endMs === undefined ? null : dayOf(endMs),
        }) as [number, number, number][];
      const time = new Map(rows.map(([course, seconds, learners]) => [course, { seconds, learners }]));
      const list = courses(scope.org)
        .map((c) => ({ c, t: time.get(c.id) }))
        .sort((a, b) => (b.t?.seconds ?? 0) - (a.t?.seconds ?? 0) || a.c.name.localeCompare(b.c.name));
      const body = legacyPage(ctx.query, list.length, (offset, length) =>
        list.slice(offset, offset + length).map(({ c, t }) => ({
          name: c.name,
          course_id: c.course_id,
          time_spent: t?.seconds ?? 0,
          course_start: c.start_date ?? '',
          course_end: c.end_date ?? '',
          average_time: round(t ? t.seconds / t.learners : 0),
        })),
      );
      return { status: 200, body };
    },
    admin,
  );

  // Per course: average active days and average seconds per learner who spent time in it.
  router.get(
    `${A}/engagement/orgs/{org}/activity`,
    (ctx) => {
      const scope = scopeOf(ctx);
      const rows = sql
        .get(
          `SELECT course_pk, avg(days), avg(seconds) FROM (
             SELECT course_pk, user_id, count(*) AS days, sum(seconds) AS seconds FROM learning_time
             WHERE org = @org ${inDepartment(scope, 'user_id')} GROUP BY course_pk, user_id
           ) GROUP BY course_pk`,
        )
        .raw()
        .all(scope) as [number, number, number][];
      const stats = new Map(rows.map(([course, days, seconds]) => [course, { days, seconds }]));
      const list = courses(scope.org);
      const body = legacyPage(ctx.query, list.length, (offset, length) =>
        list.slice(offset, offset + length).map((c) => ({
          course_id: c.course_id,
          course_start: c.start_date ?? '',
          course_end: c.end_date ?? '',
          average_days: Math.round(stats.get(c.id)?.days ?? 0),
          average_time_spent: round(stats.get(c.id)?.seconds),
          name: c.name,
        })),
      );
      return { status: 200, body };
    },
    admin,
  );

  // Mean grade (0–1) of graded enrollments; by course_id and/or learner_id (username or email). Learners may ask
  // for their own average only.
  router.get(`${A}/overview/orgs/{org}/average-grade`, (ctx) => {
    const scope = scopeOf(ctx);
    const caller = ctx.caller!;
    let learner = ctx.query.get('learner_id') || null;
    if (caller.role !== 'admin') {
      if (learner !== null && learner !== caller.username && learner !== caller.email) throw forbidden();
      learner = caller.username;
    }
    const courseId = ctx.query.get('course_id') || null;
    let coursePk: number | null = null;
    if (courseId !== null) {
      coursePk = sql.get('SELECT id FROM courses WHERE org = ? AND course_id = ?').pluck().get(scope.org, courseId) as
        number | null;
      if (coursePk === undefined || coursePk === null) throw notFound('Course not found');
    }
    let userId: number | null = null;
    if (learner !== null) {
      userId = sql
        .get('SELECT id FROM users WHERE org = ? AND (username = ? OR email = ?)')
        .pluck()
        .get(scope.org, learner, learner) as number | null;
      if (userId === undefined || userId === null) throw notFound('User not found');
    }
    const average = sql
      .get(
        `SELECT avg(grade) FROM learning_enrollments WHERE org = @org AND grade IS NOT NULL
         ${coursePk === null ? '' : 'AND course_pk = @course'} ${userId === null ? '' : 'AND user_id = @user'}
         ${inDepartment(scope, 'user_id')}`,
      )
      .pluck()
      .get({ ...scope, course: coursePk, user: userId }) as number | null;
    return { status: 200, body: { data: { average: round(average, 4) } } };
  });

  // Completions per day; users active in the range; completions as a share of enrollments open by the range's end.
  router.get(
    `${A}/overview/orgs/{org}/courses/completions`,
    (ctx) => {
      const scope = scopeOf(ctx);
      const { startMs, endMs } = dayRange(ctx, now()) as { startMs: number; endMs: number };
      const completions = (from: number, to: number) =>
        sql
          .get(
            `SELECT count(*) FROM learning_enrollments WHERE org = @org AND completed_at >= @start AND completed_at < @end
             ${inDepartment(scope, 'user_id')}`,
          )
          .pluck()
          .get({ ...scope, start: dayOf(from), end: dayOf(to) }) as number;
      const rows = sql
        .get(
          `SELECT substr(completed_at, 1, 10) AS day, count(*) FROM learning_enrollments
           WHERE org = @org AND completed_at >= @start AND completed_at < @end ${inDepartment(scope, 'user_id')} GROUP BY day`,
        )
        .raw()
        .all({ ...scope, start: dayOf(startMs), end: dayOf(endMs) }) as [string, number][];
      const series = overtime(new Map(rows), completions, startMs, endMs);
      const enrolled = sql
        .get(
          `SELECT count(*) FROM learning_enrollments WHERE org = @org AND enrolled_at < @end ${inDepartment(scope, 'user_id')}`,
        )
        .pluck()
        .get({ ...scope, end: dayOf(endMs) }) as number;
      return {
        status: 200,
        body: {
          data: {
            overtime: series.data,
            total_user_count: activeUsers(scope)(startMs, endMs),
            completed_count: series.total,
            completed_percent: enrolled ? round((series.total / enrolled) * 100) : 0,
          },
          meta: series.meta,
        },
      };
    },
    admin,
  );

  groupRoutes(router, sql, derived);
}

/** A list query parameter given repeated, comma-separated or as a "['a', 'b']" literal. */
function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.replace(/^\[|\]$/g, '').split(','))
    .map((v) =>
      v
        .trim()
        .replace(/^['"]|['"]$/g, '')
        .toLowerCase(),
    )
    .filter(Boolean);
}

/** Departments and user groups with their members' learning totals (GroupList). */
function groupRoutes(router: Router, sql: StatementCache, derived: DerivedTables): void {
  // A department's members are the users pointing at it (groups not listed are dropped below).
  const members = {
    departments: 'SELECT u.department_id AS group_id, u.id AS user_id FROM users u',
    groups: 'SELECT m.group_id, u.id AS user_id FROM user_group_members m JOIN users u ON u.id = m.user_id',
  };
  const list = (kind: 'departments' | 'groups') => (ctx: RequestContext) => {
    const scope = scopeOf(ctx);
    const q = ctx.query;
    // The learners counted: by join date (dates only), department and whether they are enrolled at all.
    const joined = queryRange(q, { dateTime: false });
    const enrolled = q.get('is_enrolled');
    if (enrolled !== null && enrolled !== '' && !/^(true|false|True|False|1|0)$/.test(enrolled))
      throw badRequest(INVALID_PARAMETERS);
    const memberFilter = [
      "u.org = @org AND u.role = 'student'",
      joined.startMs !== undefined ? 'u.date_joined >= @joinedFrom' : '',
      joined.endMs !== undefined ? 'u.date_joined < @joinedTo' : '',
      scope.department !== null ? 'u.department_id = @department' : '',
      enrolled === null || enrolled === ''
        ? ''
        : `${/^(true|True|1)$/.test(enrolled) ? '' : 'NOT '}EXISTS (SELECT 1 FROM learning_enrollments e WHERE e.user_id = u.id)`,
    ]
      .filter(Boolean)
      .join(' AND ');
    const table = kind === 'departments' ? 'departments' : 'user_groups';
    const wanted = listParam(q, kind === 'departments' ? 'departments' : 'groups');
    const groups = (
      sql.get(`SELECT id, name FROM ${table} WHERE org = ? ORDER BY name, id`).all(scope.org) as {
        id: number;
        name: string;
      }[]
    ).filter((g) => !wanted.length || wanted.includes(g.name.toLowerCase()) || wanted.includes(String(g.id)));
    const params = {
      ...scope,
      joinedFrom: joined.startMs === undefined ? null : new Date(joined.startMs).toISOString(),
      joinedTo: joined.endMs === undefined ? null : new Date(joined.endMs).toISOString(),
    };
    // Each member's totals come from learner_totals: one row per member, not one per enrollment or study day.
    derived.ensure();
    const stats = sql
      .get(
        `WITH members AS (${members[kind]} WHERE ${memberFilter})
         SELECT m.group_id, coalesce(sum(t.enrollments), 0), coalesce(sum(t.completions), 0),
           coalesce(sum(t.passed), 0), coalesce(sum(t.seconds), 0)
         FROM members m LEFT JOIN learner_totals t ON t.user_id = m.user_id GROUP BY m.group_id`,
      )
      .raw()
      .all(params) as [number, number, number, number, number][];
    const byGroup = new Map(stats.map(([id, n, done, passed, seconds]) => [id, { n, done, passed, seconds }]));
    const body = legacyPage(q, groups.length, (offset, length) =>
      groups.slice(offset, offset + length).map((g) => {
        const s = byGroup.get(g.id);
        return {
          id: g.id,
          name: g.name,
          platform: scope.org,
          courses_enrolled: s?.n ?? 0,
          courses_completed: s?.done ?? 0,
          completion_rate: s?.n ? round((s.done / s.n) * 100) : 0,
          // The sandbox has no pathways or skills data; certificates are the passed completions.
          pathways_completed: 0,
          certificates_earned: s?.passed ?? 0,
          skills_points: 0,
          skills_earned: 0,
          time_spent: String(s?.seconds ?? 0),
        };
      }),
    );
    return { status: 200, body };
  };
  router.get(`${A}/departments/orgs/{org}/`, list('departments'), { auth: 'admin' });
  router.get(`${A}/user-groups/orgs/{org}/`, list('groups'), { auth: 'admin' });
}
