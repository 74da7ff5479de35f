import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { call, type Call, sandbox, sandboxQueries } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

/** The per-learner endpoints against the spec's response schemas and the same figures computed here in SQL. */
const P = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/';
const DAY = 86_400_000;
let server: Sandbox;
let learner: { id: number; username: string; email: string; department_id: number; date_joined: string };

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea] });
  // A learner (not the sandbox's student) with graded and ungraded enrollments and study time.
  learner = server.db
    .prepare(
      `SELECT u.id, u.username, u.email, u.department_id, u.date_joined FROM users u
       WHERE u.org = 'northbridge' AND u.role = 'student' AND u.username <> ?
       AND (SELECT count(grade) FROM learning_enrollments e WHERE e.user_id = u.id) >= 2
       AND EXISTS (SELECT 1 FROM learning_enrollments e WHERE e.user_id = u.id AND e.grade IS NULL)
       ORDER BY u.id LIMIT 1`,
    )
    .get(server.studentUser) as typeof learner;
});

const path = (op: string, user = learner.username, org = server.org) =>
  `${P}${op}`.replace('{org}', org).replace('{user_id}', encodeURIComponent(user));
const raw = (op: string, query = '', options: { user?: string; key?: string | null; org?: string } = {}) =>
  call(
    server,
    'GET',
    `${path(op, options.user, options.org)}${query ? `?${query}` : ''}`,
    options.key === undefined ? {} : { key: options.key },
  );
/** A 200 answer, checked against the spec's schema for the operation. */
async function ok<T>(op: string, query = '', options: { user?: string; key?: string | null } = {}): Promise<T> {
  const res: Call = await raw(op, query, options);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSpecValid('get', P + op, 200, res.body);
  return res.body as T;
}
const { scalar, rows } = sandboxQueries(() => server);

