import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { call, type Call, sandbox, sandboxQueries } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const T = '/api/ai-analytics/orgs/{org}/users/{user_id}/';
let server: Sandbox;
let base: string;
let mentorIds: string[];
const DAY = 86_400_000;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea] });
  base = `/api/ai-analytics/orgs/${server.org}/users/${server.user}/`;
  mentorIds = server.db
    .prepare('SELECT unique_id FROM mentors WHERE org = ? ORDER BY id')
    .pluck()
    .all(server.org) as string[];
});

const get = (path: string, key?: string | null) => call(server, 'GET', base + path, key === undefined ? {} : { key });
const { scalar, rows } = sandboxQueries(() => server);
/** A 200 whose body matches the spec's schema for the operation. */
function ok(res: Call, op: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSpecValid('get', T + op, 200, res.body);
  return res.body;
}
/** An error with the catalogue message; validated against the spec when the operation declares that status. */
function fails(res: Call, status: number, detail: string, op?: string) {
  expect(res).toMatchObject({ status, body: { detail } });
  if (op) expectSpecValid('get', T + op, status, res.body);
}

interface Conversation {
  id: string;
  messages: string;
  topics: { name: string }[];
  sentiment: string;
  mentor: string;
  student: string;
  rating: number;
  inserted_at: string;
  metadata: { message_count: number; cost: number };
}
interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

