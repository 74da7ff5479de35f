import type { ResourceDeclaration } from './kit';

/** The categories learners browse the tenant's mentors by (read here; a mentor's settings name them by id). */
export const mentorCategories = {
  kind: 'mentor-categories',
  label: 'Mentor categories',
  singular: 'mentor category',
  plural: 'mentor categories',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'The categories learners browse the tenant’s mentors by, each for one or more audiences.',
  idField: 'id',
  operations: { list: { method: 'get', path: '/api/ai-mentor/orgs/{org}/users/{user_id}/mentor/categories/' } },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'audiences', label: 'Audiences', format: 'entries' },
  ],
  search: ['name', 'description'],
  fields: [],
} as const satisfies ResourceDeclaration;