describe('per-learner analytics', () => {
  it('tells who the learner is, by username or email', async () => {
    const body = await ok<{ data: Record<string, unknown> }>('info');
    expect(body.data).toEqual({
      username: learner.username,
      name: scalar("SELECT first_name || ' ' || last_name FROM users WHERE id = ?", learner.id),
      email: learner.email,
      date_joined: learner.date_joined,
      last_activity: `${scalar<string>('SELECT max(day) FROM learning_activity WHERE user_id = ?', learner.id)}T00:00:00+00:00`,
      total_time_spent: scalar('SELECT sum(seconds) FROM learning_time WHERE user_id = ?', learner.id),
      course_completions: scalar('SELECT count(completed_at) FROM learning_enrollments WHERE user_id = ?', learner.id),
    });
    expect(await ok('info', '', { user: learner.email.toUpperCase() })).toEqual(body);
    const meta = await ok<{ data: { time_spent_overtime: Record<string, number> } }>('info', 'meta=yes');
    const days = Object.keys(meta.data.time_spent_overtime);
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toBe(new Date(Math.floor(Date.now() / DAY) * DAY).toISOString().slice(0, 10));
    expect(await raw('info', 'meta=maybe')).toMatchObject({ status: 400, body: { detail: 'Invalid parameters' } });
  });

  it('lists grades per course with the class average', async () => {
    const body = await ok<{ data: { course_id: string; name: string; grade: number; class_average: number }[] }>(
      'grades/per-course',
    );
    const expected = rows<{ course_id: string; name: string; grade: number | null; average: number }>(
      `SELECT c.course_id, c.name, e.grade,
         (SELECT avg(x.grade) FROM learning_enrollments x WHERE x.course_pk = c.id AND x.grade IS NOT NULL) AS average
       FROM learning_enrollments e JOIN courses c ON c.id = e.course_pk WHERE e.user_id = ? ORDER BY c.name`,
      learner.id,
    );
    expect(body.data.map((g) => [g.course_id, g.name])).toEqual(expected.map((e) => [e.course_id, e.name]));
    body.data.forEach((g, i) => {
      expect(g.grade).toBeCloseTo(expected[i]!.grade ?? 0, 4);
      expect(g.class_average).toBeCloseTo(expected[i]!.average, 4);
    });
    const average = await ok<{ data: { average: number } }>('overview/grades/average');
    expect(average.data.average).toBeCloseTo(
      scalar('SELECT avg(grade) FROM learning_enrollments WHERE user_id = ?', learner.id),
      4,
    );
    const course = expected.find((e) => e.grade !== null)!;
    const inCourse = await ok<{ data: { average: number } }>(
      'overview/grades/average',
      `course_id=${encodeURIComponent(course.course_id)}`,
    );
    expect(inCourse.data.average).toBeCloseTo(course.grade!, 4);
  });

  it('counts time spent per day over a range, in all courses or one', async () => {
    const [first, last] = [
      scalar<string>('SELECT min(day) FROM learning_time WHERE user_id = ?', learner.id),
      scalar<string>('SELECT max(day) FROM learning_time WHERE user_id = ?', learner.id),
    ];
    const body = await ok<{ data: Record<string, number>; total: number }>(
      'overview/time/over-time',
      `start_date=${first}&end_date=${last}`,
    );
    const perDay = rows<{ day: string; seconds: number }>(
      'SELECT day, sum(seconds) AS seconds FROM learning_time WHERE user_id = ? GROUP BY day ORDER BY day',
      learner.id,
    );
    expect(Object.keys(body.data)).toHaveLength((Date.parse(last) - Date.parse(first)) / DAY + 1);
    expect(Object.entries(body.data).filter(([, s]) => s > 0)).toEqual(perDay.map((d) => [d.day, d.seconds]));
    expect(body.total).toBe(perDay.reduce((s, d) => s + d.seconds, 0));
    const course = scalar<string>(
      'SELECT c.course_id FROM learning_time t JOIN courses c ON c.id = t.course_pk WHERE t.user_id = ? LIMIT 1',
      learner.id,
    );
    const one = await ok<{ total: number }>(
      'overview/time/over-time',
      `start_date=${first}&end_date=${last}&course_id=${encodeURIComponent(course)}`,
    );
    expect(one.total).toBe(
      scalar(
        'SELECT sum(t.seconds) FROM learning_time t JOIN courses c ON c.id = t.course_pk WHERE t.user_id = ? AND c.course_id = ?',
        learner.id,
        course,
      ),
    );
    // The last 7 days (today included) by default.
    const recent = await ok<{ data: Record<string, number> }>('overview/time/over-time');
    expect(Object.keys(recent.data)).toHaveLength(7);
    expect(await raw('overview/time/over-time', 'start_date=2026-13-01')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid date format' },
    });
    expect(await raw('overview/time/over-time', 'start_date=2026-10-09&end_date=2026-10-01')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid date format' },
    });
    expect(await raw('overview/time/over-time', 'course_id=course-v1:nowhere+X+1')).toMatchObject({
      status: 404,
      body: { detail: 'Course not found' },
    });
  });

  it('reports activity per course', async () => {
    const body = await ok<{
      data: {
        course_id: string;
        time_invested: number;
        days_accessed: number;
        last_access_date: string;
        average_time_invested: number;
      }[];
      total: number;
    }>('activity/');
    const expected = rows<{ course_id: string; seconds: number; days: number; last: string; average: number }>(
      `SELECT c.course_id, coalesce(m.seconds, 0) AS seconds, coalesce(m.days, 0) AS days, coalesce(m.last, '') AS last,
         (SELECT avg(s) FROM (SELECT sum(seconds) AS s FROM learning_time WHERE course_pk = c.id GROUP BY user_id)) AS average
       FROM courses c LEFT JOIN (SELECT course_pk, sum(seconds) AS seconds, count(*) AS days, max(day) AS last
         FROM learning_time WHERE user_id = ? GROUP BY course_pk) m ON m.course_pk = c.id
       WHERE c.id IN (SELECT course_pk FROM learning_enrollments WHERE user_id = ?) ORDER BY c.name`,
      learner.id,
      learner.id,
    );
    expect(body.total).toBe(expected.length);
    expect(body.data.map((c) => [c.course_id, c.time_invested, c.days_accessed, c.last_access_date])).toEqual(
      expected.map((e) => [e.course_id, e.seconds, e.days, e.last]),
    );
    body.data.forEach((c, i) => expect(c.average_time_invested).toBeCloseTo(expected[i]!.average ?? 0, 2));
  });

  const ops = ['info', 'grades/per-course', 'overview/time/over-time', 'overview/grades/average', 'activity/'];

  it('lets learners read their own figures only; refuses other tenants and anonymous callers', async () => {
    for (const op of ops) {
      expect((await raw(op, '', { user: server.studentUser, key: server.studentKey })).status, op).toBe(200);
      expect((await raw(op, '', { key: server.studentKey })).status, op).toBe(403);
      expect((await raw(op, '', { key: null })).status, op).toBe(401);
      expect(await raw(op, '', { org: server.otherOrg.org }), op).toMatchObject({
        status: 404,
        body: { detail: 'Organization not found' },
      });
    }
  });

  it('answers 404 for unknown learners and learners outside the department, 400 for bad parameters', async () => {
    const elsewhere = scalar<number>(
      'SELECT id FROM departments WHERE id <> ? ORDER BY id LIMIT 1',
      learner.department_id,
    );
    for (const op of ops) {
      expect(await raw(op, '', { user: 'nobody' }), op).toMatchObject({
        status: 404,
        body: { detail: 'User not found' },
      });
      expect(await raw(op, `department_id=${elsewhere}`), op).toMatchObject({
        status: 404,
        body: { detail: 'User not found' },
      });
      expect((await raw(op, `department_id=${learner.department_id}`)).status, op).toBe(200);
      expect(await raw(op, 'format=csv'), op).toMatchObject({ status: 400, body: { detail: 'Invalid parameters' } });
    }
  });
});
