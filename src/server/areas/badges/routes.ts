/**
 * Badges under `/api/credentials/orgs/{org}/users/{user_id}/`: the badge definitions (the spec's "credentials"),
 * issuers, uploaded images, assertions (issue one, issue in bulk, revoke) and issuance over time. Defining, issuing
 * and revoking need CredentialAssignmentPermission (tenant admins here); a learner reads only their own assertions.
 */
import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import { badRequest, fieldErrors, forbidden, notFound, tooLarge } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';

export const BASE = '/api/credentials/orgs/{org}/users/{user_id}/';
const ADMIN = { auth: 'admin' as const };
/** The spec's 404 for a badge or an assertion ("If the credential doesn't exist"). */
export const NOT_FOUND = 'Not found.';
const MAX_PAGE = 100;

interface BadgeRow {
  entity_id: string;
  org: string;
  name: string;
  description: string;
  issuer: string | null;
  credential_type: string | null;
  icon_image: string;
  criteria_text: string;
  course: string | null;
  created_at: string;
}
interface AssertionRow {
  entity_id: string;
  badge: string;
  username: string;
  email: string;
  issued_on: string;
  narrative: string | null;
  revoked: number;
  revocation_reason: string;
}

/** A badge as the spec's Credential (its required fields), with the fields its create takes. */
export function presentBadge(row: BadgeRow, issued: number) {
  return {
    credential_id: row.entity_id,
    entityId: row.entity_id,
    credential_url: `/api/credentials/orgs/${row.org}/users/admin/${row.entity_id}`,
    name: row.name,
    description: row.description,
    credential_type: row.credential_type,
    issuer: row.issuer,
    issued_on: null,
    expires_at: null,
    revoked: false,
    icon_image: row.icon_image,
    criteria_text: row.criteria_text,
    course: row.course,
    created: row.created_at,
    assertions_count: issued,
  };
}

function presentAssertion(row: AssertionRow, badge: BadgeRow) {
  return {
    entityId: row.entity_id,
    issuedOn: row.issued_on,
    credentialDetails: { entityId: badge.entity_id, name: badge.name, iconImage: badge.icon_image },
    recipient: { username: row.username, email: row.email },
    metadata: null,
    course: badge.course ? { course_id: badge.course } : {},
    program: {},
    narrative: row.narrative,
    revoked: row.revoked === 1,
    revocationReason: row.revocation_reason,
    acceptance: 'Unaccepted',
    expires: '',
  };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

async function objectBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return Object.fromEntries((await ctx.form()).entries());
  const body = await ctx.json();
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request data');
  return body as Record<string, unknown>;
}

