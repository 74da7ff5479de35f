/**
 * Who may do what, from a tenant's RBAC roles, policies and groups (the spec's RbacRole, RbacPolicy, RbacGroup): a
 * policy grants its role's actions over its resource paths to its users and to the members of its groups. Pure
 * functions over plain records, so the app (from its cache) and the sandbox (from its store) decide alike.
 *
 * Resource paths are taken relative to the tenant's platform: the spec writes them both ways (`/platforms/1/mentors`
 * on a policy, `/mentors/` in a permission check), so `/platforms/<this platform's id>` is dropped before comparing,
 * and a path covers itself and everything below it.
 */

type Row = Record<string, unknown>;

export interface AccessPerson {
  id: number;
  username?: string | null;
  email?: string | null;
}

export interface AccessState {
  /** The tenant's platform id (RbacPlatform.id), to read `/platforms/<id>/…` resources; null when unknown. */
  platformId: number | null;
  roles: readonly Row[];
  policies: readonly Row[];
  groups: readonly Row[];
}

/** What the platform's admin paths need: an action (`Ibl.Core/Roles/read`) over a resource path (`/rbac/roles/`). */
export interface AccessNeed {
  action: string;
  resource: string;
}

/** One thing a person may do, and the policy (and group, if through one) that grants it. */
export interface Grant {
  action: string;
  resource: string;
  policy: { id: number; name: string };
  role: { id: number; name: string };
  /** null: the policy names the person; else the access group through which it does. */
  group: { id: number; name: string } | null;
}

/**
 * The admin paths the sandbox guards by policy, each an action prefix (`<prefix>/read` for GET, `/write` otherwise)
 * over the path below `/api/core` as its resource. The matrix lists these resources even before any role uses them.
 */
export const GUARDED_RESOURCES = [
  { path: '/api/core/rbac/roles/', action: 'Ibl.Core/Roles', label: 'Roles' },
  { path: '/api/core/rbac/policies/', action: 'Ibl.Core/Policies', label: 'Policies' },
  { path: '/api/core/rbac/groups/', action: 'Ibl.Core/Groups', label: 'Access groups' },
  { path: '/api/core/departments/', action: 'Ibl.Core/Departments', label: 'Departments' },
  { path: '/api/core/user_groups/', action: 'Ibl.Core/UserGroups', label: 'User groups' },
] as const;

export const VERBS = ['read', 'write'] as const;

/**
 * Who administers the tenant's access: whoever holds both of these over the whole platform (`/`) through a policy.
 * A change of roles, policies or groups that leaves no one holding them is refused (see `noAdminLeft`).
 */
export const ADMIN_ACTIONS = ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'] as const;

export const NO_ADMIN_LEFT =
  'This change would leave the tenant with no administrator: no one would hold Ibl.Core/Roles/write and ' +
  'Ibl.Core/Policies/write over the whole platform (/).';

/** The action and resource a request to an admin path needs; null for a path no policy can grant. */
export function requestNeed(method: string, path: string): AccessNeed | null {
  const guarded = GUARDED_RESOURCES.find((g) => path.startsWith(g.path));
  if (!guarded) return null;
  const verb = method.toUpperCase() === 'GET' ? 'read' : 'write';
  return { action: `${guarded.action}/${verb}`, resource: path.slice('/api/core'.length) };
}

/** A resource path relative to the platform, with a leading and a trailing slash. */
export function normalResource(resource: string, platformId: number | null): string {
  let path = `/${resource.trim().replace(/^\/+/, '')}`;
  if (!path.endsWith('/')) path += '/';
  const prefix = `/platforms/${platformId}/`;
  if (platformId !== null && path.startsWith(prefix)) path = path.slice(prefix.length - 1);
  return path;
}

/** Whether a policy's resource path covers a resource: the same path or one below it. */
export function covers(policyResource: string, resource: string, platformId: number | null): boolean {
  return normalResource(resource, platformId).startsWith(normalResource(policyResource, platformId));
}

