import type { AreaDeps } from '../../area';
import { mentorSettings, recordSchema, RESOURCES, specOperation } from '../../../shared/resources';
import { badRequest, HttpError, notFound, invalidPkMessage } from '../../http/errors';
import { checkBody, present } from '../resources/validate';
import type { RequestContext, Router } from '../../http/router';
import type { MentorRow } from '../mentor-store';
import { MENTOR_TYPES, SUBJECTS, unknownIn } from './catalogues';
import { readBody, MENTORS_BASE } from './crud';
import {
  FieldError,
  parseBool,
  parseIntList,
  parseJsonValue,
  readFields,
  SETTINGS_FIELDS,
  VISIBILITIES,
} from './fields';
import { linkableMcpServers } from './knowledge';
import { presentSettings, presentSettingsPublic } from './present';
import { canSeeMentor, findMentor } from './store';
import { categoriesOfMentors, missingCategories, setMentorCategories } from './taxonomy';

const INVALID = 'Invalid request data';
const UPDATE = specOperation(mentorSettings.operations.update);
const MCP_SERVER = recordSchema(RESOURCES['mcp-servers']);

/** The catalogue's 400 for this call, with DRF's messages by field beside it (so a form can show them at the field). */
const invalidField = (errors: Record<string, string[]>) =>
  new HttpError(400, INVALID, {}, { detail: INVALID, ...errors });

const isJson = (ctx: RequestContext) => /json/i.test(ctx.req.headers['content-type'] ?? '');

/** The spec's own rules for the body (types, nullability, the temperature's range, URL formats). */
function checkSpec(body: Record<string, unknown>): void {
  try {
    checkBody(UPDATE, body);
  } catch (error) {
    if (error instanceof HttpError && error.body) throw invalidField(error.body as Record<string, string[]>);
    throw error;
  }
}

