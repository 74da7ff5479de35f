/**
 * The Overview's figures against the same numbers computed here, independently, from the sandbox's own SQLite;
 * the answer cache (fresh, stale, offline) and bad input.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsApi } from '../../src/main/engine/analytics/api';
import { createPlatformClient } from '../../src/main/engine/platform';
import type { Sandbox } from '../../src/server/app';
import { percentChange } from '../../src/shared/contract';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect, failure, proxy, settled, until } from './setup';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

// October 2026 in Paris (summer time ends on the 25th), and September before it: bounds written out by hand.
const OCTOBER = { start: '2026-09-30T22:00:00.000Z', end: '2026-10-31T23:00:00.000Z' };
const SEPTEMBER = { start: '2026-08-30T22:00:00.000Z', end: '2026-09-30T22:00:00.000Z' };
const input = {
  range: { preset: 'custom' as const, from: '2026-10-01', to: '2026-10-31' },
  timeZone: 'Europe/Paris',
};

const all = <T>(sql: string, ...params: unknown[]) => server.db.prepare(sql).all(...params) as T[];
const one = <T = number>(sql: string, ...params: unknown[]) =>
  server.db
    .prepare(sql)
    .pluck()
    .get(...params) as T;
const change = (now: number, before: number) => Math.round(((now - before) / before) * 1000) / 10;

/** Sessions, messages (as the platform reports them: the hour's rounded average × its sessions) and cost. */
function activity(p: { start: string; end: string }, mentor?: string) {
  const hours = all<{ n: number; avg: number; exact: number; cost: number }>(
    `SELECT count(*) AS n, avg(message_count) AS avg, sum(message_count) AS exact, sum(cost) AS cost FROM chat_sessions
     WHERE org = ? AND started_at >= ? AND started_at < ? ${mentor ? 'AND mentor_unique_id = ?' : ''}
     GROUP BY substr(started_at, 1, 13)`,
    server.org,
    p.start,
    p.end,
    ...(mentor ? [mentor] : []),
  );
  return {
    sessions: hours.reduce((s, h) => s + h.n, 0),
    messages: hours.reduce((s, h) => s + Math.round(h.avg) * h.n, 0),
    exactMessages: hours.reduce((s, h) => s + h.exact, 0),
    cost: hours.reduce((s, h) => s + h.cost, 0),
  };
}

