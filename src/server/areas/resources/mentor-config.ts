/**
 * What a tenant's mentors share, in the sandbox: MCP servers, call configurations and category groups, kept in the
 * generic store (records as JSON) with what the platform adds to each — its tenant, its times, the records it refers
 * to (a call configuration's mentor, a group's audiences and categories) — and DRF's answers to references to nothing.
 */
import type { Db } from '../../db';
import { invalidPk } from '../../http/errors';
import { findMentor } from '../mentors/store';
import {
  audiencesByIds,
  categoriesOfGroup,
  ensureDefaultAudience,
  missingAudiences,
  presentAudience,
  ungroupCategories,
} from '../mentors/taxonomy';
import { genericBackend, type Backend } from './backends';

type Row = Record<string, unknown>;

/** A number for the tenant, as the platform's `platform` field (a foreign key to the Platform row) gives it. */
function platformNumber(db: Db, org: string): number {
  return (db.prepare('SELECT rowid FROM orgs WHERE key = ?').pluck().get(org) as number | undefined) ?? 0;
}

/**
 * MCP servers: the tenant's own, and the servers other tenants feature ("Featured mcp servers will be accessible to
 * all other tenants") — listed and readable, never changed from here.
 */
export function mcpServerBackend(db: Db, now: () => Date): Backend {
  const base = genericBackend(db, {
    kind: 'mcp-servers',
    idField: 'id',
    counted: true,
    duplicate: 'mcp server with this id already exists.',
    auth: { read: 'user', write: 'admin' },
    filters: ['is_enabled', 'is_featured', 'auth_type', 'transport'],
  });
  const featuredElsewhere = (org: string): Row[] =>
    (
      db
        .prepare("SELECT data FROM resource_store WHERE kind = 'mcp-servers' AND org <> ? ORDER BY rowid")
        .pluck()
        .all(org) as string[]
    )
      .map((text) => JSON.parse(text) as Row)
      .filter((record) => record.is_featured === true);
  const searched = (record: Row, term: unknown) =>
    typeof term !== 'string' ||
    [record.name, record.url].some((value) =>
      String(value ?? '')
        .toLowerCase()
        .includes(term.toLowerCase()),
    );
  return {
    ...base,
    list: (org, query) => {
      const { search, ...filters } = query;
      const featured = featuredElsewhere(org).filter((record) =>
        Object.entries(filters).every(
          ([name, value]) =>
            !['is_enabled', 'is_featured', 'auth_type', 'transport'].includes(name) || record[name] === value,
        ),
      );
      return [...base.list!(org, filters), ...featured].filter((record) => searched(record, search));
    },
    get: (org, id, query) =>
      base.get!(org, id, query) ??
      (org === null ? null : (featuredElsewhere(org).find((record) => String(record.id) === id) ?? null)),
    create: (org, caller, body) => {
      const at = now().toISOString();
      return base.create!(org, caller, {
        ...body,
        platform: platformNumber(db, org),
        platform_key: org,
        created_at: at,
        updated_at: at,
      });
    },
    update: (org, id, body) => base.update!(org, id, { ...body, updated_at: now().toISOString() }),
  };
}

/** Call configurations ("Accessible only to platform admins"): each for one mentor of the tenant. */
export function callConfigurationBackend(db: Db): Backend {
  const base = genericBackend(db, {
    kind: 'call-configurations',
    idField: 'id',
    counted: true,
    duplicate: 'call configuration with this id already exists.',
    auth: { read: 'admin', write: 'admin' },
    filters: ['mentor', 'mode'],
  });
  const checkMentor = (org: string, mentor: unknown) => {
    if (mentor === undefined) return;
    const found = typeof mentor === 'string' ? findMentor(db, org, mentor) : undefined;
    if (!found || found.unique_id !== mentor) throw invalidPk('mentor', mentor);
  };
  return {
    ...base,
    create: (org, caller, body) => {
      checkMentor(org, body.mentor);
      return base.create!(org, caller, { ...body, platform_key: org });
    },
    update: (org, id, body) => {
      checkMentor(org, body.mentor);
      return base.update!(org, id, body);
    },
  };
}

/**
 * Category groups: their audiences and categories answered as objects (MentorCategoryGroup); a PUT or PATCH answers
 * the ids it took (MentorCategoryGroupCreate). `audience` is the deprecated single audience: the first of them.
 */
