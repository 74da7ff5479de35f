import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { DERIVED_VERSION, rebuildDerived } from '../../src/server/areas/analytics/derived';
import { call, sandbox, sandboxQueries } from '../helpers/sandbox';

/**
 * The derived learning tables (each learner's totals; active days by the previous active day) answer departments,
 * user groups and active-user counts. They must stay equal to a rebuild from the raw rows after any later write, and
 * the answers equal to the same figures counted from the raw rows.
 */
let server: Sandbox;
const A = '/api/ai-analytics';

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea] });
});

const { scalar } = sandboxQueries(() => server);
const derivedRows = () => ({
  totals: server.db.prepare('SELECT * FROM learner_totals WHERE enrollments + seconds > 0 ORDER BY user_id').all(),
  gaps: server.db.prepare('SELECT * FROM learning_activity_gaps ORDER BY org, day, prev_day, department_id').all(),
});
/** What the triggers maintained must equal a rebuild from scratch. */
function expectDerivedInStep() {
  const maintained = derivedRows();
  rebuildDerived(server.db);
  expect(maintained).toEqual(derivedRows());
}
const distinctActive = (from: string, to: string, department: number | null = null) =>
  scalar(
    `SELECT count(DISTINCT a.user_id) FROM learning_activity a JOIN users u ON u.id = a.user_id
     WHERE a.org = 'northbridge' AND a.day >= ? AND a.day < ? ${department === null ? '' : 'AND u.department_id = ?'}`,
    ...[from, to, ...(department === null ? [] : [department])],
  );
const activeTotal = async (query: string) =>
  ((await call(server, 'GET', `${A}/overview/orgs/${server.org}/active-users?${query}`)).body as { total: number })
    .total;

