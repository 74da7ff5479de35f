import type { ResourceDeclaration } from './kit';

/**
 * The domain whitelist. The spec offers two calls only: add a domain (POST) and check one (GET `?url=`); there is no
 * call that lists the whitelist or removes a domain from it, so the list shows the domains added or checked from this
 * app, and nothing here claims to remove one.
 */
export const domains = {
  kind: 'domains',
  label: 'Domain whitelist',
  singular: 'domain',
  plural: 'domains',
  area: 'tenant-settings',
  group: 'Access',
  description: 'Domains the platform accepts requests and embeds from.',
  idField: 'url',
  operations: {
    get: { method: 'get', path: '/api/core/domains/whitelist/', id: { in: 'query', name: 'url' } },
    create: { method: 'post', path: '/api/core/domains/whitelist/' },
  },
  envelope: 'none',
  columns: [
    { field: 'url', label: 'Domain' },
    { field: 'is_active', label: 'Active', format: 'boolean' },
  ],
  search: ['url'],
  filters: [{ field: 'is_active', label: 'Active', input: 'switch', param: 'is_active' }],
  fields: [
    { name: 'url', label: 'Domain', input: 'text', placeholder: 'https://learn.example.edu', createOnly: true },
    { name: 'is_active', label: 'Active', input: 'switch', initial: true },
  ],
  csv: [
    { field: 'url', label: 'Domain', synonyms: ['domain', 'domains', 'website', 'site', 'host', 'origin', 'address'] },
    { field: 'is_active', label: 'Active', synonyms: ['active', 'enabled', 'status'] },
  ],
  note:
    'The platform has no call that lists the whitelist or removes a domain from it: this list shows the domains ' +
    'added or checked from this app.',
} as const satisfies ResourceDeclaration;
