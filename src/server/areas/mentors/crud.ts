import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { badRequest, HttpError, notFound, invalidPkMessage } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { slugify, type MentorRow } from '../mentor-store';
import { FieldError, MENTOR_FIELDS, parseBool, parseIntList, parseJsonValue, readFields } from './fields';
import { presentMentor, presentMentorCreate } from './present';
import { canSeeMentor, findMentor, STUDENT_VISIBLE } from './store';
import { MENTOR_TYPES, SUBJECTS, unknownIn } from './catalogues';
import { categoriesOfMentors, categoryIdsOf, missingCategories, setMentorCategories } from './taxonomy';

export const MENTORS_BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG = /^[-a-zA-Z0-9_]{1,255}$/;

/** Creating, changing and deleting mentors is for tenant admins ("with RBAC enforcement"); students read. */
const ADMIN = { auth: 'admin' } as const;

const invalid = (detail: string) => badRequest(`Invalid data: ${detail}`);

function optionalBool(ctx: RequestContext, name: string): boolean | null {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return null;
  try {
    return parseBool(name, raw);
  } catch {
    throw badRequest('Invalid parameters');
  }
}

/** The list's SQL conditions and order for the spec's filters; students only see mentors meant for them. */
function listQuery(ctx: RequestContext): { where: string[]; params: Record<string, unknown>; order: string } {
  const caller = ctx.caller!;
  const where = ['org = @org', 'is_deleted = 0'];
  const params: Record<string, unknown> = { org: ctx.params.org };
  if (caller.role !== 'admin') where.push(`visibility IN (${STUDENT_VISIBLE.map((v) => `'${v}'`).join(', ')})`);
  const visibility = ctx.query.get('visibility');
  if (visibility) {
    where.push('visibility = @visibility');
    params.visibility = visibility;
  }
  const featured = optionalBool(ctx, 'is_featured');
  if (featured !== null) {
    where.push('is_featured = @featured');
    params.featured = featured ? 1 : 0;
  }
  optionalBool(ctx, 'return_session_information');
  const department = ctx.query.get('department_id');
  if (department) {
    if (!/^\d+$/.test(department)) throw badRequest('Invalid parameters');
    // Mentors without a department serve every department.
    where.push(
      `(json_extract(settings, '$.department_id') IS NULL OR json_extract(settings, '$.department_id') = @department)`,
    );
    params.department = Number(department);
  }
  const metadataKey = ctx.query.get('metadata_key');
  const metadataValue = ctx.query.get('metadata_value');
  if (metadataKey) {
    if (!/^[\w.-]{1,100}$/.test(metadataKey)) throw badRequest('Invalid parameters');
    params.path = `$."${metadataKey}"`;
    if (metadataValue !== null && metadataValue !== '') {
      where.push(
        `(CASE json_type(metadata, @path) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
          ELSE CAST(json_extract(metadata, @path) AS TEXT) END) = @metadataValue`,
      );
      params.metadataValue = metadataValue;
    } else where.push('json_type(metadata, @path) IS NOT NULL');
  }
  const order = ctx.query.get('filter_by') === 'name' ? 'name COLLATE NOCASE, id' : 'created_at DESC, id DESC';
  return { where, params, order };
}

/**
 * Mentor list, create, and the per-mentor `{name}/` and `mentors/{mentor}/` operations. `{name}/` is one path segment
 * under `users/{user_id}/`, where other areas serve literal segments (`support-tickets/`, `sessions/`, …); the router
 * takes the first route that matches, so the caller passes `later` to add those routes after everyone else's.
 */
