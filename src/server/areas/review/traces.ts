import type { AreaDeps } from '../../area';
import { limitOffsetPage, intParam } from '../../http/pagination';
import { notFound } from '../../http/errors';
import type { Router } from '../../http/router';
import { statementCache } from '../support/access';

const BASE = '/api/ai-analytics/orgs/{org}/users/{user_id}/';

interface TraceRow {
  id: string;
  timestamp: string;
  name: string;
  user_id: string | null;
  metadata: string;
  tags: string;
  input: string | null;
  output: string | null;
  session_id: string | null;
  created_at: string;
}
interface ObservationRow {
  id: string;
  trace_id: string;
  type: string;
  parent_observation_id: string | null;
  start_time: string;
  end_time: string | null;
  name: string;
  metadata: string;
  level: string;
  status_message: string | null;
  input: string | null;
  output: string | null;
  provided_model_name: string | null;
  usage_details: string;
  cost_details: string;
  total_cost: string | null;
  created_at: string;
}

const presentTrace = (r: TraceRow) => ({
  id: r.id,
  timestamp: r.timestamp,
  name: r.name,
  user_id: r.user_id,
  metadata: JSON.parse(r.metadata) as unknown,
  release: null,
  version: null,
  tags: JSON.parse(r.tags) as unknown,
  input: r.input,
  output: r.output,
  session_id: r.session_id,
  created_at: r.created_at,
  updated_at: r.created_at,
  event_ts: r.timestamp,
  is_deleted: 0,
});

const presentObservation = (r: ObservationRow) => ({
  id: r.id,
  trace_id: r.trace_id,
  type: r.type,
  parent_observation_id: r.parent_observation_id,
  start_time: r.start_time,
  end_time: r.end_time,
  name: r.name,
  metadata: JSON.parse(r.metadata) as unknown,
  level: r.level,
  status_message: r.status_message,
  version: null,
  input: r.input,
  output: r.output,
  provided_model_name: r.provided_model_name,
  internal_model_id: r.provided_model_name,
  model_parameters: null,
  provided_usage_details: r.usage_details,
  usage_details: r.usage_details,
  provided_cost_details: r.cost_details,
  cost_details: r.cost_details,
  total_cost: r.total_cost,
  completion_start_time: null,
  prompt_id: null,
  prompt_name: null,
  prompt_version: null,
  created_at: r.created_at,
  updated_at: r.created_at,
  event_ts: r.start_time,
  is_deleted: 0,
});

/** A read-only Langfuse table: limit/offset pages, an exact-id or substring search over `fields`, DRF ordering. */
function readOnlyTable<Row>(
  router: Router,
  deps: AreaDeps,
  spec: {
    segment: string;
    table: string;
    fields: string[];
    orderings: Record<string, string>;
    fallback: string;
    present: (row: Row) => unknown;
  },
): void {
  const prepare = statementCache(deps.db);
  // "Restricted to platform administrators only": tenant admins here, as for chat-history.
  router.get(
    `${BASE}${spec.segment}/`,
    (ctx) => {
      const q = ctx.query;
      const limit = Math.max(1, intParam(q, 'limit', 100, 1000));
      const offset = intParam(q, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const params: Record<string, string | number> = { org: ctx.params.org!, limit, offset };
      let where = 'org = @org';
      const search = q.get('search')?.trim();
      if (search) {
        // DRF's SearchFilter: any search field contains the term (case-insensitive).
        where += ` AND (${spec.fields.map((f) => `instr(lower(coalesce(${f}, '')), @search) > 0`).join(' OR ')})`;
        params.search = search.toLowerCase();
      }
      const order = spec.orderings[q.get('ordering') ?? ''] ?? spec.fallback;
      const n = prepare(`SELECT count(*) FROM ${spec.table} WHERE ${where}`).pluck().get(params) as number;
      const rows = prepare(
        `SELECT * FROM ${spec.table} WHERE ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      ).all(params) as Row[];
      return { status: 200, body: limitOffsetPage(ctx.url, limit, offset, n, rows.map(spec.present)) };
    },
    { auth: 'admin' },
  );
  router.get(
    `${BASE}${spec.segment}/{id}/`,
    (ctx) => {
      const row = deps.db
        .prepare(`SELECT * FROM ${spec.table} WHERE org = ? AND id = ?`)
        .get(ctx.params.org, ctx.params.id) as Row | undefined;
      if (!row) throw notFound();
      return { status: 200, body: spec.present(row) };
    },
    { auth: 'admin' },
  );
}

/** Langfuse traces and observations (spans) under `/api/ai-analytics/orgs/{org}/users/{user_id}/`. */
export function traceRoutes(router: Router, deps: AreaDeps): void {
  readOnlyTable<TraceRow>(router, deps, {
    segment: 'traces',
    table: 'review_traces',
    fields: ['id', 'name', 'session_id', 'user_id', 'input', 'output'],
    orderings: {
      timestamp: 'timestamp ASC, pk ASC',
      '-timestamp': 'timestamp DESC, pk DESC',
      name: 'name ASC, pk ASC',
      '-name': 'name DESC, pk DESC',
    },
    fallback: 'timestamp DESC, pk DESC',
    present: presentTrace,
  });
  readOnlyTable<ObservationRow>(router, deps, {
    segment: 'observations',
    table: 'review_observations',
    fields: ['id', 'trace_id', 'name', 'provided_model_name'],
    orderings: {
      start_time: 'start_time ASC, pk ASC',
      '-start_time': 'start_time DESC, pk DESC',
      total_cost: 'CAST(total_cost AS REAL) ASC, pk ASC',
      '-total_cost': 'CAST(total_cost AS REAL) DESC, pk DESC',
    },
    fallback: 'start_time ASC, pk ASC',
    present: presentObservation,
  });
}