describe('chat-history', () => {
  it('lists the tenant’s conversations newest first, DRF-paged, with counts equal to SQL', async () => {
    const first = ok(await get('chat-history/?page_size=25'), 'chat-history/') as Page<Conversation>;
    const total = scalar('SELECT count(*) FROM chat_sessions WHERE org = ?', server.org);
    expect(first.count).toBe(total);
    expect(first.results).toHaveLength(25);
    expect(first.previous).toBeNull();
    expect(new URL(first.next!).searchParams.get('page')).toBe('2');
    const expected = server.db
      .prepare('SELECT session_id FROM chat_sessions WHERE org = ? ORDER BY started_at DESC, id DESC LIMIT 25')
      .pluck()
      .all(server.org);
    expect(first.results.map((c) => c.id)).toEqual(expected);
    const stamps = first.results.map((c) => c.inserted_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const second = ok(await get('chat-history/?page_size=25&page=2'), 'chat-history/') as Page<Conversation>;
    expect(new URL(second.previous!).searchParams.get('page')).toBe('1');
    expect(second.results[0]!.inserted_at <= first.results[24]!.inserted_at).toBe(true);
  });

  it('filters by mentor, sentiment, learner, topics and dates, matching independent SQL counts', async () => {
    const mentor = mentorIds[0]!;
    const learner = 'learner0001';
    const count = (query: string) =>
      get(`chat-history/?page_size=5&${query}`).then((r) => (ok(r, 'chat-history/') as Page<Conversation>).count);
    const sql = (where: string, ...params: unknown[]) =>
      scalar(`SELECT count(*) FROM chat_sessions s WHERE s.org = 'northbridge' AND ${where}`, ...params);
    const topicSql = (names: string[]) =>
      `s.id IN (SELECT st.session_pk FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id
        WHERE t.org = 'northbridge' AND t.name IN (${names.map((n) => `'${n}'`).join(',')}))`;

    expect(await count(`mentor=${mentor}`)).toBe(sql('s.mentor_unique_id = ?', mentor));
    expect(await count('sentiment=negative')).toBe(sql("s.sentiment = 'negative'"));
    expect(await count(`filter_user_id=${learner}`)).toBe(sql('s.username = ?', learner));
    expect(await count('start_date=2026-10-01&end_date=2026-10-15')).toBe(
      sql("s.started_at >= '2026-10-01' AND s.started_at < '2026-10-16'"),
    );
    expect(await count('topics=Limits')).toBe(sql(topicSql(['Limits'])));
    expect(await count('topics=limits,%20Derivatives')).toBe(sql(topicSql(['Limits', 'Derivatives'])));
    expect(await count(`topics=Limits,Derivatives&mentor=${mentor}&sentiment=positive&start_date=2026-08-01`)).toBe(
      sql(
        `${topicSql(['Limits', 'Derivatives'])} AND s.mentor_unique_id = ? AND s.sentiment = 'positive' AND s.started_at >= '2026-08-01'`,
        mentor,
      ),
    );
    expect(await count(`topics=Exam%20preparation&filter_user_id=${learner}`)).toBe(
      sql(`${topicSql(['Exam preparation'])} AND s.username = ?`, learner),
    );
    expect(await count('topics=No%20such%20topic')).toBe(0);
    expect(await count('sentiment=ecstatic')).toBe(0);

    const page = ok(
      await get(`chat-history/?mentor=${mentor}&sentiment=negative&page_size=50`),
      'chat-history/',
    ) as Page<Conversation>;
    expect(page.results.length).toBeGreaterThan(0);
    for (const c of page.results) expect(c).toMatchObject({ mentor, sentiment: 'negative' });
  });

  it('pages at any depth exactly as one SQL ORDER BY would (keyset anchors, sequential and random access)', async () => {
    const expectedFor = (where: string, offset: number, limit: number) =>
      server.db
        .prepare(
          `SELECT session_id FROM chat_sessions s WHERE s.org = 'northbridge' ${where} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?`,
        )
        .pluck()
        .all(limit, offset);
    const total = scalar("SELECT count(*) FROM chat_sessions WHERE org = 'northbridge'");
    const pageSize = 100;
    const lastPage = Math.ceil(total / pageSize);
    // Deep jumps first (anchors from the first request's survey), then around them, then the last page.
    for (const page of [lastPage - 3, 21, 20, 22, 41, 2, 1, lastPage - 1, lastPage]) {
      const body = ok(
        await get(`chat-history/?page_size=${pageSize}&page=${page}`),
        'chat-history/',
      ) as Page<Conversation>;
      expect(
        body.results.map((c) => c.id),
        `page ${page}`,
      ).toEqual(expectedFor('', (page - 1) * pageSize, pageSize));
    }
    const topics = `AND s.id IN (SELECT st.session_pk FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id
      WHERE t.name IN ('Exam preparation', 'Course logistics', 'Assignment help'))`;
    for (const page of [30, 1, 29, 31, 5]) {
      const body = ok(
        await get(
          `chat-history/?page_size=40&page=${page}&topics=Exam%20preparation,Course%20logistics,Assignment%20help`,
        ),
        'chat-history/',
      ) as Page<Conversation>;
      expect(
        body.results.map((c) => c.id),
        `topics page ${page}`,
      ).toEqual(expectedFor(topics, (page - 1) * 40, 40));
    }
    fails(await get(`chat-history/?page_size=${pageSize}&page=${lastPage + 1}`), 404, 'Invalid page.');
  });

  it('returns one conversation with its transcript, honouring the list filters', async () => {
    const row = rows<{
      session_id: string;
      id: number;
      mentor_unique_id: string;
      sentiment: string;
      message_count: number;
    }>(
      "SELECT session_id, id, mentor_unique_id, sentiment, message_count FROM chat_sessions WHERE org = 'northbridge' AND message_count >= 4 LIMIT 1",
    )[0]!;
    const detail = ok(await get(`chat-history/${row.session_id}/`), 'chat-history/{id}/') as Conversation;
    expect(detail).toMatchObject({
      id: row.session_id,
      mentor: row.mentor_unique_id,
      sentiment: row.sentiment,
      platform: server.org,
    });
    const transcript = JSON.parse(detail.messages) as { type: string; content: string; timestamp: string }[];
    const stored = rows<{ role: string; content: string; created_at: string }>(
      'SELECT role, content, created_at FROM chat_messages WHERE session_pk = ? ORDER BY id',
      row.id,
    );
    expect(transcript).toEqual(
      stored.map((m) => ({ type: m.role === 'user' ? 'human' : 'ai', content: m.content, timestamp: m.created_at })),
    );
    expect(detail.metadata.message_count).toBe(row.message_count);
    expect((await get(`chat-history/${row.session_id}/?sentiment=${row.sentiment}`)).status).toBe(200);
    const other = row.sentiment === 'positive' ? 'negative' : 'positive';
    fails(await get(`chat-history/${row.session_id}/?sentiment=${other}`), 404, 'Not found.');
    fails(await get('chat-history/00000000-0000-4000-8000-000000000000/'), 404, 'Not found.');
    const foreign = scalar<string>("SELECT session_id FROM chat_sessions WHERE org = 'riverside' LIMIT 1");
    fails(await get(`chat-history/${foreign}/`), 404, 'Not found.');
  });

  it('rejects malformed input with the catalogue messages', async () => {
    fails(await get('chat-history/?start_date=2026-13-01'), 400, 'Invalid date format');
    fails(await get('chat-history/?end_date=yesterday'), 400, 'Invalid date format');
    fails(await get('chat-history/?start_date=2026-10-10&end_date=2026-10-01'), 400, 'Invalid date format');
    fails(await get('chat-history/?start_date=2026-10-01T10:00:00Z'), 400, 'Invalid date format');
    fails(await get('chat-history/?mentor=not-a-uuid'), 400, 'Invalid parameters');
    expect((await get('chat-history/?page=abc')).status).toBe(400);
  });

  it('is restricted to tenant admins and never crosses tenants', async () => {
    const student = server.studentUser;
    const asStudent = (user: string) =>
      call(server, 'GET', `/api/ai-analytics/orgs/${server.org}/users/${user}/chat-history/`, {
        key: server.studentKey,
      });
    expect((await asStudent(student)).status).toBe(403);
    expect((await asStudent(server.user)).status).toBe(403);
    expect((await get('chat-history/', null)).status).toBe(401);
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/chat-history/`),
      404,
      'Organization not found',
    );
    // The other tenant's admin sees exactly its own conversations.
    const other = await call(
      server,
      'GET',
      `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/chat-history/?page_size=1000`,
      {
        key: server.otherOrg.apiKey,
      },
    );
    const body = ok(other, 'chat-history/') as Page<Conversation>;
    expect(body.count).toBe(scalar("SELECT count(*) FROM chat_sessions WHERE org = 'riverside'"));
    const ours = new Set(
      server.db.prepare("SELECT session_id FROM chat_sessions WHERE org = 'northbridge'").pluck().all(),
    );
    expect(body.results.some((c) => ours.has(c.id))).toBe(false);
    fails(
      await call(server, 'GET', `${base}chat-history/`, { key: server.otherOrg.apiKey }),
      404,
      'Organization not found',
    );
  });
});

describe('topics', () => {
  const topicCounts = (start: string, end: string) =>
    rows<{ name: string; n: number }>(
      `SELECT t.name, count(*) AS n FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id JOIN chat_sessions s ON s.id = st.session_pk
       WHERE s.org = 'northbridge' AND s.started_at >= ? AND s.started_at < ? GROUP BY t.name ORDER BY n DESC, t.name`,
      start,
      end,
    );

  it('summarises the top 10 topics of a date range', async () => {
    const body = ok(await get('topics/summary/?start_date=2026-09-01&end_date=2026-09-30'), 'topics/summary/') as {
      name: string;
      conversation_count: number;
    }[];
    expect(body).toEqual(
      topicCounts('2026-09-01', '2026-10-01')
        .slice(0, 10)
        .map((t) => ({ name: t.name, conversation_count: t.n })),
    );
    const all = ok(await get('topics/summary/'), 'topics/summary/') as unknown[];
    expect(all).toHaveLength(10);
    fails(await get('topics/summary/?start_date=2026-02-30'), 400, 'Invalid date format', 'topics/summary/');
    fails(
      await get('topics/summary/?start_date=2026-10-02&end_date=2026-10-01'),
      400,
      'Invalid date format',
      'topics/summary/',
    );
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/topics/summary/`),
      404,
      'Organization not found',
      'topics/summary/',
    );
  });

  it('pages topic statistics (page 1, page size 20 by default) with SQL-exact figures', async () => {
    const body = ok(await get('topic-statistics/'), 'topic-statistics/') as Page<{
      name: string;
      conversations: number;
      messages: number;
      avg_sentiment: string;
      avg_user_rating: string;
    }>;
    const expected = rows<{ name: string; conversations: number; messages: number; rating: number | null }>(
      `SELECT t.name, count(*) AS conversations, sum(s.message_count) AS messages, avg(s.rating) AS rating
       FROM chat_session_topics st JOIN chat_topics t ON t.id = st.topic_id JOIN chat_sessions s ON s.id = st.session_pk
       WHERE s.org = 'northbridge' GROUP BY t.name ORDER BY conversations DESC, t.name`,
    );
    expect(body.count).toBe(expected.length);
    expect(body.results).toHaveLength(20);
    expect(body.previous).toBeNull();
    body.results.forEach((r, i) => {
      expect(r).toMatchObject({
        name: expected[i]!.name,
        conversations: expected[i]!.conversations,
        messages: expected[i]!.messages,
      });
      expect(r.avg_user_rating).toBe((expected[i]!.rating ?? 0).toFixed(2));
      expect(['positive', 'neutral', 'negative']).toContain(r.avg_sentiment);
    });
    const page2 = ok(
      await get('topic-statistics/?page=2&page_size=30&start_date=2026-10-01&end_date=2026-10-31'),
      'topic-statistics/',
    ) as Page<{ name: string }>;
    expect(page2.results.map((r) => r.name)).toEqual(
      topicCounts('2026-10-01', '2026-11-01')
        .slice(30, 60)
        .map((t) => t.name),
    );
    const mentor = ok(await get(`topic-statistics/?mentor_id=${mentorIds[0]}`), 'topic-statistics/') as Page<{
      conversations: number;
    }>;
    expect(mentor.results.reduce((s, r) => s + r.conversations, 0)).toBe(
      scalar('SELECT count(*) FROM chat_session_topics WHERE mentor_unique_id = ?', mentorIds[0]),
    );
    fails(
      await get('topic-statistics/?mentor_id=00000000-0000-4000-8000-000000000000'),
      404,
      'Organization or mentor not found',
      'topic-statistics/',
    );
    fails(await get('topic-statistics/?end_date=31/10/2026'), 400, 'Invalid date format', 'topic-statistics/');
  });

  it('ranks the most discussed topics of a range', async () => {
    const body = ok(
      await get('most-discussed-topics/?start_date=2026-10-01&end_date=2026-10-14&aggregation=weekly'),
      'most-discussed-topics/',
    ) as {
      topic_name: string;
      conversation_count: number;
    }[];
    expect(body).toEqual(
      topicCounts('2026-10-01', '2026-10-15').map((t) => ({ topic_name: t.name, conversation_count: t.n })),
    );
    fails(
      await get('most-discussed-topics/?start_date=2026-10-01'),
      400,
      'Invalid parameters',
      'most-discussed-topics/',
    );
    fails(
      await get('most-discussed-topics/?start_date=2026-10-01&end_date=2026-10-02&aggregation=yearly'),
      400,
      'Invalid parameters',
      'most-discussed-topics/',
    );
  });
});

