/**
 * The access matrix's calls: answered from the tenant's cached RBAC roles, policies and groups by the pure access
 * model (src/shared/access.ts), and the engine's refusal, before anything is sent, of a write that would leave no one
 * administering the tenant's access (the platform refuses it too; this says so without a round trip).
 */
import type { accessCalls } from '../../../shared/contract/access';
import {
  accessMatrix,
  afterChange,
  effectivePermissions,
  namedPeople,
  noAdminLeft,
  roleChanges,
  whoCan,
  type AccessKind,
  type AccessState,
} from '../../../shared/access';
import { toCsv } from '../csv';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import type { ResourceCache } from './cache';
import type { ResourceServices } from './handlers';

type Row = Record<string, unknown>;
const PAGE = 500;
const KINDS = ['rbac-roles', 'rbac-policies', 'rbac-groups'] as const;

function allOf(cache: ResourceCache, profileId: string, kind: string): Row[] {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const { records } = cache.page(profileId, kind, { page, pageSize: PAGE });
    out.push(...records);
    if (records.length < PAGE) return out;
  }
}

/** The tenant's access as the cache has it; null when one of the three lists was never read here. */
export function cachedAccess(cache: ResourceCache, profileId: string): { state: AccessState; asOf: string } | null {
  const metas = KINDS.map((kind) => cache.meta(profileId, kind));
  if (metas.some((meta) => !meta)) return null;
  const [roles, policies, groups] = KINDS.map((kind) => allOf(cache, profileId, kind)) as [Row[], Row[], Row[]];
  const platform = [...roles, ...policies, ...groups].map((r) => r.platform as Row | undefined).find((p) => p?.id);
  return {
    state: { platformId: platform ? Number(platform.id) : null, roles, policies, groups },
    asOf: metas.map((meta) => meta!.asOf).sort()[0]!,
  };
}

const emptyState: AccessState = { platformId: null, roles: [], policies: [], groups: [] };

/** Refuses, before it is sent, a write of roles, policies or groups that would leave no access administrator. */
export function refuseNoAdminLeft(
  cache: ResourceCache,
  profileId: string,
  change: { kind: string; op: 'create' | 'update' | 'delete'; id?: string; values?: Row },
): void {
  if (!(KINDS as readonly string[]).includes(change.kind)) return;
  const cached = cachedAccess(cache, profileId);
  if (!cached) return;
  const refusal = noAdminLeft(cached.state, afterChange(cached.state, { ...change, kind: change.kind as AccessKind }));
  if (refusal) throw new EngineError('validation', refusal);
}

export function accessHandlers(
  ctx: Pick<ResourceServices, 'tenant' | 'profiles'>,
  cache: ResourceCache,
): HandlersOf<typeof accessCalls> {
  const stateOf = (given: string | undefined) => cachedAccess(cache, ctx.tenant(given));
  return {
    'access.matrix': ({ profileId }) => {
      const cached = stateOf(profileId);
      const state = cached?.state ?? emptyState;
      return { ...accessMatrix(state.roles), people: namedPeople(state), asOf: cached?.asOf ?? null };
    },
    'access.effective': ({ profileId, userId }) => ({
      grants: effectivePermissions(stateOf(profileId)?.state ?? emptyState, userId),
    }),
    'access.whoCan': ({ profileId, action, resource }) =>
      whoCan(stateOf(profileId)?.state ?? emptyState, { action, resource }),
    'access.export': ({ profileId }) => {
      const { resources, roles } = accessMatrix(stateOf(profileId)?.state.roles ?? []);
      const rows = resources.flatMap((resource) =>
        resource.verbs.map((verb) => [
          resource.name,
          verb,
          ...roles.map((role) => (role.actions.includes(`${resource.name}/${verb}`) ? 'yes' : '')),
        ]),
      );
      const tenant = ctx.profiles.nameOf(ctx.tenant(profileId));
      const safe =
        tenant
          .normalize('NFKD')
          .replace(/[^\w.-]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .toLowerCase() || 'tenant';
      return {
        fileName: `${safe}-access-matrix-${new Date().toISOString().slice(0, 10)}.csv`,
        csv: `\uFEFF${toCsv([['Resource', 'Verb', ...roles.map((role) => role.name)], ...rows])}\r\n`,
        rows: rows.length,
      };
    },
    'access.plan': ({ profileId, roles }) => {
      const state = stateOf(profileId)?.state ?? emptyState;
      const changes = roleChanges(state.roles, roles);
      let after = state;
      for (const change of changes) {
        after = afterChange(after, {
          kind: 'rbac-roles',
          op: 'update',
          id: String(change.id),
          values: { actions: change.actions },
        });
      }
      return { changes, refusal: noAdminLeft(state, after) };
    },
  };
}
