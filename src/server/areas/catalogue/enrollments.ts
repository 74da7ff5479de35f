/**
 * Enrolments (`/api/catalog/enrollment/…`): who is in which course (search only: the spec has no call that enrols in
 * a course), and enrolling someone in a pathway or a program. The managing calls (`enrollment/pathways/`,
 * `enrollment/programs/`, the searches) are administrators'; a learner enrols themselves through `self/`, which acts
 * on the caller only (seed §6). The spec's defaults hold: `active` true, `include_metadata` true, `ignore_expiration`
 * false. Enrolling someone already enrolled answers their enrolment as it is (it keeps its `created`).
 */
import type { AreaDeps } from '../../area';
import type { Db } from '../../db';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { pathwayRow, PATHWAY_MISSING, programRow, PROGRAM_MISSING, tenantOf } from './items';
import { courseEnrollments, personOf, type Person } from './store';

type Row = Record<string, unknown>;

export const USER_MISSING = "Not found - user doesn't exist";
const NEEDS_TARGET = 'Bad request - missing or invalid parameters';

const flag = (value: string | null, fallback: boolean) => (value === null ? fallback : value === 'true');

/** The request's query and body as one set of parameters (the spec declares them on the query of every method). */
async function paramsOf(ctx: RequestContext): Promise<Row> {
  const params: Row = Object.fromEntries(ctx.query.entries());
  if (ctx.method === 'POST') {
    const body = await ctx.json().catch(() => null);
    if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
  }
  return params;
}

/** A catalog page as the catalog's lists answer (`next_page`/`previous_page` as page numbers here, as the spec's). */
function pageOf<T>(rows: T[], ctx: RequestContext) {
  const size = Math.max(1, Math.min(1000, Number(ctx.query.get('page_size') ?? 10) || 10));
  const page = Number(ctx.query.get('page') ?? 1);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  if (!Number.isInteger(page) || page < 1 || page > pages) throw notFound('Invalid page.');
  return {
    count: rows.length,
    next_page: page < pages ? page + 1 : null,
    previous_page: page > 1 ? page - 1 : null,
    results: rows.slice((page - 1) * size, page * size),
  };
}

