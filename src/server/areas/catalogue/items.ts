/**
 * Courses, pathways and programs (`/api/catalog/courses/`, `pathways/`, `programs/`, `search/programs/`) and their
 * metadata (`metadata/course/`, `metadata/program/`, each with `{field}`, and the learners' `-public` reads). Reading
 * the catalogue is for anyone of the tenant; adding, changing and removing its items and their metadata is for
 * administrators (seed §6: the catalogue's managing calls are theirs, learners use the "public" ones).
 *
 * A program is named by its `program_id` (the spec's "unique program ID identifiable by edX"); its key is
 * `<org>+<program_id>`, as the invitations area keeps it.
 */
import { randomUUID } from 'node:crypto';
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { badRequest, fieldErrors, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { requirePlatformKey } from '../core';
import { hasLearningEnrollments } from '../invitations/catalog';

type Row = Record<string, unknown>;

export const COURSE_MISSING = "Not found - course doesn't exist";
export const PROGRAM_MISSING = "Not found - program doesn't exist";
export const PATHWAY_MISSING = "Not found - pathway doesn't exist";
export const METADATA_MISSING = 'Metadata not found';

const json = (text: unknown, fallback: unknown = null) => (typeof text === 'string' ? JSON.parse(text) : fallback);

/** The tenant a request names (`org` or `platform_key`), which must be the caller's; the caller's when it names none. */
export function tenantOf(ctx: RequestContext, ...names: string[]): string {
  for (const name of names) {
    const given = ctx.query.get(name);
    if (given) return requirePlatformKey(ctx, given);
  }
  return ctx.caller!.org;
}

async function bodyOf(ctx: RequestContext): Promise<Row> {
  const body = await ctx.json().catch(() => {
    throw badRequest('Invalid request data');
  });
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request data');
  return body as Row;
}

function requireFields(body: Row, names: string[]): void {
  const missing = names.filter((name) => body[name] === undefined || body[name] === null || body[name] === '');
  if (missing.length) throw fieldErrors(Object.fromEntries(missing.map((name) => [name, ['This field is required.']])));
}

interface CourseRow {
  course_id: string;
  name: string | null;
  org: string;
  slug: string | null;
  metadata: string | null;
}

export function courseRow(db: Db, org: string, courseId: string): CourseRow | undefined {
  return db
    .prepare(
      `SELECT c.course_id, c.name, c.org, x.slug, x.metadata FROM courses c
       LEFT JOIN catalogue_course_extras x ON x.course_id = c.course_id WHERE c.org = ? AND c.course_id = ?`,
    )
    .get(org, courseId) as CourseRow | undefined;
}

const presentCourse = (row: CourseRow) => ({
  course_id: row.course_id,
  name: row.name ?? row.course_id,
  slug: row.slug ?? null,
  org: row.org,
});

interface ProgramRow {
  id: number;
  program_key: string;
  org: string;
  name: string;
  slug: string;
  program_type: string;
  created_at: string;
  enabled: number | null;
  duration: number | null;
  description: string | null;
  course_list: string | null;
  metadata: string | null;
}

const PROGRAM_SELECT = `SELECT p.*, x.enabled, x.duration, x.description, x.course_list, x.metadata FROM programs p
  LEFT JOIN catalogue_program_extras x ON x.program_key = p.program_key`;

export function programRow(db: Db, org: string, programId: string): ProgramRow | undefined {
  return db
    .prepare(`${PROGRAM_SELECT} WHERE p.org = ? AND (p.slug = ? OR p.program_key = ?)`)
    .get(org, programId, programId) as ProgramRow | undefined;
}

/** The spec's Program; the id and key invitations and enrolments take travel as data and top-level extras. */
function presentProgram(row: ProgramRow) {
  const institution = { id: 1, name: row.org, updated_at: row.created_at };
  return {
    id: row.id,
    institution,
    institution_id: institution.id,
    name: row.name,
    program_type: row.program_type,
    duration: row.duration ?? 12,
    description: row.description ?? null,
    data: { program_id: row.slug, program_key: row.program_key, slug: row.slug, enabled: row.enabled !== 0 },
    metadata: json(row.metadata, {}),
    created_at: row.created_at,
    updated_at: row.created_at,
    program_id: row.slug,
    program_key: row.program_key,
    slug: row.slug,
    enabled: row.enabled !== 0,
    course_list: json(row.course_list, []),
    org: row.org,
  };
}

interface PathwayRow {
  id: number;
  org: string;
  pathway_id: string;
  pathway_uuid: string;
  name: string | null;
  slug: string | null;
  visible: number;
  user_id: number | null;
  username: string | null;
  path: string;
  data: string | null;
}

const PATHWAY_SELECT = `SELECT p.*, u.username FROM catalogue_pathways p LEFT JOIN users u ON u.id = p.user_id`;

export function pathwayRow(db: Db, org: string, by: Row): PathwayRow | undefined {
  for (const field of ['pathway_id', 'pathway_uuid', 'slug'] as const) {
    const value = by[field];
    if (typeof value === 'string' && value)
      return db
        .prepare(`${PATHWAY_SELECT} WHERE p.org = ? AND p.${field} = ?${field === 'slug' ? ' COLLATE NOCASE' : ''}`)
        .get(org, value) as PathwayRow | undefined;
  }
  return undefined;
}

const presentPathway = (row: PathwayRow) => ({
  id: row.id,
  pathway_id: row.pathway_id,
  pathway_uuid: row.pathway_uuid,
  path: row.path,
  name: row.name ?? row.pathway_id,
  visible: row.visible === 1,
  slug: row.slug,
  ...(row.user_id !== null && { user_id: row.user_id }),
  ...(row.username !== null && { username: row.username }),
  platform_key: row.org,
  data: json(row.data),
});

export function catalogueItemRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const admin = { auth: 'admin' as const };

  // Courses: learners browse them; administrators add, change and remove them.
  router.get('/api/catalog/courses/', (ctx) => {
    const org = tenantOf(ctx, 'org');
    const courseId = ctx.query.get('course_id');
    const slug = ctx.query.get('slug')?.toLowerCase();
    const rows = db
      .prepare(
        `SELECT c.course_id, c.name, c.org, x.slug, x.metadata FROM courses c
         LEFT JOIN catalogue_course_extras x ON x.course_id = c.course_id
         WHERE c.org = ? AND (? IS NULL OR c.course_id = ?) ORDER BY c.id DESC`,
      )
      .all(org, courseId, courseId) as CourseRow[];
    return {
      status: 200,
      body: rows.filter((row) => !slug || (row.slug ?? '').toLowerCase() === slug).map(presentCourse),
    };
  });

  router.post(
    '/api/catalog/courses/',
    async (ctx) => {
      const body = await bodyOf(ctx);
      requireFields(body, ['course_id', 'org']);
      const org = requirePlatformKey(ctx, body.org);
      const courseId = String(body.course_id);
      if (body.slug !== undefined && body.slug !== null && !/^[-a-zA-Z0-9_]+$/.test(String(body.slug)))
        throw fieldErrors({ slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'] });
      const owner = db.prepare('SELECT org FROM courses WHERE course_id = ?').get(courseId) as
        { org: string } | undefined;
      if (owner && owner.org !== org) throw fieldErrors({ course_id: ['course with this course id already exists.'] });
      const created = !owner;
      if (created)
        db.prepare('INSERT INTO courses (course_id, org, name, created_at) VALUES (?, ?, ?, ?)').run(
          courseId,
          org,
          typeof body.name === 'string' && body.name ? body.name : courseId,
          new Date().toISOString(),
        );
      else if (typeof body.name === 'string' && body.name)
        db.prepare('UPDATE courses SET name = ? WHERE course_id = ?').run(body.name, courseId);
      db.prepare(
        `INSERT INTO catalogue_course_extras (course_id, slug, data) VALUES (?, ?, ?)
         ON CONFLICT (course_id) DO UPDATE SET slug = coalesce(excluded.slug, slug), data = coalesce(excluded.data, data)`,
      ).run(
        courseId,
        typeof body.slug === 'string' ? body.slug : null,
        body.data === undefined ? null : JSON.stringify(body.data),
      );
      return { status: created ? 201 : 200, body: presentCourse(courseRow(db, org, courseId)!) };
    },
    admin,
  );

  router.delete(
    '/api/catalog/courses/',
    (ctx) => {
      const courseId = ctx.query.get('course_id');
      if (!courseId) throw fieldErrors({ course_id: ['This field is required.'] });
      const org = tenantOf(ctx, 'org');
      if (!courseRow(db, org, courseId)) throw notFound(COURSE_MISSING);
      const removed = db.transaction(() => {
        const enrolments = db
          .prepare(`DELETE FROM catalog_enrollments WHERE kind = 'course' AND target = ?`)
          .run(courseId).changes;
        db.prepare('DELETE FROM catalogue_course_extras WHERE course_id = ?').run(courseId);
        // The analytics area's enrolments go with the course, as the platform's delete takes them.
        const learning = hasLearningEnrollments(db)
          ? db
              .prepare(
                'DELETE FROM learning_enrollments WHERE course_pk IN (SELECT id FROM courses WHERE course_id = ?)',
              )
              .run(courseId).changes
          : 0;
        db.prepare('DELETE FROM courses WHERE course_id = ?').run(courseId);
        return enrolments + learning;
      })();
      return {
        status: 200,
        body: {
          count: 1 + removed,
          type: { 'catalog.Course': 1, ...(removed && { 'catalog.CourseEnrollment': removed }) },
        },
      };
    },
    admin,
  );

  // Pathways.
  router.get('/api/catalog/pathways/', (ctx) => {
    const org = tenantOf(ctx, 'platform_key');
    const q = (name: string) => ctx.query.get(name);
    const visible = q('visible');
    const rows = (db.prepare(`${PATHWAY_SELECT} WHERE p.org = ? ORDER BY p.id DESC`).all(org) as PathwayRow[]).filter(
      (row) =>
        (!q('pathway_id') || row.pathway_id === q('pathway_id')) &&
        (!q('pathway_uuid') || row.pathway_uuid === q('pathway_uuid')) &&
        (!q('slug') || (row.slug ?? '').toLowerCase() === q('slug')!.toLowerCase()) &&
        (!q('name') || (row.name ?? '').toLowerCase().includes(q('name')!.toLowerCase())) &&
        (!q('username') || row.username === q('username')) &&
        (!q('user_id') || String(row.user_id) === q('user_id')) &&
        (visible === null || (row.visible === 1) === (visible === 'true')) &&
        (!q('item_id') || (json(row.path, []) as Row[]).some((item) => item.item_id === q('item_id'))),
    );
    return { status: 200, body: rows.map(presentPathway) };
  });

  router.post(
    '/api/catalog/pathways/',
    async (ctx) => {
      const body = await bodyOf(ctx);
      requireFields(body, ['name', 'path', 'user_id']);
      if (!Array.isArray(body.path)) throw fieldErrors({ path: ['Expected a list of items but got type "str".'] });
      const org = typeof body.platform_key === 'string' ? requirePlatformKey(ctx, body.platform_key) : ctx.caller!.org;
      const owner = db.prepare('SELECT id FROM users WHERE org = ? AND id = ?').get(org, Number(body.user_id));
      if (!owner) throw fieldErrors({ user_id: [`Invalid pk "${String(body.user_id)}" - object does not exist.`] });
      const pathwayId = typeof body.pathway_id === 'string' && body.pathway_id ? body.pathway_id : randomUUID();
      const existing = pathwayRow(db, org, { pathway_id: pathwayId });
      const values = {
        name: String(body.name),
        slug: typeof body.slug === 'string' ? body.slug : (existing?.slug ?? null),
        visible: body.visible === false ? 0 : 1,
        user_id: Number(body.user_id),
        path: JSON.stringify(body.path),
        data: body.data === undefined ? (existing?.data ?? null) : JSON.stringify(body.data),
      };
      if (existing)
        db.prepare(
          'UPDATE catalogue_pathways SET name = @name, slug = @slug, visible = @visible, user_id = @user_id, path = @path, data = @data WHERE id = @id',
        ).run({ ...values, id: existing.id });
      else
        db.prepare(
          `INSERT INTO catalogue_pathways (org, pathway_id, pathway_uuid, name, slug, visible, user_id, path, data)
           VALUES (@org, @pathway_id, @pathway_uuid, @name, @slug, @visible, @user_id, @path, @data)`,
        ).run({
          ...values,
          org,
          pathway_id: pathwayId,
          pathway_uuid: typeof body.pathway_uuid === 'string' ? body.pathway_uuid : randomUUID(),
        });
      return { status: existing ? 200 : 201, body: presentPathway(pathwayRow(db, org, { pathway_id: pathwayId })!) };
    },
    admin,
  );

  router.delete(
    '/api/catalog/pathways/',
    (ctx) => {
      const pathwayId = ctx.query.get('pathway_id');
      const userId = ctx.query.get('user_id');
      const missing = [...(pathwayId ? [] : ['pathway_id']), ...(userId ? [] : ['user_id'])];
      if (missing.length)
        throw fieldErrors(Object.fromEntries(missing.map((name) => [name, ['This field is required.']])));
      const org = tenantOf(ctx, 'platform_key');
      const row = pathwayRow(db, org, { pathway_id: pathwayId });
      if (!row || String(row.user_id) !== userId) throw notFound(PATHWAY_MISSING);
      db.prepare('DELETE FROM catalogue_pathways WHERE id = ?').run(row.id);
      return { status: 200, body: { count: 1, type: { 'catalog.Pathway': 1 } } };
    },
    admin,
  );

  // Programs.
  const listPrograms = (org: string) =>
    (db.prepare(`${PROGRAM_SELECT} WHERE p.org = ? ORDER BY p.id DESC`).all(org) as ProgramRow[]).map(presentProgram);

  router.get('/api/catalog/programs/', (ctx) => {
    const org = tenantOf(ctx, 'org');
    const q = (name: string) => ctx.query.get(name);
    const enabled = q('enabled');
    return {
      status: 200,
      body: listPrograms(org).filter(
        (program) =>
          (!q('program_id') || program.program_id === q('program_id')) &&
          (!q('slug') || program.slug.toLowerCase() === q('slug')!.toLowerCase()) &&
          (!q('name') || program.name.toLowerCase().includes(q('name')!.toLowerCase())) &&
          (enabled === null || program.enabled === (enabled === 'true')) &&
          (!q('course_id') || (program.course_list as Row[]).some((item) => item.course_id === q('course_id'))),
      ),
    };
  });

  router.post(
    '/api/catalog/programs/',
    async (ctx) => {
      const body = await bodyOf(ctx);
      requireFields(body, ['course_list', 'name', 'program_id']);
      if (!Array.isArray(body.course_list))
        throw fieldErrors({ course_list: ['Expected a list of items but got type "str".'] });
      const org =
        typeof body.org === 'string'
          ? requirePlatformKey(ctx, body.org)
          : typeof body.platform_key === 'string'
            ? requirePlatformKey(ctx, body.platform_key)
            : ctx.caller!.org;
      const programId = String(body.program_id);
      const key = `${org}+${programId}`;
      const existing = programRow(db, org, programId);
      db.transaction(() => {
        if (existing)
          db.prepare(
            'UPDATE programs SET name = ?, program_type = coalesce(?, program_type) WHERE program_key = ?',
          ).run(body.name, typeof body.program_type === 'string' ? body.program_type : null, existing.program_key);
        else
          db.prepare(
            'INSERT INTO programs (program_key, org, name, slug, program_type, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          ).run(
            key,
            org,
            body.name,
            programId,
            typeof body.program_type === 'string' ? body.program_type : 'certificate',
            new Date().toISOString(),
          );
        db.prepare(
          `INSERT INTO catalogue_program_extras (program_key, enabled, course_list) VALUES (?, ?, ?)
           ON CONFLICT (program_key) DO UPDATE SET enabled = excluded.enabled, course_list = excluded.course_list`,
        ).run(existing?.program_key ?? key, body.enabled === false ? 0 : 1, JSON.stringify(body.course_list));
      })();
      return { status: existing ? 200 : 201, body: presentProgram(programRow(db, org, programId)!) };
    },
    admin,
  );

  router.delete(
    '/api/catalog/programs/',
    (ctx) => {
      const programId = ctx.query.get('program_id');
      const orgGiven = ctx.query.get('org');
      const missing = [...(orgGiven ? [] : ['org']), ...(programId ? [] : ['program_id'])];
      if (missing.length)
        throw fieldErrors(Object.fromEntries(missing.map((name) => [name, ['This field is required.']])));
      const org = requirePlatformKey(ctx, orgGiven);
      const row = programRow(db, org, programId!);
      if (!row) throw notFound(PROGRAM_MISSING);
      const removed = db.transaction(() => {
        const enrolments = db
          .prepare(`DELETE FROM catalog_enrollments WHERE kind = 'program' AND target = ?`)
          .run(row.program_key).changes;
        db.prepare('DELETE FROM catalogue_program_extras WHERE program_key = ?').run(row.program_key);
        db.prepare('DELETE FROM programs WHERE program_key = ?').run(row.program_key);
        return enrolments;
      })();
      return {
        status: 200,
        body: {
          count: 1 + removed,
          type: { 'catalog.Program': 1, ...(removed && { 'catalog.ProgramEnrollment': removed }) },
        },
      };
    },
    admin,
  );

  // "Retrieve programs matching query": the search term in the query (or the body's name), within the org.
  router.post('/api/catalog/search/programs/', async (ctx) => {
    const body = await ctx.json().catch(() => ({}));
    const org = tenantOf(ctx, 'org');
    const term = (ctx.query.get('query') ?? ((body as Row)?.name as string | undefined) ?? '').toLowerCase();
    return {
      status: 200,
      body: listPrograms(org).filter(
        (program) =>
          !term || program.name.toLowerCase().includes(term) || program.program_id.toLowerCase().includes(term),
      ),
    };
  });

  metadataRoutes(router, db);
}

/** Course and program metadata: the whole object, or one `{field}` of it; the "-public" reads are anyone's. */
function metadataRoutes(router: Router, db: Db): void {
  type Target = { read(): Row; write(metadata: Row): void };
  const courseTarget = (ctx: RequestContext): Target => {
    const courseId = ctx.query.get('course_id');
    if (!courseId) throw fieldErrors({ course_id: ['This field is required.'] });
    const row = courseRow(db, ctx.caller!.org, courseId);
    if (!row) throw notFound(COURSE_MISSING);
    return {
      read: () => json(row.metadata, {}) as Row,
      write: (metadata) =>
        db
          .prepare(
            `INSERT INTO catalogue_course_extras (course_id, metadata) VALUES (?, ?)
             ON CONFLICT (course_id) DO UPDATE SET metadata = excluded.metadata`,
          )
          .run(courseId, JSON.stringify(metadata)),
    };
  };
  const programTarget = (ctx: RequestContext): Target => {
    const programId = ctx.query.get('program_id');
    if (!programId) throw fieldErrors({ program_id: ['This field is required.'] });
    const row = programRow(db, tenantOf(ctx, 'org', 'platform_key'), ctx.query.get('program_key') ?? programId);
    if (!row) throw notFound(PROGRAM_MISSING);
    return {
      read: () => json(row.metadata, {}) as Row,
      write: (metadata) =>
        db
          .prepare(
            `INSERT INTO catalogue_program_extras (program_key, metadata) VALUES (?, ?)
             ON CONFLICT (program_key) DO UPDATE SET metadata = excluded.metadata`,
          )
          .run(row.program_key, JSON.stringify(metadata)),
    };
  };
  const admin = { auth: 'admin' as const };
  const readField = (target: Target, field: string) => {
    const metadata = target.read();
    if (!(field in metadata)) throw notFound(METADATA_MISSING);
    return { status: 200, body: { [field]: metadata[field] } };
  };
  for (const [scope, targetOf] of [
    ['course', courseTarget],
    ['program', programTarget],
  ] as const) {
    const base = `/api/catalog/metadata/${scope}`;
    router.get(`${base}/`, (ctx) => ({ status: 200, body: targetOf(ctx).read() }), admin);
    router.get(`${base}-public/`, (ctx) => ({ status: 200, body: targetOf(ctx).read() }));
    router.get(`${base}/{field}/`, (ctx) => readField(targetOf(ctx), ctx.params.field!), admin);
    router.get(`${base}-public/{field}/`, (ctx) => readField(targetOf(ctx), ctx.params.field!));
    // "Update metadata": merged into what is there (`update` true, the default) or in its place.
    router.post(
      `${base}/`,
      async (ctx) => {
        const target = targetOf(ctx);
        const body = await bodyOf(ctx);
        requireFields(body, ['metadata']);
        const given = body.metadata;
        if (!given || typeof given !== 'object' || Array.isArray(given))
          throw fieldErrors({ metadata: ['Expected a dictionary of items.'] });
        const metadata = body.update === false ? (given as Row) : { ...target.read(), ...(given as Row) };
        target.write(metadata);
        return { status: 200, body: metadata };
      },
      admin,
    );
    // One field: the body's `metadata` is its new value.
    router.post(
      `${base}/{field}/`,
      async (ctx) => {
        const target = targetOf(ctx);
        const body = await bodyOf(ctx);
        if (!('metadata' in body)) throw fieldErrors({ metadata: ['This field is required.'] });
        const field = ctx.params.field!;
        if (!/^\w+$/.test(field)) throw badRequest('Invalid query parameters');
        target.write({ ...target.read(), [field]: body.metadata });
        return { status: 200, body: { [field]: body.metadata } };
      },
      admin,
    );
  }
}
