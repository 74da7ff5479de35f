import type { ResourceDeclaration } from './kit';

const ORG = '/api/ai-account/orgs/{org}';

/**
 * The tenant's LLM provider keys. The list is read from the platform's masked view, so a stored key never reaches
 * this app in full; the form's fields are the ones the platform's credential schema gives for the chosen provider.
 * The spec offers no call that tests a key, so there is no test action.
 */
export const credentials = {
  kind: 'credentials',
  label: 'LLM provider keys',
  singular: 'LLM provider key',
  area: 'models-and-keys',
  description: 'Keys the tenant’s mentors use to call LLM providers (OpenAI, Google, …), one per provider.',
  idField: 'name',
  operations: {
    list: { method: 'get', path: `${ORG}/masked-llm-credential/` },
    create: { method: 'post', path: `${ORG}/credential/` },
    update: { method: 'patch', path: `${ORG}/credential/`, id: { in: 'body', name: 'name' } },
    delete: { method: 'delete', path: `${ORG}/credential/`, id: { in: 'body', name: 'name' } },
  },
  envelope: 'array',
  tenant: { platform: 'org' },
  columns: [
    { field: 'name', label: 'Provider' },
    { field: 'value', label: 'Key', format: 'entries' },
  ],
  search: ['name'],
  fields: [
    {
      name: 'name',
      label: 'Provider',
      input: 'select',
      description: 'The providers the platform has a key form for.',
      createOnly: true,
    },
  ],
  describedFields: {
    operation: { method: 'get', path: `${ORG}/credential/schema/` },
    field: 'value',
    by: 'name',
    secret: true,
  },
  secretFields: ['value'],
  confirmDelete: 'Delete the key for "{id}"? Mentors that use this provider stop working until a key is added again.',
} as const satisfies ResourceDeclaration;

/** Keys of the third-party services the tenant connects (Google Drive, …): as the LLM keys, with their own schema. */
export const integrationCredentials = {
  kind: 'integration-credentials',
  label: 'Integration keys',
  singular: 'integration key',
  plural: 'integration keys',
  area: 'tenant-settings',
  group: 'Access',
  description: 'Credentials of the services the tenant connects to the platform (Google Drive, …), one per service.',
  idField: 'name',
  operations: {
    list: { method: 'get', path: `${ORG}/masked-integration-credential/` },
    create: { method: 'post', path: `${ORG}/integration-credential/` },
    update: { method: 'patch', path: `${ORG}/integration-credential/`, id: { in: 'body', name: 'name' } },
    delete: { method: 'delete', path: `${ORG}/integration-credential/`, id: { in: 'body', name: 'name' } },
  },
  envelope: 'array',
  tenant: { platform: 'org' },
  columns: [
    { field: 'name', label: 'Service' },
    { field: 'value', label: 'Credential', format: 'entries' },
  ],
  search: ['name'],
  fields: [
    {
      name: 'name',
      label: 'Service',
      input: 'select',
      description: 'The services the platform has a credential form for.',
      createOnly: true,
    },
  ],
  describedFields: {
    operation: { method: 'get', path: `${ORG}/integration-credential/schema/` },
    field: 'value',
    by: 'name',
    secret: true,
  },
  secretFields: ['value'],
  confirmDelete: 'Delete the credential of "{id}"? The platform stops using this service until it is added again.',
} as const satisfies ResourceDeclaration;