export function enrollmentRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const admin = { auth: 'admin' as const };

  router.get(
    '/api/catalog/enrollment/courses/search/',
    (ctx) => {
      const org = tenantOf(ctx, 'platform_key', 'org');
      const q = (name: string) => ctx.query.get(name);
      let rows = courseEnrollments(db, org).filter(
        (row) =>
          (!q('course_id') || row.course_id === q('course_id')) &&
          (!q('course_name') || row.course_name.toLowerCase().includes(q('course_name')!.toLowerCase())) &&
          (!q('email') || row.email.toLowerCase() === q('email')!.toLowerCase()) &&
          (!q('username') || row.username === q('username')) &&
          (!q('user_id') || String(row.user_id) === q('user_id')),
      );
      if (q('sort') === 'id') rows = rows.reverse();
      const page = pageOf(rows, ctx);
      return {
        status: 200,
        body: {
          ...page,
          results: page.results.map((row) => ({
            user_id: row.user_id,
            username: row.username,
            email: row.email,
            course_id: row.course_id,
            active: !!row.active,
            created: row.created,
            started: row.created,
            ended: null,
            expired: null,
            metadata: null,
            name: row.name || null,
            course_name: row.course_name,
          })),
        },
      };
    },
    admin,
  );

  // Programs.
  const programEnrollment = (person: Person, program: NonNullable<ReturnType<typeof programRow>>, created: string) => ({
    user_id: person.id,
    username: person.username,
    program_id: program.slug,
    program_key: program.program_key,
    platform_key: program.org,
    org: program.org,
    name: program.name,
    slug: program.slug,
    created,
    started: created,
    ended: null,
    expired: null,
    active: true,
  });
  const programOf = (org: string, params: Row) => {
    const key = params.program_key ?? params.program_id ?? params.slug;
    if (typeof key !== 'string' || !key) throw badRequest(NEEDS_TARGET);
    const program = programRow(db, org, key);
    if (!program) throw notFound(PROGRAM_MISSING);
    return program;
  };
  const personFor = (org: string, params: Row) => {
    if (!params.username && !params.user_id) throw badRequest(NEEDS_TARGET);
    const person = personOf(db, org, params);
    if (!person) throw notFound(USER_MISSING);
    return person;
  };
  const enrolledAt = (kind: 'program', target: string, userId: number) =>
    (
      db
        .prepare('SELECT created_at FROM catalog_enrollments WHERE kind = ? AND target = ? AND user_id = ?')
        .get(kind, target, userId) as { created_at: string } | undefined
    )?.created_at;

  const programHandlers = (self: boolean) => ({
    async get(ctx: RequestContext) {
      const params = await paramsOf(ctx);
      const org = tenantOf(ctx, 'platform_key', 'org');
      const person = self ? personOf(db, org, { user_id: ctx.caller!.userId })! : personFor(org, params);
      const program = programOf(org, params);
      const created = enrolledAt('program', program.program_key, person.id);
      if (!created) throw notFound('Not found.');
      return { status: 200, body: programEnrollment(person, program, created) };
    },
    async post(ctx: RequestContext) {
      const params = await paramsOf(ctx);
      const org = tenantOf(ctx, 'platform_key', 'org');
      const person = self ? selfOf(ctx, org, params) : personFor(org, params);
      const program = programOf(org, params);
      // `active` false (the default is true) ends an enrolment.
      if (params.active === false || params.active === 'false') {
        db.prepare(`DELETE FROM catalog_enrollments WHERE kind = 'program' AND target = ? AND user_id = ?`).run(
          program.program_key,
          person.id,
        );
        return {
          status: 200,
          body: { ...programEnrollment(person, program, new Date().toISOString()), active: false },
        };
      }
      db.prepare(
        `INSERT OR IGNORE INTO catalog_enrollments (kind, target, user_id, created_at) VALUES ('program', ?, ?, ?)`,
      ).run(program.program_key, person.id, new Date().toISOString());
      return {
        status: 200,
        body: programEnrollment(person, program, enrolledAt('program', program.program_key, person.id)!),
      };
    },
    async delete(ctx: RequestContext) {
      const params = await paramsOf(ctx);
      const org = tenantOf(ctx, 'platform_key', 'org');
      const person = self ? selfOf(ctx, org, params) : personFor(org, params);
      const program = programOf(org, params);
      const created = enrolledAt('program', program.program_key, person.id);
      if (!created) throw notFound('Not found.');
      db.prepare(`DELETE FROM catalog_enrollments WHERE kind = 'program' AND target = ? AND user_id = ?`).run(
        program.program_key,
        person.id,
      );
      if (self) return { status: 204 };
      return {
        status: 200,
        body: { ...programEnrollment(person, program, created), ended: new Date().toISOString(), active: false },
      };
    },
  });

  /** `self/`: the caller, whoever the parameters name; naming someone else is an administrator's work. */
  function selfOf(ctx: RequestContext, org: string, params: Row): Person {
    const caller = personOf(db, org, { user_id: ctx.caller!.userId });
    if (!caller) throw notFound(USER_MISSING);
    const named =
      (params.username !== undefined && params.username !== caller.username) ||
      (params.user_id !== undefined && String(params.user_id) !== String(caller.id));
    if (named) throw forbidden('Permission denied');
    return caller;
  }

  const managed = programHandlers(false);
  router.get('/api/catalog/enrollment/programs/', managed.get, admin);
  router.post('/api/catalog/enrollment/programs/', managed.post, admin);
  router.delete('/api/catalog/enrollment/programs/', managed.delete, admin);
  const ownProgram = programHandlers(true);
  router.post('/api/catalog/enrollment/programs/self/', ownProgram.post);
  router.delete('/api/catalog/enrollment/programs/self/', ownProgram.delete);

  router.get(
    '/api/catalog/enrollment/programs/search/',
    (ctx) => {
      const org = tenantOf(ctx, 'platform_key', 'org');
      const q = (name: string) => ctx.query.get(name);
      const rows = db
        .prepare(
          `SELECT e.created_at, e.user_id, u.username, p.program_key FROM catalog_enrollments e
           JOIN programs p ON p.program_key = e.target JOIN users u ON u.id = e.user_id
           WHERE e.kind = 'program' AND p.org = ? ORDER BY e.created_at ${q('sort') === 'id' ? 'ASC' : 'DESC'}, e.user_id`,
        )
        .all(org) as { created_at: string; user_id: number; username: string; program_key: string }[];
      const programs = new Map<string, NonNullable<ReturnType<typeof programRow>>>();
      const programFor = (key: string) => {
        if (!programs.has(key)) programs.set(key, programRow(db, org, key)!);
        return programs.get(key)!;
      };
      const matching = rows
        .map((row) => ({ row, program: programFor(row.program_key) }))
        .filter(
          ({ row, program }) =>
            (!q('program_id') || program.slug === q('program_id') || program.program_key === q('program_id')) &&
            (!q('program_type') || program.program_type === q('program_type')) &&
            (!q('slug') || program.slug === q('slug')) &&
            (!q('username') || row.username === q('username')) &&
            (!q('user_id') || String(row.user_id) === q('user_id')),
        );
      const page = pageOf(matching, ctx);
      return {
        status: 200,
        body: {
          ...page,
          results: page.results.map(({ row, program }) => ({
            ...programEnrollment(
              { id: row.user_id, username: row.username, email: '', name: '' },
              program,
              row.created_at,
            ),
            metadata: flag(ctx.query.get('include_metadata'), true) ? {} : null,
          })),
        },
      };
    },
    admin,
  );

  pathwayEnrollmentRoutes(router, db);
}