export function mentorCrudRoutes(router: Router, deps: AreaDeps, later: (register: () => void) => void): void {
  const { db } = deps;

  const present = (rows: MentorRow[]) => {
    const categories = categoriesOfMentors(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => presentMentor(row, categories.get(row.id)!));
  };

  router.get(MENTORS_BASE, (ctx) => {
    const { where, params, order } = listQuery(ctx);
    const window = pageWindow(ctx.query, 20, 1000);
    const sql = `FROM mentors WHERE ${where.join(' AND ')}`;
    const { n } = db.prepare(`SELECT count(*) AS n ${sql}`).get(params) as { n: number };
    const rows = db
      .prepare(`SELECT * ${sql} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: window.pageSize, offset: window.offset }) as MentorRow[];
    return { status: 200, body: drfPage(ctx.url, window, n, present(rows)) };
  });

  router.post(
    MENTORS_BASE,
    async (ctx) => {
      const body = await readBody(ctx);
      const now = new Date().toISOString();
      const input = parseMentorInput(body, ctx.params.org!, null);
      if (input.name === undefined) throw invalid('name: This field is required.');
      const uniqueId = input.uniqueId ?? randomUUID();
      if (db.prepare('SELECT 1 FROM mentors WHERE unique_id = ?').get(uniqueId))
        throw invalid('unique_id: a mentor with this unique_id already exists');
      const slug = input.slug ?? freeSlug(db, ctx.params.org!, slugify(input.name));
      const createdBy = typeof body.created_by === 'string' && body.created_by ? body.created_by : ctx.caller!.username;
      const id = db.transaction(() => {
        const inserted = db
          .prepare(
            `INSERT INTO mentors (unique_id, org, name, slug, description, created_by, is_featured, metadata, settings, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            uniqueId,
            ctx.params.org,
            input.name,
            slug,
            input.description ?? '',
            createdBy,
            input.isFeatured ? 1 : 0,
            input.metadata === undefined ? null : JSON.stringify(input.metadata),
            JSON.stringify(input.settings),
            now,
            now,
          );
        const mentorId = Number(inserted.lastInsertRowid);
        if (input.categories) setMentorCategories(db, mentorId, input.categories);
        return mentorId;
      })();
      return { status: 201, body: present([mentorById(id)])[0] };
    },
    ADMIN,
  );

  const byName = `${MENTORS_BASE}{name}/`;
  later(() => {
    router.get(byName, (ctx) => ({ status: 200, body: present([visibleMentor(ctx, ctx.params.name!)])[0] }));
    router.put(
      byName,
      async (ctx) => {
        const row = liveMentor(ctx, ctx.params.name!);
        const input = parseMentorInput(await readBody(ctx), row.org, row);
        if (input.name === undefined) throw invalid('name: This field is required.');
        update(row, input);
        return { status: 200, body: present([mentorById(row.id)])[0] };
      },
      ADMIN,
    );
    router.patch(
      byName,
      async (ctx) => {
        const row = liveMentor(ctx, ctx.params.name!);
        update(row, parseMentorInput(await readBody(ctx), row.org, row));
        return { status: 200, body: presentMentorCreate(mentorById(row.id), categoryIdsOf(db, row.id)) };
      },
      ADMIN,
    );
    router.delete(
      byName,
      (ctx) => {
        const row = liveMentor(ctx, ctx.params.name!);
        // A soft delete: documents, chats and tickets keep pointing at the row; the name becomes free again.
        db.prepare('UPDATE mentors SET is_deleted = 1, updated_at = ? WHERE id = ?').run(
          new Date().toISOString(),
          row.id,
        );
        return { status: 204 };
      },
      ADMIN,
    );
  });

  router.get(`${MENTORS_BASE}mentors/{mentor}/`, (ctx) => ({
    status: 200,
    body: present([visibleMentor(ctx, ctx.params.mentor!)])[0],
  }));

  function mentorById(id: number): MentorRow {
    return db.prepare('SELECT * FROM mentors WHERE id = ?').get(id) as MentorRow;
  }

  function liveMentor(ctx: RequestContext, key: string): MentorRow {
    const row = findMentor(db, ctx.params.org!, key);
    if (!row) throw notFound('Mentor not found');
    return row;
  }

  function visibleMentor(ctx: RequestContext, key: string): MentorRow {
    const row = liveMentor(ctx, key);
    if (!canSeeMentor(row, ctx.caller)) throw notFound('Mentor not found');
    return row;
  }

  interface MentorInput {
    name?: string;
    slug?: string;
    uniqueId?: string;
    description?: string;
    isFeatured?: boolean;
    metadata?: unknown;
    categories?: number[];
    settings: Record<string, unknown>;
  }

  /** Validates a MentorCreate body (all fields optional here; create and PUT require `name` themselves). */
  function parseMentorInput(body: Record<string, unknown>, org: string, current: MentorRow | null): MentorInput {
    try {
      const input: MentorInput = { settings: readFields(body, MENTOR_FIELDS) };
      if (body.name !== undefined) {
        if (typeof body.name !== 'string' || !body.name.trim())
          throw new FieldError('name', 'This field may not be blank.');
        const name = body.name.trim();
        if (name.length > 255) throw new FieldError('name', 'Ensure this field has no more than 255 characters.');
        const clash = db
          .prepare('SELECT id FROM mentors WHERE org = ? AND name = ? AND is_deleted = 0')
          .get(org, name) as { id: number } | undefined;
        if (clash && clash.id !== current?.id) throw new FieldError('name', 'a mentor with this name already exists');
        input.name = name;
      }
      if (body.slug !== undefined && body.slug !== '') {
        if (typeof body.slug !== 'string' || !SLUG.test(body.slug))
          throw new FieldError('slug', 'Enter a valid slug of letters, numbers, underscores or hyphens.');
        const clash = db
          .prepare('SELECT id FROM mentors WHERE org = ? AND slug = ? AND is_deleted = 0')
          .get(org, body.slug) as { id: number } | undefined;
        if (clash && clash.id !== current?.id) throw new FieldError('slug', 'a mentor with this slug already exists');
        input.slug = body.slug;
      }
      if (body.unique_id !== undefined && body.unique_id !== '') {
        if (typeof body.unique_id !== 'string' || !UUID.test(body.unique_id))
          throw new FieldError('unique_id', 'Must be a valid UUID.');
        if (current && body.unique_id.toLowerCase() !== current.unique_id.toLowerCase())
          throw new FieldError('unique_id', 'cannot be changed');
        input.uniqueId = body.unique_id.toLowerCase();
      }
      if (body.description !== undefined) {
        if (typeof body.description !== 'string') throw new FieldError('description', 'must be a string');
        input.description = body.description;
      }
      if (body.is_featured !== undefined) input.isFeatured = parseBool('is_featured', body.is_featured);
      if (body.metadata !== undefined) input.metadata = parseJsonValue('metadata', body.metadata);
      if (body.categories !== undefined) {
        const ids = parseIntList('categories', body.categories);
        const missing = missingCategories(db, org, ids);
        if (missing.length) throw new FieldError('categories', invalidPkMessage(missing[0]));
        input.categories = ids;
      }
      // Types and subjects from the platform's catalogues; the sandbox makes no MCP server here: any id names none.
      for (const [field, catalogue] of [
        ['types', MENTOR_TYPES],
        ['subjects', SUBJECTS],
        ['mcp_servers', []],
      ] as const) {
        const ids = body[field] === undefined ? [] : parseIntList(field, body[field]);
        const unknown = unknownIn(catalogue, ids);
        if (unknown !== undefined) throw new FieldError(field, invalidPkMessage(unknown));
        if (field !== 'mcp_servers' && body[field] !== undefined) input.settings[field] = [...new Set(ids)];
      }
      if (body.recently_accessed_at !== undefined && body.recently_accessed_at !== null) {
        if (typeof body.recently_accessed_at !== 'string' || Number.isNaN(Date.parse(body.recently_accessed_at))) {
          throw new FieldError('recently_accessed_at', 'must be a date-time');
        }
        input.settings.recently_accessed_at = new Date(body.recently_accessed_at).toISOString();
      }
      return input;
    } catch (error) {
      if (error instanceof FieldError) throw invalid(error.message);
      throw error;
    }
  }

  function update(row: MentorRow, input: MentorInput): void {
    const settings = { ...JSON.parse(row.settings), ...input.settings } as Record<string, unknown>;
    db.transaction(() => {
      db.prepare(
        `UPDATE mentors SET name = ?, slug = ?, description = ?, is_featured = ?, metadata = ?, settings = ?, updated_at = ? WHERE id = ?`,
      ).run(
        input.name ?? row.name,
        input.slug ?? row.slug,
        input.description ?? row.description,
        input.isFeatured === undefined ? row.is_featured : input.isFeatured ? 1 : 0,
        input.metadata === undefined ? row.metadata : JSON.stringify(input.metadata),
        JSON.stringify(settings),
        new Date().toISOString(),
        row.id,
      );
      if (input.categories) setMentorCategories(db, row.id, input.categories);
    })();
  }
}

/** A slug not yet taken by a live mentor of `org`: `base`, else `base-2`, `base-3`, … */
export function freeSlug(db: Db, org: string, base: string): string {
  const taken = new Set(
    (
      db
        .prepare(`SELECT slug FROM mentors WHERE org = ? AND is_deleted = 0 AND (slug = ? OR slug LIKE ?)`)
        .all(org, base, `${base}-%`) as { slug: string }[]
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

export async function readBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = await ctx.json();
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'Invalid data: expected an object');
  return body as Record<string, unknown>;
}
