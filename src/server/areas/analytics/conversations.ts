import type { AreaDeps } from '../../area';
import { badRequest, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { chatStreamSql, topicIdsOf, type ChatFilter } from './chat-history';
import {
  bucketKeys,
  bucketParam,
  bucketSql,
  DAY_MS,
  iso,
  INVALID_PARAMETERS,
  isoRange,
  percentChange,
  queryRange,
  startOfDay,
  type Bucket,
} from './dates';
import { StatementCache } from './sql';

const BASE = '/api/ai-analytics/orgs/{org}/users/{user_id}';
const SENTIMENT_SCORE = "CASE sentiment WHEN 'positive' THEN 1.0 WHEN 'negative' THEN -1.0 ELSE 0.0 END";

/** Optional `mentor_id` (a mentor's unique id) as an SQL condition on a table alias that has mentor_unique_id. */
function mentorCondition(ctx: RequestContext, alias: string): { sql: string; mentor: string | null } {
  const mentor = ctx.query.get('mentor_id') || null;
  return { sql: mentor ? ` AND ${alias}.mentor_unique_id = @mentor` : '', mentor };
}

/** A required date range as ISO bounds, for the endpoints whose spec marks start_date and end_date required. */
function requiredRange(ctx: RequestContext, dateTime = true) {
  const range = queryRange(ctx.query, { required: true, dateTime });
  return { startMs: range.startMs!, endMs: range.endMs!, start: iso(range.startMs!), end: iso(range.endMs!) };
}

/** Rolling windows ending now: the last 30 days and the 30 before, for month-over-month changes. */
function monthWindows(now: number) {
  return { now: iso(now), last: iso(now - 30 * DAY_MS), previous: iso(now - 60 * DAY_MS) };
}

/** A series keyed by bucket start, zero-filled over the range. */
function series<T>(keys: string[], rows: Map<string, T>, empty: T): [string, T][] {
  return keys.map((key) => [key, rows.get(key) ?? empty]);
}

const sentimentLabel = (score: number | null) =>
  score === null ? 'neutral' : score > 0.2 ? 'positive' : score < -0.2 ? 'negative' : 'neutral';

export function conversationRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const sql = new StatementCache(db);
  const admin = { auth: 'admin' as const };

  // Top 10 topics by conversations in the range.
  router.get(
    `${BASE}/topics/summary/`,
    (ctx) => {
      const range = isoRange(queryRange(ctx.query, { dateTime: false }));
      const mentor = mentorCondition(ctx, 'st');
      const rows = sql
        .get(
          `SELECT t.name AS name, count(*) AS conversation_count FROM chat_topics t
           JOIN chat_session_topics st ON st.topic_id = t.id AND st.started_at >= @start AND st.started_at < @end${mentor.sql}
           WHERE t.org = @org GROUP BY t.id ORDER BY conversation_count DESC, t.name LIMIT 10`,
        )
        .all({ org: ctx.params.org, start: range.start ?? '', end: range.end ?? '\uffff', mentor: mentor.mentor });
      return { status: 200, body: rows };
    },
    admin,
  );

  router.get(
    `${BASE}/topic-statistics/`,
    (ctx) => {
      const org = ctx.params.org!;
      const range = isoRange(queryRange(ctx.query, { dateTime: true }));
      const mentor = mentorCondition(ctx, 'st');
      if (
        mentor.mentor &&
        !db.prepare('SELECT 1 FROM mentors WHERE org = ? AND unique_id = ? AND is_deleted = 0').get(org, mentor.mentor)
      ) {
        throw notFound('Organization or mentor not found');
      }
      const window = pageWindow(ctx.query, 20, 1000);
      const params = { org, start: range.start ?? '', end: range.end ?? '\uffff', mentor: mentor.mentor };
      const joined = `FROM chat_topics t JOIN chat_session_topics st ON st.topic_id = t.id
        AND st.started_at >= @start AND st.started_at < @end${mentor.sql} WHERE t.org = @org`;
      const count = sql.get(`SELECT count(DISTINCT t.id) ${joined}`).pluck().get(params) as number;
      const rows = sql
        .get(
          `SELECT t.name AS name, count(*) AS conversations, sum(st.message_count) AS messages,
             avg(${SENTIMENT_SCORE.replaceAll('sentiment', 'st.sentiment')}) AS score, avg(st.rating) AS rating
           ${joined} GROUP BY t.id ORDER BY conversations DESC, t.name LIMIT @limit OFFSET @offset`,
        )
        .all({ ...params, limit: window.pageSize, offset: window.offset }) as {
        name: string;
        conversations: number;
        messages: number;
        score: number | null;
        rating: number | null;
      }[];
      const results = rows.map((r) => ({
        name: r.name,
        conversations: r.conversations,
        messages: r.messages,
        avg_sentiment: sentimentLabel(r.score),
        // Mean of the ratings given (1 up, -1 down), as the spec's string; "0.00" when nobody rated.
        avg_user_rating: (r.rating ?? 0).toFixed(2),
      }));
      return { status: 200, body: drfPage(ctx.url, window, count, results) };
    },
    admin,
  );

  // Sentiment entries per day over a period ending today: today, yesterday, 7d (default), 30d, 90d, or Nd.
  router.get(
    `${BASE}/sentiment-count/`,
    (ctx) => {
      const period = ctx.query.get('period') || '7d';
      const today = startOfDay(deps.now().getTime());
      let startMs: number;
      let endMs = today + DAY_MS;
      if (period === 'today') startMs = today;
      else if (period === 'yesterday') [startMs, endMs] = [today - DAY_MS, today];
      else {
        const days = /^(\d{1,3})d$/.exec(period);
        if (!days || Number(days[1]) < 1 || Number(days[1]) > 365) throw badRequest(INVALID_PARAMETERS);
        startMs = today - (Number(days[1]) - 1) * DAY_MS;
      }
      const rows = sql
        .get(
          `SELECT ${bucketSql('started_at', 'day')} AS day, sentiment, count(*) AS n FROM chat_sessions
           WHERE org = ? AND started_at >= ? AND started_at < ? GROUP BY day, sentiment`,
        )
        .all(ctx.params.org, iso(startMs), iso(endMs)) as { day: string; sentiment: string; n: number }[];
      const byDay = new Map<string, Record<string, number>>();
      for (const r of rows) {
        const entry = byDay.get(r.day) ?? { positive: 0, neutral: 0, negative: 0 };
        entry[r.sentiment] = r.n;
        byDay.set(r.day, entry);
      }
      const body = series(bucketKeys(startMs, endMs, 'day'), byDay, { positive: 0, neutral: 0, negative: 0 }).map(
        ([date, c]) => ({
          date,
          sentiment_count: (c.positive ?? 0) + (c.neutral ?? 0) + (c.negative ?? 0),
          // Beyond the spec's fields: the split by sentiment.
          positive: c.positive ?? 0,
          neutral: c.neutral ?? 0,
          negative: c.negative ?? 0,
        }),
      );
      return { status: 200, body };
    },
    admin,
  );

  // Distinct learners chatting per day (or week / month).
  router.get(
    `${BASE}/usage-summary/`,
    (ctx) => {
      const range = requiredRange(ctx);
      const bucket = bucketParam(ctx.query, 'group_by', 'day', ['day', 'week', 'month']);
      const rows = sql
        .get(
          `SELECT ${bucketSql('started_at', bucket)} AS b, count(DISTINCT username) AS n FROM chat_sessions
           WHERE org = ? AND started_at >= ? AND started_at < ? GROUP BY b`,
        )
        .all(ctx.params.org, range.start, range.end) as { b: string; n: number }[];
      const counts = new Map(rows.map((r) => [r.b, r.n]));
      const body = series(bucketKeys(range.startMs, range.endMs, bucket), counts, 0).map(([key, n]) => ({
        date: key.slice(0, 10),
        user_count: n,
      }));
      return { status: 200, body };
    },
    admin,
  );

  router.get(
    `${BASE}/overview-summary/`,
    (ctx) => {
      const w = monthWindows(deps.now().getTime());
      const mentor = mentorCondition(ctx, 's');
      const topicMentor = mentorCondition(ctx, 'st');
      const p = { org: ctx.params.org, mentor: mentor.mentor, ...w };
      const sessionMetric = (select: string, from: string, to: string) =>
        sql
          .get(
            `SELECT ${select} FROM chat_sessions s WHERE s.org = @org AND s.started_at >= @from AND s.started_at < @to${mentor.sql}`,
          )
          .pluck()
          .get({ ...p, from, to }) as number;
      // A topic counts when any of its conversations (of the mentor, if given) falls in the window.
      const topicMetric = (from: string, to: string) =>
        sql
          .get(
            `SELECT count(*) FROM chat_topics t WHERE t.org = @org AND EXISTS (SELECT 1 FROM chat_session_topics st
             WHERE st.topic_id = t.id AND st.started_at >= @from AND st.started_at < @to${topicMentor.sql})`,
          )
          .pluck()
          .get({ ...p, from, to }) as number;
      // Ratings count when given, i.e. when the rated conversation ended (as in rating-summary).
      const ratingMetric = (from: string, to: string) =>
        sql
          .get(
            `SELECT count(*) FROM chat_sessions s WHERE s.org = @org AND s.rating IS NOT NULL AND s.ended_at >= @from
             AND s.ended_at < @to${mentor.sql}`,
          )
          .pluck()
          .get({ ...p, from, to }) as number;
      const metric = (measure: (from: string, to: string) => number) => ({
        total: measure('', w.now),
        change: percentChange(measure(w.last, w.now), measure(w.previous, w.last)),
      });
      return {
        status: 200,
        body: {
          conversation_volume: metric((a, b) => sessionMetric('count(*)', a, b)),
          users: metric((a, b) => sessionMetric('count(DISTINCT s.username)', a, b)),
          topics: metric(topicMetric),
          user_rating: metric(ratingMetric),
        },
      };
    },
    admin,
  );

  router.get(
    `${BASE}/user-metrics/`,
    (ctx) => {
      const nowMs = deps.now().getTime();
      const w = monthWindows(nowMs);
      const veteranJoined = iso(nowMs - 180 * DAY_MS);
      const mentor = mentorCondition(ctx, 's');
      // With a mentor, every figure is about the learners who chatted with that mentor.
      const scope = mentor.mentor
        ? ' AND u.username IN (SELECT s.username FROM chat_sessions s WHERE s.org = @org AND s.mentor_unique_id = @mentor)'
        : '';
      const p = { org: ctx.params.org, mentor: mentor.mentor, veteranJoined };
      const registered = (from: string, to: string) =>
        sql
          .get(
            `SELECT count(*) FROM users u WHERE u.org = @org AND u.date_joined >= @from AND u.date_joined < @to${scope}`,
          )
          .pluck()
          .get({ ...p, from, to }) as number;
      const chatting = (from: string, to: string, veteran: boolean) =>
        veteran
          ? (sql
              .get(
                `SELECT count(*) FROM users u WHERE u.org = @org AND u.date_joined <= @veteranJoined AND EXISTS (
                   SELECT 1 FROM chat_sessions s WHERE s.org = @org AND s.username = u.username
                   AND s.started_at >= @from AND s.started_at < @to${mentor.sql})`,
              )
              .pluck()
              .get({ ...p, from, to }) as number)
          : (sql
              .get(
                `SELECT count(DISTINCT s.username) FROM chat_sessions s
                 WHERE s.org = @org AND s.started_at >= @from AND s.started_at < @to${mentor.sql}`,
              )
              .pluck()
              .get({ ...p, from, to }) as number);
      const totalRegistered = registered('', w.now);
      return {
        status: 200,
        body: {
          registered_users: {
            total: totalRegistered,
            change_percentage: percentChange(totalRegistered, registered('', w.last)),
          },
          new_users: {
            total: registered(w.last, w.now),
            change_percentage: percentChange(registered(w.last, w.now), registered(w.previous, w.last)),
          },
          unique_users: {
            total: chatting('', w.now, false),
            change_percentage: percentChange(chatting(w.last, w.now, false), chatting(w.previous, w.last, false)),
          },
          veteran_users: {
            total: chatting('', w.now, true),
            change_percentage: percentChange(chatting(w.last, w.now, true), chatting(w.previous, w.last, true)),
          },
        },
      };
    },
    admin,
  );

  router.get(
    `${BASE}/most-discussed-topics/`,
    (ctx) => {
      const range = requiredRange(ctx);
      bucketParam(ctx.query, 'aggregation', 'day', ['hour', 'day', 'week']);
      const mentor = mentorCondition(ctx, 'st');
      const rows = sql
        .get(
          `SELECT t.name AS topic_name, count(*) AS conversation_count FROM chat_topics t
           JOIN chat_session_topics st ON st.topic_id = t.id AND st.started_at >= @start AND st.started_at < @end${mentor.sql}
           WHERE t.org = @org GROUP BY t.id ORDER BY conversation_count DESC, t.name`,
        )
        .all({ org: ctx.params.org, start: range.start, end: range.end, mentor: mentor.mentor });
      return { status: 200, body: rows };
    },
    admin,
  );

  // Ratings count when given, i.e. when the rated conversation ended.
  router.get(
    `${BASE}/rating-summary/`,
    (ctx) => {
      const range = requiredRange(ctx);
      const bucket = bucketParam(ctx.query, 'group_by', 'day', ['hour', 'day']);
      const rows = sql
        .get(
          `SELECT ${bucketSql('ended_at', bucket)} AS b, count(*) AS n FROM chat_sessions
           WHERE org = ? AND rating IS NOT NULL AND ended_at >= ? AND ended_at < ? GROUP BY b`,
        )
        .all(ctx.params.org, range.start, range.end) as { b: string; n: number }[];
      const counts = new Map(rows.map((r) => [r.b, r.n]));
      const body = series(bucketKeys(range.startMs, range.endMs, bucket), counts, 0).map(([time, n]) => ({
        time,
        total_ratings: n,
      }));
      return { status: 200, body };
    },
    admin,
  );

  router.get(
    `${BASE}/transcripts/`,
    (ctx) => {
      const org = ctx.params.org!;
      const topicIds = topicIdsOf(db, org, ctx.query.get('topics'));
      const filter: ChatFilter = {
        org,
        mentor: ctx.query.get('mentor') || undefined,
        ...(topicIds ? { topicIds } : {}),
        range: isoRange(queryRange(ctx.query, { dateTime: false })),
      };
      if (topicIds?.length === 0) return { status: 200, body: [] };
      const stream = chatStreamSql(filter, false);
      const rows = sql
        .get(
          `SELECT c.session_id, c.topics, c.username, c.message_count, c.model, c.started_at, c.sentiment, c.first_message
           FROM (${stream.sql}) x JOIN chat_sessions c ON c.id = x.id ORDER BY x.started_at DESC, x.id DESC`,
        )
        .raw()
        .all(stream.params) as [string, string, string, number, string, string, string, string][];
      const body = rows.map(([id, topics, user, count, model, at, sentiment, first]) => ({
        first_message: first,
        topics: JSON.parse(topics) as { name: string }[],
        id,
        user_id: user,
        message_count: count,
        model,
        inserted_at: at,
        user_sentiment: sentiment,
      }));
      return { status: 200, body };
    },
    admin,
  );

  const volume = (ctx: RequestContext, bucket: Bucket, select: string) => {
    const range = requiredRange(ctx);
    const mentor = mentorCondition(ctx, 's');
    const rows = sql
      .get(
        `SELECT ${bucketSql('s.started_at', bucket)} AS b, ${select} FROM chat_sessions s
         WHERE s.org = @org AND s.started_at >= @start AND s.started_at < @end${mentor.sql} GROUP BY b`,
      )
      .all({ org: ctx.params.org, start: range.start, end: range.end, mentor: mentor.mentor }) as {
      b: string;
      n: number;
      avg?: number;
    }[];
    return { keys: bucketKeys(range.startMs, range.endMs, bucket), rows: new Map(rows.map((r) => [r.b, r])) };
  };

  router.get(
    `${BASE}/conversation/`,
    (ctx) => {
      const bucket = bucketParam(ctx.query, 'aggregation', 'day', ['hour', 'day', 'week']);
      const { keys, rows } = volume(ctx, bucket, 'count(*) AS n');
      return { status: 200, body: keys.map((date) => ({ date, conversation_count: rows.get(date)?.n ?? 0 })) };
    },
    admin,
  );

  router.get(
    `${BASE}/average-messages-per-session/`,
    (ctx) => {
      const bucket = bucketParam(ctx.query, 'aggregation', 'day', ['hour', 'day', 'week']);
      const { keys, rows } = volume(ctx, bucket, 'count(*) AS n, avg(s.message_count) AS avg');
      return {
        status: 200,
        body: keys.map((time) => {
          const row = rows.get(time);
          return { time, avg_messages: Math.round(row?.avg ?? 0), total_sessions: row?.n ?? 0 };
        }),
      };
    },
    admin,
  );
}