const num = (value: unknown) => Number(value);
const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A policy's role as it is now (a policy answers its role as of its creation; the role's record is current). */
function roleOf(state: AccessState, policy: Row): { id: number; name: string; actions: string[] } {
  const given = (policy.role ?? {}) as Row;
  const current = state.roles.find((role) => num(role.id) === num(given.id));
  const source = current ?? given;
  return { id: num(given.id), name: String(source.name ?? ''), actions: strings(source.actions) };
}

/**
 * The part of a resource an action can reach, as the sandbox enforces it: a guarded action is only ever asked for
 * over its own path (`Ibl.Core/Departments/…` over `/departments/…`), so over `/` it reaches `/departments/`, and
 * over `/user_groups/` nothing (null). Actions no guarded path asks for are kept as the policy gives them.
 */
function reachable(action: string, resource: string): string | null {
  const guarded = GUARDED_RESOURCES.find((g) => action.startsWith(`${g.action}/`));
  if (!guarded) return resource;
  const own = guarded.path.slice('/api/core'.length);
  if (own.startsWith(resource)) return own;
  if (resource.startsWith(own)) return resource;
  return null;
}

/** Every grant a person holds: each action of each policy's role over each of its resources that action can reach. */
export function effectivePermissions(state: AccessState, userId: number): Grant[] {
  return policyGrants(state, userId, true);
}

/** Each action over each resource as the policies give them; `reach` narrows them to what requests can reach. */
function policyGrants(state: AccessState, userId: number, reach: boolean): Grant[] {
  const memberOf = new Map(
    state.groups
      .filter((group) => list(group.users).some((user) => num(user.id) === userId))
      .map((group) => [num(group.id), String(group.name || group.unique_id || group.id)]),
  );
  const grants: Grant[] = [];
  for (const policy of state.policies) {
    const direct = list(policy.users).some((user) => num(user.id) === userId);
    const through = list(policy.groups).find((group) => memberOf.has(num(group.id)));
    if (!direct && !through) continue;
    const role = roleOf(state, policy);
    const group = direct || !through ? null : { id: num(through.id), name: memberOf.get(num(through.id))! };
    for (const action of role.actions) {
      for (const given of strings(policy.resources)) {
        const whole = normalResource(given, state.platformId);
        const resource = reach ? reachable(action, whole) : whole;
        if (resource === null) continue;
        grants.push({
          action,
          resource,
          policy: { id: num(policy.id), name: String(policy.name ?? '') },
          role: { id: role.id, name: role.name },
          group,
        });
      }
    }
  }
  return grants;
}

/** The grant that allows a person what they need, or null: the sandbox's decision for a learner's key. */
export function grantFor(state: AccessState, userId: number, need: AccessNeed): Grant | null {
  return (
    policyGrants(state, userId, false).find(
      (grant) => grant.action === need.action && covers(grant.resource, need.resource, state.platformId),
    ) ?? null
  );
}

export interface WhoCan {
  /** People the policies name, and members of the groups they name; each with the policies that grant it. */
  people: { id: number; username: string | null; email: string | null; policies: string[]; groups: string[] }[];
  groups: { id: number; name: string; policies: string[] }[];
}

/** Who may take an action over a resource: the people and the groups, and which policies say so. */
export function whoCan(state: AccessState, need: AccessNeed): WhoCan {
  const people = new Map<number, WhoCan['people'][number]>();
  const groups = new Map<number, WhoCan['groups'][number]>();
  const person = (user: Row) => {
    const id = num(user.id);
    let found = people.get(id);
    if (!found) {
      found = {
        id,
        username: (user.username as string | null) ?? null,
        email: (user.email as string | null) ?? null,
        policies: [],
        groups: [],
      };
      people.set(id, found);
    }
    return found;
  };
  const addOnce = (to: string[], value: string) => {
    if (!to.includes(value)) to.push(value);
  };
  for (const policy of state.policies) {
    if (!roleOf(state, policy).actions.includes(need.action)) continue;
    if (!strings(policy.resources).some((r) => covers(r, need.resource, state.platformId))) continue;
    const name = String(policy.name ?? policy.id);
    for (const user of list(policy.users)) addOnce(person(user).policies, name);
    for (const named of list(policy.groups)) {
      const group = state.groups.find((g) => num(g.id) === num(named.id));
      const groupName = String(group?.name || named.name || named.unique_id || named.id);
      const entry = groups.get(num(named.id)) ?? { id: num(named.id), name: groupName, policies: [] };
      addOnce(entry.policies, name);
      groups.set(entry.id, entry);
      for (const user of list(group?.users)) {
        const found = person(user);
        addOnce(found.policies, name);
        addOnce(found.groups, groupName);
      }
    }
  }
  const byName = (a: { username: string | null; id: number }, b: typeof a) =>
    (a.username ?? '').localeCompare(b.username ?? '') || a.id - b.id;
  return { people: [...people.values()].sort(byName), groups: [...groups.values()] };
}

