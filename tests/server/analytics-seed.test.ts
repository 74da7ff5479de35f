import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { call, sandbox } from '../helpers/sandbox';

let first: Sandbox;
let twin: Sandbox;
let other: Sandbox;
let seedMs: number;

beforeAll(async () => {
  const started = performance.now();
  first = await sandbox({ seed: 'demo', seedValue: 42, areas: [analyticsArea] });
  seedMs = performance.now() - started;
  twin = await sandbox({ seed: 'demo', seedValue: 42, areas: [analyticsArea] });
  other = await sandbox({ seed: 'demo', seedValue: 43, areas: [analyticsArea] });
});

/** A digest of every generated row (ids and uuids included), table by table. */
function digest(server: Sandbox): Record<string, string> {
  const tables: Record<string, string> = {
    chat_sessions: 'SELECT * FROM chat_sessions ORDER BY id',
    chat_messages: 'SELECT * FROM chat_messages ORDER BY id',
    chat_topics: 'SELECT * FROM chat_topics ORDER BY id',
    chat_session_topics: 'SELECT * FROM chat_session_topics ORDER BY topic_id, started_at, session_pk',
    courses: 'SELECT * FROM courses ORDER BY id',
    learning_enrollments: 'SELECT * FROM learning_enrollments ORDER BY id',
    learning_time: 'SELECT * FROM learning_time ORDER BY org, day, user_id, course_pk',
    learning_activity: 'SELECT * FROM learning_activity ORDER BY org, day, user_id',
  };
  return Object.fromEntries(
    Object.entries(tables).map(([name, sql]) => {
      const hash = createHash('sha256');
      for (const row of server.db.prepare(sql).raw().iterate()) hash.update(JSON.stringify(row));
      return [name, hash.digest('hex')];
    }),
  );
}

const scalar = <T = number>(server: Sandbox, sql: string, ...params: unknown[]) =>
  server.db
    .prepare(sql)
    .pluck()
    .get(...params) as T;

