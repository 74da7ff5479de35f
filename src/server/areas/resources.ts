/**
 * The sandbox's spec-driven store for the declared resources (src/shared/resources/): each declared operation is a
 * route at its spec path, its query and body are checked against the spec's schemas (DRF's 400 by field), and its
 * answers carry only the fields of the spec's response schema, with the spec's success status. Where a record lives
 * is its kind's backend (areas/resources/backends.ts).
 */
import type { Area, AreaDeps } from '../area';
import type { Db } from '../db';
import { fieldErrors, HttpError, notFound } from '../http/errors';
import type { Reply, RequestContext } from '../http/router';
import {
  RESOURCES,
  recordSchema,
  recordSchemaOf,
  specOperation,
  type OperationRef,
  type RecordOperation,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../shared/resources';
import { apiTokenBackend, genericBackend, genericSchema, ltiKeyPair, type Backend } from './resources/backends';
import { credentialBackend, credentialSchema, plainCredentialRead, seedCredentials } from './resources/credentials';
import { mentorLlmBackend, tenantLlmBackend } from './resources/llms';
import {
  departmentBackend,
  departmentMemberBackend,
  userGroupBackend,
  userGroupMemberBackend,
} from './resources/groups';
import { rbacGroupBackend, rbacPolicyBackend, rbacRoleBackend, seedAccess } from './resources/rbac';
import { membersBulkRoutes } from './resources/members-bulk';
import { llmAccessRoutes, llmAccessSchema, seedLlmAccess } from './resources/llm-access';
import {
  callConfigurationBackend,
  categoryGroupBackend,
  mcpServerBackend,
  seedMentorConfig,
} from './resources/mentor-config';
import { permissionCheckRoutes } from './resources/permissions';
import { voiceCatalogueBackend } from './resources/voices';
import { MAIN_ORG } from './core';
import { seedSingles, singleRoutes } from './resources/single';
import { checkBody, checkQuery, present } from './resources/validate';

function backends(db: Db): Partial<Record<ResourceKind, Backend>> {
  return {
    'api-tokens': apiTokenBackend(db),
    domains: genericBackend(db, {
      kind: 'domains',
      idField: 'url',
      duplicate: 'whitelisted domain with this url already exists.',
      defaults: { is_active: true },
      // The spec leaves the check open to anyone; adding a domain takes a tenant admin.
      auth: { read: 'none', write: 'admin' },
      filters: ['is_active'],
    }),
    'lti-keys': genericBackend(db, {
      kind: 'lti-keys',
      idField: 'id',
      counted: true,
      duplicate: 'lti key with this id already exists.',
      auth: { read: 'admin', write: 'admin' },
      derive: ltiKeyPair,
    }),
    'lti-tools': genericBackend(db, {
      kind: 'lti-tools',
      idField: 'id',
      counted: true,
      duplicate: 'lti tool with this id already exists.',
      auth: { read: 'admin', write: 'admin' },
      // The spec's "Reference to Lti Tool": pylti1p3's foreign key to the tool's key pair (an LTI key).
      references: { tool_key: 'lti-keys' },
    }),
    credentials: credentialBackend(db, 'credential'),
    'integration-credentials': credentialBackend(db, 'integration'),
    'tenant-llms': tenantLlmBackend(db),
    'mentor-llms': mentorLlmBackend,
    departments: departmentBackend(db),
    'department-members': departmentMemberBackend(db),
    'user-groups': userGroupBackend(db),
    'user-group-members': userGroupMemberBackend(db),
    'rbac-roles': rbacRoleBackend(db),
    'rbac-policies': rbacPolicyBackend(db),
    'rbac-groups': rbacGroupBackend(db),
    'mcp-servers': mcpServerBackend(db, () => new Date()),
    'call-configurations': callConfigurationBackend(db),
    'category-groups': categoryGroupBackend(db, () => new Date()),
    voices: voiceCatalogueBackend,
  };
}

type Row = Record<string, unknown>;

/**
 * The org a request is about: the tenant fields it names (`platform_key`) must name the caller's own org, as the
 * platform scopes them; without such a field, the caller's org (none for a caller without credentials).
 */
function orgOf(ctx: RequestContext, declaration: ResourceDeclaration, given: Row): string | null {
  for (const [name, value] of Object.entries(declaration.tenant ?? {})) {
    if (value !== 'org' || given[name] === undefined) continue;
    if (given[name] !== ctx.caller?.org) throw notFound('Organization not found');
  }
  return ctx.caller?.org ?? null;
}

function route(declaration: ResourceDeclaration, backend: Backend, role: string, operation: OperationRef) {
  const spec = specOperation(operation);
  const record = recordSchema(declaration);
  // A write answers its own operation's schema where it has one (a category group's PATCH answers audience ids).
  const written = recordSchemaOf(operation) ?? record;
  const idOf = (ctx: RequestContext, query: Row, body: Row = {}) => {
    const { id } = operation as RecordOperation;
    if (id.in === 'body') {
      // The description says the request "must include" it: DRF's answer when it does not.
      const given = body[id.name];
      if ((typeof given !== 'string' && typeof given !== 'number') || given === '')
        throw fieldErrors({ [id.name]: ['This field is required.'] });
      return String(given);
    }
    return id.in === 'path' ? ctx.params[id.name]! : String(query[id.name]);
  };
  /** A body the spec does not declare, read for the id it carries (a credential's DELETE). */
  const undeclaredBody = async (ctx: RequestContext): Promise<Row> => {
    const body = await ctx.json().catch(() => null);
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : {};
  };
  const answer = (status: number, body: unknown): Reply => ({ status, ...(status === 204 ? {} : { body }) });
  const needOrg = (org: string | null) => {
    if (org === null) throw new HttpError(401, 'Authentication credentials were not provided.');
    return org;
  };

  return async (ctx: RequestContext): Promise<Reply> => {
    const query = checkQuery(spec, ctx.query);
    switch (role) {
      case 'list': {
        const org = needOrg(orgOf(ctx, declaration, query));
        const rows = backend.list!(org, query).map((row) => present(record, row));
        return answer(spec.response.status, declaration.envelope === 'drf' ? drfPage(rows, query, ctx.url) : rows);
      }
      case 'get': {
        const found = backend.get!(orgOf(ctx, declaration, query), idOf(ctx, query), query);
        if (!found) throw notFound(backend.missing);
        return answer(spec.response.status, present(record, found));
      }
      case 'create': {
        const body = checkBody(spec, await ctx.json());
        const org = needOrg(orgOf(ctx, declaration, { ...query, ...body }));
        return answer(spec.response.status, present(written, backend.create!(org, ctx.caller!, body)));
      }
      case 'update': {
        const body = checkBody(spec, await ctx.json());
        const org = needOrg(orgOf(ctx, declaration, { ...query, ...body }));
        const updated = backend.update!(org, idOf(ctx, query, body), body);
        if (!updated) throw notFound(backend.missing);
        return answer(spec.response.status, present(written, updated));
      }
      case 'delete': {
        const org = needOrg(orgOf(ctx, declaration, query));
        const id = idOf(ctx, query, spec.body ? {} : await undeclaredBody(ctx));
        if (!backend.delete!(org, id)) throw notFound(backend.missing);
        return answer(spec.response.status, undefined);
      }
      default:
        throw new HttpError(501, `The sandbox does not serve ${role} of ${declaration.kind}`);
    }
  };
}

/** DRF's page-number (and limit/offset) pagination: 404 "Invalid page." past the last page, as DRF answers. */
const DRF_DEFAULT_PAGE_SIZE = 10;
function drfPage(rows: Row[], query: Row, url: URL) {
  const link = (params: Record<string, number>) => {
    const next = new URL(url);
    for (const [name, value] of Object.entries(params)) next.searchParams.set(name, String(value));
    return next.toString();
  };
  if (query.limit !== undefined || query.offset !== undefined) {
    const limit = Math.max(1, Number(query.limit ?? DRF_DEFAULT_PAGE_SIZE));
    const offset = Math.max(0, Number(query.offset ?? 0));
    return {
      count: rows.length,
      next: offset + limit < rows.length ? link({ limit, offset: offset + limit }) : null,
      previous: offset > 0 ? link({ limit, offset: Math.max(0, offset - limit) }) : null,
      results: rows.slice(offset, offset + limit),
    };
  }
  const size = Math.max(1, Number(query.page_size ?? DRF_DEFAULT_PAGE_SIZE));
  const page = Number(query.page ?? 1);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  if (!Number.isInteger(page) || page < 1 || page > pages) throw notFound('Invalid page.');
  return {
    count: rows.length,
    next: page < pages ? link({ page: page + 1, page_size: size }) : null,
    previous: page > 1 ? link({ page: page - 1, page_size: size }) : null,
    results: rows.slice((page - 1) * size, page * size),
  };
}

/**
 * Serves each declaration's operations, and the description of its form fields, from its backend (the declared kinds
 * of many records; tests add kinds of their own).
 */
export function serveResources(
  router: Parameters<Area['routes']>[0],
  declarations: readonly ResourceDeclaration[],
  backendOf: (declaration: ResourceDeclaration) => Backend,
): void {
  for (const declaration of declarations) {
    const backend = backendOf(declaration);
    for (const [role, operation] of Object.entries(declaration.operations)) {
      if (!operation) continue;
      const write = operation.method !== 'get';
      router.add(
        operation.method.toUpperCase() as 'GET',
        operation.path,
        route(declaration, backend, role, operation),
        {
          auth: write ? backend.auth.write : backend.auth.read,
        },
      );
    }
    const described = declaration.describedFields?.operation;
    const describe = (backend as { describe?: (query: Row) => Row[] }).describe;
    if (described && describe) {
      router.add('GET', described.path, describeRoute(describe, described), { auth: backend.auth.read });
    }
  }
}

/** The platform's description of a kind's form fields (the credential schema views). */
function describeRoute(describe: (query: Row) => Row[], operation: OperationRef) {
  const spec = specOperation(operation);
  return (ctx: RequestContext): Reply => ({
    status: spec.response.status,
    body: describe(checkQuery(spec, ctx.query)),
  });
}

export const resourcesArea: Area = {
  name: 'resources',
  schema: genericSchema + credentialSchema + llmAccessSchema,
  seed(deps) {
    seedSingles(deps.db);
    seedLlmAccess(deps.db, MAIN_ORG);
    seedCredentials(deps.db, MAIN_ORG, deps.now().toISOString());
    const byKind = backends(deps.db);
    const admin = { username: 'admin', org: MAIN_ORG } as Parameters<NonNullable<Backend['create']>>[1];
    byKind['tenant-llms']!.create!(MAIN_ORG, admin, { llm_provider: 'openai', llm_name: 'gpt-4o' });
    seedMentorConfig(deps.db, MAIN_ORG, deps.now);
    seedAccess(deps.db, MAIN_ORG);
  },
  routes(router, deps: AreaDeps) {
    const byKind = backends(deps.db);
    const declarations = Object.values(RESOURCES) as ResourceDeclaration[];
    for (const declaration of declarations.filter((d) => d.single)) singleRoutes(router, deps.db, declaration);
    serveResources(
      router,
      // A kind with no backend here is served by its own area (users: areas/core-users.ts).
      declarations.filter((d) => !d.single && byKind[d.kind as ResourceKind]),
      (d) => byKind[d.kind as ResourceKind]!,
    );
    plainCredentialRead(deps.db, 'credential', '/api/ai-account/orgs/{org}/credential/', router);
    plainCredentialRead(deps.db, 'integration', '/api/ai-account/orgs/{org}/integration-credential/', router);
    llmAccessRoutes(deps.db, router);
    permissionCheckRoutes(deps.db, router);
    membersBulkRoutes(deps.db, router);
  },
};
