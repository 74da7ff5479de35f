import type { AreaDeps } from '../../area';
import { badRequest, HttpError, notFound } from '../../http/errors';
import { catalogPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { requirePlatformKey } from '../core';
import { enroll, targetOrg } from './catalog';
import { invitationWriter, parseBoolean, rowValidator, type RowError } from './rows';
import {
  BAD_REQUEST,
  INVITATION_NOT_FOUND,
  isEmail,
  membership,
  NO_ACTIVE_INVITATION,
  NO_BLANK_INVITATION,
  presentInvitation,
  type InvitationRow,
  type KindSpec,
} from './store';

const invalid = (why: string) => badRequest(`${BAD_REQUEST}: ${why}`);
/** Largest `invitation_data` accepted in one bulk request, and the most blank invitations made at once. */
export const MAX_BULK_ROWS = 50_000;
const MAX_BLANK = 10_000;

const SORTS: Record<string, string> = {
  id: 'id',
  created: 'created',
  started: 'started',
  expired: 'expired',
  email: 'email',
  username: 'username',
  source: 'source',
  active: 'active',
};
/** Query parameters with a meaning of their own; any other `\w+` parameter filters on a metadata field. */
const RESERVED_QUERY = new Set([
  'page',
  'page_size',
  'sort',
  'verbose',
  'active',
  'email',
  'source',
  'username',
  'org',
  'platform_key',
  'platform_org',
  'key',
  'course_id',
  'program_key',
  'id',
  'format',
]);

/** Catalog management is for tenant admins (the spec's IsPlatformAdmin); its 403 reads 'Forbidden'. */
function requireAdmin(ctx: RequestContext): void {
  if (ctx.caller!.role !== 'admin') throw new HttpError(403, 'Forbidden');
}

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The tenant named by `platform_key`/`org`-style parameters: the caller's own, or 404 for any other. */
function tenantOf(ctx: RequestContext, ...candidates: unknown[]): string {
  const value = candidates.find(given);
  return value === undefined ? ctx.caller!.org : requirePlatformKey(ctx, value);
}

function queryObject(query: URLSearchParams, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = query.get(name);
    if (value !== null && value !== '') out[name] = value;
  }
  return out;
}

async function bodyObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = await ctx.json();
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('expected an object');
  return body as Record<string, unknown>;
}

