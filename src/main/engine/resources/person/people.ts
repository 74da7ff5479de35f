/**
 * Finding the person a data request is about, and the one rule an erasure has: a person who administers the
 * tenant's access (the RBAC holder of issue 15's last-admin rule, read fresh from the platform) is not erased.
 */
import { accessAdmins, type AccessState } from '../../../../shared/access';
import { RESOURCES } from '../../../../shared/resources';
import { EngineError } from '../../errors';
import { userScope } from '../../tenants';
import { ResourceApi } from '../api';
import type { ResourceCache } from '../cache';
import type { ResourceServices } from '../handlers';
import type { Person } from './platform';

type Row = Record<string, unknown>;

const personOf = (row: Row): Person => ({
  userId: String(row.user_id),
  username: String(row.username),
  email: typeof row.email === 'string' && row.email ? row.email : null,
});

/** The person named by username or user id: from the cached users list, else the platform's (read to its end). */
export async function findPerson(
  services: ResourceServices,
  cache: ResourceCache,
  profileId: string,
  ref: string,
): Promise<Person> {
  const cached =
    cache.find(profileId, 'users', ref) ??
    cache.page(profileId, 'users', { where: [{ field: 'username', value: ref }], page: 1, pageSize: 1 }).records[0];
  if (cached) return personOf(cached);
  const api = new ResourceApi(await services.platform(profileId), await userScope(services.profiles, profileId));
  const users = await api.list(RESOURCES.users);
  const found = users.find((row) => row.username === ref || String(row.user_id) === ref);
  if (!found) throw new EngineError('not_found', `No user "${ref}" on this tenant`);
  return personOf(found);
}

/** Why this person may not be erased (they administer the tenant's access), or null. */
export async function adminRefusal(
  services: ResourceServices,
  profileId: string,
  person: Person,
): Promise<string | null> {
  const api = new ResourceApi(await services.platform(profileId), await userScope(services.profiles, profileId));
  const [roles, policies, groups] = await Promise.all(
    (['rbac-roles', 'rbac-policies', 'rbac-groups'] as const).map((kind) => api.list(RESOURCES[kind])),
  );
  const platform = [...roles!, ...policies!, ...groups!].map((r) => r.platform as Row | undefined).find((p) => p?.id);
  const state: AccessState = {
    platformId: platform ? Number(platform.id) : null,
    roles: roles!,
    policies: policies!,
    groups: groups!,
  };
  if (!accessAdmins(state).has(Number(person.userId))) return null;
  return `${person.username} administers this tenant's access (RBAC roles and policies): take their admin access away before erasing them`;
}
