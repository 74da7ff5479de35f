/**
 * The Conversations browser against the sandbox's own SQLite: each filter (mentor, sentiment, topics, learner, dates)
 * gives exactly the conversations the data holds, newest first, paged with the full count; a department (shared with
 * the Overview) is not something the platform can filter conversations by, and the answer says so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import type { CallInput } from '../../src/shared/contract';
import { sandbox, sandboxQueries } from '../helpers/sandbox';
import { connect } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});
const db = sandboxQueries(() => server);

const OCTOBER = { preset: 'custom' as const, from: '2026-10-01', to: '2026-10-31' };
type Range = { preset: 'custom'; from: string; to: string };

interface Expected {
  session_id: string;
  started_at: string;
  mentor_unique_id: string;
  mentor: string;
  username: string;
  email: string;
  topics: string;
  sentiment: string;
  rating: number | null;
  model: string;
  message_count: number;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The conversations a filter must give, newest first, read straight from the sessions table: whole UTC days (the
 * platform's date filter), topics matched in each session's own topic list.
 */
function expected(filter: { range: Range; mentor?: string; sentiment?: string; learner?: string; topics?: string[] }) {
  const where = ['s.org = @org', 's.started_at >= @start', 's.started_at < @end'];
  if (filter.mentor) where.push('s.mentor_unique_id = @mentor');
  if (filter.sentiment) where.push('s.sentiment = @sentiment');
  if (filter.learner) where.push('s.username = @learner');
  if (filter.topics)
    where.push(
      `EXISTS (SELECT 1 FROM json_each(s.topics) t WHERE json_extract(t.value, '$.name') IN (SELECT value FROM json_each(@topics)))`,
    );
  return db.rows<Expected>(
    `SELECT s.session_id, s.started_at, s.mentor_unique_id, m.name AS mentor, s.username, s.email, s.topics, s.sentiment,
       s.rating, s.model, s.message_count
     FROM chat_sessions s LEFT JOIN mentors m ON m.unique_id = s.mentor_unique_id
     WHERE ${where.join(' AND ')} ORDER BY s.started_at DESC, s.id DESC`,
    {
      org: server.org,
      start: `${filter.range.from}T00:00:00.000Z`,
      end: `${nextDay(filter.range.to)}T00:00:00.000Z`,
      mentor: filter.mentor ?? null,
      sentiment: filter.sentiment ?? null,
      learner: filter.learner ?? null,
      topics: JSON.stringify(filter.topics ?? []),
    },
  );
}

const mentorId = (name: string) =>
  db.scalar<string>('SELECT unique_id FROM mentors WHERE org = ? AND name = ?', server.org, name);

type Engine = Awaited<ReturnType<typeof connect>>['engine'];
type Input = Omit<CallInput<'analytics.conversations'>, 'page'>;

/** Pages `pages` of the browser (all of them when absent) match the expected list, with its count. */
async function expectPages(engine: Engine, input: Input, want: Expected[], pages?: number[]) {
  const pageSize = input.pageSize ?? 25;
  const last = Math.max(1, Math.ceil(want.length / pageSize));
  for (const page of pages ?? Array.from({ length: last }, (_, i) => i + 1)) {
    const answer = await engine.invoke('analytics.conversations', { ...input, page });
    expect(answer.count, `count on page ${page}`).toBe(want.length);
    expect(answer.page).toBe(page);
    expect(
      answer.rows.map((r) => r.id),
      `page ${page}`,
    ).toEqual(want.slice((page - 1) * pageSize, page * pageSize).map((c) => c.session_id));
  }
}

