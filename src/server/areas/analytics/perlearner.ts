import type { AreaDeps } from '../../area';
import { badRequest, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { DAY_MS, dayOf, INVALID_PARAMETERS, startOfDay } from './dates';
import { dayRange, daysBetween, fullName, round, scopeOf, type LearnerRow, type Scope } from './learning';
import { StatementCache } from './sql';

const BASE = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}';

interface Learner extends LearnerRow {
  department_id: number | null;
  date_joined: string;
}

/**
 * One learner's analytics (the spec's `perlearner/…/users/{user_id}/…`): information, grades per course, time spent
 * per day, average grade and activity per course. `user_id` is a username or an email; learners may read their own
 * (the router refuses anyone else's), admins anyone's. A learner outside the `department_id` asked for is not found.
 * The sandbox keeps no problem, video, location or browser data: those counts are 0 and those fields are absent.
 */
export function perLearnerRoutes(router: Router, deps: AreaDeps): void {
  const sql = new StatementCache(deps.db);
  const own = { auth: 'user' as const };
  const now = () => deps.now().getTime();

  const learnerOf = (ctx: RequestContext): { scope: Scope; learner: Learner } => {
    const scope = scopeOf(ctx);
    const id = ctx.params.user_id!;
    const learner = sql
      .get(
        // By username, else by email: each branch one index lookup (an OR of both would scan the tenant's users).
        `SELECT * FROM (
           SELECT 0 AS rank, id, username, email, first_name, last_name, department_id, date_joined FROM users
           WHERE username = @id AND org = @org
           UNION ALL
           SELECT 1, id, username, email, first_name, last_name, department_id, date_joined FROM users
           WHERE org = @org AND email = @id COLLATE NOCASE
         ) ORDER BY rank LIMIT 1`,
      )
      .get({ org: scope.org, id }) as Learner | undefined;
    if (!learner || (scope.department !== null && learner.department_id !== scope.department)) {
      throw notFound('User not found');
    }
    return { scope, learner };
  };

  /** The optional `course_id` of the tenant (404 'Course not found' when it names none). */
  const courseOf = (ctx: RequestContext, org: string): number | null => {
    const courseId = ctx.query.get('course_id');
    if (!courseId) return null;
    const pk = sql.get('SELECT id FROM courses WHERE org = ? AND course_id = ?').pluck().get(org, courseId) as
      number | undefined;
    if (pk === undefined) throw notFound('Course not found');
    return pk;
  };

  /** Seconds per day in [startMs, endMs), every day present (0 when nothing was recorded), and their total. */
  const timeOverTime = (learner: Learner, org: string, startMs: number, endMs: number, course: number | null) => {
    const rows = sql
      .get(
        `SELECT day, sum(seconds) FROM learning_time WHERE user_id = @user AND day >= @start AND day < @end
         AND org = @org ${course === null ? '' : 'AND course_pk = @course'} GROUP BY day`,
      )
      .raw()
      .all({ user: learner.id, org, start: dayOf(startMs), end: dayOf(endMs), course }) as [string, number][];
    const perDay = new Map(rows);
    const data = Object.fromEntries(daysBetween(startMs, endMs).map((day) => [day, perDay.get(day) ?? 0]));
    return { data, total: rows.reduce((sum, [, seconds]) => sum + seconds, 0) };
  };

  // LearnerInformationAPI: profile, registration, last activity, total time and completions; with `meta`, also the
  // time spent per day over the last 7 days (today included).
  router.get(
    `${BASE}/info`,
    (ctx) => {
      const meta = ctx.query.get('meta');
      if (meta !== null && !/^(y|yes|true|True|n|no|false|False)$/.test(meta)) throw badRequest(INVALID_PARAMETERS);
      const { scope, learner } = learnerOf(ctx);
      const lastDay = sql
        .get('SELECT max(day) FROM learning_activity WHERE user_id = ? AND org = ?')
        .pluck()
        .get(learner.id, scope.org) as string | null;
      const seconds = sql
        .get('SELECT coalesce(sum(seconds), 0) FROM learning_time WHERE user_id = ? AND org = ?')
        .pluck()
        .get(learner.id, scope.org) as number;
      const completions = sql
        .get('SELECT count(completed_at) FROM learning_enrollments WHERE user_id = ? AND org = ?')
        .pluck()
        .get(learner.id, scope.org) as number;
      const today = startOfDay(now());
      return {
        status: 200,
        body: {
          data: {
            username: learner.username,
            name: fullName(learner),
            email: learner.email,
            date_joined: learner.date_joined,
            last_activity: lastDay ? `${lastDay}T00:00:00+00:00` : '',
            total_time_spent: seconds,
            course_completions: completions,
            ...(meta !== null && /^(y|yes|true|True)$/.test(meta)
              ? { time_spent_overtime: timeOverTime(learner, scope.org, today - 6 * DAY_MS, today + DAY_MS, null).data }
              : {}),
          },
        },
      };
    },
    own,
  );

  // PerlearnerGradingPerCourseAPI: every enrollment with the learner's grade (0–1; 0 before any grade) and the
  // course's average over its graded enrollments (the department's learners only, when one is asked for).
  router.get(
    `${BASE}/grades/per-course`,
    (ctx) => {
      const { scope, learner } = learnerOf(ctx);
      const rows = sql
        .get(
          `SELECT c.course_id, c.name, e.grade,
             (SELECT avg(x.grade) FROM learning_enrollments x WHERE x.course_pk = e.course_pk AND x.grade IS NOT NULL
              ${scope.department === null ? '' : 'AND x.user_id IN (SELECT id FROM users WHERE org = @org AND department_id = @department)'}
             ) AS class_average
           FROM learning_enrollments e JOIN courses c ON c.id = e.course_pk
           WHERE e.user_id = @user AND e.org = @org ORDER BY c.name, c.course_id`,
        )
        .all({ ...scope, user: learner.id }) as {
        course_id: string;
        name: string;
        grade: number | null;
        class_average: number | null;
      }[];
      return {
        status: 200,
        body: {
          data: rows.map((r) => ({
            course_id: r.course_id,
            name: r.name,
            graded_activities: '0',
            submissions: 0,
            problems_attempted: 0,
            assignments_correct: 0,
            class_average: round(r.class_average, 4),
            grade: round(r.grade, 4),
          })),
        },
      };
    },
    own,
  );

  // OverTimeWithTotal: seconds spent per day in [start_date, end_date] (the last 7 days, today included, by default),
  // in one course when `course_id` is given.
  router.get(
    `${BASE}/overview/time/over-time`,
    (ctx) => {
      const { scope, learner } = learnerOf(ctx);
      const { startMs, endMs } = dayRange(ctx, now()) as { startMs: number; endMs: number };
      const course = courseOf(ctx, scope.org);
      return { status: 200, body: timeOverTime(learner, scope.org, startMs, endMs, course) };
    },
    own,
  );

  // Average: the learner's mean grade (0–1) over graded enrollments, in one course when `course_id` is given.
  router.get(
    `${BASE}/overview/grades/average`,
    (ctx) => {
      const { scope, learner } = learnerOf(ctx);
      const course = courseOf(ctx, scope.org);
      const average = sql
        .get(
          `SELECT avg(grade) FROM learning_enrollments WHERE user_id = @user AND org = @org AND grade IS NOT NULL
           ${course === null ? '' : 'AND course_pk = @course'}`,
        )
        .pluck()
        .get({ user: learner.id, org: scope.org, course }) as number | null;
      return { status: 200, body: { data: { average: round(average, 4) } } };
    },
    own,
  );

  // ActivityAPI: each course the learner is enrolled in or spent time in, with their time, active days, last access
  // and the course's average time per learner who spent time in it.
  router.get(
    `${BASE}/activity/`,
    (ctx) => {
      const { scope, learner } = learnerOf(ctx);
      const rows = sql
        .get(
          `WITH mine AS (
             SELECT course_pk, sum(seconds) AS seconds, count(*) AS days, max(day) AS last FROM learning_time
             WHERE user_id = @user AND org = @org GROUP BY course_pk
           ), courses_of AS (
             SELECT course_pk FROM learning_enrollments WHERE user_id = @user AND org = @org
             UNION SELECT course_pk FROM mine
           )
           SELECT c.course_id, c.name, c.start_date, c.end_date, coalesce(m.seconds, 0) AS seconds,
             coalesce(m.days, 0) AS days, m.last,
             (SELECT avg(total) FROM (SELECT sum(t.seconds) AS total FROM learning_time t
               WHERE t.org = @org AND t.course_pk = c.id GROUP BY t.user_id)) AS average
           FROM courses_of o JOIN courses c ON c.id = o.course_pk LEFT JOIN mine m ON m.course_pk = o.course_pk
           ORDER BY c.name, c.course_id`,
        )
        .all({ user: learner.id, org: scope.org }) as {
        course_id: string;
        name: string;
        start_date: string | null;
        end_date: string | null;
        seconds: number;
        days: number;
        last: string | null;
        average: number | null;
      }[];
      const today = startOfDay(now());
      const data = rows.map((r) => ({
        course_id: r.course_id,
        name: r.name,
        course_start: r.start_date ?? '',
        course_end: r.end_date ?? '',
        average_time_invested: round(r.average),
        time_invested: r.seconds,
        days_away: r.last === null ? '' : String(Math.round((today - Date.parse(r.last)) / DAY_MS)),
        last_access_date: r.last ?? '',
        days_accessed: r.days,
      }));
      return { status: 200, body: { data, total: data.length } };
    },
    own,
  );
}