describe('volumes over time', () => {
  it('counts distinct learners per day in usage-summary (figures from SQL, zero-filled)', async () => {
    const body = ok(await get('usage-summary/?start_date=2026-10-01&end_date=2026-10-10'), 'usage-summary/') as {
      date: string;
      user_count: number;
    }[];
    expect(body.map((d) => d.date)).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`),
    );
    const expected = rows<{ day: string; n: number }>(
      `SELECT substr(started_at, 1, 10) AS day, count(DISTINCT username) AS n FROM chat_sessions
       WHERE org = 'northbridge' AND started_at >= '2026-10-01' AND started_at < '2026-10-11' GROUP BY day`,
    );
    expect(body.map((d) => d.user_count)).toEqual(expected.map((e) => e.n));
    const weekly = ok(
      await get('usage-summary/?start_date=2026-10-05&end_date=2026-10-18&group_by=week'),
      'usage-summary/',
    ) as { date: string }[];
    expect(weekly.map((w) => w.date)).toEqual(['2026-10-05', '2026-10-12']);
    fails(await get('usage-summary/?start_date=2026-10-01'), 400, 'Invalid parameters', 'usage-summary/');
    fails(
      await get('usage-summary/?start_date=2026-10-01&end_date=2026-1-5'),
      400,
      'Invalid date format',
      'usage-summary/',
    );
    fails(
      await get('usage-summary/?start_date=2026-10-01&end_date=2026-10-05&group_by=decade'),
      400,
      'Invalid parameters',
      'usage-summary/',
    );
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/usage-summary/`),
      404,
      'Organization not found',
      'usage-summary/',
    );
  });

  it('reports conversation volume, average messages per session and ratings per bucket', async () => {
    const range = 'start_date=2026-10-01&end_date=2026-10-07';
    const volume = ok(await get(`conversation/?${range}`), 'conversation/') as {
      date: string;
      conversation_count: number;
    }[];
    expect(volume).toHaveLength(7);
    expect(volume.reduce((s, d) => s + d.conversation_count, 0)).toBe(
      scalar(
        "SELECT count(*) FROM chat_sessions WHERE org = 'northbridge' AND started_at >= '2026-10-01' AND started_at < '2026-10-08'",
      ),
    );
    const hourly = ok(
      await get(`conversation/?start_date=2026-10-01&end_date=2026-10-01&aggregation=hourly&mentor_id=${mentorIds[1]}`),
      'conversation/',
    ) as {
      conversation_count: number;
    }[];
    expect(hourly).toHaveLength(24);
    expect(hourly.reduce((s, d) => s + d.conversation_count, 0)).toBe(
      scalar(
        "SELECT count(*) FROM chat_sessions WHERE org = 'northbridge' AND mentor_unique_id = ? AND started_at >= '2026-10-01' AND started_at < '2026-10-02'",
        mentorIds[1],
      ),
    );
    const averages = ok(await get(`average-messages-per-session/?${range}`), 'average-messages-per-session/') as {
      time: string;
      avg_messages: number;
      total_sessions: number;
    }[];
    const expected = rows<{ day: string; avg: number; n: number }>(
      `SELECT substr(started_at, 1, 10) AS day, avg(message_count) AS avg, count(*) AS n FROM chat_sessions
       WHERE org = 'northbridge' AND started_at >= '2026-10-01' AND started_at < '2026-10-08' GROUP BY day`,
    );
    expect(averages.map((a) => [a.time.slice(0, 10), a.avg_messages, a.total_sessions])).toEqual(
      expected.map((e) => [e.day, Math.round(e.avg), e.n]),
    );
    const ratings = ok(await get(`rating-summary/?${range}`), 'rating-summary/') as { total_ratings: number }[];
    expect(ratings.reduce((s, r) => s + r.total_ratings, 0)).toBe(
      scalar(
        "SELECT count(*) FROM chat_sessions WHERE org = 'northbridge' AND rating IS NOT NULL AND ended_at >= '2026-10-01' AND ended_at < '2026-10-08'",
      ),
    );
    expect(
      ok(await get('rating-summary/?start_date=2026-10-01&end_date=2026-10-01&group_by=hour'), 'rating-summary/'),
    ).toHaveLength(24);
    fails(
      await get('rating-summary/?start_date=2026-10-01&end_date=2026-10-02&group_by=week'),
      400,
      'Invalid parameters',
      'rating-summary/',
    );
    fails(await get('conversation/?end_date=2026-10-02'), 400, 'Invalid parameters', 'conversation/');
    fails(
      await get('average-messages-per-session/?start_date=2026-10-01&end_date=2026-10-02&aggregation=monthly'),
      400,
      'Invalid parameters',
      'average-messages-per-session/',
    );
  });

  it('counts sentiment per day over a period ending today (7 days by default)', async () => {
    const week = ok(await get('sentiment-count/'), 'sentiment-count/') as { date: string; sentiment_count: number }[];
    expect(week).toHaveLength(7);
    const today = new Date(Math.floor(Date.now() / DAY) * DAY).toISOString();
    expect(week[6]!.date).toBe(`${today.slice(0, 19)}Z`);
    const quarter = ok(await get('sentiment-count/?period=90d'), 'sentiment-count/') as {
      sentiment_count: number;
      positive: number;
      neutral: number;
      negative: number;
    }[];
    expect(quarter).toHaveLength(90);
    const from = new Date(Math.floor(Date.now() / DAY) * DAY - 89 * DAY).toISOString();
    const bySentiment = rows<{ sentiment: string; n: number }>(
      "SELECT sentiment, count(*) AS n FROM chat_sessions WHERE org = 'northbridge' AND started_at >= ? GROUP BY sentiment",
      from,
    );
    const sum = (key: 'positive' | 'neutral' | 'negative') => quarter.reduce((s, d) => s + d[key], 0);
    for (const { sentiment, n } of bySentiment) expect(sum(sentiment as 'positive')).toBe(n);
    expect(quarter.reduce((s, d) => s + d.sentiment_count, 0)).toBe(bySentiment.reduce((s, r) => s + r.n, 0));
    expect((ok(await get('sentiment-count/?period=yesterday'), 'sentiment-count/') as unknown[]).length).toBe(1);
    fails(await get('sentiment-count/?period=fortnight'), 400, 'Invalid parameters');
  });
});