describe('the Conversations browser', () => {
  it('lists the range’s conversations newest first, every field as stored, paged with the full count', async () => {
    const { engine } = await connect(server);
    const want = expected({ range: OCTOBER });
    expect(want.length).toBeGreaterThan(300);
    const input = { range: OCTOBER, timeZone: 'UTC', pageSize: 50 };
    const last = Math.ceil(want.length / 50);
    // The last page is a partial one.
    expect(want.length % 50).not.toBe(0);
    await expectPages(engine, input, want, [1, 2, Math.floor(last / 2), last]);

    const first = await engine.invoke('analytics.conversations', { ...input, page: 1 });
    expect(first.notes).toEqual([]);
    first.rows.forEach((row, i) => {
      const s = want[i]!;
      expect(row).toEqual({
        id: s.session_id,
        startedAt: s.started_at,
        mentorId: s.mentor_unique_id,
        mentor: s.mentor,
        learner: s.username,
        email: s.email,
        topics: (JSON.parse(s.topics) as { name: string }[]).map((t) => t.name),
        sentiment: s.sentiment,
        rating: s.rating,
        model: s.model,
        messages: s.message_count,
      });
    });
    expect(first.rows.some((r) => r.rating === null)).toBe(true);
    const times = first.rows.map((r) => r.startedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('keeps the count on a page past the end (the range got shorter while on a late page)', async () => {
    const { engine } = await connect(server);
    const want = expected({ range: OCTOBER });
    const past = Math.ceil(want.length / 25) + 3;
    const answer = await engine.invoke('analytics.conversations', { range: OCTOBER, timeZone: 'UTC', page: past });
    expect(answer.rows).toEqual([]);
    expect(answer.count).toBe(want.length);
  });

  it('filters by mentor, given by name or by id', async () => {
    const { engine } = await connect(server);
    const id = mentorId('Calculus Coach');
    const want = expected({ range: OCTOBER, mentor: id });
    expect(want.length).toBeGreaterThan(25);
    expect(want.length).toBeLessThan(expected({ range: OCTOBER }).length);
    const input = { range: OCTOBER, timeZone: 'UTC', pageSize: 25 };
    await expectPages(engine, { ...input, mentor: 'Calculus Coach' }, want, [1, 2, Math.ceil(want.length / 25)]);
    await expectPages(engine, { ...input, mentor: id }, want, [1]);
    const rows = (await engine.invoke('analytics.conversations', { ...input, mentor: id })).rows;
    expect(new Set(rows.map((r) => r.mentor))).toEqual(new Set(['Calculus Coach']));
  });

  it('filters by sentiment', async () => {
    const { engine } = await connect(server);
    for (const sentiment of ['positive', 'neutral', 'negative'] as const) {
      const want = expected({ range: OCTOBER, sentiment });
      expect(want.length, sentiment).toBeGreaterThan(0);
      await expectPages(engine, { range: OCTOBER, timeZone: 'UTC', sentiment, pageSize: 100 }, want, [1, 2]);
    }
  });

  it('filters by topics: conversations on any of the topics chosen', async () => {
    const { engine } = await connect(server);
    const [one, two] = db.rows<{ name: string }>(
      `SELECT json_extract(t.value, '$.name') AS name FROM chat_sessions s, json_each(s.topics) t
       WHERE s.org = ? AND s.started_at >= '2026-10-01' AND s.started_at < '2026-11-01'
       GROUP BY name ORDER BY count(*) DESC, name LIMIT 2`,
      server.org,
    );
    const single = expected({ range: OCTOBER, topics: [one!.name] });
    const either = expected({ range: OCTOBER, topics: [one!.name, two!.name] });
    expect(either.length).toBeGreaterThan(single.length);
    const input = { range: OCTOBER, timeZone: 'UTC', pageSize: 50 };
    await expectPages(engine, { ...input, topics: [one!.name] }, single, [1, Math.ceil(single.length / 50)]);
    await expectPages(engine, { ...input, topics: [one!.name, two!.name] }, either, [1, Math.ceil(either.length / 50)]);
    const rows = (await engine.invoke('analytics.conversations', { ...input, topics: [one!.name] })).rows;
    expect(rows.every((r) => r.topics.includes(one!.name))).toBe(true);
  });

  it('filters by learner (username), every page', async () => {
    const { engine } = await connect(server);
    const learner = db.scalar<string>(
      `SELECT username FROM chat_sessions WHERE org = ? AND started_at >= '2026-10-01' AND started_at < '2026-11-01'
       GROUP BY username ORDER BY count(*) DESC, username LIMIT 1`,
      server.org,
    );
    const want = expected({ range: OCTOBER, learner });
    expect(want.length).toBeGreaterThan(5);
    await expectPages(engine, { range: OCTOBER, timeZone: 'UTC', learner, pageSize: 5 }, want);
    const none = await engine.invoke('analytics.conversations', {
      range: OCTOBER,
      timeZone: 'UTC',
      learner: 'nobody-by-this-name',
    });
    expect(none).toMatchObject({ count: 0, rows: [] });
  });

  it('filters by dates: whole UTC days, said so in another zone', async () => {
    const { engine } = await connect(server);
    const day = { preset: 'custom' as const, from: '2026-10-15', to: '2026-10-15' };
    const want = expected({ range: day });
    expect(want.length).toBeGreaterThan(0);
    expect(want.every((c) => c.started_at.startsWith('2026-10-15'))).toBe(true);
    await expectPages(engine, { range: day, timeZone: 'UTC', pageSize: 100 }, want);
    const week = { preset: 'custom' as const, from: '2026-10-05', to: '2026-10-11' };
    await expectPages(engine, { range: week, timeZone: 'UTC', pageSize: 100 }, expected({ range: week }));

    const paris = await engine.invoke('analytics.conversations', {
      range: day,
      timeZone: 'Europe/Paris',
      pageSize: 100,
    });
    // The same conversations as in UTC (the first page of them: a busy day has more than 100).
    expect(paris.count).toBe(want.length);
    expect(paris.rows.map((r) => r.id)).toEqual(want.slice(0, 100).map((c) => c.session_id));
    expect(paris.notes).toEqual(['Dates are whole UTC days, as the platform filters conversations by date.']);
  });

  it('combines every filter', async () => {
    const { engine } = await connect(server);
    const id = mentorId('Calculus Coach');
    const topic = db.scalar<string>(
      `SELECT json_extract(t.value, '$.name') AS name FROM chat_sessions s, json_each(s.topics) t
       WHERE s.org = ? AND s.mentor_unique_id = ? AND s.sentiment = 'positive' AND s.started_at >= '2026-10-01'
         AND s.started_at < '2026-11-01'
       GROUP BY name ORDER BY count(*) DESC, name LIMIT 1`,
      server.org,
      id,
    );
    const want = expected({ range: OCTOBER, mentor: id, sentiment: 'positive', topics: [topic] });
    expect(want.length).toBeGreaterThan(1);
    const input = { range: OCTOBER, timeZone: 'UTC', mentor: id, sentiment: 'positive' as const, topics: [topic] };
    await expectPages(engine, { ...input, pageSize: 10 }, want);
    const learner = want[0]!.username;
    await expectPages(
      engine,
      { ...input, learner, pageSize: 10 },
      expected({ range: OCTOBER, mentor: id, sentiment: 'positive', topics: [topic], learner }),
    );
  });

  it('says the department does not apply (the platform cannot filter conversations by department)', async () => {
    const { engine } = await connect(server);
    const department = db.scalar('SELECT id FROM departments WHERE org = ? ORDER BY id LIMIT 1', server.org);
    const input = { range: OCTOBER, timeZone: 'UTC', pageSize: 25 };
    const without = await engine.invoke('analytics.conversations', input);
    const withDepartment = await engine.invoke('analytics.conversations', { ...input, department });
    expect(withDepartment.count).toBe(without.count);
    expect(withDepartment.rows).toEqual(without.rows);
    expect(without.notes).toEqual([]);
    expect(withDepartment.notes).toEqual([
      'Not filtered by department: the platform cannot filter conversations by department.',
    ]);
  });
});