/** Pathway enrolments: a person follows a pathway (`active`), or stopped (`ended`). */
function pathwayEnrollmentRoutes(router: Router, db: Db): void {
  const admin = { auth: 'admin' as const };
  type Pathway = NonNullable<ReturnType<typeof pathwayRow>>;
  const pathwayOf = (org: string, params: Row): Pathway => {
    if (!params.pathway_id && !params.pathway_uuid && !params.slug && !params.pathway_key)
      throw badRequest(NEEDS_TARGET);
    const pathway = pathwayRow(db, org, {
      pathway_id: params.pathway_id ?? params.pathway_key,
      pathway_uuid: params.pathway_uuid,
      slug: params.slug,
    });
    if (!pathway) throw notFound(PATHWAY_MISSING);
    return pathway;
  };
  const enrolmentOf = (pathway: Pathway, userId: number) =>
    db
      .prepare('SELECT active, created, ended FROM catalogue_pathway_enrollments WHERE pathway_pk = ? AND user_id = ?')
      .get(pathway.id, userId) as { active: number; created: string; ended: string | null } | undefined;
  const answer = (row: { active: number; created: string; ended: string | null }) => ({
    created: row.created,
    ended: row.ended,
    active: row.active === 1,
  });

  const handlers = (self: boolean) => {
    const personFor = (ctx: RequestContext, org: string, params: Row): Person => {
      if (self) {
        const caller = personOf(db, org, { user_id: ctx.caller!.userId })!;
        const named =
          (params.username !== undefined && params.username !== caller.username) ||
          (params.user_id !== undefined && String(params.user_id) !== String(caller.id));
        if (named) throw forbidden('Permission denied');
        return caller;
      }
      if (!params.username && !params.user_id) throw badRequest(NEEDS_TARGET);
      const person = personOf(db, org, params);
      if (!person) throw notFound(USER_MISSING);
      return person;
    };
    return {
      async get(ctx: RequestContext) {
        const params = await paramsOf(ctx);
        const org = tenantOf(ctx, 'platform_key', 'org');
        const person = personFor(ctx, org, params);
        const pathway = pathwayOf(org, params);
        const row = enrolmentOf(pathway, person.id);
        const active = flag(ctx.query.get('active'), true);
        if (!row || (active && row.active !== 1)) throw notFound('Not found.');
        return {
          status: 200,
          body: {
            user_id: person.id,
            username: person.username,
            pathway_id: pathway.pathway_id,
            pathway_uuid: pathway.pathway_uuid,
            platform_key: org,
            org,
            name: pathway.name ?? pathway.pathway_id,
            slug: pathway.slug ?? pathway.pathway_id,
            ...answer(row),
            metadata: flag(ctx.query.get('include_metadata'), true) ? {} : null,
          },
        };
      },
      async post(ctx: RequestContext) {
        const params = await paramsOf(ctx);
        const org = tenantOf(ctx, 'platform_key', 'org');
        const person = personFor(ctx, org, params);
        const pathway = pathwayOf(org, params);
        const now = new Date().toISOString();
        if (params.active === false || params.active === 'false') {
          db.prepare(
            'UPDATE catalogue_pathway_enrollments SET active = 0, ended = ? WHERE pathway_pk = ? AND user_id = ? AND active = 1',
          ).run(now, pathway.id, person.id);
        } else {
          const row = enrolmentOf(pathway, person.id);
          if (!row)
            db.prepare(
              'INSERT INTO catalogue_pathway_enrollments (pathway_pk, user_id, active, created) VALUES (?, ?, 1, ?)',
            ).run(pathway.id, person.id, now);
          else if (row.active !== 1)
            db.prepare(
              'UPDATE catalogue_pathway_enrollments SET active = 1, ended = NULL, created = ? WHERE pathway_pk = ? AND user_id = ?',
            ).run(now, pathway.id, person.id);
        }
        return {
          status: 200,
          body: answer(enrolmentOf(pathway, person.id) ?? { active: 0, created: now, ended: now }),
        };
      },
      async delete(ctx: RequestContext) {
        const params = await paramsOf(ctx);
        const org = tenantOf(ctx, 'platform_key', 'org');
        const person = personFor(ctx, org, params);
        const pathway = pathwayOf(org, params);
        const row = enrolmentOf(pathway, person.id);
        if (!row || row.active !== 1) throw notFound('Not found.');
        db.prepare(
          'UPDATE catalogue_pathway_enrollments SET active = 0, ended = ? WHERE pathway_pk = ? AND user_id = ?',
        ).run(new Date().toISOString(), pathway.id, person.id);
        return { status: 200, body: answer(enrolmentOf(pathway, person.id)!) };
      },
    };
  };
  const managed = handlers(false);
  router.get('/api/catalog/enrollment/pathways/', managed.get, admin);
  router.post('/api/catalog/enrollment/pathways/', managed.post, admin);
  router.delete('/api/catalog/enrollment/pathways/', managed.delete, admin);
  const own = handlers(true);
  router.post('/api/catalog/enrollment/pathways/self/', own.post);
  router.delete('/api/catalog/enrollment/pathways/self/', own.delete);
}