describe('Overview figures', () => {
  it('KPIs match the sandbox data, with the change against the period before', async () => {
    const { engine } = await connect(server);
    const answer = await engine.invoke('analytics.kpis', input);
    const kpi = Object.fromEntries(answer.kpis.map((k) => [k.key, k]));
    expect(answer.range).toMatchObject({ from: '2026-10-01', to: '2026-10-31', ...OCTOBER, timeZone: 'Europe/Paris' });
    expect(answer.range.previous).toMatchObject({ from: '2026-08-31', to: '2026-09-30', ...SEPTEMBER });

    const now = activity(OCTOBER);
    const before = activity(SEPTEMBER);
    expect(now.sessions).toBeGreaterThan(500);
    expect(kpi.sessions).toMatchObject({
      value: now.sessions,
      previous: before.sessions,
      change: change(now.sessions, before.sessions),
    });
    expect(kpi.messages).toMatchObject({ value: now.messages, previous: before.messages });
    // The platform rounds its per-hour averages; the total stays within a percent of the exact count.
    expect(Math.abs(now.messages - now.exactMessages) / now.exactMessages).toBeLessThan(0.02);
    expect(kpi.avgMessages!.value).toBeCloseTo(now.messages / now.sessions, 2);
    expect(kpi.cost!.value).toBeCloseTo(now.cost, 5);
    expect(kpi.cost!.previous).toBeCloseTo(before.cost, 5);

    const ratings = (p: { start: string; end: string }) =>
      one(
        'SELECT count(*) FROM chat_sessions WHERE org = ? AND rating IS NOT NULL AND ended_at >= ? AND ended_at < ?',
        server.org,
        p.start,
        p.end,
      );
    expect(kpi.ratings).toMatchObject({ value: ratings(OCTOBER), previous: ratings(SEPTEMBER) });

    // Learning figures count whole days, as the platform does.
    const active = (from: string, to: string) =>
      one(
        'SELECT count(DISTINCT user_id) FROM learning_activity WHERE org = ? AND day >= ? AND day <= ?',
        server.org,
        from,
        to,
      );
    expect(kpi.activeUsers).toMatchObject({
      value: active('2026-10-01', '2026-10-31'),
      previous: active('2026-08-31', '2026-09-30'),
    });
    const registered = (from: string, to: string) =>
      one('SELECT count(*) FROM users WHERE org = ? AND date_joined >= ? AND date_joined < ?', server.org, from, to);
    expect(kpi.registeredUsers).toMatchObject({
      value: registered('2026-10-01', '2026-11-01'),
      previous: registered('2026-08-31', '2026-10-01'),
    });
  });

  it('counts activity per day of the admin’s zone, not per UTC day', async () => {
    const { engine } = await connect(server);
    const answer = await engine.invoke('analytics.activity', input);
    expect(answer.granularity).toBe('day');
    expect(answer.points).toHaveLength(31);
    const parisDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris' });
    const expected = new Map<string, number>();
    for (const { started_at } of all<{ started_at: string }>(
      'SELECT started_at FROM chat_sessions WHERE org = ? AND started_at >= ? AND started_at < ?',
      server.org,
      OCTOBER.start,
      OCTOBER.end,
    )) {
      const day = parisDay.format(new Date(started_at));
      expected.set(day, (expected.get(day) ?? 0) + 1);
    }
    for (const point of answer.points) expect(point.sessions, point.date).toBe(expected.get(point.date) ?? 0);
    const utcDays = all<{ day: string; n: number }>(
      `SELECT substr(started_at, 1, 10) AS day, count(*) AS n FROM chat_sessions WHERE org = ? AND started_at >= ? AND started_at < ? GROUP BY day`,
      server.org,
      '2026-10-01',
      '2026-11-01',
    );
    // The two calendars disagree somewhere in the month (sessions between midnight UTC and midnight Paris).
    expect(utcDays.some((d) => expected.get(d.day) !== d.n)).toBe(true);
    const activeOn = one('SELECT count(*) FROM learning_activity WHERE org = ? AND day = ?', server.org, '2026-10-15');
    expect(answer.points.find((p) => p.date === '2026-10-15')!.activeUsers).toBe(activeOn);
  });

  it('top mentors, topics, sentiment and costs match the sandbox data', async () => {
    const { engine } = await connect(server);
    const [mentors, topics, sentiment, costs] = await Promise.all([
      engine.invoke('analytics.topMentors', input),
      engine.invoke('analytics.topics', input),
      engine.invoke('analytics.sentiment', input),
      engine.invoke('analytics.costs', input),
    ]);
    const byMentor = all<{ id: string; name: string; n: number; cost: number }>(
      `SELECT s.mentor_unique_id AS id, m.name AS name, count(*) AS n, sum(s.cost) AS cost FROM chat_sessions s
       JOIN mentors m ON m.unique_id = s.mentor_unique_id WHERE s.org = ? AND s.started_at >= ? AND s.started_at < ?
       GROUP BY s.mentor_unique_id ORDER BY n DESC, m.name LIMIT 10`,
      server.org,
      OCTOBER.start,
      OCTOBER.end,
    );
    expect(mentors.rows.map((r) => [r.mentor, r.sessions])).toEqual(byMentor.map((m) => [m.name, m.n]));

    const byTopic = all<{ name: string; n: number }>(
      `SELECT t.name, count(*) AS n FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id
       WHERE t.org = ? AND st.started_at >= ? AND st.started_at < ? GROUP BY t.id ORDER BY n DESC, t.name LIMIT 10`,
      server.org,
      OCTOBER.start,
      OCTOBER.end,
    );
    expect(topics.rows).toEqual(byTopic.map((t) => ({ topic: t.name, conversations: t.n })));

    const bySentiment = Object.fromEntries(
      all<{ sentiment: string; n: number }>(
        `SELECT sentiment, count(*) AS n FROM chat_sessions WHERE org = ? AND started_at >= '2026-10-01' AND started_at < '2026-11-01' GROUP BY sentiment`,
        server.org,
      ).map((r) => [r.sentiment, r.n]),
    );
    const total = Object.values(bySentiment).reduce((a, b) => a + b, 0);
    for (const row of sentiment.rows) {
      expect(row.conversations).toBe(bySentiment[row.sentiment]);
      expect(row.share).toBeCloseTo((bySentiment[row.sentiment]! / total) * 100, 1);
    }

    const byModel = all<{ model: string; cost: number }>(
      `SELECT model, sum(cost) AS cost FROM chat_sessions WHERE org = ? AND started_at >= ? AND started_at < ? GROUP BY model ORDER BY cost DESC`,
      server.org,
      OCTOBER.start,
      OCTOBER.end,
    );
    expect(costs.byModel.map((m) => m.model)).toEqual(byModel.map((m) => m.model));
    costs.byModel.forEach((m, i) => expect(m.cost).toBeCloseTo(byModel[i]!.cost, 5));
    expect(costs.total).toBeCloseTo(
      byModel.reduce((s, m) => s + m.cost, 0),
      5,
    );
    expect(costs.byMentor.reduce((s, m) => s + m.cost, 0)).toBeCloseTo(costs.total, 4);
  });

  it('filters by mentor (name or id) where the platform can, and says where it cannot', async () => {
    const { engine } = await connect(server);
    const mentor = all<{ unique_id: string; name: string }>(
      "SELECT unique_id, name FROM mentors WHERE org = ? AND name = 'Calculus Coach'",
      server.org,
    )[0]!;
    const byName = await engine.invoke('analytics.kpis', { ...input, mentor: 'Calculus Coach' });
    const byId = await engine.invoke('analytics.kpis', { ...input, mentor: mentor.unique_id });
    const sessions = (a: typeof byName) => a.kpis.find((k) => k.key === 'sessions')!.value;
    expect(sessions(byName)).toBe(activity(OCTOBER, mentor.unique_id).sessions);
    expect(sessions(byId)).toBe(sessions(byName));
    expect(byName.notes.join(' ')).toContain('Not filtered by mentor');
    expect(byName.kpis.find((k) => k.key === 'cost')!.value).toBeCloseTo(activity(OCTOBER, mentor.unique_id).cost, 5);
    const unknown = await failure(engine, 'analytics.kpis', { ...input, mentor: 'Nobody' });
    expect(unknown).toMatchObject({ code: 'not_found', message: expect.stringContaining("No mentor 'Nobody'") });
  });

  it('filters learning figures by department', async () => {
    const { engine } = await connect(server);
    const department = all<{ id: number }>(
      'SELECT id FROM departments WHERE org = ? ORDER BY id LIMIT 1',
      server.org,
    )[0]!.id;
    const answer = await engine.invoke('analytics.kpis', { ...input, department });
    const active = one(
      `SELECT count(DISTINCT a.user_id) FROM learning_activity a JOIN users u ON u.id = a.user_id
       WHERE a.org = ? AND a.day >= '2026-10-01' AND a.day <= '2026-10-31' AND u.department_id = ?`,
      server.org,
      department,
    );
    expect(answer.kpis.find((k) => k.key === 'activeUsers')!.value).toBe(active);
  });

  it('refuses a reversed or malformed range, and shows the platform’s own “Invalid date format”', async () => {
    const { engine } = await connect(server);
    const reversed = await failure(engine, 'analytics.kpis', {
      range: { preset: 'custom', from: '2026-10-31', to: '2026-10-01' },
    });
    expect(reversed.code).toBe('validation');
    expect(reversed.message).toContain(
      'Invalid date range: the start date 2026-10-31 is after the end date 2026-10-01',
    );
    const malformed = await failure(engine, 'analytics.kpis', {
      range: { preset: 'custom', from: '1/10/2026', to: '2026-10-31' },
    });
    expect(malformed.message).toContain("Invalid date format: '1/10/2026' is not a date");
    const zone = await failure(engine, 'analytics.kpis', { range: { preset: '7d' }, timeZone: 'Paris' });
    expect(zone.message).toContain("Unknown time zone 'Paris'");

    // Straight to the platform with a date it refuses: its words, not 'Bad Request'.
    const api = new AnalyticsApi(
      createPlatformClient({ baseUrl: server.url, authScheme: 'Api-Key', secret: server.apiKey }),
      {
        org: server.org,
        username: server.user,
      },
    );
    await expect(api.topicStatistics({ start_date: '2026-02-30', end_date: '2026-03-31' })).rejects.toThrow(
      /^Invalid date format$/,
    );
  });
});

