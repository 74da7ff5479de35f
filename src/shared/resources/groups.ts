import type { JsonSchema, SpecParameter } from './spec';
import type { ResourceDeclaration } from './kit';

/*
 * The spec declares the core department and user-group calls with no parameters, body or answer schema (their
 * descriptions only: "Show (active) departments associated with a platform", "Create/update a department", "Delete
 * department"; "group_id is numeric ID of group"). Their shapes below are inferred: the tenant by `platform_key` as
 * the neighbouring core calls take it (FIELD-NOTES), the record ids as the analytics calls name them
 * (`department_id`, `group_id`), the fields as the platform's own department and user-group analytics show them.
 */
const PLATFORM_KEY: SpecParameter = { name: 'platform_key', in: 'query', required: false, schema: { type: 'string' } };
const idParameter = (name: string): SpecParameter => ({
  name,
  in: 'query',
  required: true,
  schema: { type: 'integer' },
});
const text = (maxLength?: number): JsonSchema => ({ type: 'string', ...(maxLength && { minLength: 1, maxLength }) });

const department: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, is_active: { type: 'boolean' } },
  required: ['id', 'name'],
};
const departmentBody: JsonSchema = {
  type: 'object',
  properties: {
    department_id: { type: 'integer' },
    name: text(255),
    is_active: { type: 'boolean' },
    platform_key: { type: 'string' },
  },
  required: ['name'],
};

export const departments = {
  kind: 'departments',
  label: 'Departments',
  singular: 'department',
  plural: 'departments',
  area: 'people-and-access',
  description: 'The tenant’s departments: mentors, analytics and invitations can be scoped to one.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/departments/' },
    create: { method: 'post', path: '/api/core/departments/' },
    update: { method: 'post', path: '/api/core/departments/', id: { in: 'body', name: 'department_id' } },
    delete: { method: 'delete', path: '/api/core/departments/', id: { in: 'query', name: 'department_id' } },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'is_active', label: 'Active', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Engineering' },
    { name: 'is_active', label: 'Active', input: 'switch', initial: true },
  ],
  csv: [{ field: 'name', label: 'Name', synonyms: ['department', 'department name'] }],
  confirmDelete: 'Delete the department {id}? Its people stay on the tenant, in no department.',
  inferred: {
    from: 'the spec declares no parameters, body or answer for core departments',
    list: { parameters: [PLATFORM_KEY], record: department },
    create: { body: departmentBody, record: department },
    update: { body: departmentBody, record: department },
    delete: { parameters: [idParameter('department_id'), PLATFORM_KEY] },
  },
} as const satisfies ResourceDeclaration;

const userGroup: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    owner_email: { type: ['string', 'null'] },
    members: { type: 'integer' },
  },
  required: ['id', 'name'],
};
const userGroupBody: JsonSchema = {
  type: 'object',
  properties: {
    group_id: { type: 'integer' },
    name: text(255),
    owner_email: { type: 'string', format: 'email' },
    platform_key: { type: 'string' },
  },
  required: ['name'],
};

export const userGroups = {
  kind: 'user-groups',
  label: 'User groups',
  singular: 'user group',
  plural: 'user groups',
  area: 'people-and-access',
  description: 'Groups of the tenant’s people, each with an owner (invitations can put people into one).',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/user_groups/' },
    create: { method: 'post', path: '/api/core/user_groups/' },
    update: { method: 'post', path: '/api/core/user_groups/', id: { in: 'body', name: 'group_id' } },
    delete: { method: 'delete', path: '/api/core/user_groups/', id: { in: 'query', name: 'group_id' } },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'owner_email', label: 'Owner' },
    { field: 'members', label: 'Members' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'owner_email'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Cohort 2026' },
    { name: 'owner_email', label: 'Owner’s email', input: 'text', placeholder: 'owner@example.edu' },
  ],
  csv: [
    { field: 'name', label: 'Name', synonyms: ['group', 'group name', 'user group'] },
    { field: 'owner_email', label: 'Owner’s email', synonyms: ['owner', 'user group owner email'] },
  ],
  confirmDelete: 'Delete the user group {id}? Its people stay on the tenant.',
  inferred: {
    from: 'the spec declares no parameters, body or answer for core user groups',
    list: { parameters: [PLATFORM_KEY], record: userGroup },
    create: { body: userGroupBody, record: userGroup },
    update: { body: userGroupBody, record: userGroup },
    delete: { parameters: [idParameter('group_id'), PLATFORM_KEY] },
  },
} as const satisfies ResourceDeclaration;

const member: JsonSchema = {
  type: 'object',
  properties: {
    user_id: { type: 'integer' },
    username: { type: 'string' },
    email: { type: 'string' },
    department_id: { type: 'integer' },
    department_name: { type: 'string' },
  },
  required: ['user_id', 'department_id'],
};
const memberBody: JsonSchema = {
  type: 'object',
  properties: {
    department_id: { type: 'integer' },
    username: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    platform_key: { type: 'string' },
  },
  required: ['department_id'],
};
const drfPage = (record: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: record },
  },
  required: ['count', 'results'],
});
const integer = (name: string, required = false): SpecParameter => ({
  name,
  in: 'query',
  required,
  schema: { type: 'integer' },
});

