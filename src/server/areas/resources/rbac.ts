/**
 * RBAC roles, policies and groups in the sandbox: records of the generic store, each answered with its platform
 * (`RbacPlatform`), and the people and groups it names resolved to the spec's `RbacUser`/`RbacPolicyGroup`. Ids are
 * the platform's own counters. The spec's 400s: users that are not the tenant's ("Users do not belong to the specified
 * platform"), unknown group or role ids. Deleting a role "will remove all policies referencing it"; internal records
 * "cannot be viewed or modified by tenants via API endpoints".
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import { badRequest, fieldErrors, forbidden, invalidPk } from '../../http/errors';
import { accessState } from '../../access';
import { noAdminLeft } from '../../../shared/access';
import { genericBackend, type Backend } from './backends';

type Row = Record<string, unknown>;

const ids = (value: unknown): number[] => (Array.isArray(value) ? (value as number[]) : []);

function platformOf(db: Db, org: string): Row {
  const row = db.prepare('SELECT rowid AS id, key, name FROM orgs WHERE key = ?').get(org) as Row;
  return { id: row.id, key: row.key, name: row.name ?? null };
}

/** The tenant's users by id, as RbacUser; any id that is not one of them is the spec's 400. */
function usersOf(db: Db, org: string, wanted: number[], field: string): Row[] {
  const found = wanted.map(
    (id) =>
      db.prepare('SELECT id, username, email FROM users WHERE id = ? AND org = ?').get(id, org) as Row | undefined,
  );
  if (found.some((user) => !user)) throw fieldErrors({ [field]: ['Users do not belong to the specified platform'] });
  return found as Row[];
}

/** `users` after a write's `users_to_add` and `users_to_remove` (removals first, as the platform's policy calls do). */
function withUsers(db: Db, org: string, current: Row[], body: Row): Row[] {
  const removed = new Set(ids(body.users_to_remove));
  usersOf(db, org, [...removed], 'users_to_remove');
  const kept = current.filter((user) => !removed.has(user.id as number));
  const added = usersOf(db, org, ids(body.users_to_add), 'users_to_add').filter(
    (user) => !kept.some((k) => k.id === user.id),
  );
  return [...kept, ...added];
}

const WRITE_ONLY = ['platform_key', 'users_to_add', 'users_to_remove', 'groups_to_add', 'groups_to_remove', 'role_id'];
const stored = (record: Row): Row =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !WRITE_ONLY.includes(name)));

/** Internal records are the platform's: never listed, read or changed through the API. */
function hidingInternal(backend: Backend): Backend {
  const visible = (record: Row | null) => (record && !record.is_internal ? record : null);
  return {
    ...backend,
    list: (org, query) => backend.list!(org, query).filter((record) => !record.is_internal),
    get: (org, id, query) => visible(backend.get!(org, id, query)),
    update: (org, id, body) => {
      const current = backend.get!(org, id, {});
      if (current?.is_internal) throw forbidden();
      return visible(current) && backend.update!(org, id, body);
    },
    delete: (org, id) => {
      const current = backend.get!(org, id, {});
      if (current?.is_internal) throw forbidden();
      return !!visible(current) && backend.delete!(org, id);
    },
  };
}

/**
 * A write that would leave the tenant with no one administering its access (src/shared/access.ts, ADMIN_ACTIONS) is
 * refused with that reason: made in a transaction, and undone when the state after it has no administrator.
 */
function keepingAnAdmin(db: Db, backend: Backend): Backend {
  const guarded =
    <A extends [string, ...unknown[]], R>(write: (...args: A) => R) =>
    (...args: A): R =>
      db.transaction(() => {
        const before = accessState(db, args[0]);
        const result = write(...args);
        const refusal = noAdminLeft(before, accessState(db, args[0]));
        if (refusal) throw badRequest(refusal);
        return result;
      })();
  return {
    ...backend,
    create: guarded(backend.create!),
    update: guarded(backend.update!),
    delete: guarded(backend.delete!),
  };
}

/** The spec's name filter: "case-insensitive partial match". */
const byName = (records: Row[], query: Row) =>
  typeof query.name === 'string'
    ? records.filter((r) =>
        String(r.name ?? '')
          .toLowerCase()
          .includes((query.name as string).toLowerCase()),
      )
    : records;

export function rbacRoleBackend(db: Db): Backend {
  const generic = genericBackend(db, {
    kind: 'rbac-roles',
    idField: 'id',
    counted: true,
    duplicate: 'rbac role with this id already exists.',
    auth: { read: 'admin', write: 'admin' },
    defaults: { actions: [], data_actions: [], is_internal: false },
  });
  const policies = genericBackend(db, rbacPolicyOptions);
  return keepingAnAdmin(
    db,
    hidingInternal({
      ...generic,
      missing: 'Role not found',
      list: (org, query) => byName(generic.list!(org, {}), query),
      create: (org, caller, body) => generic.create!(org, caller, { ...stored(body), platform: platformOf(db, org) }),
      update: (org, id, body) => generic.update!(org, id, stored(body)),
      delete: (org, id) => {
        for (const policy of policies.list!(org, {})) {
          if ((policy.role as Row).id === Number(id)) policies.delete!(org, String(policy.id));
        }
        return generic.delete!(org, id);
      },
    }),
  );
}

const rbacPolicyOptions = {
  kind: 'rbac-policies',
  idField: 'id',
  counted: true,
  duplicate: 'rbac policy with this id already exists.',
  auth: { read: 'admin', write: 'admin' },
} as const;