describe('analytics demo data', () => {
  it('is the same for the same seed and differs for another seed', async () => {
    const a = digest(first);
    expect(digest(twin)).toEqual(a);
    const b = digest(other);
    for (const table of ['chat_sessions', 'chat_messages', 'learning_enrollments', 'learning_time'])
      expect(b[table]).not.toBe(a[table]);
    // The same aggregates through the API, too (paths are the same: same org, same admin).
    for (const path of [
      `/api/ai-analytics/orgs/northbridge/users/admin/usage-summary/?start_date=2026-09-01&end_date=2026-09-30`,
      `/api/ai-analytics/orgs/northbridge/users/admin/costs/model/?start_date=2026-05-01T00:00:00Z&end_date=2026-11-01T00:00:00Z`,
      `/api/ai-analytics/orgs/northbridge/users/admin/topic-statistics/?page_size=100`,
      `/api/ai-analytics/departments/orgs/northbridge/`,
    ]) {
      const [x, y, z] = await Promise.all([
        call(first, 'GET', path),
        call(twin, 'GET', path),
        call(other, 'GET', path),
      ]);
      expect(x.status).toBe(200);
      expect(y.body).toEqual(x.body);
      expect(z.body).not.toEqual(x.body);
    }
  });

  it('has the demo volumes: 60,000 messages over the 180 days before 2026-11-01, 12 mentors, 2,000 learners, 40 courses', () => {
    expect(scalar(first, 'SELECT count(*) FROM chat_messages')).toBe(60_000);
    expect(
      scalar(
        first,
        "SELECT min(started_at) >= '2026-05-05' AND max(ended_at) < '2026-11-01T12:00:00Z' FROM chat_sessions",
      ),
    ).toBe(1);
    expect(scalar(first, "SELECT count(DISTINCT mentor_unique_id) FROM chat_sessions WHERE org = 'northbridge'")).toBe(
      12,
    );
    expect(
      scalar(first, "SELECT count(DISTINCT username) FROM chat_sessions WHERE org = 'northbridge'"),
    ).toBeGreaterThan(1500);
    expect(scalar(first, "SELECT count(*) FROM users WHERE org = 'northbridge' AND role = 'student'")).toBe(2000);
    expect(scalar(first, "SELECT count(*) FROM courses WHERE org = 'northbridge'")).toBe(40);
    expect(scalar(first, 'SELECT count(DISTINCT model) FROM chat_sessions')).toBe(3);
    const sentiments = first.db
      .prepare('SELECT sentiment, count(*) AS n FROM chat_sessions GROUP BY sentiment ORDER BY sentiment')
      .all();
    expect(sentiments.map((s) => (s as { sentiment: string }).sentiment)).toEqual(['negative', 'neutral', 'positive']);
    expect(scalar(first, 'SELECT count(*) FROM chat_sessions WHERE rating IS NOT NULL')).toBeGreaterThan(1000);
    // Generating the demo data (core plus this area) stays quick.
    expect(seedMs).toBeLessThan(5000);
  });

  it('keeps sessions consistent with their messages and topics, and activity with chats and study time', () => {
    const mismatched = scalar(
      first,
      `SELECT count(*) FROM chat_sessions s JOIN (
         SELECT session_pk, count(*) AS n, sum(role = 'user') AS users, sum(tokens) AS tokens, sum(cost) AS cost,
           min(created_at) AS first, max(created_at) AS last FROM chat_messages GROUP BY session_pk
       ) m ON m.session_pk = s.id
       WHERE m.n != s.message_count OR m.users != s.user_message_count OR m.tokens != s.tokens
         OR abs(m.cost - s.cost) > 1e-6 OR m.first != s.started_at OR m.last != s.ended_at`,
    );
    expect(mismatched).toBe(0);
    expect(
      scalar(first, 'SELECT count(*) FROM chat_sessions WHERE id NOT IN (SELECT session_pk FROM chat_messages)'),
    ).toBe(0);
    expect(
      scalar(
        first,
        `SELECT count(*) FROM chat_sessions s WHERE json_array_length(s.topics) !=
           (SELECT count(*) FROM chat_session_topics st WHERE st.session_pk = s.id)`,
      ),
    ).toBe(0);
    expect(
      scalar(
        first,
        `SELECT count(*) FROM (SELECT org, substr(started_at, 1, 10) AS day, user_id FROM chat_sessions
           UNION SELECT org, day, user_id FROM learning_time) x
         WHERE NOT EXISTS (SELECT 1 FROM learning_activity a WHERE a.org = x.org AND a.day = x.day AND a.user_id = x.user_id)`,
      ),
    ).toBe(0);
    expect(
      scalar(
        first,
        'SELECT count(*) FROM learning_enrollments WHERE completed_at IS NOT NULL AND completed_at < enrolled_at',
      ),
    ).toBe(0);
  });

  it('adds up: an active learner of a day had a session that day, after registering, and chats reach the clock', async () => {
    const main = "org = 'northbridge'";
    // Every (learner, day) of activity, study time included, has a chat session that day.
    expect(
      scalar(
        first,
        `SELECT count(*) FROM learning_activity a WHERE NOT EXISTS (SELECT 1 FROM chat_sessions s
           WHERE s.org = a.org AND s.user_id = a.user_id AND s.started_at >= a.day AND s.started_at < date(a.day, '+1 day'))`,
      ),
    ).toBe(0);
    // So a day never has more active learners than sessions (the "821 active users with 89 sessions").
    expect(
      scalar(
        first,
        `SELECT count(*) FROM (SELECT day, count(*) AS n FROM learning_activity WHERE ${main} GROUP BY day) a
         LEFT JOIN (SELECT substr(started_at, 1, 10) AS day, count(*) AS n FROM chat_sessions WHERE ${main} GROUP BY day) s
         USING (day) WHERE a.n > coalesce(s.n, 0)`,
      ),
    ).toBe(0);
    // No learner studies more than a day holds.
    expect(
      scalar(first, 'SELECT max(s) FROM (SELECT sum(seconds) AS s FROM learning_time GROUP BY user_id, day)'),
    ).toBeLessThan(86_400);
    // Learners chat once they have registered.
    expect(
      scalar(
        first,
        `SELECT count(*) FROM chat_sessions s JOIN users u ON u.id = s.user_id
         WHERE u.role = 'student' AND s.started_at < u.date_joined`,
      ),
    ).toBe(0);
    // The seeding clock's day has its chats so far (2026-11-01 until 12:00), all ended by then.
    expect(
      scalar(first, `SELECT count(*) FROM chat_sessions WHERE ${main} AND started_at >= '2026-11-01'`),
    ).toBeGreaterThan(5);
    expect(scalar<string>(first, 'SELECT max(ended_at) FROM chat_sessions') < '2026-11-01T12:00:00.000Z').toBe(true);

    // The same through the API: per day, the platform's active learners are the learners who chatted
    // (usage-summary), never more than its sessions (average-messages-per-session).
    const range = 'start_date=2026-09-01&end_date=2026-11-01';
    const base = '/api/ai-analytics/orgs/northbridge/users/admin';
    const [active, users, sessions] = await Promise.all([
      call(first, 'GET', `/api/ai-analytics/overview/orgs/northbridge/active-users?${range}`),
      call(first, 'GET', `${base}/usage-summary/?${range}`),
      call(first, 'GET', `${base}/average-messages-per-session/?${range}&aggregation=daily`),
    ]);
    const activeByDay = (active.body as { data: Record<string, number> }).data;
    const usersByDay = new Map(
      (users.body as { date: string; user_count: number }[]).map((u) => [u.date, u.user_count]),
    );
    const sessionsByDay = new Map(
      (sessions.body as { time: string; total_sessions: number }[]).map((r) => [r.time.slice(0, 10), r.total_sessions]),
    );
    const days = Object.keys(activeByDay);
    expect(days).toHaveLength(62);
    for (const day of days) {
      expect(activeByDay[day], day).toBe(usersByDay.get(day) ?? 0);
      expect(activeByDay[day]!, day).toBeLessThanOrEqual(sessionsByDay.get(day) ?? 0);
    }
    expect(activeByDay['2026-11-01']).toBeGreaterThan(0);
  });

  it('keeps activity and cached counts in step with chats written after seeding', async () => {
    const path = '/api/ai-analytics/orgs/northbridge/users/admin/chat-history/?page_size=1&filter_user_id=learner0002';
    const before = (await call(twin, 'GET', path)).body as { count: number };
    const user = twin.db.prepare("SELECT id, email FROM users WHERE username = 'learner0002'").get() as {
      id: number;
      email: string;
    };
    const mentor = scalar<string>(twin, "SELECT unique_id FROM mentors WHERE org = 'northbridge' LIMIT 1");
    twin.db
      .prepare(
        `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, user_id, username, email, started_at, ended_at, model, provider)
         VALUES ('00000000-0000-4000-8000-00000000abcd', 'northbridge', ?, ?, 'learner0002', ?, '2026-11-20T10:00:00.000Z',
           '2026-11-20T10:05:00.000Z', 'gpt-4o', 'openai')`,
      )
      .run(mentor, user.id, user.email);
    const after = (await call(twin, 'GET', path)).body as { count: number; results: { id: string }[] };
    expect(after.count).toBe(before.count + 1);
    expect(after.results[0]!.id).toBe('00000000-0000-4000-8000-00000000abcd');
    expect(
      scalar(twin, "SELECT count(*) FROM learning_activity WHERE day = '2026-11-20' AND user_id = ?", user.id),
    ).toBe(1);
  });
});
