/**
 * The sandbox enforces the RBAC it stores: a caller who is not a tenant admin reaches an admin path only through a
 * policy that grants them (directly or through an access group) the path's action over its resource
 * (`requestNeed`, src/shared/access.ts). Tenant admins need no policy.
 */
import type { Caller } from './auth';
import type { Db } from './db';
import { grantFor, requestNeed, type AccessState } from '../shared/access';

type Row = Record<string, unknown>;

/** The org's roles, policies and groups as stored (internal ones included: they grant like any other). */
export function accessState(db: Db, org: string): AccessState {
  const of = (kind: string) =>
    (
      db
        .prepare('SELECT data FROM resource_store WHERE org = ? AND kind = ? ORDER BY rowid')
        .pluck()
        .all(org, kind) as string[]
    ).map((text) => JSON.parse(text) as Row);
  const platformId = db.prepare('SELECT rowid FROM orgs WHERE key = ?').pluck().get(org) as number | undefined;
  return {
    platformId: platformId ?? null,
    roles: of('rbac-roles'),
    policies: of('rbac-policies'),
    groups: of('rbac-groups'),
  };
}

/** Whether the caller may use an admin route: a tenant admin, or someone a policy grants what the path needs. */
export function mayUseAdminRoute(db: Db, caller: Caller, method: string, path: string): boolean {
  if (caller.role === 'admin') return true;
  const need = requestNeed(method, path);
  return !!need && !!grantFor(accessState(db, caller.org), caller.userId, need);
}
