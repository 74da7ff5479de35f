import type { ResourceDeclaration } from './kit';

/** The tenant's LTI 1.3 provider keys: the platform makes the RSA pair; the public half goes to the LMS. */
export const ltiKeys = {
  kind: 'lti-keys',
  label: 'LTI keys',
  singular: 'LTI key',
  area: 'tenant-settings',
  group: 'LTI',
  description: 'RSA keys the platform signs LTI 1.3 launches with; give an LMS the public key or its JWK.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/lti/1p3/provider/lti-keys/' },
    get: { method: 'get', path: '/api/core/lti/1p3/provider/lti-keys/{id}/', id: { in: 'path', name: 'id' } },
    create: { method: 'post', path: '/api/core/lti/1p3/provider/lti-keys/' },
    update: { method: 'put', path: '/api/core/lti/1p3/provider/lti-keys/{id}/', id: { in: 'path', name: 'id' } },
    delete: { method: 'delete', path: '/api/core/lti/1p3/provider/lti-keys/{id}/', id: { in: 'path', name: 'id' } },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name'],
  fields: [{ name: 'name', label: 'Name', input: 'text', description: 'Names the key in lists and in the LMS setup.' }],
  csv: [
    { field: 'id', label: 'ID', synonyms: ['key id', 'number'] },
    { field: 'name', label: 'Name', synonyms: ['key name', 'title'] },
  ],
  confirmDelete: 'Delete the LTI key "{id}"? LTI launches signed with it stop working.',
} as const satisfies ResourceDeclaration;
