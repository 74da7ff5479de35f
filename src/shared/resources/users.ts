import type { ResourceDeclaration } from './kit';
import type { JsonSchema } from './spec';

const text: JsonSchema = { type: 'string' };
const flag: JsonSchema = { type: 'boolean' };
/** One person as the spec's examples of `platform/users/` show them (its schema leaves the records open). */
const person: JsonSchema = {
  type: 'object',
  properties: {
    user_id: { type: 'integer' },
    username: text,
    name: text,
    email: text,
    platform_key: text,
    platform_org: text,
    is_admin: flag,
    is_staff: flag,
    active: flag,
    added_on: { type: 'string', format: 'date-time' },
    expired_on: { type: ['string', 'null'] },
    policies: { type: 'array', items: text },
  },
  required: ['user_id', 'username'],
  additionalProperties: true,
};

/**
 * The tenant's people (`platform/users/`: "Retrieve users associated with platform", paged by page numbers in
 * `{count, next_page, previous_page, results}`). The spec has no call that reads one user by id, so a person is read
 * from the list the kit keeps (its cached row is the record). People are added by invitation and removed from the
 * tenant on their own page, by a typed confirmation (`users/delete/`), never by the kit's generic delete.
 */
export const users = {
  kind: 'users',
  label: 'Users',
  singular: 'user',
  plural: 'users',
  area: 'people-and-access',
  description: 'Everyone on the tenant: learners, staff and administrators.',
  idField: 'user_id',
  operations: {
    list: { method: 'get', path: '/api/core/platform/users/' },
  },
  envelope: 'drf',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'username', label: 'Username' },
    { field: 'email', label: 'Email' },
    { field: 'is_admin', label: 'Admin', format: 'boolean' },
    { field: 'is_staff', label: 'Staff', format: 'boolean' },
    { field: 'active', label: 'Active', format: 'boolean' },
    { field: 'added_on', label: 'Added', format: 'datetime' },
  ],
  search: ['name', 'username', 'email'],
  // The spec's list takes no parameter for these: the kit narrows its saved copy of the whole list.
  filters: [
    { field: 'is_admin', label: 'Admin', input: 'switch' },
    { field: 'is_staff', label: 'Staff', input: 'switch' },
    { field: 'active', label: 'Active', input: 'switch' },
  ],
  fields: [],
  inferred: {
    from: 'the spec leaves the records of platform/users/ open; their fields are those of its examples',
    list: { record: person },
  },
  note: 'People join by invitation (Invitations); open a person to see their groups, roles and activity, or to remove them.',
} as const satisfies ResourceDeclaration;
