import type { ResourceDeclaration } from './kit';

/** The tenant's public metadata: one record per tenant, a free-form JSON object the platform publishes. */
export const orgMetadata = {
  kind: 'org-metadata',
  label: 'Org metadata',
  singular: 'org metadata',
  plural: 'org metadata',
  area: 'tenant-settings',
  group: 'Organisation',
  description: "The tenant's public metadata, as the platform publishes it to its apps.",
  idField: 'platform_key',
  single: true,
  operations: {
    get: { method: 'get', path: '/api/core/orgs/{org}/metadata/' },
    update: { method: 'patch', path: '/api/core/orgs/{org}/metadata/' },
  },
  envelope: 'none',
  columns: [
    { field: 'platform_name', label: 'Platform name' },
    { field: 'platform_key', label: 'Platform key' },
    { field: 'metadata', label: 'Metadata' },
  ],
  search: [],
  fields: [
    {
      name: 'metadata',
      label: 'Metadata',
      input: 'json',
      description: 'Any JSON the tenant publishes (a JSON object, usually).',
    },
  ],
} as const satisfies ResourceDeclaration;
