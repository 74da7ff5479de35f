import type { ResourceDeclaration } from './kit';

/** LTI 1.3 tools: the LMS platforms (issuer, client id, endpoints) whose launches the tenant accepts. */
export const ltiTools = {
  kind: 'lti-tools',
  label: 'LTI tools',
  singular: 'LTI tool',
  area: 'tenant-settings',
  group: 'LTI',
  description: 'LMS platforms that launch this tenant over LTI 1.3: their issuer, client id and endpoints.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: '/api/core/lti/1p3/provider/lti-tools/' },
    get: { method: 'get', path: '/api/core/lti/1p3/provider/lti-tools/{id}/', id: { in: 'path', name: 'id' } },
    create: { method: 'post', path: '/api/core/lti/1p3/provider/lti-tools/' },
    update: { method: 'put', path: '/api/core/lti/1p3/provider/lti-tools/{id}/', id: { in: 'path', name: 'id' } },
    delete: { method: 'delete', path: '/api/core/lti/1p3/provider/lti-tools/{id}/', id: { in: 'path', name: 'id' } },
  },
  envelope: 'array',
  tenant: { platform_key: 'org' },
  columns: [
    { field: 'title', label: 'Title' },
    { field: 'issuer', label: 'Issuer' },
    { field: 'client_id', label: 'Client ID' },
    { field: 'id', label: 'ID' },
  ],
  search: ['title', 'issuer', 'client_id'],
  fields: [
    { name: 'title', label: 'Title', input: 'text' },
    { name: 'issuer', label: 'Issuer', input: 'text', placeholder: 'https://lms.example.edu' },
    { name: 'client_id', label: 'Client ID', input: 'text' },
    { name: 'auth_login_url', label: 'OIDC login URL', input: 'text' },
    { name: 'auth_token_url', label: 'OAuth2 token URL', input: 'text' },
    { name: 'auth_audience', label: 'OAuth2 audience', input: 'text', description: 'Usually left empty.' },
    { name: 'key_set_url', label: 'JWKS URL', input: 'text' },
    { name: 'key_set', label: 'JWKS', input: 'json', description: 'Only when the LMS has no JWKS URL.' },
    {
      name: 'tool_key',
      label: 'LTI key',
      input: 'reference',
      references: 'lti-keys',
      description: 'The LTI key this tool signs its messages with.',
    },
    { name: 'deployment_ids', label: 'Deployment IDs', input: 'json', placeholder: '["1", "deployment-2"]' },
    { name: 'launch_gate', label: 'Launch gate', input: 'json' },
  ],
  // The spec types tool_key as an integer "Reference"; the spec mirrors pylti1p3's LtiTool, whose tool_key is a
  // foreign key to the RSA key (LtiToolKey: name, public_key, public_jwk — the spec's LtiKey).
  relations: [{ field: 'tool_key', kind: 'lti-keys' }],
  confirmDelete: 'Delete the LTI tool "{id}"? Launches from that LMS stop working.',
} as const satisfies ResourceDeclaration;