describe('overviews', () => {
  it('summarises conversations, users, topics and ratings with month-over-month changes', async () => {
    const body = ok(await get('overview-summary/'), 'overview-summary/') as Record<
      string,
      { total: number; change: number }
    >;
    expect(body.conversation_volume!.total).toBe(
      scalar("SELECT count(*) FROM chat_sessions WHERE org = 'northbridge'"),
    );
    expect(body.users!.total).toBe(
      scalar("SELECT count(DISTINCT username) FROM chat_sessions WHERE org = 'northbridge'"),
    );
    expect(body.topics!.total).toBe(scalar("SELECT count(*) FROM chat_topics WHERE org = 'northbridge'"));
    expect(body.user_rating!.total).toBe(scalar("SELECT count(rating) FROM chat_sessions WHERE org = 'northbridge'"));
    const last = new Date(Date.now() - 30 * DAY).toISOString();
    const previous = new Date(Date.now() - 60 * DAY).toISOString();
    const inWindow = (a: string, b: string) =>
      scalar(
        "SELECT count(*) FROM chat_sessions WHERE org = 'northbridge' AND started_at >= ? AND started_at < ?",
        a,
        b,
      );
    const [now, before] = [inWindow(last, '9999'), inWindow(previous, last)];
    expect(body.conversation_volume!.change).toBeCloseTo(((now - before) / before) * 100, 1);
    const mentor = ok(await get(`overview-summary/?mentor_id=${mentorIds[2]}`), 'overview-summary/') as Record<
      string,
      { total: number }
    >;
    expect(mentor.conversation_volume!.total).toBe(
      scalar('SELECT count(*) FROM chat_sessions WHERE mentor_unique_id = ?', mentorIds[2]),
    );
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/overview-summary/`),
      404,
      'Organization not found',
      'overview-summary/',
    );
  });

  it('reports registered, new, unique and veteran users', async () => {
    const body = ok(await get('user-metrics/'), 'user-metrics/') as Record<
      string,
      { total: number; change_percentage: number }
    >;
    expect(body.registered_users!.total).toBe(scalar("SELECT count(*) FROM users WHERE org = 'northbridge'"));
    expect(body.unique_users!.total).toBe(
      scalar("SELECT count(DISTINCT username) FROM chat_sessions WHERE org = 'northbridge'"),
    );
    expect(body.new_users!.total).toBe(
      scalar(
        "SELECT count(*) FROM users WHERE org = 'northbridge' AND date_joined >= ?",
        new Date(Date.now() - 30 * DAY).toISOString(),
      ),
    );
    expect(body.veteran_users!.total).toBe(
      scalar(
        `SELECT count(DISTINCT s.username) FROM chat_sessions s JOIN users u ON u.username = s.username
         WHERE s.org = 'northbridge' AND u.date_joined <= ?`,
        new Date(Date.now() - 180 * DAY).toISOString(),
      ),
    );
    const mentor = ok(await get(`user-metrics/?mentor_id=${mentorIds[3]}`), 'user-metrics/') as Record<
      string,
      { total: number }
    >;
    expect(mentor.unique_users!.total).toBe(
      scalar('SELECT count(DISTINCT username) FROM chat_sessions WHERE mentor_unique_id = ?', mentorIds[3]),
    );
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/user-metrics/`),
      404,
      'Organization not found',
      'user-metrics/',
    );
  });

  it('lists transcripts of a range, filtered by mentor and topics', async () => {
    const body = ok(
      await get(`transcripts/?start_date=2026-10-20&end_date=2026-10-31&mentor=${mentorIds[0]}`),
      'transcripts/',
    ) as {
      id: string;
      user_id: string;
      message_count: number;
      first_message: string;
    }[];
    const expected = rows<{ session_id: string; username: string; message_count: number; first_message: string }>(
      `SELECT session_id, username, message_count, first_message FROM chat_sessions WHERE org = 'northbridge' AND mentor_unique_id = ?
       AND started_at >= '2026-10-20' AND started_at < '2026-11-01' ORDER BY started_at DESC, id DESC`,
      mentorIds[0],
    );
    expect(body.map((t) => [t.id, t.user_id, t.message_count, t.first_message])).toEqual(
      expected.map((e) => [e.session_id, e.username, e.message_count, e.first_message]),
    );
    const topics = ok(await get('transcripts/?start_date=2026-10-25&topics=Limits'), 'transcripts/') as {
      topics: { name: string }[];
    }[];
    expect(topics.length).toBeGreaterThan(0);
    for (const t of topics) expect(t.topics.map((x) => x.name)).toContain('Limits');
    fails(
      await call(server, 'GET', `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/transcripts/`),
      404,
      'Organization not found',
      'transcripts/',
    );
  });

  it('refuses every conversation analytic to students', async () => {
    const ops = [
      'topics/summary/',
      'topic-statistics/',
      'sentiment-count/',
      'overview-summary/',
      'user-metrics/',
      'transcripts/',
    ];
    for (const op of ops) {
      const res = await call(server, 'GET', `/api/ai-analytics/orgs/${server.org}/users/${server.studentUser}/${op}`, {
        key: server.studentKey,
      });
      expect(res.status, op).toBe(403);
    }
  });
});