export function invitationRoutes(router: Router, deps: AreaDeps, spec: KindSpec): void {
  const { db } = deps;
  const base = `/api/catalog/invitations/${spec.kind}/`;
  const present = (row: InvitationRow) => presentInvitation(spec, row);
  const byId = db.prepare('SELECT * FROM catalog_invitations WHERE id = ? AND org = ? AND kind = ?');
  const read = (id: number, org: string) => byId.get(id, org, spec.kind) as InvitationRow;

  /** The tenant of a request: for platform invitations the platform itself, else any platform_key/org given. */
  function requestTenant(ctx: RequestContext, values: Record<string, unknown>): string {
    return tenantOf(ctx, values.platform_key, values.platform_org, values.org);
  }

  /** A course or program of the caller's tenant (or the tenant itself), else the spec's 404 for the kind. */
  function ownTarget(ctx: RequestContext, value: unknown): string {
    if (typeof value !== 'string' || !value.trim()) throw invalid(`${spec.field} is required`);
    const key = value.trim();
    if (targetOrg(db, spec.kind, key) !== ctx.caller!.org) throw notFound(spec.notFound);
    return key;
  }

  const rowFailure = (error: RowError) => (error.notFound ? notFound(spec.notFound) : invalid(error.detail));

  // List, newest first by default (`sort=-id`), in the catalog envelope.
  router.get(base, (ctx) => {
    requireAdmin(ctx);
    const q = ctx.query;
    const org = requestTenant(ctx, queryObject(q, ['platform_key', 'platform_org', 'org']));
    const where = ['org = @org', 'kind = @kind'];
    const params: Record<string, string | number> = { org, kind: spec.kind };
    const target = spec.kind === 'platform' ? null : q.get(spec.field);
    if (target) {
      where.push('target = @target');
      params.target = target;
    }
    const active = q.get('active');
    if (active !== null && active !== '') {
      const flag = parseBoolean(active);
      if (flag === null) throw invalid('active must be true or false');
      where.push('active = @active');
      params.active = flag ? 1 : 0;
    }
    for (const field of ['email', 'source', 'username'] as const) {
      const value = q.get(field);
      if (value) {
        where.push(`${field} = @${field}`);
        params[field] = value.trim();
      }
    }
    let m = 0;
    for (const name of new Set(q.keys())) {
      if (RESERVED_QUERY.has(name) || !/^\w{1,64}$/.test(name)) continue;
      where.push(`CAST(json_extract(metadata, '$.${name}') AS TEXT) = @meta${m}`);
      params[`meta${m++}`] = q.get(name)!;
    }
    const sortParam = q.get('sort') || '-id';
    const column = SORTS[sortParam.replace(/^-/, '')];
    if (!column) throw invalid(`sort must be one of ${Object.keys(SORTS).join(', ')} (prefix - for descending)`);
    const direction = sortParam.startsWith('-') ? 'DESC' : 'ASC';
    const window = pageWindow(q, 20, 1000);
    const filter = where.join(' AND ');
    const { n } = db.prepare(`SELECT count(*) AS n FROM catalog_invitations WHERE ${filter}`).get(params) as {
      n: number;
    };
    const rows = db
      .prepare(
        `SELECT * FROM catalog_invitations WHERE ${filter} ORDER BY ${column} ${direction}, id ${direction} LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit: window.pageSize, offset: window.offset }) as InvitationRow[];
    return { status: 200, body: catalogPage(ctx.url, window, n, rows.map(present)) };
  });

  // One invitation; refused like a bulk row would be (invalid address, already invited, already a member).
  router.post(base, async (ctx) => {
    requireAdmin(ctx);
    const body = {
      ...queryObject(ctx.query, ['platform_key', 'platform_org', 'org', spec.field, 'email', 'username', 'source']),
      ...(await bodyObject(ctx)),
    };
    if (spec.kind === 'platform') {
      if (!given(body.platform_key)) throw invalid('platform_key is required');
    } else requestTenant(ctx, body);
    const validate = rowValidator(db, spec, ctx.caller!.org, deps.now);
    const outcome = validate(body, new Set());
    if (!outcome.ok) throw rowFailure(outcome);
    const id = invitationWriter(db, spec, ctx.caller!.org)(outcome.invitation);
    return { status: 200, body: present(read(id, ctx.caller!.org)) };
  });

  // Removes one invitation by `id`, or every invitation of an address to the target; 200 without a body.
  router.delete(base, async (ctx) => {
    requireAdmin(ctx);
    const values = {
      ...(await bodyObject(ctx)),
      ...queryObject(ctx.query, ['id', 'platform_key', 'platform_org', 'org', spec.field, 'email']),
    };
    const org = requestTenant(ctx, values);
    if (given(values.id)) {
      const id = Number(values.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw invalid('id must be an integer');
      const row = byId.get(id, org, spec.kind) as InvitationRow | undefined;
      if (!row || (spec.kind !== 'platform' && given(values[spec.field]) && row.target !== values[spec.field])) {
        throw notFound(INVITATION_NOT_FOUND);
      }
      db.prepare('DELETE FROM catalog_invitations WHERE id = ?').run(id);
      return { status: 200 };
    }
    if (typeof values.email !== 'string' || !values.email.trim()) throw invalid('id or email is required');
    const target = spec.kind === 'platform' ? org : values[spec.field];
    if (typeof target !== 'string' || !target) throw invalid(`${spec.field} is required with email`);
    const result = db
      .prepare('DELETE FROM catalog_invitations WHERE org = ? AND kind = ? AND target = ? AND email = ?')
      .run(org, spec.kind, target, values.email.trim());
    if (!result.changes) throw notFound(INVITATION_NOT_FOUND);
    return { status: 200 };
  });

  // Thousands of rows in one transaction; every refused row is reported as `code:index:email`.
  router.post(`${base}bulk/`, async (ctx) => {
    requireAdmin(ctx);
    const body = await bodyObject(ctx);
    let data = body.invitation_data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data) as unknown;
      } catch {
        throw invalid('invitation_data must be a list');
      }
    }
    if (!Array.isArray(data)) throw invalid('invitation_data must be a list');
    if (data.length > MAX_BULK_ROWS) throw invalid(`invitation_data may hold at most ${MAX_BULK_ROWS} rows`);
    requestTenant(ctx, body);
    const org = ctx.caller!.org;
    const validate = rowValidator(db, spec, org, deps.now);
    const write = invitationWriter(db, spec, org);
    const seen = new Set<string>();
    const errorCodes: string[] = [];
    let successes = 0;
    const fallback = spec.kind === 'platform' ? body.platform_key : undefined;
    const rows = data as unknown[];
    db.transaction(() => {
      rows.forEach((row, index) => {
        const outcome = validate(row, seen, fallback);
        if (outcome.ok) {
          write(outcome.invitation);
          successes++;
          return;
        }
        const r = row && typeof row === 'object' ? (row as Record<string, unknown>) : {};
        const who =
          typeof r.email === 'string' ? r.email.trim() : typeof r.username === 'string' ? r.username.trim() : '';
        errorCodes.push(`${outcome.code}:${index}:${who}`);
      });
    })();
    return { status: 200, body: { successes, error_codes: errorCodes } };
  });

  // `count` unassigned invitations for a `source`, to be handed out and redeemed later.
  router.post(`${base}blank/`, async (ctx) => {
    requireAdmin(ctx);
    const body = await bodyObject(ctx);
    if (spec.kind === 'platform' && !given(body.platform_key)) throw invalid('platform_key is required');
    if (spec.kind !== 'platform') requestTenant(ctx, body);
    const target = ownTarget(ctx, body[spec.field]);
    if (typeof body.source !== 'string' || !body.source.trim()) throw invalid('source is required');
    const count = typeof body.count === 'string' && /^\d+$/.test(body.count) ? Number(body.count) : body.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_BLANK) {
      throw invalid(`count must be an integer from 1 to ${MAX_BLANK}`);
    }
    let metadata: Record<string, unknown> = {};
    if (given(body.metadata)) {
      const parsed = typeof body.metadata === 'string' ? safeJson(body.metadata) : body.metadata;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw invalid('metadata must be a JSON object');
      metadata = parsed as Record<string, unknown>;
    }
    const extras = Object.fromEntries(
      Object.entries(body).filter(
        ([k]) => !['platform_key', 'platform_org', 'org', spec.field, 'source', 'count', 'metadata'].includes(k),
      ),
    );
    const insert = db.prepare(
      `INSERT INTO catalog_invitations (kind, org, target, source, active, metadata, created) VALUES (?, ?, ?, ?, 1, ?, ?)`,
    );
    const meta = JSON.stringify({ ...metadata, ...extras });
    const now = deps.now().toISOString();
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(spec.kind, ctx.caller!.org, target, body.source as string, meta, now);
    })();
    return { status: 200, body: { successes: count, error_codes: [] } };
  });

  // Attaches the oldest unused blank invitation of a source to an address or user; a known user is enrolled.
  router.post(`${base}redeem/`, async (ctx) => {
    requireAdmin(ctx);
    const body = await bodyObject(ctx);
    if (spec.kind === 'platform' && !given(body.platform_key)) throw invalid('platform_key is required');
    if (spec.kind !== 'platform') requestTenant(ctx, body);
    const target = ownTarget(ctx, body[spec.field]);
    if (typeof body.source !== 'string' || !body.source.trim()) throw invalid('source is required');
    const org = ctx.caller!.org;
    const members = membership(db);
    let email: string | null = null;
    let user = null;
    if (given(body.email)) {
      if (typeof body.email !== 'string' || !isEmail(body.email.trim())) throw invalid('email is not a valid address');
      email = body.email.trim();
      user = members.byEmail(org, email);
    } else if (typeof body.username === 'string' && body.username.trim()) {
      user = members.byUsername(org, body.username.trim());
      if (!user) throw invalid(`no user named ${body.username.trim()} on this platform`);
      email = isEmail(user.email) ? user.email : null;
    } else throw invalid('email or username is required');
    const metadata = given(body.metadata)
      ? typeof body.metadata === 'string'
        ? safeJson(body.metadata)
        : body.metadata
      : {};
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata))
      throw invalid('metadata must be a JSON object');

    const blank = db
      .prepare(
        `SELECT * FROM catalog_invitations WHERE kind = ? AND target = ? AND source = ? AND email IS NULL AND user_id IS NULL
         AND active = 1 ORDER BY id LIMIT 1`,
      )
      .get(spec.kind, target, body.source.trim()) as InvitationRow | undefined;
    if (!blank) throw notFound(NO_BLANK_INVITATION);
    const now = deps.now().toISOString();
    const merged = {
      ...(JSON.parse(blank.metadata) as Record<string, unknown>),
      ...(metadata as Record<string, unknown>),
    };
    db.transaction(() => {
      db.prepare(
        'UPDATE catalog_invitations SET email = ?, username = ?, user_id = ?, started = ?, metadata = ? WHERE id = ?',
      ).run(email, user?.username ?? null, user?.id ?? null, now, JSON.stringify(merged), blank.id);
      if (user && spec.kind !== 'platform') enroll(db, spec.kind, target, user.id, now);
    })();
    return { status: 200, body: present(read(blank.id, org)) };
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Public check (the spec declares no security): is there a live platform invitation for this address? */
export function invitationCheckRoute(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const live = db.prepare(
    `SELECT 1 FROM catalog_invitations WHERE email = ? AND kind = 'platform' AND active = 1
     AND (expired IS NULL OR expired > ?) AND (? IS NULL OR org = ?) LIMIT 1`,
  );
  router.get(
    '/api/catalog/invitations/platform/check/',
    (ctx) => {
      const email = ctx.query.get('email')?.trim();
      if (!email || !isEmail(email)) throw invalid('email must be a valid address');
      const platform = ctx.query.get('platform_key') || null;
      if (!live.get(email, deps.now().toISOString(), platform, platform)) throw notFound(NO_ACTIVE_INVITATION);
      return { status: 200 };
    },
    { auth: 'none' },
  );
}