describe('the answer cache', () => {
  it('serves a fresh answer from SQLite, then the last answer with a reason when the tenant is down', async () => {
    const own = await sandbox({ seed: 'demo' });
    const { engine, dataDir, events } = await connect(own);
    const first = await engine.invoke('analytics.topics', input);
    expect(first.freshness).toMatchObject({ source: 'api', offline: null });
    const second = await engine.invoke('analytics.topics', input);
    expect(second.freshness).toEqual({ ...first.freshness, source: 'cache' });
    expect(second.rows).toEqual(first.rows);

    // An hour later the answer is stale: served at once, refreshed behind, and the screens are told.
    const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
    db.prepare("UPDATE analytics_cache SET as_of = ? WHERE call = 'topics'").run(
      new Date(Date.now() - 3_600_000).toISOString(),
    );
    const stale = await engine.invoke('analytics.topics', input);
    expect(stale.freshness.source).toBe('cache');
    await until('the background refresh', () => events.some((e) => e.name === 'analytics.changed'));
    const asOf = db.prepare("SELECT as_of FROM analytics_cache WHERE call = 'topics'").pluck().get() as string;
    expect(Date.now() - Date.parse(asOf)).toBeLessThan(60_000);
    db.close();

    await own.close();
    const offline = await engine.invoke('analytics.topics', { ...input, refresh: true });
    expect(offline.rows).toEqual(first.rows);
    expect(offline.freshness.source).toBe('cache');
    expect(offline.freshness.offline).toMatch(/Could not reach/);
    // Nothing cached for another range: a clear error, not an empty chart.
    const missing = await failure(engine, 'analytics.topics', {
      ...input,
      range: { preset: 'custom', from: '2026-09-01', to: '2026-09-30' },
    });
    expect(missing.code).toBe('unreachable');
  });
});