export function categoryGroupBackend(db: Db, now: () => Date): Backend {
  const base = genericBackend(db, {
    kind: 'category-groups',
    idField: 'id',
    counted: true,
    duplicate: 'mentor category group with this id already exists.',
    auth: { read: 'user', write: 'admin' },
  });
  /** The audiences a body names (`audiences`, or the deprecated `audience`), each one the tenant's. */
  const audienceIds = (org: string, body: Row): number[] | undefined => {
    const ids =
      body.audiences !== undefined
        ? (body.audiences as number[])
        : body.audience !== undefined && body.audience !== null
          ? [body.audience as number]
          : undefined;
    const missing = ids ? missingAudiences(db, org, ids) : [];
    if (missing.length) throw invalidPk(body.audiences !== undefined ? 'audiences' : 'audience', missing[0]);
    return ids;
  };
  const expand = (org: string, record: Row): Row => {
    const ids = (record.audiences as number[] | undefined) ?? [];
    const audiences = audiencesByIds(db, org, ids).map(presentAudience);
    const main = audiences[0] ?? audiencesByIds(db, org, [ensureDefaultAudience(db, org, now().toISOString())])[0]!;
    return {
      ...record,
      audience: presentAudience(main),
      audiences,
      categories: categoriesOfGroup(db, org, Number(record.id)),
    };
  };
  return {
    ...base,
    list: (org, query) => {
      const records = base.list!(org, {}).map((record) => expand(org, record));
      const audience = query.audience === undefined ? undefined : Number(query.audience);
      const audienceName = query.audience__name as string | undefined;
      const term = typeof query.search === 'string' ? query.search.toLowerCase() : undefined;
      return records.filter(
        (record) =>
          (audience === undefined || (record.audiences as Row[]).some((a) => a.id === audience)) &&
          (audienceName === undefined || (record.audiences as Row[]).some((a) => a.name === audienceName)) &&
          (term === undefined || String(record.name).toLowerCase().includes(term)),
      );
    },
    get: (org, id, query) => {
      const record = base.get!(org, id, query);
      return record && org !== null ? expand(org, record) : null;
    },
    create: (org, caller, body) => {
      const ids = audienceIds(org, body) ?? [];
      const record = base.create!(org, caller, {
        name: body.name,
        description: body.description,
        audiences: ids,
        date_created: now().toISOString(),
      });
      return expand(org, record);
    },
    update: (org, id, body) => {
      const ids = audienceIds(org, body);
      const { audience: _deprecated, ...rest } = body;
      const updated = base.update!(org, id, { ...rest, ...(ids && { audiences: ids }) });
      if (!updated) return null;
      const audiences = updated.audiences as number[];
      return { ...updated, audience: audiences[0] ?? null, audiences };
    },
    delete: (org, id) => {
      const deleted = base.delete!(org, id);
      if (deleted) ungroupCategories(db, org, Number(id));
      return deleted;
    },
  };
}

/** Demo data: the MCP servers, a call configuration and a category group a tenant in use has. */
export function seedMentorConfig(db: Db, org: string, now: () => Date): void {
  const admin = { username: 'admin', org } as Parameters<NonNullable<Backend['create']>>[1];
  const servers = mcpServerBackend(db, now);
  servers.create!(org, admin, {
    name: 'Course catalogue',
    description: 'Looks up courses, sections and prerequisites.',
    url: 'https://mcp.catalogue.example.edu/mcp',
    transport: 'streamable_http',
    auth_type: 'token',
    is_enabled: true,
    is_featured: false,
  });
  servers.create!(org, admin, {
    name: 'Library search',
    description: 'Searches the library’s holdings and databases.',
    url: 'https://mcp.library.example.edu/sse',
    transport: 'sse',
    auth_type: 'none',
    is_enabled: true,
    is_featured: false,
  });
  servers.create!(org, admin, {
    name: 'Campus events',
    url: 'wss://events.example.edu/mcp',
    transport: 'websocket',
    auth_type: 'oauth2',
    is_enabled: false,
    is_featured: false,
  });
  const mentor = db
    .prepare('SELECT unique_id FROM mentors WHERE org = ? AND is_deleted = 0 ORDER BY id LIMIT 1')
    .pluck()
    .get(org) as string | undefined;
  if (mentor) {
    callConfigurationBackend(db).create!(org, admin, {
      mentor,
      mode: 'realtime',
      tts_provider: 'openai',
      stt_provider: 'openai',
      llm_provider: 'openai',
      enable_video: false,
    });
  }
  const audiences = db
    .prepare('SELECT id FROM mentor_audiences WHERE org = ? ORDER BY id LIMIT 2')
    .pluck()
    .all(org) as number[];
  categoryGroupBackend(db, now).create!(org, admin, {
    name: 'STEM',
    description: 'Science, technology, engineering and maths',
    audiences,
  });
}
