import type Database from 'better-sqlite3';
import type { AreaDeps } from '../../area';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { INVALID_PARAMETERS, isoRange, queryRange, type IsoRange } from './dates';
import { StatementCache, chatVersion } from './sql';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE = '/api/ai-analytics/orgs/{org}/users/{user_id}';

/** The chat-history filters; `topicIds` is set (possibly empty) when topics were asked for. */
export interface ChatFilter {
  org: string;
  username?: string;
  mentor?: string;
  sentiment?: string;
  topicIds?: number[];
  range: IsoRange;
}

interface SessionRow {
  id: number;
  session_id: string;
  org: string;
  mentor_unique_id: string;
  username: string;
  email: string;
  started_at: string;
  ended_at: string;
  topics: string;
  sentiment: string;
  rating: number | null;
  model: string;
  provider: string;
  message_count: number;
  user_message_count: number;
  tokens: number;
  cost: number;
  has_document: number;
}

interface Anchor {
  offset: number;
  startedAt: string;
  id: number;
}

/** Per-filter facts reused between pages: the row count, and keyset anchors (from the survey and served pages). */
interface FilterState {
  version: number;
  count: number;
  anchors: Anchor[];
}

const MAX_FILTERS = 256;
const MAX_ANCHORS = 4096;
/** Rows between the anchors a filter's first request lays down. */
const ANCHOR_STEP = 2000;

/** Topic names (comma-separated, case-insensitive) → ids of the org's topics. */
export function topicIdsOf(db: Database.Database, org: string, raw: string | null): number[] | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const names = raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  return db
    .prepare('SELECT id FROM chat_topics WHERE org = ? AND lower(name) IN (SELECT value FROM json_each(?)) ORDER BY id')
    .pluck()
    .all(org, JSON.stringify(names)) as number[];
}

/** Reads the list filters shared by the chat-history list and detail. */
export function chatFilterOf(ctx: RequestContext, db: Database.Database): ChatFilter {
  const q = ctx.query;
  const mentor = q.get('mentor') || undefined;
  if (mentor !== undefined && !UUID_RE.test(mentor)) throw badRequest(INVALID_PARAMETERS);
  const topicIds = topicIdsOf(db, ctx.params.org!, q.get('topics'));
  return {
    org: ctx.params.org!,
    username: q.get('filter_user_id') || undefined,
    mentor: mentor?.toLowerCase(),
    sentiment: q.get('sentiment') || undefined,
    ...(topicIds ? { topicIds } : {}),
    range: isoRange(queryRange(q, { dateTime: false })),
  };
}

/**
 * The filtered sessions as an ordered stream of (id, started_at), newest first. With topics and no user the stream
 * is read from the topic links (which carry mentor, sentiment and time), one ordered arm per topic merged by UNION
 * (which also drops sessions found under two topics); otherwise from the session indexes, each of which ends in
 * (started_at, id) so ordering never sorts. `keyset` continues after an anchor.
 */
export function chatStreamSql(filter: ChatFilter, keyset: boolean): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = { org: filter.org };
  const where: string[] = [];
  const topics = filter.topicIds;
  const fromLinks = topics !== undefined && filter.username === undefined;
  const t = fromLinks ? 'st' : 's';
  const idCol = fromLinks ? 'st.session_pk' : 's.id';
  if (!fromLinks) {
    where.push('s.org = @org');
    if (filter.username !== undefined) {
      where.push('s.username = @username');
      params.username = filter.username;
    }
    if (topics !== undefined) {
      where.push(
        'EXISTS (SELECT 1 FROM chat_session_topics x WHERE x.session_pk = s.id AND x.topic_id IN (SELECT value FROM json_each(@topics)))',
      );
      params.topics = JSON.stringify(topics);
    }
  }
  if (filter.mentor !== undefined) {
    where.push(`${t}.mentor_unique_id = @mentor`);
    params.mentor = filter.mentor;
  }
  if (filter.sentiment !== undefined) {
    where.push(`${t}.sentiment = @sentiment`);
    params.sentiment = filter.sentiment;
  }
  if (filter.range.start !== undefined) {
    where.push(`${t}.started_at >= @start`);
    params.start = filter.range.start;
  }
  if (keyset) {
    // The anchor lies inside the range, so it replaces the range's upper bound (one bound lets the index seek).
    where.push(`${t}.started_at <= @anchorStartedAt AND (${t}.started_at < @anchorStartedAt OR ${idCol} <= @anchorId)`);
  } else if (filter.range.end !== undefined) {
    where.push(`${t}.started_at < @end`);
    params.end = filter.range.end;
  }
  if (!fromLinks)
    return {
      sql: `SELECT s.id AS id, s.started_at AS started_at FROM chat_sessions s WHERE ${where.join(' AND ')}`,
      params,
    };
  const arms = topics.map((topic, i) => {
    params[`topic${i}`] = topic;
    return `SELECT st.session_pk AS id, st.started_at AS started_at FROM chat_session_topics st
      WHERE ${[`st.topic_id = @topic${i}`, ...where].join(' AND ')}`;
  });
  return { sql: arms.join(' UNION '), params };
}

