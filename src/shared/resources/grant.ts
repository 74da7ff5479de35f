/**
 * An RBAC policy's grant as people read it: the role it grants and to whom. The spec's `RbacPolicy` answers its
 * `role` (an `RbacBaseRole`), `users` (`RbacUser`: id, username and email, both nullable) and `groups`
 * (`RbacPolicyGroup`: id, unique id, an optional name); each is named by what an admin knows it by, its id kept
 * beside it for the one who needs it.
 */

export interface Grantee {
  id: string;
  name: string;
}

export interface Grant {
  role: Grantee | null;
  people: Grantee[];
  groups: Grantee[];
}

type Row = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((item): item is Row => !!item && typeof item === 'object') : [];

/** The role, people and groups of a policy record; anything the answer leaves out is simply not there. */
export function grantOf(policy: Row): Grant {
  const role = policy.role && typeof policy.role === 'object' ? (policy.role as Row) : null;
  return {
    role: role ? { id: String(role.id ?? ''), name: text(role.name) ?? `Role ${String(role.id ?? '?')}` } : null,
    people: rows(policy.users).map((user) => ({
      id: String(user.id ?? ''),
      name: text(user.username) ?? text(user.email) ?? `User ${String(user.id ?? '?')}`,
    })),
    groups: rows(policy.groups).map((group) => ({
      id: String(group.id ?? ''),
      name: text(group.name) ?? text(group.unique_id) ?? `Group ${String(group.id ?? '?')}`,
    })),
  };
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whom, in a few words: "2 people, 1 group", "1 person", "no one". */
export function granteesSummary(grant: Grant): string {
  const parts = [
    ...(grant.people.length ? [counted(grant.people.length, 'person', 'people')] : []),
    ...(grant.groups.length ? [counted(grant.groups.length, 'group', 'groups')] : []),
  ];
  return parts.length ? parts.join(', ') : 'no one';
}

/** One line for a list: "Mentor editors · 2 people, 1 group". */
export function grantSummary(grant: Grant): string {
  return `${grant.role?.name ?? 'No role'} · ${granteesSummary(grant)}`;
}

/** Every name with its id, a line each (a list cell's tooltip): "Role: Mentor editors (id 3)", "People: ana (id 12)". */
export function grantDetail(grant: Grant): string {
  const named = (list: Grantee[]) => list.map((party) => `${party.name} (id ${party.id})`).join(', ');
  return [
    `Role: ${grant.role ? named([grant.role]) : 'none'}`,
    `People: ${grant.people.length ? named(grant.people) : 'none'}`,
    `Groups: ${grant.groups.length ? named(grant.groups) : 'none'}`,
  ].join('\n');
}
