import type { AreaDeps } from '../../area';
import { badRequest, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { pathId, statementCache } from '../support/access';

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
export const TARGET_SYSTEMS = ['Safety System', 'Moderation System'] as const;

/** Orderings DRF's OrderingFilter would accept on the log's fields; anything else is ignored, as it does. */
const ORDERINGS: Record<string, string> = {
  date_created: 'date_created ASC, id ASC',
  '-date_created': 'date_created DESC, id DESC',
  id: 'id ASC',
  '-id': 'id DESC',
};

export interface LogRow {
  id: number;
  org: string;
  kind: 'moderation' | 'safety';
  username: string;
  email: string;
  platform_key: string;
  mentor: number;
  prompt: string;
  reason: string;
  target_system: string;
  date_created: string;
}

export const presentLog = (row: LogRow) => ({
  id: row.id,
  username: row.username,
  email: row.email,
  platform_key: row.platform_key,
  mentor: row.mentor,
  prompt: row.prompt,
  reason: row.reason,
  target_system: row.target_system,
  date_created: row.date_created,
});

/** A date-time query parameter as an ISO instant; a malformed one is a 400. */
export function instantParam(ctx: RequestContext, name: string): string | undefined {
  const raw = ctx.query.get(name);
  if (!raw) return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`Invalid query parameters: ${name} must be a date-time`);
  return new Date(ms).toISOString();
}

/**
 * `moderation-logs/` and `safety-logs/` ("Endpoint to view and delete … Logs for a tenant"): the same `ModerationLog`
 * rows, each endpoint its own kind, filtered by username, platform_key, mentor id, target system and time, searched
 * through prompt and reason. Tenant admins only.
 */
export function logRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const prepare = statementCache(db);

  for (const [segment, kind] of [
    ['moderation-logs', 'moderation'],
    ['safety-logs', 'safety'],
  ] as const) {
    router.get(
      `${BASE}${segment}/`,
      (ctx) => {
        const where = ['org = @org', 'kind = @kind'];
        const params: Record<string, string | number> = { org: ctx.params.org!, kind };
        const add = (clause: string, name: string, value: string | number | undefined) => {
          if (value === undefined) return;
          where.push(clause);
          params[name] = value;
        };
        const q = ctx.query;
        add('username = @username', 'username', q.get('username') || undefined);
        add('platform_key = @platform_key', 'platform_key', q.get('platform_key') || undefined);
        const mentor = q.get('mentor');
        if (mentor) {
          // The log's mentor is the mentor's integer id; a unique id names the same mentor.
          const id = /^\d+$/.test(mentor)
            ? Number(mentor)
            : ((prepare('SELECT id FROM mentors WHERE org = ? AND unique_id = ?')
                .pluck()
                .get(ctx.params.org, mentor.toLowerCase()) as number | undefined) ?? -1);
          add('mentor = @mentor', 'mentor', id);
        }
        const target = q.get('target_system');
        if (target) {
          if (!(TARGET_SYSTEMS as readonly string[]).includes(target)) {
            throw badRequest(`Invalid query parameters: target_system must be one of ${TARGET_SYSTEMS.join(', ')}`);
          }
          add('target_system = @target', 'target', target);
        }
        add('date_created >= @start', 'start', instantParam(ctx, 'start_time'));
        add('date_created <= @end', 'end', instantParam(ctx, 'end_time'));
        const search = q.get('search')?.trim();
        if (search) {
          where.push('(instr(lower(prompt), @search) > 0 OR instr(lower(reason), @search) > 0)');
          params.search = search.toLowerCase();
        }
        const order = ORDERINGS[q.get('ordering') ?? ''] ?? ORDERINGS['-date_created']!;
        const window = pageWindow(q, 20, 1000);
        const filter = where.join(' AND ');
        const n = prepare(`SELECT count(*) FROM review_logs WHERE ${filter}`).pluck().get(params) as number;
        if (window.page > 1 && window.offset >= n) throw notFound('Invalid page.');
        const rows = prepare(
          `SELECT * FROM review_logs WHERE ${filter} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        ).all({ ...params, limit: window.pageSize, offset: window.offset }) as LogRow[];
        return { status: 200, body: drfPage(ctx.url, window, n, rows.map(presentLog)) };
      },
      { auth: 'admin' },
    );

    const one = (ctx: RequestContext): LogRow => {
      const row = db
        .prepare('SELECT * FROM review_logs WHERE id = ? AND org = ? AND kind = ?')
        .get(pathId(ctx.params.id), ctx.params.org, kind) as LogRow | undefined;
      if (!row) throw notFound();
      return row;
    };
    router.get(`${BASE}${segment}/{id}/`, (ctx) => ({ status: 200, body: presentLog(one(ctx)) }), {
      auth: 'admin',
    });
    router.delete(
      `${BASE}${segment}/{id}/`,
      (ctx) => {
        db.prepare('DELETE FROM review_logs WHERE id = ?').run(one(ctx).id);
        return { status: 204 };
      },
      { auth: 'admin' },
    );
  }
}
