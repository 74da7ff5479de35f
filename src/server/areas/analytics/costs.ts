import type { AreaDeps } from '../../area';
import { intParam } from '../../http/pagination';
import { JsonText, type RequestContext, type Router } from '../../http/router';
import { iso, queryRange } from './dates';
import { StatementCache } from './sql';

const BASE = '/api/ai-analytics/orgs/{org}/users/{user_id}';
/** Costs are reported (and ranked) in dollars to the micro-dollar, like the stored per-message costs. */
const money = (n: number | null) => Math.round((n ?? 0) * 1e6) / 1e6;

/**
 * LLM costs of the conversations started in [start_date, end_date] (date-times per the spec; plain dates mean whole
 * days). A conversation's cost is the sum of its assistant messages' costs.
 */
function costRange(ctx: RequestContext) {
  const range = queryRange(ctx.query, { required: true, dateTime: true });
  return { org: ctx.params.org!, start: iso(range.startMs!), end: iso(range.endMs!) };
}

function limitOffset(ctx: RequestContext, defaultLimit: number | null) {
  const limit =
    ctx.query.get('limit') === null && defaultLimit === null
      ? null
      : intParam(ctx.query, 'limit', defaultLimit ?? 0, 10_000);
  return { limit, offset: intParam(ctx.query, 'offset', 0, 10_000_000) };
}

export function costRoutes(router: Router, deps: AreaDeps): void {
  const sql = new StatementCache(deps.db);
  const admin = { auth: 'admin' as const };

  // The spec declares one ModelCost; the answer is that object for all models together (model "all"), with the
  // per-model split in `model_costs` (the element type of CostPerTenant.model_costs).
  router.get(
    `${BASE}/costs/model/`,
    (ctx) => {
      const p = costRange(ctx);
      const rows = sql
        .get(
          `SELECT model, sum(cost) AS total_cost FROM chat_sessions WHERE org = @org AND started_at >= @start AND started_at < @end
           GROUP BY model ORDER BY round(total_cost, 6) DESC, model`,
        )
        .all(p) as { model: string; total_cost: number }[];
      const modelCosts = rows.map((r) => ({ model: r.model, total_cost: money(r.total_cost) }));
      return {
        status: 200,
        body: {
          model: 'all',
          total_cost: money(rows.reduce((sum, r) => sum + r.total_cost, 0)),
          model_costs: modelCosts,
        },
      };
    },
    admin,
  );

  // Mentors by cost (optional limit/offset, as the spec's description allows), each with its conversations' costs,
  // most expensive first. The spec's shape lists every conversation of the range (about 70 bytes each: megabytes over
  // a long range), so SQLite writes those lists as JSON text while reading a covering index already in that order
  // (no sort, no row lookups), and the answer is sent without an object per conversation ever being built.
  router.get(
    `${BASE}/costs/permentor/`,
    (ctx) => {
      const p = costRange(ctx);
      const { limit, offset } = limitOffset(ctx, null);
      // One pass over the mentor-ordered covering index: each mentor's total and its conversations as JSON text.
      const mentors = sql
        .get(
          `SELECT c.mentor_unique_id, coalesce(m.name, '') AS mentor_name, c.total_cost, c.sessions FROM (
             SELECT mentor_unique_id, sum(cost) AS total_cost, group_concat(item, ',') AS sessions FROM (
               SELECT mentor_unique_id, cost, json_object('session_id', session_id, 'cost', round(cost, 6)) AS item
               FROM chat_sessions INDEXED BY chat_sessions_mentor_cost
               WHERE org = @org AND started_at >= @start AND started_at < @end
               ORDER BY mentor_unique_id, cost DESC, session_id
             ) GROUP BY mentor_unique_id
           ) c LEFT JOIN mentors m ON m.unique_id = c.mentor_unique_id
           ORDER BY round(c.total_cost, 6) DESC, c.mentor_unique_id`,
        )
        .all(p) as { mentor_unique_id: string; mentor_name: string; total_cost: number; sessions: string }[];
      const tenantTotal = mentors.reduce((sum, m) => sum + m.total_cost, 0);
      const mentorData = mentors
        .slice(offset, limit === null ? undefined : offset + limit)
        .map(
          (m) =>
            `{"mentor_unique_id":${JSON.stringify(m.mentor_unique_id)},"mentor_name":${JSON.stringify(m.mentor_name)},` +
            `"total_cost":${JSON.stringify(money(m.total_cost))},"mentor_sessions":[${m.sessions}]}`,
        );
      return {
        status: 200,
        body: new JsonText(
          `{"tenant":${JSON.stringify(p.org)},"tenant_total_cost":${JSON.stringify(money(tenantTotal))},` +
            `"mentor_data":[${mentorData.join(',')}]}`,
        ),
      };
    },
    admin,
  );

  // The spec's LLMTracesListResponse ({id, name, date}) plus the paged per-user costs its description documents
  // ({count, next, previous, results: [{username, total_cost}]}, limit 10 and offset 0 by default).
  router.get(
    `${BASE}/costs/peruser/`,
    (ctx) => {
      const p = costRange(ctx);
      const { limit, offset } = limitOffset(ctx, 10);
      // In learner order from a covering index: grouping needs no sort and no table rows.
      const where =
        'FROM chat_sessions INDEXED BY chat_sessions_user_cost WHERE org = @org AND started_at >= @start AND started_at < @end';
      const count = sql.get(`SELECT count(DISTINCT username) ${where}`).pluck().get(p) as number;
      const rows = sql
        .get(
          `SELECT username, sum(cost) AS total_cost ${where} GROUP BY username ORDER BY round(total_cost, 6) DESC, username
           LIMIT @limit OFFSET @offset`,
        )
        .all({ ...p, limit, offset }) as { username: string; total_cost: number }[];
      const link = (at: number) => {
        const url = new URL(ctx.url);
        url.searchParams.set('limit', String(limit));
        url.searchParams.set('offset', String(at));
        return url.toString();
      };
      const size = limit ?? 10;
      return {
        status: 200,
        body: {
          id: `costs-peruser:${p.org}:${p.start}:${p.end}`,
          name: 'LLM costs per user',
          date: deps.now().toISOString(),
          count,
          next: offset + size < count ? link(offset + size) : null,
          previous: offset > 0 ? link(Math.max(0, offset - size)) : null,
          results: rows.map((r) => ({ username: r.username, total_cost: money(r.total_cost) })),
        },
      };
    },
    admin,
  );
}
