/**
 * The access matrix and its questions, answered by the engine from the tenant's cached RBAC roles, policies and
 * groups (src/shared/access.ts decides): which actions each role holds, what a person may do and through which
 * policy, who may take an action over a resource, and what a set of edits to roles' actions would change.
 */
import { z } from 'zod';
import { call } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };
const Action = z.string().min(1).max(300);
const ResourcePath = z.string().min(1).max(1000);

export const AccessMatrix = z.object({
  /** The rows: an action's resource (`Ibl.Core/Roles`) and its verbs (`read`, `write`), guarded ones first. */
  resources: z.array(z.object({ name: z.string(), label: z.string(), verbs: z.array(z.string()) })),
  /** The columns: each role with the actions it holds now. */
  roles: z.array(z.object({ id: z.number(), name: z.string(), actions: z.array(z.string()) })),
  /** People the policies and access groups name, to ask about. */
  people: z.array(z.object({ id: z.number(), username: z.string().nullable(), email: z.string().nullable() })),
  /** When the oldest of the three lists was read; null when one was never read on this tenant. */
  asOf: z.string().nullable(),
});
export type AccessMatrix = z.infer<typeof AccessMatrix>;

export const AccessGrant = z.object({
  action: z.string(),
  resource: z.string(),
  policy: z.object({ id: z.number(), name: z.string() }),
  role: z.object({ id: z.number(), name: z.string() }),
  group: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type AccessGrant = z.infer<typeof AccessGrant>;

export const AccessWhoCan = z.object({
  people: z.array(
    z.object({
      id: z.number(),
      username: z.string().nullable(),
      email: z.string().nullable(),
      policies: z.array(z.string()),
      groups: z.array(z.string()),
    }),
  ),
  groups: z.array(z.object({ id: z.number(), name: z.string(), policies: z.array(z.string()) })),
});
export type AccessWhoCan = z.infer<typeof AccessWhoCan>;

export const AccessRoleChange = z.object({
  id: z.number(),
  name: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** The role's whole list of actions after the change: what its update sends. */
  actions: z.array(z.string()),
});
export type AccessRoleChange = z.infer<typeof AccessRoleChange>;

export const accessCalls = {
  'access.matrix': call(
    z.object({ ...Tenant }).strict(),
    AccessMatrix,
    "The access matrix from the cache: resources and their verbs by roles, and the people the tenant's RBAC names",
  ),
  'access.effective': call(
    z.object({ ...Tenant, userId: z.number().int() }).strict(),
    z.object({ grants: z.array(AccessGrant) }),
    'What a person may do: each action over each resource, with the policy (and access group) that grants it',
  ),
  'access.whoCan': call(
    z.object({ ...Tenant, action: Action, resource: ResourcePath }).strict(),
    AccessWhoCan,
    'Who may take an action over a resource: the people and the access groups, with the policies that say so',
  ),
  'access.export': call(
    z.object({ ...Tenant }).strict(),
    z.object({ fileName: z.string(), csv: z.string(), rows: z.number().int() }),
    'The access matrix as a CSV file (a row per resource and verb, a column per role): injection-safe cells',
  ),
  'access.plan': call(
    z
      .object({
        ...Tenant,
        /** Each edited role with the whole list of actions it should hold. */
        roles: z.array(z.object({ id: z.number(), actions: z.array(Action).max(1000) })).max(1000),
      })
      .strict(),
    z.object({
      changes: z.array(AccessRoleChange),
      /** Why the change may not be made (it leaves no one administering access); null: it may. */
      refusal: z.string().nullable(),
    }),
    "What edits to roles' actions would change, role by role, and whether the tenant would keep an administrator",
  ),
} as const;