/** The people who administer the tenant's access (ADMIN_ACTIONS over `/`). */
export function accessAdmins(state: AccessState): Set<number> {
  const ids = new Set<number>();
  const candidates = new Set<number>();
  for (const policy of state.policies) for (const user of list(policy.users)) candidates.add(num(user.id));
  for (const group of state.groups) for (const user of list(group.users)) candidates.add(num(user.id));
  for (const id of candidates) {
    if (ADMIN_ACTIONS.every((action) => grantFor(state, id, { action, resource: '/' }))) ids.add(id);
  }
  return ids;
}

/**
 * The refusal of a change that takes the tenant from some administrators to none; null when it may go ahead. A
 * tenant that never had one (its access is run by its platform admins alone) is not held to it.
 */
export function noAdminLeft(before: AccessState, after: AccessState): string | null {
  return accessAdmins(before).size > 0 && accessAdmins(after).size === 0 ? NO_ADMIN_LEFT : null;
}

export type AccessKind = 'rbac-roles' | 'rbac-policies' | 'rbac-groups';

/**
 * The state after one write of the kit (create, update or delete of a role, policy or group), as far as access goes:
 * the platform's own answer fills in the rest, this only has to be right about actions, resources and members.
 */
export function afterChange(
  state: AccessState,
  change: { kind: AccessKind; op: 'create' | 'update' | 'delete'; id?: string; values?: Row },
): AccessState {
  const values = change.values ?? {};
  const key = { 'rbac-roles': 'roles', 'rbac-policies': 'policies', 'rbac-groups': 'groups' }[change.kind] as
    'roles' | 'policies' | 'groups';
  const records = state[key];
  const ids = (name: string) => (Array.isArray(values[name]) ? (values[name] as unknown[]).map(num) : []);
  const members = (current: Row[], add: string, remove: string): Row[] => [
    ...current.filter((m) => !ids(remove).includes(num(m.id))),
    ...ids(add)
      .filter((id) => !current.some((m) => num(m.id) === id && !ids(remove).includes(id)))
      .map((id) => ({ id })),
  ];
  const changed = (record: Row): Row => {
    const next: Row = { ...record };
    for (const field of ['name', 'actions', 'data_actions', 'resources', 'unique_id', 'description']) {
      if (values[field] !== undefined) next[field] = values[field];
    }
    if (values.role_id !== undefined) next.role = { id: num(values.role_id) };
    if (change.kind !== 'rbac-roles') next.users = members(list(record.users), 'users_to_add', 'users_to_remove');
    if (change.kind === 'rbac-policies') {
      next.groups = members(list(record.groups), 'groups_to_add', 'groups_to_remove');
    }
    return next;
  };
  let next: Row[];
  if (change.op === 'delete') {
    next = records.filter((r) => String(r.id) !== change.id);
  } else if (change.op === 'create') {
    next = [...records, changed({ id: Number.NaN, users: [], groups: [] })];
  } else {
    next = records.map((r) => (String(r.id) === change.id ? changed(r) : r));
  }
  const after = { ...state, [key]: next };
  // "Deleting a role will remove all policies referencing it."
  if (change.kind === 'rbac-roles' && change.op === 'delete') {
    after.policies = state.policies.filter((p) => String(((p.role ?? {}) as Row).id) !== change.id);
  }
  return after;
}