describe('costs', () => {
  const range = 'start_date=2026-10-01T00:00:00Z&end_date=2026-10-15T23:59:59Z';
  const messageCosts = (group: string) =>
    rows<{ key: string; cost: number }>(
      `SELECT ${group} AS key, sum(m.cost) AS cost FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
       WHERE s.org = 'northbridge' AND s.started_at >= '2026-10-01T00:00:00.000Z' AND s.started_at <= '2026-10-15T23:59:59.000Z'
       GROUP BY key ORDER BY round(sum(m.cost), 6) DESC, key`,
    );

  it('splits costs by model, equal to the sum of the assistant messages’ costs', async () => {
    const body = ok(await get(`costs/model/?${range}`), 'costs/model/') as {
      model: string;
      total_cost: number;
      model_costs: { model: string; total_cost: number }[];
    };
    const expected = messageCosts('s.model');
    expect(body.model).toBe('all');
    expect(body.model_costs.map((m) => m.model)).toEqual(expected.map((e) => e.key));
    body.model_costs.forEach((m, i) => expect(m.total_cost).toBeCloseTo(expected[i]!.cost, 4));
    expect(body.total_cost).toBeCloseTo(
      expected.reduce((s, e) => s + e.cost, 0),
      4,
    );
    expect(new Set(expected.map((e) => e.key))).toEqual(new Set(['gpt-4o', 'gpt-4o-mini', 'claude-sonnet']));
    // Plain dates are whole days; offsets are honoured.
    const days = ok(await get('costs/model/?start_date=2026-10-01&end_date=2026-10-15'), 'costs/model/') as {
      total_cost: number;
    };
    expect(days.total_cost).toBeCloseTo(body.total_cost, 4);
    const shifted = ok(
      await get('costs/model/?start_date=2026-10-01T02:00:00%2B02:00&end_date=2026-10-15T23:59:59Z'),
      'costs/model/',
    ) as { total_cost: number };
    expect(shifted.total_cost).toBeCloseTo(body.total_cost, 4);
    fails(await get('costs/model/?start_date=2026-10-01T00:00:00Z'), 400, 'Invalid parameters');
    fails(
      await get('costs/model/?start_date=2026-10-01T25:00:00Z&end_date=2026-10-02T00:00:00Z'),
      400,
      'Invalid date format',
    );
  });

  it('splits costs by mentor, with each conversation’s cost', async () => {
    const body = ok(await get(`costs/permentor/?${range}`), 'costs/permentor/') as {
      tenant: string;
      tenant_total_cost: number;
      mentor_data: {
        mentor_unique_id: string;
        mentor_name: string;
        total_cost: number;
        mentor_sessions: { session_id: string; cost: number }[];
      }[];
    };
    const expected = messageCosts('s.mentor_unique_id');
    expect(body.tenant).toBe(server.org);
    expect(body.mentor_data.map((m) => m.mentor_unique_id)).toEqual(expected.map((e) => e.key));
    for (const mentor of body.mentor_data) {
      expect(mentor.mentor_name).toBe(scalar('SELECT name FROM mentors WHERE unique_id = ?', mentor.mentor_unique_id));
      expect(mentor.mentor_sessions.reduce((s, x) => s + x.cost, 0)).toBeCloseTo(mentor.total_cost, 3);
      // Every conversation of the range, most expensive first.
      expect(mentor.mentor_sessions).toEqual(
        rows<{ session_id: string; cost: number }>(
          `SELECT session_id, cost FROM chat_sessions WHERE org = 'northbridge' AND mentor_unique_id = ?
           AND started_at >= '2026-10-01T00:00:00.000Z' AND started_at <= '2026-10-15T23:59:59.000Z'
           ORDER BY cost DESC, session_id`,
          mentor.mentor_unique_id,
        ),
      );
    }
    expect(body.tenant_total_cost).toBeCloseTo(
      expected.reduce((s, e) => s + e.cost, 0),
      4,
    );
    const limited = ok(await get(`costs/permentor/?${range}&limit=2&offset=1`), 'costs/permentor/') as {
      mentor_data: { mentor_unique_id: string }[];
    };
    expect(limited.mentor_data.map((m) => m.mentor_unique_id)).toEqual(expected.slice(1, 3).map((e) => e.key));
    fails(await get('costs/permentor/?end_date=2026-10-01T00:00:00Z'), 400, 'Invalid parameters', 'costs/permentor/');
    fails(
      await call(
        server,
        'GET',
        `/api/ai-analytics/orgs/${server.otherOrg.org}/users/${server.user}/costs/permentor/?${range}`,
      ),
      404,
      'Organization not found',
      'costs/permentor/',
    );
  });

  it('pages costs per learner', async () => {
    const body = ok(await get(`costs/peruser/?${range}&limit=5`), 'costs/peruser/') as {
      count: number;
      next: string | null;
      results: { username: string; total_cost: number }[];
    };
    const expected = messageCosts('s.username');
    expect(body.count).toBe(expected.length);
    body.results.forEach((r, i) => {
      expect(r.username).toBe(expected[i]!.key);
      expect(r.total_cost).toBeCloseTo(expected[i]!.cost, 5);
    });
    expect(new URL(body.next!).searchParams.get('offset')).toBe('5');
    fails(
      await get('costs/peruser/?start_date=2026-10-09T00:00:00Z&end_date=2026-10-01T00:00:00Z'),
      400,
      'Invalid date format',
      'costs/peruser/',
    );
    expect(
      (
        await call(
          server,
          'GET',
          `/api/ai-analytics/orgs/${server.org}/users/${server.studentUser}/costs/peruser/?${range}`,
          { key: server.studentKey },
        )
      ).status,
    ).toBe(403);
  });
});
