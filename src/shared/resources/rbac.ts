import type { ResourceDeclaration } from './kit';

const RBAC = '/api/core/rbac';
const ID = { in: 'path', name: 'id' } as const;

/**
 * RBAC roles: named sets of actions (`Ibl.Mentor/Settings/read`) and field-level data actions. DRF-paged; a delete
 * names the tenant (`platform_key`, "for authorization check"), and "will remove all policies referencing it".
 */
export const rbacRoles = {
  kind: 'rbac-roles',
  label: 'Roles',
  singular: 'role',
  plural: 'roles',
  area: 'people-and-access',
  description: 'Named sets of actions that policies grant to people and groups.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${RBAC}/roles/` },
    get: { method: 'get', path: `${RBAC}/roles/{id}/`, id: ID },
    create: { method: 'post', path: `${RBAC}/roles/` },
    update: { method: 'patch', path: `${RBAC}/roles/{id}/`, id: ID },
    delete: { method: 'delete', path: `${RBAC}/roles/{id}/`, id: ID },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'actions', label: 'Actions', format: 'actions' },
    { field: 'is_internal', label: 'Internal', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Mentor editors' },
    {
      name: 'actions',
      label: 'Actions',
      input: 'json',
      placeholder: '["Ibl.Mentor/Settings/read", "Ibl.Mentor/Settings/write"]',
      description: 'The actions this role can perform.',
    },
    {
      name: 'data_actions',
      label: 'Data actions',
      input: 'json',
      placeholder: '["Ibl.Mentor/Settings/name/read"]',
      description: 'Field-level actions, for access to single fields.',
    },
  ],
  confirmDelete: 'Delete the role {id}? The platform also removes every policy that grants it.',
} as const satisfies ResourceDeclaration;

/** RBAC policies: a role granted over resource paths (`/platforms/1/mentors`) to users and groups. */
export const rbacPolicies = {
  kind: 'rbac-policies',
  label: 'Policies',
  singular: 'policy',
  plural: 'policies',
  area: 'people-and-access',
  description: 'Who is granted which role, over which resources.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${RBAC}/policies/` },
    get: { method: 'get', path: `${RBAC}/policies/{id}/`, id: ID },
    create: { method: 'post', path: `${RBAC}/policies/` },
    update: { method: 'patch', path: `${RBAC}/policies/{id}/`, id: ID },
    delete: { method: 'delete', path: `${RBAC}/policies/{id}/`, id: ID },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    // The role it grants and to whom: "Editors · 2 people, 1 group" (the panel names each).
    { field: 'role', label: 'Grants', format: 'grant' },
    { field: 'resources', label: 'Resources' },
    { field: 'is_internal', label: 'Internal', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name'],
  // A policy's resources may name a department (`/departments/5/`); its role is the role it grants.
  relations: [
    { field: 'resources', kind: 'departments', path: '/departments/{id}/' },
    // "Deleting a role will remove all policies referencing it."
    { field: 'role', kind: 'rbac-roles', key: 'id', removedWith: true },
  ],
  fields: [
    { name: 'name', label: 'Name', input: 'text', description: 'Left empty, the platform names it with a UUID.' },
    { name: 'role_id', label: 'Role', input: 'reference', references: 'rbac-roles' },
    {
      name: 'resources',
      label: 'Resources',
      input: 'json',
      placeholder: '["/platforms/1/mentors"]',
      description: 'The resource paths this policy grants the role over.',
    },
    { name: 'users_to_add', label: 'Add users', input: 'json', placeholder: '[42]', description: 'User IDs.' },
    { name: 'users_to_remove', label: 'Remove users', input: 'json', placeholder: '[42]' },
    { name: 'groups_to_add', label: 'Add groups', input: 'json', placeholder: '[7]', description: 'Group IDs.' },
    { name: 'groups_to_remove', label: 'Remove groups', input: 'json', placeholder: '[7]' },
  ],
} as const satisfies ResourceDeclaration;

/** RBAC groups: sets of users that policies grant roles to, each with an owner. */
export const rbacGroups = {
  kind: 'rbac-groups',
  label: 'Access groups',
  singular: 'access group',
  plural: 'access groups',
  area: 'people-and-access',
  description: 'Sets of people that policies grant roles to.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${RBAC}/groups/` },
    get: { method: 'get', path: `${RBAC}/groups/{id}/`, id: ID },
    create: { method: 'post', path: `${RBAC}/groups/` },
    update: { method: 'patch', path: `${RBAC}/groups/{id}/`, id: ID },
    delete: { method: 'delete', path: `${RBAC}/groups/{id}/`, id: ID },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'unique_id', label: 'Unique ID' },
    { field: 'description', label: 'Description' },
    { field: 'is_internal', label: 'Internal', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'unique_id', 'description'],
  fields: [
    { name: 'unique_id', label: 'Unique ID', input: 'text', placeholder: 'mentor-editors' },
    { name: 'name', label: 'Name', input: 'text' },
    { name: 'description', label: 'Description', input: 'text' },
    { name: 'users_to_add', label: 'Add users', input: 'json', placeholder: '[42]', description: 'User IDs.' },
    { name: 'users_to_remove', label: 'Remove users', input: 'json', placeholder: '[42]' },
  ],
} as const satisfies ResourceDeclaration;
