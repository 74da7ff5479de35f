import type { AreaDeps } from '../../area';
import type { Router } from '../../http/router';
import { requirePlatformKey } from '../core';

/**
 * The catalog's course and program lists (`GET /api/catalog/courses/`, `GET /api/catalog/programs/`), the pickers
 * of invitation targets. Both answer a plain array (the spec's `Course[]` / `Program[]`), filtered by `org`; a
 * caller sees only its own tenant's catalog.
 */
export function catalogListRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const orgOf = (value: string | null, fallback: string) => (value ? value : fallback);

  router.get('/api/catalog/courses/', (ctx) => {
    const org = requirePlatformKey(ctx, orgOf(ctx.query.get('org'), ctx.caller!.org));
    const courseId = ctx.query.get('course_id');
    const rows = db
      .prepare(`SELECT course_id, name FROM courses WHERE org = ? AND (? IS NULL OR course_id = ?) ORDER BY id`)
      .all(org, courseId, courseId) as { course_id: string; name: string | null }[];
    const slug = ctx.query.get('slug')?.toLowerCase();
    return {
      status: 200,
      body: rows
        .map((row) => ({ course_id: row.course_id, name: row.name ?? row.course_id, slug: null, org }))
        .filter((course) => !slug || course.course_id.toLowerCase().includes(slug)),
    };
  });

  router.get('/api/catalog/programs/', (ctx) => {
    const org = requirePlatformKey(ctx, orgOf(ctx.query.get('org'), ctx.caller!.org));
    const rows = db
      .prepare(`SELECT id, program_key, name, slug, program_type, created_at FROM programs WHERE org = ? ORDER BY id`)
      .all(org) as {
      id: number;
      program_key: string;
      name: string;
      slug: string;
      program_type: string;
      created_at: string;
    }[];
    const slug = ctx.query.get('slug')?.toLowerCase();
    const institution = { id: 1, name: org, updated_at: rows[0]?.created_at ?? new Date(0).toISOString() };
    return {
      status: 200,
      body: rows
        .filter((row) => !slug || row.slug.toLowerCase() === slug)
        .map((row) => ({
          id: row.id,
          institution,
          institution_id: institution.id,
          name: row.name,
          program_type: row.program_type,
          duration: 12,
          description: null,
          // The spec's Program has no key field; the key invitations need travels as data and top-level extras.
          data: { program_key: row.program_key, slug: row.slug },
          metadata: { program_key: row.program_key },
          created_at: row.created_at,
          updated_at: row.created_at,
          program_key: row.program_key,
          slug: row.slug,
          org,
        })),
    };
  });
}
