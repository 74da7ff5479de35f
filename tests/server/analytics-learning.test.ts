import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { call, type Call, sandbox, sandboxQueries } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const A = '/api/ai-analytics/';
const DAY = 86_400_000;
let server: Sandbox;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea] });
});

/** GET `/api/ai-analytics/<op with {org}>`, checked against the spec's 200 schema for that operation. */
async function ok<T>(op: string, query = '', key?: string): Promise<T> {
  const res = await call(
    server,
    'GET',
    `${A}${op.replace('{org}', server.org)}${query ? `?${query}` : ''}`,
    key ? { key } : {},
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSpecValid('get', A + op, 200, res.body);
  return res.body as T;
}
const raw = (op: string, query = '', options: { key?: string | null; org?: string } = {}): Promise<Call> =>
  call(
    server,
    'GET',
    `${A}${op.replace('{org}', options.org ?? server.org)}${query ? `?${query}` : ''}`,
    options.key === undefined ? {} : { key: options.key },
  );
const { scalar, rows } = sandboxQueries(() => server);

interface Overtime {
  data: Record<string, number>;
  total: number;
  meta: { total: number; change_range: number; change_last_seven_days: number; change_last_thirty_days: number };
}
interface Legacy<T> {
  data: T[];
  pagination: { totalItems: number; currentPage: number; perPage: number; totalPages: number };
}

/** Who did anything on a day, computed from the raw chat and course-time rows (not the activity table). */
const activeOn = (from: string, to: string) =>
  rows<{ day: string; n: number }>(
    `SELECT day, count(DISTINCT user_id) AS n FROM (
       SELECT substr(started_at, 1, 10) AS day, user_id FROM chat_sessions WHERE org = 'northbridge'
       UNION ALL SELECT day, user_id FROM learning_time WHERE org = 'northbridge'
     ) WHERE day >= ? AND day < ? GROUP BY day`,
    from,
    to,
  );

describe('audience and overview series', () => {
  it('counts active users per day with range changes (overview and audience paths agree)', async () => {
    const query = 'start_date=2026-10-01&end_date=2026-10-14';
    const body = await ok<Overtime>('overview/orgs/{org}/active-users', query);
    expect(Object.keys(body.data)).toHaveLength(14);
    expect(Object.entries(body.data).map(([day, n]) => ({ day, n }))).toEqual(activeOn('2026-10-01', '2026-10-15'));
    const distinct = (from: string, to: string) =>
      scalar(
        `SELECT count(DISTINCT user_id) FROM (SELECT substr(started_at, 1, 10) AS day, user_id FROM chat_sessions WHERE org = 'northbridge'
         UNION ALL SELECT day, user_id FROM learning_time WHERE org = 'northbridge') WHERE day >= ? AND day < ?`,
        from,
        to,
      );
    expect(body.total).toBe(distinct('2026-10-01', '2026-10-15'));
    expect(body.meta.total).toBe(body.total);
    expect(body.meta.change_range).toBe(body.total - distinct('2026-09-17', '2026-10-01'));
    expect(body.meta.change_last_seven_days).toBe(
      distinct('2026-10-08', '2026-10-15') - distinct('2026-10-01', '2026-10-08'),
    );
    expect(await ok<Overtime>('audience/orgs/{org}/active-users/over-time', query)).toEqual(body);
    // With no dates: the last 7 days, today included.
    const recent = await ok<Overtime>('audience/orgs/{org}/active-users/over-time');
    const today = new Date(Math.floor(Date.now() / DAY) * DAY).toISOString().slice(0, 10);
    expect(Object.keys(recent.data)).toHaveLength(7);
    expect(Object.keys(recent.data).at(-1)).toBe(today);
    const engineering = await ok<Overtime>('overview/orgs/{org}/active-users', `${query}&department_id=1`);
    expect(engineering.total).toBeLessThan(body.total);
    expect(engineering.total).toBe(
      scalar(
        `SELECT count(DISTINCT a.user_id) FROM learning_activity a JOIN users u ON u.id = a.user_id
         WHERE a.org = 'northbridge' AND u.department_id = 1 AND a.day >= '2026-10-01' AND a.day < '2026-10-15'`,
      ),
    );
  });

  it('counts registrations per day', async () => {
    const body = await ok<Overtime>(
      'overview/orgs/{org}/registered-users',
      'start_date=2026-09-01T00:00:00Z&end_date=2026-09-30T23:59:59Z',
    );
    expect(Object.keys(body.data)).toHaveLength(30);
    expect(body.total).toBe(
      scalar(
        "SELECT count(*) FROM users WHERE org = 'northbridge' AND date_joined >= '2026-09-01' AND date_joined < '2026-10-01'",
      ),
    );
    const perDay = rows<{ day: string; n: number }>(
      `SELECT substr(date_joined, 1, 10) AS day, count(*) AS n FROM users WHERE org = 'northbridge'
       AND date_joined >= '2026-09-01' AND date_joined < '2026-10-01' GROUP BY day`,
    );
    for (const { day, n } of perDay) expect(body.data[day]).toBe(n);
    expect(
      await ok<Overtime>('audience/orgs/{org}/registered-users/over-time', 'start_date=2026-09-01&end_date=2026-09-30'),
    ).toEqual(body);
  });

  it('summarises completions over time against enrollments', async () => {
    const body = await ok<{
      data: {
        overtime: Record<string, number>;
        total_user_count: number;
        completed_count: number;
        completed_percent: number;
      };
      meta: { total: number };
    }>('overview/orgs/{org}/courses/completions', 'start_date=2026-10-01&end_date=2026-10-31');
    const completed = scalar(
      "SELECT count(*) FROM learning_enrollments WHERE org = 'northbridge' AND completed_at >= '2026-10-01' AND completed_at < '2026-11-01'",
    );
    const enrolled = scalar(
      "SELECT count(*) FROM learning_enrollments WHERE org = 'northbridge' AND enrolled_at < '2026-11-01'",
    );
    expect(body.data.completed_count).toBe(completed);
    expect(Object.values(body.data.overtime).reduce((s, n) => s + n, 0)).toBe(completed);
    expect(body.data.completed_percent).toBeCloseTo((completed / enrolled) * 100, 2);
    expect(body.data.total_user_count).toBe(activeOnRange('2026-10-01', '2026-11-01'));
    expect(body.meta.total).toBe(completed);
  });
});

const activeOnRange = (from: string, to: string) =>
  scalar(
    "SELECT count(DISTINCT user_id) FROM learning_activity WHERE org = 'northbridge' AND day >= ? AND day < ?",
    from,
    to,
  );

interface LearnerRow {
  username: string;
  full_name: string;
  enrollments: number;
  completions: number;
  last_active: string;
  time_spent: string;
  engagement_index: number;
  performance_index: number;
}

describe('learner lists', () => {
  it('pages every learner with enrollments, completions, time and indexes from SQL', async () => {
    const page = await ok<Legacy<LearnerRow>>('overview/orgs/{org}/learners', 'page=3&length=25');
    const students = scalar("SELECT count(*) FROM users WHERE org = 'northbridge' AND role = 'student'");
    expect(page.pagination).toEqual({
      totalItems: students,
      currentPage: 3,
      perPage: 25,
      totalPages: Math.ceil(students / 25),
    });
    const usernames = server.db
      .prepare(
        "SELECT username FROM users WHERE org = 'northbridge' AND role = 'student' ORDER BY username LIMIT 25 OFFSET 50",
      )
      .pluck()
      .all();
    expect(page.data.map((l) => l.username)).toEqual(usernames);
    for (const learner of page.data) {
      const id = scalar('SELECT id FROM users WHERE username = ?', learner.username);
      expect(learner.enrollments).toBe(scalar('SELECT count(*) FROM learning_enrollments WHERE user_id = ?', id));
      expect(learner.completions).toBe(
        scalar('SELECT count(completed_at) FROM learning_enrollments WHERE user_id = ?', id),
      );
      expect(learner.time_spent).toBe(
        String(scalar('SELECT coalesce(sum(seconds), 0) FROM learning_time WHERE user_id = ?', id)),
      );
      expect(learner.last_active).toBe(
        scalar("SELECT coalesce(max(day), '') FROM learning_activity WHERE user_id = ?", id),
      );
      const grade = scalar<number | null>('SELECT avg(grade) FROM learning_enrollments WHERE user_id = ?', id);
      expect(learner.performance_index).toBeCloseTo((grade ?? 0) * 100, 1);
      expect(learner.engagement_index).toBeGreaterThanOrEqual(0);
      expect(learner.engagement_index).toBeLessThanOrEqual(100);
    }
    const registered = await ok<Legacy<LearnerRow>>('audience/orgs/{org}/registered-users/', 'page=3&length=25');
    expect(registered).toEqual(page);
  });

  it('searches learners and filters them by department', async () => {
    const found = await ok<Legacy<LearnerRow>>('overview/orgs/{org}/learners', 'search=learner001&length=100');
    expect(found.pagination.totalItems).toBe(10);
    expect(found.data.every((l) => l.username.startsWith('learner001'))).toBe(true);
    const department = await ok<Legacy<LearnerRow>>(
      'audience/orgs/{org}/registered-users/',
      'department_id=2&length=5',
    );
    expect(department.pagination.totalItems).toBe(
      scalar("SELECT count(*) FROM users WHERE org = 'northbridge' AND role = 'student' AND department_id = 2"),
    );
    const beyond = await ok<Legacy<LearnerRow>>('overview/orgs/{org}/learners', 'page=9999&length=50');
    expect(beyond.data).toEqual([]);
  });

  it('lists learners active in a range, most active first', async () => {
    const body = await ok<
      Legacy<{ username: string; name: string; engagement_index: number; performance_index: number }>
    >('audience/orgs/{org}/active-users/users', 'start_date=2026-10-01&end_date=2026-10-10&length=20');
    const expected = rows<{ username: string; days: number }>(
      `SELECT u.username, count(*) AS days FROM learning_activity a JOIN users u ON u.id = a.user_id
       WHERE a.org = 'northbridge' AND a.day >= '2026-10-01' AND a.day < '2026-10-11'
       GROUP BY a.user_id ORDER BY days DESC, a.user_id`,
    );
    expect(body.pagination.totalItems).toBe(expected.length);
    expect(body.data.map((d) => d.username)).toEqual(expected.slice(0, 20).map((e) => e.username));
    body.data.forEach((d, i) => expect(d.engagement_index).toBeCloseTo((expected[i]!.days / 10) * 100, 1));
  });
});

describe('courses', () => {
  interface CourseTime {
    name: string;
    course_id: string;
    time_spent: number;
    course_start: string;
    course_end: string;
    average_time: number;
  }

  it('ranks courses by time spent in a range', async () => {
    const body = await ok<Legacy<CourseTime>>(
      'overview/orgs/{org}/most-active-courses',
      'start_date=2026-09-01&end_date=2026-09-30&length=5',
    );
    expect(body.pagination.totalItems).toBe(40);
    const expected = rows<{ course_id: string; seconds: number; learners: number }>(
      `SELECT c.course_id, sum(t.seconds) AS seconds, count(DISTINCT t.user_id) AS learners FROM learning_time t JOIN courses c ON c.id = t.course_pk
       WHERE t.org = 'northbridge' AND t.day >= '2026-09-01' AND t.day < '2026-10-01' GROUP BY c.id ORDER BY seconds DESC LIMIT 5`,
    );
    expect(body.data.map((c) => [c.course_id, c.time_spent])).toEqual(expected.map((e) => [e.course_id, e.seconds]));
    body.data.forEach((c, i) => expect(c.average_time).toBeCloseTo(expected[i]!.seconds / expected[i]!.learners, 2));
    expect(body.data[0]!.course_id).toMatch(/^course-v1:northbridge\+[A-Z]+\d+\+2026$/);
  });

  it('reports per-course engagement', async () => {
    const body = await ok<
      Legacy<{ course_id: string; average_days: number; average_time_spent: number; name: string }>
    >('engagement/orgs/{org}/activity', 'length=50');
    expect(body.data).toHaveLength(40);
    const expected = new Map(
      rows<{ course_id: string; days: number; seconds: number }>(
        `SELECT c.course_id, avg(days) AS days, avg(seconds) AS seconds FROM (
           SELECT course_pk, user_id, count(*) AS days, sum(seconds) AS seconds FROM learning_time GROUP BY course_pk, user_id
         ) x JOIN courses c ON c.id = x.course_pk WHERE c.org = 'northbridge' GROUP BY c.id`,
      ).map((r) => [r.course_id, r]),
    );
    for (const course of body.data) {
      expect(course.average_days).toBe(Math.round(expected.get(course.course_id)!.days));
      expect(course.average_time_spent).toBeCloseTo(expected.get(course.course_id)!.seconds, 1);
    }
  });

  it('averages grades for the tenant, a course or a learner; learners see only their own', async () => {
    const all = await ok<{ data: { average: number } }>('overview/orgs/{org}/average-grade');
    expect(all.data.average).toBeCloseTo(
      scalar("SELECT avg(grade) FROM learning_enrollments WHERE org = 'northbridge'"),
      4,
    );
    const course = scalar<string>("SELECT course_id FROM courses WHERE org = 'northbridge' ORDER BY id LIMIT 1");
    const byCourse = await ok<{ data: { average: number } }>(
      'overview/orgs/{org}/average-grade',
      `course_id=${encodeURIComponent(course)}`,
    );
    expect(byCourse.data.average).toBeCloseTo(
      scalar(
        'SELECT avg(e.grade) FROM learning_enrollments e JOIN courses c ON c.id = e.course_pk WHERE c.course_id = ?',
        course,
      ),
      4,
    );
    const own = scalar<number | null>(
      "SELECT avg(e.grade) FROM learning_enrollments e JOIN users u ON u.id = e.user_id WHERE u.username = 'learner0001'",
    );
    const mine = await ok<{ data: { average: number } }>('overview/orgs/{org}/average-grade', '', server.studentKey);
    expect(mine.data.average).toBeCloseTo(own ?? 0, 4);
    const asAdmin = await ok<{ data: { average: number } }>(
      'overview/orgs/{org}/average-grade',
      'learner_id=learner0001',
    );
    expect(asAdmin).toEqual(mine);
    expect(
      (await raw('overview/orgs/{org}/average-grade', 'learner_id=learner0002', { key: server.studentKey })).status,
    ).toBe(403);
    expect(await raw('overview/orgs/{org}/average-grade', 'course_id=course-v1:nowhere+X+1')).toMatchObject({
      status: 404,
      body: { detail: 'Course not found' },
    });
    expect(await raw('overview/orgs/{org}/average-grade', 'learner_id=nobody')).toMatchObject({
      status: 404,
      body: { detail: 'User not found' },
    });
  });
});

describe('groups', () => {
  interface Group {
    id: number;
    name: string;
    platform: string;
    courses_enrolled: number;
    courses_completed: number;
    completion_rate: number;
    certificates_earned: number;
    time_spent: string;
  }

  it('reports each department’s learning totals', async () => {
    const body = await ok<Legacy<Group>>('departments/orgs/{org}/');
    const expected = rows<{ id: number; name: string; n: number; done: number; passed: number }>(
      `SELECT d.id, d.name, count(e.id) AS n, count(e.completed_at) AS done, coalesce(sum(e.passed), 0) AS passed
       FROM departments d JOIN users u ON u.department_id = d.id AND u.role = 'student'
       LEFT JOIN learning_enrollments e ON e.user_id = u.id WHERE d.org = 'northbridge' GROUP BY d.id ORDER BY d.name`,
    );
    expect(body.pagination.totalItems).toBe(4);
    expect(
      body.data.map((g) => [g.id, g.name, g.courses_enrolled, g.courses_completed, g.certificates_earned]),
    ).toEqual(expected.map((e) => [e.id, e.name, e.n, e.done, e.passed]));
    for (const g of body.data) {
      expect(g.platform).toBe(server.org);
      expect(g.completion_rate).toBeCloseTo((g.courses_completed / g.courses_enrolled) * 100, 2);
      expect(g.time_spent).toBe(
        String(
          scalar(
            'SELECT sum(t.seconds) FROM learning_time t JOIN users u ON u.id = t.user_id WHERE u.department_id = ?',
            g.id,
          ),
        ),
      );
    }
    const filtered = await ok<Legacy<Group>>('departments/orgs/{org}/', 'departments=Business&departments=medicine');
    expect(filtered.data.map((g) => g.name)).toEqual(['Business', 'Medicine']);
    const joined = await ok<Legacy<Group>>('departments/orgs/{org}/', 'start_date=2026-10-01&end_date=2026-10-31');
    expect(joined.data.reduce((s, g) => s + g.courses_enrolled, 0)).toBe(
      scalar(
        `SELECT count(*) FROM learning_enrollments e JOIN users u ON u.id = e.user_id
         WHERE u.org = 'northbridge' AND u.date_joined >= '2026-10-01' AND u.date_joined < '2026-11-01'`,
      ),
    );
  });

  it('reports each user group’s learning totals', async () => {
    const body = await ok<Legacy<Group>>('user-groups/orgs/{org}/', 'length=10');
    expect(body.data.map((g) => g.name)).toEqual(['Cohort 2026', 'Teaching assistants']);
    for (const g of body.data) {
      expect(g.courses_enrolled).toBe(
        scalar(
          'SELECT count(*) FROM learning_enrollments e JOIN user_group_members m ON m.user_id = e.user_id WHERE m.group_id = ?',
          g.id,
        ),
      );
      expect(g.courses_enrolled).toBeGreaterThan(0);
    }
    const one = await ok<Legacy<Group>>('user-groups/orgs/{org}/', "groups=['Teaching assistants']");
    expect(one.data.map((g) => g.name)).toEqual(['Teaching assistants']);
  });
});

describe('errors, roles and tenancy', () => {
  const ops = [
    'overview/orgs/{org}/active-users',
    'overview/orgs/{org}/registered-users',
    'overview/orgs/{org}/learners',
    'overview/orgs/{org}/most-active-courses',
    'overview/orgs/{org}/courses/completions',
    'audience/orgs/{org}/active-users/over-time',
    'audience/orgs/{org}/active-users/users',
    'audience/orgs/{org}/registered-users/',
    'audience/orgs/{org}/registered-users/over-time',
    'engagement/orgs/{org}/activity',
    'departments/orgs/{org}/',
    'user-groups/orgs/{org}/',
  ];

  it('refuses students (403), other tenants (404) and anonymous callers (401)', async () => {
    for (const op of [...ops, 'overview/orgs/{org}/average-grade']) {
      if (!op.endsWith('average-grade')) expect((await raw(op, '', { key: server.studentKey })).status, op).toBe(403);
      expect(await raw(op, '', { org: server.otherOrg.org }), op).toMatchObject({
        status: 404,
        body: { detail: 'Organization not found' },
      });
      expect((await raw(op, '', { key: null })).status, op).toBe(401);
    }
    // The other tenant's admin sees its own (small) tenant only.
    const other = await call(server, 'GET', `${A}overview/orgs/${server.otherOrg.org}/most-active-courses?length=50`, {
      key: server.otherOrg.apiKey,
    });
    expect((other.body as Legacy<{ course_id: string }>).data.map((c) => c.course_id.split('+')[0])).toEqual([
      `course-v1:${server.otherOrg.org}`,
      `course-v1:${server.otherOrg.org}`,
    ]);
  });

  it('rejects malformed dates, formats and departments', async () => {
    const dated = ops.filter((op) => !/learners|registered-users\/$|activity/.test(op));
    for (const op of dated) {
      expect(await raw(op, 'start_date=2026-99-01'), op).toMatchObject({
        status: 400,
        body: { detail: 'Invalid date format' },
      });
    }
    expect(await raw('overview/orgs/{org}/active-users', 'start_date=2026-10-09&end_date=2026-10-01')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid date format' },
    });
    expect(await raw('overview/orgs/{org}/learners', 'format=csv')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid parameters' },
    });
    expect(await raw('overview/orgs/{org}/learners', 'department_id=engineering')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid parameters' },
    });
    expect(await raw('overview/orgs/{org}/learners', 'include_main_platform=maybe')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid parameters' },
    });
    expect((await raw('overview/orgs/{org}/learners', 'format=json&include_main_platform=false')).status).toBe(200);
    expect((await raw('overview/orgs/{org}/learners', 'length=ten')).status).toBe(400);
    expect(await raw('departments/orgs/{org}/', 'start_date=2026-10-01T00:00:00Z')).toMatchObject({
      status: 400,
      body: { detail: 'Invalid date format' },
    });
  });
});
