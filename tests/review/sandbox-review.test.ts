import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { reviewArea } from '../../src/server/areas/review';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const MENTOR = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const ANALYTICS = '/api/ai-analytics/orgs/{org}/users/{user_id}/';
const MODERATION = `${MENTOR}moderation-logs/`;
const SAFETY = `${MENTOR}safety-logs/`;
const LOG = `${MENTOR}moderation-logs/{id}/`;
const TRACES = `${ANALYTICS}traces/`;
const TRACE = `${ANALYTICS}traces/{id}/`;
const OBSERVATIONS = `${ANALYTICS}observations/`;
const FEEDBACK = `${MENTOR}mentor-feedback/{feedback_id}/`;
const FEEDBACK_CREATE = `${MENTOR}mentor-feedback/create/`;
const FEEDBACK_COUNTS = `${ANALYTICS}user-feedback/`;

interface Log {
  id: number;
  username: string;
  mentor: number;
  prompt: string;
  reason: string;
  target_system: string;
  date_created: string;
}
interface Page<T> {
  count: number;
  next: string | null;
  results: T[];
}

let server: Sandbox;
const path = (template: string, values: Record<string, string | number> = {}, org?: string, user?: string) =>
  template
    .replace('{org}', org ?? server.org)
    .replace('{user_id}', user ?? server.user)
    .replace(/\{(\w+)\}/g, (_m, key: string) => String(values[key]));