/** `mentors/{mentor}/settings/` (tenant admins) and `mentors/{mentor}/public-settings/` (no credentials needed). */
export function mentorSettingsRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const path = `${MENTORS_BASE}mentors/{mentor}/settings/`;

  const categoriesOf = (row: MentorRow) => categoriesOfMentors(db, [row.id]).get(row.id)!;
  const mentorOr404 = (ctx: RequestContext) => {
    const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
    if (!row) throw notFound('Mentor not found');
    return row;
  };
  const departmentName = (row: MentorRow): string | null => {
    const id = (JSON.parse(row.settings) as { department_id?: number | null }).department_id;
    if (id === undefined || id === null) return null;
    return (
      (db.prepare('SELECT name FROM departments WHERE id = ?').get(id) as { name: string } | undefined)?.name ?? null
    );
  };
  const checkDepartmentQuery = (ctx: RequestContext) => {
    const value = ctx.query.get('department_id');
    if (value && !/^\d+$/.test(value)) throw badRequest(INVALID);
  };

  router.get(
    path,
    (ctx) => {
      checkDepartmentQuery(ctx);
      const row = mentorOr404(ctx);
      return { status: 200, body: presentSettingsPublic(row, categoriesOf(row)) };
    },
    { auth: 'admin' },
  );

  router.put(
    path,
    async (ctx) => {
      checkDepartmentQuery(ctx);
      const row = mentorOr404(ctx);
      const body = await readBody(ctx);
      let changes: ReturnType<typeof parseSettings>;
      try {
        // A JSON body is checked against the spec's MentorSettingsRequest first (a form's values are all text).
        if (isJson(ctx)) checkSpec(body);
        changes = parseSettings(body, row);
      } catch (error) {
        if (error instanceof FieldError) throw invalidField({ [error.field]: [error.problem] });
        throw error;
      }
      const settings = { ...(JSON.parse(row.settings) as Record<string, unknown>), ...changes.settings };
      db.transaction(() => {
        db.prepare(
          `UPDATE mentors SET name = ?, description = ?, visibility = ?, is_featured = ?, metadata = ?, settings = ?, updated_at = ?
           WHERE id = ?`,
        ).run(
          changes.name ?? row.name,
          changes.description ?? row.description,
          changes.visibility ?? row.visibility,
          changes.isFeatured === undefined ? row.is_featured : changes.isFeatured ? 1 : 0,
          changes.metadata === undefined ? row.metadata : JSON.stringify(changes.metadata),
          JSON.stringify(settings),
          new Date().toISOString(),
          row.id,
        );
        if (changes.categories) setMentorCategories(db, row.id, changes.categories);
      })();
      const updated = db.prepare('SELECT * FROM mentors WHERE id = ?').get(row.id) as MentorRow;
      const answer = presentSettings(updated, categoriesOf(updated), departmentName(updated));
      // The linked MCP servers, whole (MCPServer), as the platform answers them: a server deleted since is gone.
      const linkable = linkableMcpServers(db, updated.org);
      const linked = ((settings.mcp_servers as number[] | undefined) ?? [])
        .map((id) => linkable.get(id))
        .filter((server) => server !== undefined);
      return { status: 200, body: { ...answer, mcp_servers: linked.map((server) => present(MCP_SERVER, server)) } };
    },
    { auth: 'admin' },
  );

  router.get(
    `${MENTORS_BASE}mentors/{mentor}/public-settings/`,
    (ctx) => {
      const row = findMentor(db, ctx.params.org!, ctx.params.mentor!);
      // Visibility decides who may read even the public settings; anyone else is told it does not exist.
      if (!row || !canSeeMentor(row, ctx.caller)) throw notFound('Mentor not found.');
      return { status: 200, body: presentSettingsPublic(row, categoriesOf(row)) };
    },
    { auth: 'none' },
  );

  /** MentorSettingsRequest: the mentor's own columns plus the settings JSON fields. */
  function parseSettings(body: Record<string, unknown>, row: MentorRow) {
    const out: {
      name?: string;
      description?: string;
      visibility?: string;
      isFeatured?: boolean;
      metadata?: unknown;
      categories?: number[];
      settings: Record<string, unknown>;
    } = { settings: readFields(body, SETTINGS_FIELDS) };
    if (body.mentor_visibility !== undefined) {
      if (
        typeof body.mentor_visibility !== 'string' ||
        !(VISIBILITIES as readonly string[]).includes(body.mentor_visibility)
      ) {
        throw new FieldError('mentor_visibility', `must be one of ${VISIBILITIES.join(', ')}`);
      }
      out.visibility = body.mentor_visibility;
    }
    if (body.mentor_name !== undefined) {
      if (typeof body.mentor_name !== 'string' || !body.mentor_name.trim() || body.mentor_name.trim().length > 255) {
        throw new FieldError('mentor_name', 'must be a non-blank name of at most 255 characters');
      }
      const name = body.mentor_name.trim();
      const clash = db
        .prepare('SELECT id FROM mentors WHERE org = ? AND name = ? AND is_deleted = 0')
        .get(row.org, name) as { id: number } | undefined;
      if (clash && clash.id !== row.id) throw new FieldError('mentor_name', 'a mentor with this name already exists');
      out.name = name;
    }
    if (body.mentor_description !== undefined) {
      if (typeof body.mentor_description !== 'string') throw new FieldError('mentor_description', 'must be a string');
      out.description = body.mentor_description;
    }
    for (const field of ['featured', 'is_featured']) {
      if (body[field] !== undefined) out.isFeatured = parseBool(field, body[field]);
    }
    if (body.metadata !== undefined) out.metadata = parseJsonValue('metadata', body.metadata);
    const department = out.settings.department_id;
    if (
      typeof department === 'number' &&
      !db.prepare('SELECT 1 FROM departments WHERE id = ? AND org = ?').get(department, row.org)
    ) {
      throw new FieldError('department_id', 'unknown department');
    }
    if (body.categories !== undefined) {
      const ids = parseIntList('categories', body.categories);
      if (missingCategories(db, row.org, ids).length) throw new FieldError('categories', 'unknown category');
      out.categories = ids;
    }
    for (const [field, catalogue] of [
      ['types', MENTOR_TYPES],
      ['subjects', SUBJECTS],
    ] as const) {
      if (body[field] === undefined || body[field] === null) continue;
      const ids = parseIntList(field, body[field]);
      const unknown = unknownIn(catalogue, ids);
      if (unknown !== undefined) throw new FieldError(field, invalidPkMessage(unknown));
      out.settings[field] = [...new Set(ids)];
    }
    if (body.mcp_servers !== undefined && body.mcp_servers !== null) {
      const ids = parseIntList('mcp_servers', body.mcp_servers);
      const linkable = linkableMcpServers(db, row.org);
      const unknown = ids.find((id) => !linkable.has(id));
      if (unknown !== undefined) throw new FieldError('mcp_servers', invalidPkMessage(unknown));
      out.settings.mcp_servers = [...new Set(ids)];
    }
    return out;
  }
}