/**
 * The people in departments ("Show active users in department (paginated)", "Add single user to department", "Delete
 * department member"): a person is in one department, named by the person's username or email when added. A
 * department's details list its members (the relation on `department_id`).
 */
export const departmentMembers = {
  kind: 'department-members',
  label: 'Department members',
  singular: 'department member',
  plural: 'department members',
  area: 'people-and-access',
  description: 'Who is in which department.',
  idField: 'user_id',
  operations: {
    list: { method: 'get', path: '/api/core/departments/members/' },
    create: { method: 'post', path: '/api/core/departments/members/' },
    delete: { method: 'delete', path: '/api/core/departments/members/', id: { in: 'query', name: 'user_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'username', label: 'Username' },
    { field: 'email', label: 'Email' },
    { field: 'department_name', label: 'Department' },
  ],
  search: ['username', 'email', 'department_name'],
  fields: [
    { name: 'department_id', label: 'Department', input: 'reference', references: 'departments' },
    { name: 'username', label: 'Username', input: 'text', description: 'The person’s username, or their email below.' },
    { name: 'email', label: 'Email', input: 'text', placeholder: 'person@example.edu' },
  ],
  // The platform's department list gives no count (user groups' does): the departments list counts the saved copy.
  relations: [{ field: 'department_id', kind: 'departments', heading: 'Members', counted: true, column: 'Members' }],
  membership: {
    groupKind: 'departments',
    groupField: 'department_id',
    bulk: { method: 'post', path: '/api/core/departments/members/bulk/' },
    groupLabel: 'Department',
    groupSynonyms: ['department', 'department name', 'department id', 'dept', 'division', 'team'],
  },
  deleteLabel: 'Remove',
  confirmDelete: 'Remove the person {id} from their department? They stay on the tenant.',
  inferred: {
    from: 'the spec declares no parameters, body or answer for core department members',
    list: {
      parameters: [integer('department_id'), integer('page'), integer('page_size'), PLATFORM_KEY],
      record: drfPage(member),
    },
    create: { body: memberBody, record: member },
    delete: { parameters: [integer('user_id', true), PLATFORM_KEY] },
  },
} as const satisfies ResourceDeclaration;

const link: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    group_id: { type: 'integer' },
    group_name: { type: 'string' },
    user_id: { type: 'integer' },
    username: { type: 'string' },
    email: { type: 'string' },
  },
  required: ['id', 'group_id', 'user_id'],
};
const linkBody: JsonSchema = {
  type: 'object',
  properties: {
    group_id: { type: 'integer' },
    username: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    platform_key: { type: 'string' },
  },
  required: ['group_id'],
};

/**
 * The people in user groups, one link each ("Show active users in user group (paginated)", "Add single user to user
 * group", "Delete user group link"; "group_id is numeric ID of group"). A group's details list its members.
 */
export const userGroupMembers = {
  kind: 'user-group-members',
  label: 'User group members',
  singular: 'user group member',
  plural: 'user group members',
  area: 'people-and-access',
  description: 'Who is in which user group.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/user_groups/link/' },
    create: { method: 'post', path: '/api/core/user_groups/link/' },
    delete: { method: 'delete', path: '/api/core/user_groups/link/', id: { in: 'query', name: 'link_id' } },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'username', label: 'Username' },
    { field: 'email', label: 'Email' },
    { field: 'group_name', label: 'User group' },
  ],
  search: ['username', 'email', 'group_name'],
  fields: [
    { name: 'group_id', label: 'User group', input: 'reference', references: 'user-groups' },
    { name: 'username', label: 'Username', input: 'text', description: 'The person’s username, or their email below.' },
    { name: 'email', label: 'Email', input: 'text', placeholder: 'person@example.edu' },
  ],
  relations: [{ field: 'group_id', kind: 'user-groups', heading: 'Members', counted: true }],
  membership: {
    groupKind: 'user-groups',
    groupField: 'group_id',
    bulk: { method: 'post', path: '/api/core/user_groups/link/bulk/' },
    groupLabel: 'User group',
    groupSynonyms: ['user group', 'group', 'usergroup', 'group name', 'group id', 'cohort'],
  },
  deleteLabel: 'Remove',
  confirmDelete: 'Remove this person from the user group? They stay on the tenant.',
  inferred: {
    from: 'the spec declares no parameters, body or answer for core user group links',
    list: {
      parameters: [integer('group_id'), integer('page'), integer('page_size'), PLATFORM_KEY],
      record: drfPage(link),
    },
    create: { body: linkBody, record: link },
    delete: { parameters: [integer('link_id', true), PLATFORM_KEY] },
  },
} as const satisfies ResourceDeclaration;