const ORDER = ' ORDER BY started_at DESC, id DESC';

/**
 * Pages of chat history over millions of rows. Per filter (until the chat data changes) the row count and keyset
 * anchors are cached, so a page at any depth seeks to the nearest anchor and skips fewer than ANCHOR_STEP rows.
 */
export class ChatHistoryQuery {
  private readonly statements: StatementCache;
  private readonly states = new Map<string, FilterState>();

  constructor(private readonly db: Database.Database) {
    this.statements = new StatementCache(db);
  }

  private state(filter: ChatFilter): FilterState {
    const key = JSON.stringify(filter);
    const version = chatVersion(this.db);
    let state = this.states.get(key);
    if (!state || state.version !== version) {
      state = filter.topicIds?.length === 0 ? { version, count: 0, anchors: [] } : this.survey(filter, version);
      if (!this.states.has(key) && this.states.size >= MAX_FILTERS)
        this.states.delete(this.states.keys().next().value!);
    }
    // Re-inserted so the map's order is least-recently-used first.
    this.states.delete(key);
    this.states.set(key, state);
    return state;
  }

  /**
   * Counts a filter's rows by walking its stream in steps of ANCHOR_STEP rows (one index seek and a short skip
   * each), keeping the row at every step as a keyset anchor: any later page then skips fewer than ANCHOR_STEP rows.
   */
  private survey(filter: ChatFilter, version: number): FilterState {
    const anchors: Anchor[] = [];
    let anchor: Anchor | undefined;
    for (;;) {
      const { sql, params } = chatStreamSql(filter, anchor !== undefined);
      if (anchor) Object.assign(params, { anchorStartedAt: anchor.startedAt, anchorId: anchor.id });
      const row = this.statements.get(`${sql}${ORDER} LIMIT 1 OFFSET @skip`).get({ ...params, skip: ANCHOR_STEP }) as
        { id: number; started_at: string } | undefined;
      if (!row) {
        const tail = this.statements.get(`SELECT count(*) FROM (${sql})`).pluck().get(params) as number;
        return { version, count: (anchor?.offset ?? 0) + tail, anchors };
      }
      anchor = { offset: (anchor?.offset ?? 0) + ANCHOR_STEP, startedAt: row.started_at, id: row.id };
      anchors.push(anchor);
    }
  }

  count(filter: ChatFilter): number {
    return this.state(filter).count;
  }

  /** Ids of the sessions at [offset, offset + limit) in the newest-first order. */
  pageIds(filter: ChatFilter, offset: number, limit: number): number[] {
    const state = this.state(filter);
    if (offset >= state.count) return [];
    const anchor = nearestAnchor(state.anchors, offset);
    const { sql, params } = chatStreamSql(filter, anchor !== undefined);
    if (anchor) Object.assign(params, { anchorStartedAt: anchor.startedAt, anchorId: anchor.id });
    // One extra row gives the next page's anchor, so paging forward never re-skips rows.
    const rows = this.statements
      .get(`${sql}${ORDER} LIMIT @limit OFFSET @skip`)
      .all({ ...params, limit: limit + 1, skip: offset - (anchor?.offset ?? 0) }) as {
      id: number;
      started_at: string;
    }[];
    if (rows[0]) remember(state.anchors, { offset, startedAt: rows[0].started_at, id: rows[0].id });
    if (rows[limit])
      remember(state.anchors, { offset: offset + limit, startedAt: rows[limit].started_at, id: rows[limit].id });
    return rows.slice(0, limit).map((r) => r.id);
  }