describe('derived learning tables', () => {
  it('are built with the seed', () => {
    expect(scalar("SELECT value FROM analytics_state WHERE key = 'learning_derived'")).toBe(DERIVED_VERSION);
    expect(scalar('SELECT count(*) FROM learning_activity_gaps')).toBeGreaterThan(0);
    expectDerivedInStep();
  });

  it('follow chats and study time written later, between and around existing active days', async () => {
    const learner = server.db
      .prepare(
        `SELECT u.id, u.username, u.email, u.department_id FROM users u
         WHERE u.org = 'northbridge' AND u.role = 'student'
         AND (SELECT count(*) >= 3 AND julianday(max(day)) - julianday(min(day)) + 1 > count(*)
              FROM learning_activity a WHERE a.user_id = u.id) ORDER BY u.id LIMIT 1`,
      )
      .get() as { id: number; username: string; email: string; department_id: number };
    const days = server.db
      .prepare('SELECT day FROM learning_activity WHERE user_id = ? ORDER BY day')
      .pluck()
      .all(learner.id) as string[];
    const mentor = scalar<string>("SELECT unique_id FROM mentors WHERE org = 'northbridge' LIMIT 1");
    const course = scalar<number>("SELECT id FROM courses WHERE org = 'northbridge' LIMIT 1");
    const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    // A chat the day after the first active day (between two), one before all, and study time after the last.
    const chat = server.db.prepare(
      `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, user_id, username, email, started_at, ended_at, model, provider)
       VALUES (?, 'northbridge', ?, ?, ?, ?, ?, ?, 'gpt-4o', 'openai')`,
    );
    // A day inside a gap of the learner's activity (an active day before it and one after it).
    const gap = days.findIndex((day, i) => i + 1 < days.length && dayAfter(day) < days[i + 1]!);
    expect(gap).toBeGreaterThanOrEqual(0);
    const between = dayAfter(days[gap]!);
    chat.run(
      '00000000-0000-4000-8000-0000000000d1',
      mentor,
      learner.id,
      learner.username,
      learner.email,
      `${between}T10:00:00.000Z`,
      `${between}T10:05:00.000Z`,
    );
    chat.run(
      '00000000-0000-4000-8000-0000000000d2',
      mentor,
      learner.id,
      learner.username,
      learner.email,
      '2025-01-05T10:00:00.000Z',
      '2025-01-05T10:05:00.000Z',
    );
    const later = dayAfter(days.at(-1)!);
    server.db
      .prepare("INSERT INTO learning_time (org, day, user_id, course_pk, seconds) VALUES ('northbridge', ?, ?, ?, 600)")
      .run(later, learner.id, course);
    expectDerivedInStep();
    for (const [from, to] of [
      [days[gap]!, dayAfter(between)],
      [between, dayAfter(between)],
      [between, later],
      ['2025-01-01', '2026-12-01'],
      [dayAfter(between), dayAfter(later)],
    ] as const) {
      const query = `start_date=${from}&end_date=${new Date(Date.parse(to) - 86_400_000).toISOString().slice(0, 10)}`;
      expect(await activeTotal(query), query).toBe(distinctActive(from, to));
      expect(await activeTotal(`${query}&department_id=${learner.department_id}`)).toBe(
        distinctActive(from, to, learner.department_id),
      );
    }
  });

  it('follow enrollments and study time changed or removed later', async () => {
    const groups = async () =>
      (
        (await call(server, 'GET', `${A}/departments/orgs/${server.org}/?length=10`)).body as {
          data: { id: number; courses_enrolled: number; courses_completed: number; time_spent: string }[];
        }
      ).data;
    const before = await groups();
    const enrollment = server.db
      .prepare(
        `SELECT e.id, e.user_id, u.department_id, e.completed_at FROM learning_enrollments e JOIN users u ON u.id = e.user_id
         WHERE u.role = 'student' AND e.completed_at IS NULL ORDER BY e.id LIMIT 1`,
      )
      .get() as { id: number; user_id: number; department_id: number };
    server.db
      .prepare(
        "UPDATE learning_enrollments SET completed_at = '2026-10-20T10:00:00.000Z', grade = 0.8, passed = 1 WHERE id = ?",
      )
      .run(enrollment.id);
    const time = server.db
      .prepare('SELECT org, day, user_id, course_pk, seconds FROM learning_time WHERE user_id = ? LIMIT 1')
      .get(enrollment.user_id) as { org: string; day: string; user_id: number; course_pk: number; seconds: number };
    server.db
      .prepare('DELETE FROM learning_time WHERE org = ? AND day = ? AND user_id = ? AND course_pk = ?')
      .run(time.org, time.day, time.user_id, time.course_pk);
    expectDerivedInStep();
    const after = await groups();
    const was = before.find((g) => g.id === enrollment.department_id)!;
    const now = after.find((g) => g.id === enrollment.department_id)!;
    expect(now.courses_enrolled).toBe(was.courses_enrolled);
    expect(now.courses_completed).toBe(was.courses_completed + 1);
    expect(Number(now.time_spent)).toBe(Number(was.time_spent) - time.seconds);
    expect(Number(now.time_spent)).toBe(
      scalar(
        `SELECT sum(t.seconds) FROM learning_time t JOIN users u ON u.id = t.user_id
         WHERE u.department_id = ? AND u.role = 'student'`,
        enrollment.department_id,
      ),
    );
  });

  it('are rebuilt before the next answer after a change the triggers do not follow', async () => {
    const user = scalar<number>(
      "SELECT user_id FROM learning_activity WHERE org = 'northbridge' AND day >= '2026-10-01' AND day < '2026-11-01' ORDER BY user_id LIMIT 1",
    );
    const from = scalar<number>('SELECT department_id FROM users WHERE id = ?', user);
    const to = from === 1 ? 2 : 1;
    const query = 'start_date=2026-10-01&end_date=2026-10-31';
    const moved = {
      from: await activeTotal(`${query}&department_id=${from}`),
      to: await activeTotal(`${query}&department_id=${to}`),
    };
    server.db.prepare('UPDATE users SET department_id = ? WHERE id = ?').run(to, user);
    expect(scalar("SELECT value FROM analytics_state WHERE key = 'learning_derived'")).toBe(0);
    expect(await activeTotal(`${query}&department_id=${from}`)).toBe(moved.from - 1);
    expect(await activeTotal(`${query}&department_id=${to}`)).toBe(moved.to + 1);
    expect(scalar("SELECT value FROM analytics_state WHERE key = 'learning_derived'")).toBe(DERIVED_VERSION);
    expect(await activeTotal(`${query}&department_id=${to}`)).toBe(distinctActive('2026-10-01', '2026-11-01', to));
  });

  it('are rebuilt when a data folder from before them is opened', async () => {
    // An older data folder: the derived tables exist (the schema creates them) but were never filled.
    server.db.exec(
      "DELETE FROM learning_activity_gaps; DELETE FROM learner_totals; UPDATE analytics_state SET value = 0 WHERE key = 'learning_derived'",
    );
    expect(await activeTotal('start_date=2026-10-01&end_date=2026-10-31')).toBe(
      distinctActive('2026-10-01', '2026-11-01'),
    );
    expect(scalar('SELECT count(*) FROM learner_totals')).toBeGreaterThan(0);
  });
});