/** The paginated envelope the spec gives assertions (PaginatedAssertionsResponse). */
function page<T>(ctx: RequestContext, count: number, slice: (offset: number, limit: number) => T[]) {
  const size = Math.min(Math.max(Number(ctx.query.get('page_size')) || 10, 1), MAX_PAGE);
  const number = Math.max(Number(ctx.query.get('page')) || 1, 1);
  const pages = Math.max(Math.ceil(count / size), 1);
  const link = (n: number) => {
    const url = new URL(ctx.url);
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  return {
    next: number < pages ? link(number + 1) : '',
    previous: number > 1 ? link(number - 1) : '',
    count,
    num_pages: pages,
    page_number: number,
    max_page_size: MAX_PAGE,
    data: slice((number - 1) * size, size),
  };
}

export function badgeRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const org = (ctx: RequestContext) => ctx.caller!.org;
  const badgeOf = (ctx: RequestContext, id: string) => {
    const row = db.prepare('SELECT * FROM credential_badges WHERE entity_id = ? AND org = ?').get(id, org(ctx));
    if (!row) throw notFound(NOT_FOUND);
    return row as BadgeRow;
  };
  const issuedCount = db.prepare('SELECT count(*) FROM credential_assertions WHERE badge = ? AND revoked = 0').pluck();
  const userByName = db.prepare(
    'SELECT username, email FROM users WHERE org = ? AND is_active = 1 AND (username = ? OR email = ?)',
  );

  // Badges: list with search, course filter and pages, in the envelope the description gives.
  router.get(
    BASE,
    (ctx) => {
      const where = ['org = @org'];
      const params: Record<string, unknown> = { org: org(ctx) };
      const search = ctx.query.get('search');
      if (search) {
        where.push("(name LIKE @search ESCAPE '\\' OR description LIKE @search ESCAPE '\\')");
        params.search = `%${search.replace(/[%_\\]/g, '\\$&')}%`;
      }
      const course = ctx.query.get('course');
      if (course) {
        where.push('course = @course');
        params.course = course;
      }
      const filter = where.join(' AND ');
      const count = db.prepare(`SELECT count(*) FROM credential_badges WHERE ${filter}`).pluck().get(params) as number;
      const result = page(ctx, count, (offset, limit) =>
        (
          db
            .prepare(`SELECT * FROM credential_badges WHERE ${filter} ORDER BY created_at DESC, name LIMIT ? OFFSET ?`)
            .all(params, limit, offset) as BadgeRow[]
        ).map((row) => presentBadge(row, issuedCount.get(row.entity_id) as number)),
      );
      return { status: 200, body: { status: { success: true, description: 'Ok' }, result } };
    },
    ADMIN,
  );

  router.post(
    BASE,
    async (ctx) => {
      const body = await objectBody(ctx);
      const name = text(body.name);
      if (!name) throw fieldErrors({ name: ['This field is required.'] });
      if (name.length > 255) throw fieldErrors({ name: ['Ensure this field has no more than 255 characters.'] });
      const issuer = text(body.issuer) || null;
      if (
        issuer &&
        !db.prepare('SELECT 1 FROM credential_issuers WHERE entity_id = ? AND org = ?').get(issuer, org(ctx))
      )
        throw fieldErrors({ issuer: [`Invalid pk "${issuer}" - object does not exist.`] });
      const row: BadgeRow = {
        entity_id: randomUUID().replace(/-/g, '').slice(0, 22),
        org: org(ctx),
        name,
        description: text(body.description),
        issuer,
        credential_type: text(body.credential_type) || null,
        icon_image: text(body.icon_image),
        criteria_text: text(body.criteria_text),
        course: text(body.course) || null,
        created_at: new Date().toISOString(),
      };
      db.prepare(
        `INSERT INTO credential_badges VALUES (@entity_id, @org, @name, @description, @issuer, @credential_type,
           @icon_image, @criteria_text, @course, @created_at)`,
      ).run(row);
      return { status: 200, body: { status: { success: true, description: 'Created' }, result: presentBadge(row, 0) } };
    },
    ADMIN,
  );

  router.get(
    `${BASE}{entity_id}`,
    (ctx) => {
      const row = badgeOf(ctx, ctx.params.entity_id!);
      return {
        status: 200,
        body: {
          status: { success: true, description: 'Ok' },
          result: presentBadge(row, issuedCount.get(row.entity_id) as number),
        },
      };
    },
    ADMIN,
  );

  router.put(
    `${BASE}{entity_id}`,
    async (ctx) => {
      const row = badgeOf(ctx, ctx.params.entity_id!);
      const body = await objectBody(ctx);
      const next = { ...row };
      for (const field of ['name', 'description', 'credential_type', 'icon_image', 'criteria_text'] as const) {
        if (typeof body[field] === 'string') next[field] = text(body[field]);
      }
      if (!next.name) throw fieldErrors({ name: ['This field may not be blank.'] });
      if (next.name.length > 255) throw fieldErrors({ name: ['Ensure this field has no more than 255 characters.'] });
      db.prepare(
        `UPDATE credential_badges SET name = @name, description = @description, credential_type = @credential_type,
           icon_image = @icon_image, criteria_text = @criteria_text WHERE entity_id = @entity_id`,
      ).run(next);
      const result = presentBadge(next, issuedCount.get(row.entity_id) as number);
      return { status: 200, body: { status: { success: true, description: 'Updated' }, result } };
    },
    ADMIN,
  );

  // Deleting a badge deletes its assertions with it (the spec answers 204 and says nothing of them).
  router.delete(
    `${BASE}{entity_id}`,
    (ctx) => {
      const row = badgeOf(ctx, ctx.params.entity_id!);
      db.prepare('DELETE FROM credential_assertions WHERE badge = ?').run(row.entity_id);
      db.prepare('DELETE FROM credential_badges WHERE entity_id = ?').run(row.entity_id);
      return { status: 204 };
    },
    ADMIN,
  );

  // Assertions of one badge: the list, and issuing one to a recipient named by username or email.
  router.get(
    `${BASE}{entity_id}/assertions/`,
    (ctx) => {
      const badge = badgeOf(ctx, ctx.params.entity_id!);
      const revoked = ctx.query.get('include_revoked') === 'false' ? 'AND revoked = 0' : '';
      const count = db
        .prepare(`SELECT count(*) FROM credential_assertions WHERE badge = ? ${revoked}`)
        .pluck()
        .get(badge.entity_id) as number;
      const body = page(ctx, count, (offset, limit) =>
        (
          db
            .prepare(
              `SELECT * FROM credential_assertions WHERE badge = ? ${revoked}
               ORDER BY issued_on DESC, username LIMIT ? OFFSET ?`,
            )
            .all(badge.entity_id, limit, offset) as AssertionRow[]
        ).map((row) => presentAssertion(row, badge)),
      );
      return { status: 200, body };
    },
    ADMIN,
  );

  const issue = (badge: BadgeRow, recipient: string, narrative: string | null) => {
    const user = userByName.get(badge.org, recipient, recipient) as { username: string; email: string } | undefined;
    if (!user) return { status: 'unknown' as const };
    const existing = db
      .prepare('SELECT * FROM credential_assertions WHERE badge = ? AND username = ?')
      .get(badge.entity_id, user.username) as AssertionRow | undefined;
    if (existing && !existing.revoked) return { status: 'skipped' as const, row: existing };
    const row: AssertionRow = {
      entity_id: randomUUID().replace(/-/g, '').slice(0, 22),
      badge: badge.entity_id,
      username: user.username,
      email: user.email,
      issued_on: new Date().toISOString(),
      narrative,
      revoked: 0,
      revocation_reason: '',
    };
    if (existing) db.prepare('DELETE FROM credential_assertions WHERE entity_id = ?').run(existing.entity_id);
    db.prepare(
      `INSERT INTO credential_assertions (entity_id, org, badge, username, email, issued_on, narrative)
       VALUES (@entity_id, @org, @badge, @username, @email, @issued_on, @narrative)`,
    ).run({ ...row, org: badge.org });
    return { status: 'issued' as const, row };
  };

  router.post(
    `${BASE}{entity_id}/assertions/`,
    async (ctx) => {
      const badge = badgeOf(ctx, ctx.params.entity_id!);
      const body = await objectBody(ctx);
      const recipient =
        body.recipient && typeof body.recipient === 'object' ? (body.recipient as Record<string, unknown>) : {};
      const who = text(recipient.username) || text(recipient.email) || text(body.username) || text(body.email);
      if (!who) throw fieldErrors({ recipient: ['This field is required.'] });
      const narrative = text(body.narrative) || null;
      const done = issue(badge, who, narrative);
      if (done.status === 'unknown') throw badRequest('Invalid request data');
      return { status: 200, body: presentAssertion(done.row, badge) };
    },
    ADMIN,
  );

  router.post(
    `${BASE}{entity_id}/assertions/bulk/`,
    async (ctx) => {
      const badge = badgeOf(ctx, ctx.params.entity_id!);
      const body = await objectBody(ctx);
      if (!Array.isArray(body.users) || !body.users.every((u) => typeof u === 'string'))
        throw fieldErrors({ users: ['This field is required.'] });
      const issued: string[] = [];
      const skipped: string[] = [];
      db.transaction(() => {
        for (const name of body.users as string[]) {
          const done = issue(badge, name.trim(), text(body.narrative) || null);
          (done.status === 'issued' ? issued : skipped).push(name);
        }
      })();
      return { status: 200, body: { issued, skipped } };
    },
    ADMIN,
  );

  // One person's assertions: an admin may read anyone's in the tenant, a learner only their own.
  router.get(`${BASE}assertions/`, (ctx) => {
    const caller = ctx.caller!;
    const user = ctx.params.user_id!;
    if (caller.role !== 'admin' && user !== caller.username) throw forbidden();
    const where = ['a.org = @org', 'a.username = @user'];
    if (ctx.query.get('include_revoked') !== 'true') where.push('a.revoked = 0');
    const course = ctx.query.get('course');
    if (course) where.push('b.course = @course');
    const params = { org: caller.org, user, course };
    const from = `FROM credential_assertions a JOIN credential_badges b ON b.entity_id = a.badge WHERE ${where.join(' AND ')}`;
    const count = db.prepare(`SELECT count(*) ${from}`).pluck().get(params) as number;
    return {
      status: 200,
      body: page(ctx, count, (offset, limit) =>
        (
          db
            .prepare(`SELECT a.*, b.entity_id AS b_id ${from} ORDER BY a.issued_on DESC LIMIT ? OFFSET ?`)
            .all(params, limit, offset) as (AssertionRow & { b_id: string })[]
        ).map((row) => presentAssertion(row, badgeOf(ctx, row.b_id))),
      ),
    };
  });

  const assertionOf = (ctx: RequestContext) => {
    const row = db
      .prepare('SELECT * FROM credential_assertions WHERE entity_id = ? AND org = ?')
      .get(ctx.params.entity_id!, org(ctx)) as AssertionRow | undefined;
    if (!row) throw notFound(NOT_FOUND);
    return row;
  };

  router.get(
    `${BASE}assertions/{entity_id}`,
    (ctx) => {
      const row = assertionOf(ctx);
      return { status: 200, body: presentAssertion(row, badgeOf(ctx, row.badge)) };
    },
    ADMIN,
  );

  // Revoking: `revoked: true` with the reason the description says is required when revoking.
  router.put(
    `${BASE}assertions/{entity_id}`,
    async (ctx) => {
      const row = assertionOf(ctx);
      const body = await objectBody(ctx);
      const revoked = body.revoked === true || body.revoked === 'true';
      const reason = text(body.revocationReason);
      if (revoked && !reason) throw fieldErrors({ revocationReason: ['This field is required.'] });
      db.prepare('UPDATE credential_assertions SET revoked = ?, revocation_reason = ? WHERE entity_id = ?').run(
        revoked ? 1 : 0,
        revoked ? reason : '',
        row.entity_id,
      );
      const next = { ...row, revoked: revoked ? 1 : 0, revocation_reason: revoked ? reason : '' };
      return { status: 200, body: presentAssertion(next, badgeOf(ctx, row.badge)) };
    },
    ADMIN,
  );

  // Issuance per day (OvertimeWithChangeInfo), revoked assertions left out.
  router.get(
    `${BASE}assertions-over-time/`,
    (ctx) => {
      const today = new Date().toISOString().slice(0, 10);
      const end = ctx.query.get('end_date')?.slice(0, 10) || today;
      const start = ctx.query.get('start_date')?.slice(0, 10) || addDays(end, -29);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || !/^\d{4}-\d{2}-\d{2}$/.test(end) || start > end)
        throw badRequest('Invalid query parameters');
      const counts = new Map(
        (
          db
            .prepare(
              `SELECT substr(issued_on, 1, 10) AS day, count(*) AS n FROM credential_assertions
               WHERE org = ? AND revoked = 0 AND substr(issued_on, 1, 10) BETWEEN ? AND ? GROUP BY day`,
            )
            .all(org(ctx), start, end) as { day: string; n: number }[]
        ).map((r) => [r.day, r.n]),
      );
      const data: Record<string, number> = {};
      for (let day = start; day <= end; day = addDays(day, 1)) data[day] = counts.get(day) ?? 0;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return { status: 200, body: { data, total, meta: { total } } };
    },
    ADMIN,
  );

  // Issuers: the tenant's, searched by name.
  router.get(BASE + 'issuers/', (ctx) => {
    const q = ctx.query.get('q') ?? '';
    const rows = db
      .prepare('SELECT * FROM credential_issuers WHERE org = ? AND name LIKE ? ORDER BY name')
      .all(org(ctx), `%${q}%`) as { entity_id: string; org: string; name: string; url: string; icon_image: string }[];
    const data = rows.map((r) => ({
      entityId: r.entity_id,
      name: r.name,
      org: r.org,
      url: r.url,
      iconImage: r.icon_image,
      signatories: {},
      allowed_template_tags: null,
    }));
    const result = {
      next: null,
      previous: null,
      count: data.length,
      data,
      num_pages: 1,
      page_number: 1,
      max_page_size: 1000,
    };
    return { status: 200, body: { status: { success: true, description: 'Ok' }, result } };
  });

  // Images: a file upload (multipart `image`, optional `name`); answered with a URL the app can show.
  router.post(BASE + 'images/', async (ctx) => {
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'multipart/form-data') throw fieldErrors({ image: ['No file was submitted.'] });
    const form = await ctx.form();
    const file = form.get('image');
    if (!file || typeof file === 'string') throw fieldErrors({ image: ['No file was submitted.'] });
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (bytes.byteLength > deps.config.uploadLimitBytes) throw tooLarge('File too large');
    if (!isImage(bytes))
      throw fieldErrors({
        image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
      });
    const name = String(form.get('name') ?? '').slice(0, 254) || file.name || null;
    const id = Number(
      db
        .prepare('INSERT INTO credential_images (org, name, type, bytes) VALUES (?, ?, ?, ?)')
        .run(org(ctx), name, file.type || 'image/png', bytes).lastInsertRowid,
    );
    return {
      status: 200,
      body: { id, name, image: `data:${file.type || 'image/png'};base64,${Buffer.from(bytes).toString('base64')}` },
    };
  });
}

/** Raster images Pillow (the platform's ImageField) opens: PNG, JPEG, GIF, WebP, BMP. */
function isImage(b: Uint8Array): boolean {
  const head = Buffer.from(b.subarray(0, 12)).toString('latin1');
  return (
    (b[0] === 0x89 && head.slice(1, 4) === 'PNG') ||
    (b[0] === 0xff && b[1] === 0xd8) ||
    head.startsWith('GIF8') ||
    (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') ||
    head.startsWith('BM')
  );
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