  /** Whether one session matches the filters (detail views honour the list filters, as DRF's get_object does). */
  matches(filter: ChatFilter, id: number): boolean {
    if (filter.topicIds?.length === 0) return false;
    const { sql, params } = chatStreamSql(filter, false);
    return this.statements.get(`SELECT 1 FROM (${sql}) WHERE id = @id`).get({ ...params, id }) !== undefined;
  }
}

function nearestAnchor(anchors: Anchor[], offset: number): Anchor | undefined {
  let lo = 0;
  let hi = anchors.length - 1;
  let best: Anchor | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const anchor = anchors[mid]!;
    if (anchor.offset <= offset) {
      best = anchor;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

function remember(anchors: Anchor[], anchor: Anchor): void {
  let i = anchors.length;
  while (i > 0 && anchors[i - 1]!.offset > anchor.offset) i--;
  if (anchors[i - 1]?.offset === anchor.offset) return;
  if (anchors.length >= MAX_ANCHORS) return;
  anchors.splice(i, 0, anchor);
}

/** The `Conversations` shape; `messages` is the transcript as a JSON string of [{type, content, timestamp}]. */
function presentConversation(row: SessionRow, messages: string) {
  return {
    id: row.session_id,
    messages,
    topics: JSON.parse(row.topics) as { name: string }[],
    sentiment: row.sentiment,
    mentor: row.mentor_unique_id,
    student: row.username,
    email: row.email,
    model: row.model,
    // The spec's rating is an integer: 1 (thumbs up), -1 (thumbs down), 0 when the learner did not rate.
    rating: row.rating ?? 0,
    platform: row.org,
    lti_email: '',
    lti_username: '',
    inserted_at: row.started_at,
    has_document: row.has_document === 1,
    memory_tracked: false,
    enable_artifacts: false,
    llm_name: row.model,
    llm_provider: row.provider,
    metadata: { ended_at: row.ended_at, message_count: row.message_count, tokens: row.tokens, cost: row.cost },
    is_conversation: row.user_message_count > 0 && row.message_count > row.user_message_count,
    tools: [] as number[],
  };
}

function loadConversations(statements: StatementCache, ids: number[]) {
  if (!ids.length) return [];
  const list = JSON.stringify(ids);
  const rows = statements
    .get(
      `SELECT id, session_id, org, mentor_unique_id, username, email, started_at, ended_at, topics, sentiment, rating, model,
         provider, message_count, user_message_count, tokens, cost, has_document
       FROM chat_sessions WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .all(list) as SessionRow[];
  // Each transcript is built as JSON by SQLite, in message order, straight from the session index.
  const transcripts = statements
    .get(
      `SELECT session_pk, json_group_array(json_object('type', CASE role WHEN 'user' THEN 'human' ELSE 'ai' END,
         'content', content, 'timestamp', created_at) ORDER BY id)
       FROM chat_messages WHERE session_pk IN (SELECT value FROM json_each(?)) GROUP BY session_pk`,
    )
    .raw()
    .all(list) as [number, string][];
  const bySession = new Map(transcripts);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => presentConversation(byId.get(id)!, bySession.get(id) ?? '[]'));
}

export function chatHistoryRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const history = new ChatHistoryQuery(db);
  const statements = new StatementCache(db);

  // "Restricted to platform administrators only."
  router.get(
    `${BASE}/chat-history/`,
    (ctx) => {
      const filter = chatFilterOf(ctx, db);
      const window = pageWindow(ctx.query, 20, 1000);
      const count = history.count(filter);
      if (window.offset > 0 && window.offset >= count) throw new HttpError(404, 'Invalid page.');
      const ids = history.pageIds(filter, window.offset, window.pageSize);
      return { status: 200, body: drfPage(ctx.url, window, count, loadConversations(statements, ids)) };
    },
    { auth: 'admin' },
  );

  router.get(
    `${BASE}/chat-history/{id}/`,
    (ctx) => {
      const filter = chatFilterOf(ctx, db);
      const row = statements
        .get('SELECT id FROM chat_sessions WHERE org = ? AND session_id = ?')
        .get(ctx.params.org, ctx.params.id!.toLowerCase()) as { id: number } | undefined;
      if (!row || !history.matches(filter, row.id)) throw notFound();
      return { status: 200, body: loadConversations(statements, [row.id])[0] };
    },
    { auth: 'admin' },
  );
}
