import type { ResourceDeclaration } from './kit';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';

/**
 * The audiences mentor categories are for (students, staff…). The spec deletes one by its name ("Bad request if
 * audience name is missing") with no parameter declared: the name goes in the body, as the credentials' DELETE.
 * Tenant admins only create and delete (the platform's 401 says so).
 */
export const mentorAudiences = {
  kind: 'mentor-audiences',
  label: 'Mentor audiences',
  singular: 'mentor audience',
  plural: 'mentor audiences',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'Who the mentor categories are for: learners browse the categories of their audience.',
  idField: 'name',
  operations: {
    list: { method: 'get', path: `${USER}/mentor/audience/` },
    create: { method: 'post', path: `${USER}/mentor/audience/` },
    delete: { method: 'delete', path: `${USER}/mentor/audience/`, id: { in: 'body', name: 'name' } },
  },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'description'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Students', createOnly: true },
    { name: 'description', label: 'Description', input: 'text' },
  ],
  confirmDelete: 'Delete the audience "{id}"? Categories that are only for it keep no audience.',
  inferred: {
    from: 'the DELETE description: "400: Bad request if audience name is missing" (no parameter or body declared)',
    delete: { body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
} as const satisfies ResourceDeclaration;

/**
 * The categories learners browse the tenant's mentors by (a mentor's settings name them by id). The spec's DELETE
 * declares no parameter and names nothing in its description: the category's `id` goes in the body (the platform's
 * audience DELETE takes its name the same way).
 */
export const mentorCategories = {
  kind: 'mentor-categories',
  label: 'Mentor categories',
  singular: 'mentor category',
  plural: 'mentor categories',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'The categories learners browse the tenant’s mentors by, each for one or more audiences.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/mentor/categories/` },
    create: { method: 'post', path: `${USER}/mentor/categories/` },
    delete: { method: 'delete', path: `${USER}/mentor/categories/`, id: { in: 'body', name: 'id' } },
  },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'audiences', label: 'Audiences', format: 'entries' },
  ],
  search: ['name', 'description'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Life sciences' },
    { name: 'description', label: 'Description', input: 'text' },
    { name: 'category_group', label: 'Category group', input: 'reference', references: 'category-groups' },
    {
      name: 'audiences',
      label: 'Audiences',
      input: 'reference',
      references: 'mentor-audiences',
      referencesField: 'id',
      multiple: true,
    },
  ],
  confirmDelete: 'Delete the category "{id}"? Mentors in it leave it.',
  inferred: {
    from: 'nothing in the spec: the audience DELETE beside it names its record in the body; a category by its id',
    delete: { body: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
  },
} as const satisfies ResourceDeclaration;

/** The platform's mentor types (read-only: the spec lists them, nothing more); a mentor's settings name them by id. */
export const mentorTypes = {
  kind: 'mentor-types',
  label: 'Mentor types',
  singular: 'mentor type',
  plural: 'mentor types',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'The kinds of mentor the platform knows (tutor, coach…): a mentor’s settings name its types.',
  idField: 'id',
  operations: { list: { method: 'get', path: `${USER}/mentor-types/` } },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'description'],
  fields: [],
} as const satisfies ResourceDeclaration;

/** The platform's subjects (read-only); a mentor's settings name its subjects by id. */
export const subjects = {
  kind: 'subjects',
  label: 'Subjects',
  singular: 'subject',
  plural: 'subjects',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'The subjects mentors teach (mathematics, science…): a mentor’s settings name its subjects.',
  idField: 'id',
  operations: { list: { method: 'get', path: `${USER}/subjects/` } },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'description'],
  fields: [],
} as const satisfies ResourceDeclaration;