describe('the Overview in one call', () => {
  it('answers every cached panel at once, null for the others, without asking the tenant', async () => {
    const own = await sandbox({ seed: 'demo' });
    const front = await proxy(own);
    const { engine, dataDir, events } = await connect(own, { baseUrl: front.url });

    // Nothing cached yet: every panel null, and not one request to the tenant.
    expect(await engine.invoke('analytics.overview', input)).toEqual({
      kpis: null,
      activity: null,
      topMentors: null,
      topics: null,
      sentiment: null,
      costs: null,
    });
    expect(front.requests).toEqual([]);

    // Two panels asked for on their own: the overview serves exactly what their calls serve from the cache.
    const kpis = await engine.invoke('analytics.kpis', input);
    const topics = await engine.invoke('analytics.topics', input);
    front.requests.length = 0;
    const overview = await engine.invoke('analytics.overview', input);
    expect(overview.kpis).toEqual({ ...kpis, freshness: { ...kpis.freshness, source: 'cache' } });
    expect(overview.topics).toEqual({ ...topics, freshness: { ...topics.freshness, source: 'cache' } });
    expect(overview.kpis).toEqual(await engine.invoke('analytics.kpis', input));
    expect([overview.activity, overview.topMentors, overview.sentiment, overview.costs]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // Other filters are other answers.
    expect((await engine.invoke('analytics.overview', { ...input, timeZone: 'UTC' })).kpis).toBeNull();
    expect(front.requests).toEqual([]);

    // A stale panel is served at once and refreshed behind, like its own call does.
    const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
    db.prepare("UPDATE analytics_cache SET as_of = ? WHERE call = 'topics'").run(
      new Date(Date.now() - 3_600_000).toISOString(),
    );
    db.close();
    const stale = await engine.invoke('analytics.overview', input);
    expect(stale.topics?.rows).toEqual(topics.rows);
    expect(stale.topics?.freshness.source).toBe('cache');
    await until('the background refresh', () =>
      events.some((e) => e.name === 'analytics.changed' && (e.payload as { call: string }).call === 'topics'),
    );
    expect(front.requests.length).toBeGreaterThan(0);

    // The tenant gone: the overview still answers from the cache, at once.
    await own.close();
    const offline = await engine.invoke('analytics.overview', input);
    expect(offline.kpis?.kpis).toEqual(kpis.kpis);
    expect(offline.costs).toBeNull();
    // A refresh is the panels' business: the overview refuses the flag rather than ignore it.
    expect((await failure(engine, 'analytics.overview', { ...input, refresh: true } as never)).code).toBe('validation');
  });
});

describe('empty charts', () => {
  const quiet = { range: { preset: 'custom' as const, from: '2020-01-01', to: '2020-01-07' }, timeZone: 'UTC' };

  it('decides once, in the engine: a chart with no data shows none and exports none', async () => {
    const { engine } = await connect(server);
    const [activity, mentors, topics, sentiment, costs, kpis] = await Promise.all([
      engine.invoke('analytics.activity', quiet),
      engine.invoke('analytics.topMentors', quiet),
      engine.invoke('analytics.topics', quiet),
      engine.invoke('analytics.sentiment', quiet),
      engine.invoke('analytics.costs', quiet),
      engine.invoke('analytics.kpis', quiet),
    ]);
    // Seven days of zeros and three sentiments of none are no data.
    expect(activity.points).toHaveLength(7);
    expect(sentiment.rows).toHaveLength(3);
    for (const answer of [activity, mentors, topics, sentiment, costs]) expect(answer.empty).toBe(true);
    // 0 before and 0 now: no percentage, and the card says why.
    expect(kpis.kpis.find((k) => k.key === 'sessions')).toMatchObject({
      value: 0,
      previous: 0,
      change: null,
      note: 'None in either period.',
    });

    for (const chart of ['activity', 'top-mentors', 'topics', 'sentiment', 'costs-by-model', 'costs-by-mentor']) {
      const started = await engine.invoke('analytics.exportStart', {
        dataset: `chart.${chart}`,
        ...quiet,
        folder: tempDir(),
      });
      const done = await settled(engine, started.id);
      expect(done.state, `${chart}: ${done.error ?? ''}`).toBe('completed');
      expect(done.rows, chart).toBe(0);
      expect(readFileSync(done.path, 'utf8').split('\r\n').filter(Boolean), chart).toHaveLength(1);
    }

    // The same charts over October have data, on screen and in the file.
    const october = await engine.invoke('analytics.activity', input);
    expect(october.empty).toBe(false);
    const started = await engine.invoke('analytics.exportStart', {
      dataset: 'chart.activity',
      ...input,
      folder: tempDir(),
    });
    expect((await settled(engine, started.id)).rows).toBe(31);
  });
});

describe('a period under way', () => {
  it('compares today so far with yesterday until the same time, and marks the day that is not over', async () => {
    // Demo data up to this very moment, as the app's own sandbox has it.
    const live = await sandbox({ seed: 'demo', seedAnchor: new Date() });
    const { engine } = await connect(live);
    const today = { range: { preset: 'today' as const }, timeZone: 'UTC' };
    const asked = Date.now();
    const answer = await engine.invoke('analytics.kpis', today);
    const answered = Date.now();
    const { range } = answer;
    expect(range.partial).toBe(true);
    // The day before, cut at the same time of day (what a like-for-like comparison is).
    const cut = Date.parse(range.previous!.end);
    expect(cut).toBeGreaterThanOrEqual(asked - DAY);
    expect(cut).toBeLessThanOrEqual(answered - DAY);
    expect(range.previous!.start).toBe(new Date(Date.parse(range.start) - DAY).toISOString());

    // The platform counts sessions per hour: an hour counts when it starts before the cut.
    const hourAfterCut = new Date(Math.floor((cut - 1) / HOUR) * HOUR + HOUR).toISOString();
    const count = (from: string, to: string) =>
      live.db
        .prepare('SELECT count(*) FROM chat_sessions WHERE org = ? AND started_at >= ? AND started_at < ?')
        .pluck()
        .get(live.org, from, to) as number;
    const now = count(range.start, range.end);
    const before = count(range.previous!.start, hourAfterCut);
    // Demo learners are quiet at night (UTC): only in the small hours may yesterday until now hold no session.
    if (Date.parse(hourAfterCut) - Date.parse(range.previous!.start) > 6 * HOUR) expect(before).toBeGreaterThan(0);
    // The cut leaves part of yesterday out (unless the day is nearly over: then there is next to nothing after it).
    const wholeYesterday = count(range.previous!.start, range.start);
    if (Date.parse(range.start) - Date.parse(hourAfterCut) >= 2 * HOUR) expect(before).toBeLessThan(wholeYesterday);
    else expect(before).toBeLessThanOrEqual(wholeYesterday);
    const sessions = answer.kpis.find((k) => k.key === 'sessions')!;
    expect(sessions).toMatchObject({ value: now, previous: before, change: percentChange(now, before) });
    const until = new Date(cut).toISOString().slice(11, 16);
    expect(sessions.note).toBe(`So far today, against yesterday until ${until}.`);
    // Figures the platform counts per whole day are not compared while the day is under way.
    const active = answer.kpis.find((k) => k.key === 'activeUsers')!;
    expect(active.change).toBeNull();
    expect(active.note).toBe('Counted in whole days; compared once today is over.');
    // And they add up: no more active learners than sessions.
    expect(active.value!).toBeLessThanOrEqual(sessions.value!);

    // A week's last day is marked as not over, the others are not.
    const week = await engine.invoke('analytics.activity', { ...today, range: { preset: '7d' } });
    expect(week.points.map((p) => p.partial)).toEqual([false, false, false, false, false, false, true]);
    expect(week.notes).toContain('The last day is not over: its figures are so far.');
    // A range that ended is whole: nothing partial.
    const past = await engine.invoke('analytics.activity', input);
    expect(past.range.partial).toBe(false);
    expect(past.points.some((p) => p.partial)).toBe(false);
  });
});

describe('key figures', () => {
  it('each say what they count and which endpoint they come from', async () => {
    const { engine } = await connect(server);
    const [overview, learning] = await Promise.all([
      engine.invoke('analytics.kpis', input),
      engine.invoke('analytics.learning', input),
    ]);
    for (const kpi of [...overview.kpis, ...learning.kpis]) {
      expect(kpi.definition, kpi.key).toMatch(/\/api\/ai-analytics\/\S+/);
    }
    expect(overview.kpis.find((k) => k.key === 'sessions')!.definition).toContain('average-messages-per-session/');
    expect(overview.kpis.find((k) => k.key === 'activeUsers')!.definition).toContain(
      'overview/orgs/{org}/active-users',
    );
    // The Learning tab's rate and grade are percentages.
    expect(learning.kpis.map((k) => [k.key, k.unit])).toEqual([
      ['activeUsers', 'count'],
      ['registeredUsers', 'count'],
      ['completions', 'count'],
      ['completionRate', 'percent'],
      ['averageGrade', 'percent'],
    ]);
  });
});