/** An action's resource and verb: `Ibl.Mentor/Settings/read` is `read` over `Ibl.Mentor/Settings`. */
export function splitAction(action: string): { resource: string; verb: string } {
  const at = action.lastIndexOf('/');
  return at <= 0 ? { resource: action, verb: '' } : { resource: action.slice(0, at), verb: action.slice(at + 1) };
}

/** An action resource as an administrator reads it: "Roles" for `Ibl.Core/Roles`, "Mentor / Settings" otherwise. */
export function resourceLabel(name: string): string {
  return GUARDED_RESOURCES.find((g) => g.action === name)?.label ?? name.replace(/^Ibl\./, '').replaceAll('/', ' / ');
}

/** An action as an administrator reads it: "Roles: read" for `Ibl.Core/Roles/read` (the id stays for a tooltip). */
export function actionLabel(action: string): string {
  const { resource, verb } = splitAction(action);
  return verb ? `${resourceLabel(resource)}: ${verb}` : resourceLabel(action);
}

export interface MatrixModel {
  resources: { name: string; label: string; verbs: string[] }[];
  roles: { id: number; name: string; actions: string[] }[];
}

/**
 * The access matrix: one row per action resource (the guarded ones first, then every other one a role uses, by
 * name), its verbs (read and write, and any other a role uses), and each role's actions as columns.
 */
export function accessMatrix(roles: readonly Row[]): MatrixModel {
  const verbs = new Map<string, Set<string>>();
  for (const guarded of GUARDED_RESOURCES) verbs.set(guarded.action, new Set(VERBS));
  const others: string[] = [];
  for (const role of roles) {
    for (const action of strings(role.actions)) {
      const { resource, verb } = splitAction(action);
      if (!verb) continue;
      let set = verbs.get(resource);
      if (!set) {
        set = new Set(VERBS);
        verbs.set(resource, set);
        others.push(resource);
      }
      set.add(verb);
    }
  }
  const order = (set: Set<string>) =>
    [...set].sort((a, b) => {
      const known = (v: string) => (VERBS as readonly string[]).indexOf(v);
      const ka = known(a);
      const kb = known(b);
      return ka >= 0 || kb >= 0 ? (ka < 0 ? 99 : ka) - (kb < 0 ? 99 : kb) : a.localeCompare(b);
    });
  const names = [...GUARDED_RESOURCES.map((g) => g.action as string), ...others.sort((a, b) => a.localeCompare(b))];
  return {
    resources: names.map((name) => ({
      name,
      label: resourceLabel(name),
      verbs: order(verbs.get(name)!),
    })),
    roles: roles
      .map((role) => ({ id: num(role.id), name: String(role.name ?? role.id), actions: strings(role.actions) }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
  };
}

/** What setting roles' actions would change, role by role (roles left as they are are not listed). */
export function roleChanges(
  roles: readonly Row[],
  edits: readonly { id: number; actions: readonly string[] }[],
): { id: number; name: string; added: string[]; removed: string[]; actions: string[] }[] {
  return edits.flatMap((edit) => {
    const role = roles.find((r) => num(r.id) === edit.id);
    if (!role) return [];
    const before = strings(role.actions);
    const after = [...new Set(edit.actions)];
    const added = after.filter((a) => !before.includes(a));
    const removed = before.filter((a) => !after.includes(a));
    if (!added.length && !removed.length) return [];
    // Kept in the role's own order, new ones after.
    const actions = [...before.filter((a) => after.includes(a)), ...added];
    return [{ id: edit.id, name: String(role.name ?? role.id), added, removed, actions }];
  });
}

/** The people the policies and access groups name, by username. */
export function namedPeople(state: AccessState): { id: number; username: string | null; email: string | null }[] {
  const people = new Map<number, { id: number; username: string | null; email: string | null }>();
  for (const record of [...state.policies, ...state.groups]) {
    for (const user of list(record.users)) {
      const id = num(user.id);
      if (!people.has(id)) {
        people.set(id, {
          id,
          username: (user.username as string | null) ?? null,
          email: (user.email as string | null) ?? null,
        });
      }
    }
  }
  return [...people.values()].sort((a, b) => (a.username ?? '').localeCompare(b.username ?? '') || a.id - b.id);
}