export function rbacPolicyBackend(db: Db): Backend {
  const generic = genericBackend(db, rbacPolicyOptions);
  const roles = genericBackend(db, { ...rbacPolicyOptions, kind: 'rbac-roles' });
  const groups = genericBackend(db, { ...rbacPolicyOptions, kind: 'rbac-groups' });
  const roleOf = (org: string, id: unknown): Row => {
    const role = roles.get!(org, String(id), {});
    if (!role) throw invalidPk('role_id', id);
    return { id: role.id, name: role.name, actions: role.actions, data_actions: role.data_actions };
  };
  const withGroups = (org: string, current: Row[], body: Row): Row[] => {
    const removed = new Set(ids(body.groups_to_remove));
    const kept = current.filter((group) => !removed.has(group.id as number));
    const added = ids(body.groups_to_add).map((id) => {
      const group = groups.get!(org, String(id), {});
      if (!group) throw invalidPk('groups_to_add', id);
      return { id: group.id, name: group.name ?? '', unique_id: group.unique_id, description: group.description ?? '' };
    });
    return [...kept, ...added.filter((group) => !kept.some((k) => k.id === group.id))];
  };
  return keepingAnAdmin(
    db,
    hidingInternal({
      ...generic,
      missing: 'Policy not found',
      list: (org, query) =>
        byName(generic.list!(org, {}), query).filter(
          (policy) => query.role_id === undefined || (policy.role as Row).id === query.role_id,
        ),
      create: (org, caller, body) =>
        generic.create!(org, caller, {
          // "If not supplied, defaults to a UUID4"
          name: randomUUID(),
          resources: [],
          ...stored(body),
          role: roleOf(org, body.role_id),
          platform: platformOf(db, org),
          users: withUsers(db, org, [], body),
          groups: withGroups(org, [], body),
          is_internal: false,
        }),
      update: (org, id, body) => {
        const current = generic.get!(org, id, {});
        if (!current) return null;
        return generic.update!(org, id, {
          ...stored(body),
          ...(body.role_id !== undefined && { role: roleOf(org, body.role_id) }),
          users: withUsers(db, org, current.users as Row[], body),
          groups: withGroups(org, current.groups as Row[], body),
        });
      },
    }),
  );
}

export function rbacGroupBackend(db: Db): Backend {
  const generic = genericBackend(db, {
    kind: 'rbac-groups',
    idField: 'id',
    counted: true,
    duplicate: 'rbac group with this id already exists.',
    auth: { read: 'admin', write: 'admin' },
  });
  return keepingAnAdmin(
    db,
    hidingInternal({
      ...generic,
      missing: 'Group not found',
      list: (org, query) =>
        byName(generic.list!(org, {}), query).filter(
          (group) => query.owner === undefined || (group.owner as Row).username === query.owner,
        ),
      create: (org, caller, body) => {
        const unique = String(body.unique_id);
        if (generic.list!(org, {}).some((group) => group.unique_id === unique)) {
          throw fieldErrors({ unique_id: ['rbac group with this unique id already exists.'] });
        }
        return generic.create!(org, caller, {
          name: '',
          description: '',
          ...stored(body),
          platform: platformOf(db, org),
          owner: { id: caller.userId, username: caller.username, email: caller.email },
          users: withUsers(db, org, [], body),
          is_internal: false,
        });
      },
      update: (org, id, body) => {
        const current = generic.get!(org, id, {});
        if (!current) return null;
        return generic.update!(org, id, { ...stored(body), users: withUsers(db, org, current.users as Row[], body) });
      },
    }),
  );
}

/**
 * A demo tenant's access, so the matrix has something to show: roles over the guarded paths and a few others, an
 * access group of learners, and policies granting them (no access administrator: the tenant's admins run access).
 */
export function seedAccess(db: Db, org: string): void {
  const admin = db
    .prepare("SELECT id, username, email FROM users WHERE org = ? AND role = 'admin' LIMIT 1")
    .get(org) as { id: number; username: string; email: string } | undefined;
  const learners = db
    // Not the demo learner's key's user: that key stays refused until an admin grants it something.
    .prepare(
      "SELECT id FROM users WHERE org = ? AND role = 'student' AND username NOT IN (SELECT username FROM api_keys) ORDER BY id LIMIT 3",
    )
    .pluck()
    .all(org) as number[];
  if (!admin || !learners.length) return;
  const caller = {
    userId: admin.id,
    username: admin.username,
    email: admin.email,
    org,
    role: 'admin',
    via: 'api-key',
  } as const;
  const roles = rbacRoleBackend(db);
  const role = (name: string, actions: string[]) => roles.create!(org, caller, { name, actions }).id;
  const auditors = role('Access auditors', ['Ibl.Core/Roles/read', 'Ibl.Core/Policies/read', 'Ibl.Core/Groups/read']);
  const managers = role('Department managers', [
    'Ibl.Core/Departments/read',
    'Ibl.Core/Departments/write',
    'Ibl.Core/UserGroups/read',
  ]);
  const editors = role('Mentor editors', ['Ibl.Mentor/Settings/read', 'Ibl.Mentor/Settings/write']);
  role('Analytics viewers', ['Ibl.Analytics/Reports/read']);
  const group = rbacGroupBackend(db).create!(org, caller, {
    unique_id: 'faculty-leads',
    name: 'Faculty leads',
    description: 'Learners who help run the tenant',
    users_to_add: learners,
  }).id;
  const policies = rbacPolicyBackend(db);
  policies.create!(org, caller, {
    name: 'Leads audit access',
    role_id: auditors,
    resources: ['/'],
    groups_to_add: [group],
  });
  policies.create!(org, caller, {
    name: 'Leads manage departments',
    role_id: managers,
    resources: ['/departments/', '/user_groups/'],
    groups_to_add: [group],
  });
  policies.create!(org, caller, {
    name: 'Mentor editing',
    role_id: editors,
    resources: ['/mentors/'],
    users_to_add: [learners[0]!],
  });
}
