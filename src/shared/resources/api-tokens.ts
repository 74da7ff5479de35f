import type { ResourceDeclaration } from './kit';

/** The tenant's platform API tokens: a new token's key is answered once, by the create that made it. */
export const apiTokens = {
  kind: 'api-tokens',
  label: 'API tokens',
  singular: 'API token',
  area: 'tenant-settings',
  group: 'Access',
  description: 'Keys that scripts and integrations use to call the platform as this tenant.',
  idField: 'name',
  operations: {
    list: { method: 'get', path: '/api/core/platform/api-tokens/' },
    create: { method: 'post', path: '/api/core/platform/api-tokens/' },
    delete: { method: 'delete', path: '/api/core/platform/api-tokens/{name}', id: { in: 'path', name: 'name' } },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'username', label: 'Created by' },
    { field: 'created', label: 'Created', format: 'datetime' },
    { field: 'expires', label: 'Expires', format: 'datetime' },
  ],
  search: ['name', 'username'],
  fields: [
    {
      name: 'name',
      label: 'Name',
      input: 'text',
      description: 'Letters, digits, - and _; it names the token in lists and in the CLI.',
      createOnly: true,
    },
    {
      name: 'expires_in',
      label: 'Expires in',
      input: 'text',
      placeholder: '30 00:00:00',
      description: 'Optional: days, then hours:minutes:seconds ("30 00:00:00" is 30 days). Empty: never.',
      createOnly: true,
    },
  ],
  revealOnce: ['key'],
  appKeyField: 'key',
  deleteLabel: 'Revoke',
  confirmDelete: 'Revoke the API token "{id}"? Scripts and integrations that use it stop working at once.',
} as const satisfies ResourceDeclaration;