async function get<T>(template: string, query = '', values: Record<string, string | number> = {}): Promise<T> {
  const res = await call(server, 'GET', `${path(template, values)}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSpecValid('get', template, 200, res.body);
  return res.body as T;
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea, reviewArea] });
});

describe('review sandbox: moderation and safety logs', () => {
  it('lists each kind with its target system, newest first, and every flagged prompt is in its conversation', async () => {
    const moderation = await get<Page<Log>>(MODERATION, '?page_size=200');
    const safety = await get<Page<Log>>(SAFETY, '?page_size=200');
    expect(moderation.count).toBeGreaterThan(20);
    expect(safety.count).toBeGreaterThan(20);
    expect(moderation.results.every((l) => l.target_system === 'Moderation System')).toBe(true);
    expect(safety.results.every((l) => l.target_system === 'Safety System')).toBe(true);
    const dates = moderation.results.map((l) => l.date_created);
    expect([...dates].sort().reverse()).toEqual(dates);
    // The platform's answer names no session: the flagged text is found among the learner's messages.
    let found = 0;
    for (const log of [...moderation.results, ...safety.results]) {
      const hit = server.db
        .prepare(
          `SELECT count(*) FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
           WHERE s.org = ? AND s.username = ? AND m.role = 'user' AND m.content = ?`,
        )
        .pluck()
        .get(server.org, log.username, log.prompt) as number;
      if (hit > 0) found++;
    }
    // All but the one whose conversation was deleted.
    expect(found).toBe(moderation.count + safety.count - 1);
  });

  it('filters by mentor, username, target system, time and search; a bad filter is a 400', async () => {
    const all = (await get<Page<Log>>(SAFETY, '?page_size=200')).results;
    const sample = all[0]!;
    const byMentor = await get<Page<Log>>(SAFETY, `?mentor=${sample.mentor}&page_size=200`);
    expect(byMentor.results.every((l) => l.mentor === sample.mentor)).toBe(true);
    expect(byMentor.results.map((l) => l.id)).toContain(sample.id);
    const byUser = await get<Page<Log>>(SAFETY, `?username=${sample.username}`);
    expect(byUser.results.every((l) => l.username === sample.username)).toBe(true);
    expect((await get<Page<Log>>(SAFETY, '?target_system=Moderation%20System')).count).toBe(0);
    const since = encodeURIComponent(sample.date_created);
    const recent = await get<Page<Log>>(SAFETY, `?start_time=${since}&page_size=200`);
    expect(recent.results.every((l) => l.date_created >= sample.date_created)).toBe(true);
    const word = sample.reason.split(' ')[0]!;
    const searched = await get<Page<Log>>(SAFETY, `?search=${encodeURIComponent(word)}&page_size=200`);
    expect(searched.results.every((l) => `${l.prompt} ${l.reason}`.toLowerCase().includes(word.toLowerCase()))).toBe(
      true,
    );
    const bad = await call(server, 'GET', `${path(SAFETY)}?target_system=Other`);
    expect(bad.status).toBe(400);
    expect((await call(server, 'GET', `${path(SAFETY)}?start_time=yesterday`)).status).toBe(400);
    expect((await call(server, 'GET', `${path(SAFETY)}?page=999`)).status).toBe(404);
  });

  it('reads and deletes one log; learners may not; another tenant sees none of it', async () => {
    const first = (await get<Page<Log>>(MODERATION)).results[0]!;
    expect(await get<Log>(LOG, '', { id: first.id })).toEqual(first);
    // A moderation log is not a safety log.
    expect((await call(server, 'GET', path(`${MENTOR}safety-logs/{id}/`, { id: first.id }))).status).toBe(404);
    const student = await call(server, 'GET', path(MODERATION, {}, undefined, server.studentUser), {
      key: server.studentKey,
    });
    expect(student.status).toBe(403);
    const other = server.otherOrg;
    const foreign = await call(server, 'GET', path(LOG, { id: first.id }, other.org, other.user), {
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
    const crossed = await call(server, 'GET', path(MODERATION, {}, server.org, other.user), { key: other.apiKey });
    expect(crossed.status).toBe(404);
    expect((await call(server, 'DELETE', path(LOG, { id: first.id }))).status).toBe(204);
    expect((await call(server, 'GET', path(LOG, { id: first.id }))).status).toBe(404);
    expect((await call(server, 'DELETE', path(LOG, { id: 'x' }))).status).toBe(404);
  });
});

describe('review sandbox: traces and observations', () => {
  it('serves traces of the flagged conversations with spans found by searching the trace id', async () => {
    const traces = await get<Page<{ id: string; session_id: string }>>(TRACES, '?limit=50&ordering=-timestamp');
    expect(traces.count).toBeGreaterThan(50);
    expect(traces.next).not.toBeNull();
    const trace = traces.results[0]!;
    expect(await get<{ id: string }>(TRACE, '', { id: trace.id })).toMatchObject({ id: trace.id });
    const bySession = await get<Page<{ id: string }>>(TRACES, `?search=${trace.session_id}`);
    expect(bySession.results.map((t) => t.id)).toContain(trace.id);
    const spans = await get<Page<{ trace_id: string; type: string; usage_details: string; total_cost: string | null }>>(
      OBSERVATIONS,
      `?search=${trace.id}&limit=1000`,
    );
    expect(spans.results.length).toBeGreaterThan(1);
    expect(spans.results.every((s) => s.trace_id === trace.id)).toBe(true);
    const generation = spans.results.find((s) => s.type === 'GENERATION')!;
    expect(JSON.parse(generation.usage_details)).toMatchObject({ total: expect.any(Number) });
    expect((await call(server, 'GET', path(TRACE, { id: 'missing' }))).status).toBe(404);
    expect((await call(server, 'GET', `${path(OBSERVATIONS)}?limit=-1`)).status).toBe(400);
  });

  it('holds one trace with thousands of spans', async () => {
    const counts = server.db
      .prepare(
        'SELECT trace_id, count(*) AS n FROM review_observations WHERE org = ? GROUP BY trace_id ORDER BY n DESC',
      )
      .all(server.org) as { trace_id: string; n: number }[];
    expect(counts[0]!.n).toBeGreaterThan(3000);
  });
});

describe('review sandbox: feedback', () => {
  it("seeds feedback on demo conversations: chat-history rates each down and its answer is the last mentor's", async () => {
    const rows = server.db
      .prepare(
        'SELECT session, ai_response, rating FROM review_feedback WHERE org = ? AND rating = -1 ORDER BY id LIMIT 12',
      )
      .all(server.org) as { session: string; ai_response: string; rating: number }[];
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const conversation = await get<{ rating: number; messages: string }>(`${ANALYTICS}chat-history/{id}/`, '', {
        id: row.session,
      });
      expect(conversation.rating).toBe(-1);
      const messages = JSON.parse(conversation.messages) as { type: string; content: string }[];
      expect(messages.filter((m) => m.type === 'ai').pop()?.content).toBe(row.ai_response);
    }
  });

  it("a learner's feedback becomes its conversation's rating in chat-history", async () => {
    const session = server.db
      .prepare('SELECT session_id FROM chat_sessions WHERE org = ? AND rating IS NULL LIMIT 1')
      .pluck()
      .get(server.org) as string;
    const mentor = server.db.prepare('SELECT id FROM mentors WHERE org = ? LIMIT 1').pluck().get(server.org) as number;
    const rating = async () =>
      (await get<{ rating: number }>(`${ANALYTICS}chat-history/{id}/`, '', { id: session })).rating;
    expect(await rating()).toBe(0);
    const body = {
      username: 'x',
      session,
      user_text: 'q',
      ai_response: 'a',
      reason: 'Wrong answer',
      additional_feedback: '',
      rating: -1,
      mentor,
    };
    const created = await call(server, 'POST', path(FEEDBACK_CREATE), { json: body });
    expect(created.status).toBe(201);
    expect(await rating()).toBe(-1);
    const id = (created.body as { id: number }).id;
    expect(
      (await call(server, 'PUT', path(FEEDBACK, { feedback_id: id }), { json: { ...body, rating: 1 } })).status,
    ).toBe(200);
    expect(await rating()).toBe(1);
  });

  it('reads, creates and updates feedback; validates the body; counts it per period', async () => {
    const id = server.db
      .prepare('SELECT id FROM review_feedback WHERE org = ? AND rating = -1')
      .pluck()
      .get(server.org);
    const one = await get<{ rating: number; mentor: number; session: string }>(FEEDBACK, '', {
      feedback_id: id as number,
    });
    expect(one.rating).toBe(-1);
    const body = { ...one, rating: 1, reason: 'Fixed' };
    const put = await call(server, 'PUT', path(FEEDBACK, { feedback_id: id as number }), { json: body });
    expect(put.status).toBe(200);
    expectSpecValid('put', FEEDBACK, 200, put.body);
    expect(put.body).toMatchObject({ rating: 1, reason: 'Fixed' });
    const created = await call(server, 'POST', path(FEEDBACK_CREATE), {
      json: { ...body, rating: -1, message: null },
    });
    expect(created.status).toBe(201);
    const bad = await call(server, 'POST', path(FEEDBACK_CREATE), { json: { ...body, rating: 5, mentor: 999999 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ rating: [expect.any(String)], mentor: [expect.any(String)] });
    const counts = await get<{ period: string; feedback_count: number }[]>(
      FEEDBACK_COUNTS,
      '?start_date=2020-01-01&end_date=2030-01-01&aggregation=weekly',
    );
    expect(counts.reduce((n, c) => n + c.feedback_count, 0)).toBe(
      server.db.prepare('SELECT count(*) FROM review_feedback WHERE org = ?').pluck().get(server.org),
    );
    expect((await call(server, 'GET', `${path(FEEDBACK_COUNTS)}?start_date=2020-01-01`)).status).toBe(400);
  });
});
