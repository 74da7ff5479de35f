import type { AreaDeps } from '../../area';
import { badRequest, HttpError, notFound, invalidPkMessage } from '../../http/errors';
import type { RequestContext, Router } from '../../http/router';
import { MENTORS_BASE } from './crud';
import { FieldError, parseInt, parseIntList } from './fields';
import {
  categoryById,
  createAudience,
  createCategory,
  deleteAudience,
  deleteCategory,
  findAudience,
  findCategory,
  listAudiences,
  listCategories,
  missingAudiences,
  presentAudience,
} from './taxonomy';

const BAD_AUDIENCE = 'Bad Request - Invalid data.';

/** The `name` of a DELETE: a query parameter, or a JSON (or form) body. */
async function nameToDelete(ctx: RequestContext): Promise<{ name?: string; id?: number }> {
  const query = ctx.query.get('name');
  if (query) return { name: query };
  const queryId = ctx.query.get('id');
  let body: unknown = {};
  try {
    body = await ctx.json();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
  }
  const record = (body && typeof body === 'object' ? body : {}) as { name?: unknown; id?: unknown };
  if (typeof record.name === 'string' && record.name) return { name: record.name };
  const id = record.id ?? queryId;
  if (typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id))) return { id: Number(id) };
  return {};
}

const optionalText = (value: unknown, field: string): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 255)
    throw new FieldError(field, 'must be a string of at most 255 characters');
  return value;
};

/** `mentor/audience/` and `mentor/categories/`: anyone of the tenant lists; tenant admins create and delete. */
export function mentorTaxonomyRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const audiences = `${MENTORS_BASE}mentor/audience/`;
  const categories = `${MENTORS_BASE}mentor/categories/`;

  router.get(audiences, (ctx) => ({ status: 200, body: listAudiences(db, ctx.params.org!).map(presentAudience) }));

  router.post(
    audiences,
    async (ctx) => {
      const body = (await ctx.json()) as { name?: unknown; description?: unknown };
      const name = typeof body.name === 'string' ? body.name.trim() : '';
      if (!name || name.length > 255) throw badRequest(BAD_AUDIENCE);
      let description: string | null;
      try {
        description = optionalText(body.description, 'description');
      } catch {
        throw badRequest(BAD_AUDIENCE);
      }
      if (findAudience(db, ctx.params.org!, name)) throw badRequest(BAD_AUDIENCE);
      const row = createAudience(db, ctx.params.org!, name, description, new Date().toISOString());
      return { status: 201, body: presentAudience(row) };
    },
    { auth: 'admin', forbiddenDetail: 'Unauthorized - Only tenant admins can create mentor audiences.' },
  );

  router.delete(
    audiences,
    async (ctx) => {
      const { name } = await nameToDelete(ctx);
      if (!name) throw badRequest(BAD_AUDIENCE);
      const row = findAudience(db, ctx.params.org!, name);
      if (!row) throw notFound('Not Found - Audience does not exist.');
      // The default audience cannot go while it is the only audience of a category.
      if (!deleteAudience(db, ctx.params.org!, row, new Date().toISOString())) throw badRequest(BAD_AUDIENCE);
      return { status: 204 };
    },
    { auth: 'admin', forbiddenDetail: 'Unauthorized - Only tenant admins can delete mentor audiences.' },
  );

  router.get(categories, (ctx) => ({ status: 200, body: listCategories(db, ctx.params.org!) }));

  router.post(
    categories,
    async (ctx) => {
      const body = (await ctx.json()) as Record<string, unknown>;
      const org = ctx.params.org!;
      try {
        const name = typeof body.name === 'string' ? body.name.trim() : '';
        if (!name || name.length > 255) throw new FieldError('name', 'This field is required.');
        if (findCategory(db, org, { name })) throw new FieldError('name', 'a category with this name already exists');
        const audience =
          body.audience === undefined || body.audience === null || body.audience === ''
            ? null
            : parseInt('audience', body.audience);
        const audienceIds = parseIntList('audiences', body.audiences);
        const missing = missingAudiences(db, org, audience === null ? audienceIds : [audience, ...audienceIds]);
        if (missing.length) throw new FieldError('audiences', invalidPkMessage(missing[0]));
        const group =
          body.category_group === undefined || body.category_group === null || body.category_group === ''
            ? null
            : parseInt('category_group', body.category_group);
        const id = createCategory(
          db,
          org,
          {
            name,
            description: optionalText(body.description, 'description'),
            categoryGroup: group,
            audience,
            audiences: audienceIds,
          },
          new Date().toISOString(),
        );
        return { status: 200, body: categoryById(db, id) };
      } catch (error) {
        if (error instanceof FieldError) throw badRequest(`Invalid data: ${error.message}`);
        throw error;
      }
    },
    { auth: 'admin' },
  );

  router.delete(
    categories,
    async (ctx) => {
      const key = await nameToDelete(ctx);
      if (key.name === undefined && key.id === undefined) throw badRequest(BAD_AUDIENCE);
      const row = findCategory(db, ctx.params.org!, key);
      if (!row) throw notFound('Not Found - Category does not exist.');
      deleteCategory(db, row.id);
      return { status: 204 };
    },
    { auth: 'admin' },
  );
}
