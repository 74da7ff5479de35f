import type { ResourceDeclaration } from './kit';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';

/** The LLM models assigned to the tenant; the platform's POST creates or updates one. */
export const tenantLlms = {
  kind: 'tenant-llms',
  label: 'Tenant models',
  singular: 'tenant model',
  plural: 'tenant models',
  area: 'models-and-keys',
  description: 'The LLM models assigned to this tenant.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/settings/tenant-llm/` },
    create: { method: 'post', path: `${USER}/settings/tenant-llm/` },
  },
  envelope: 'array',
  columns: [
    { field: 'llm_provider', label: 'Provider' },
    { field: 'llm_name', label: 'Model' },
    { field: 'id', label: 'ID' },
  ],
  search: ['llm_provider', 'llm_name'],
  fields: [
    { name: 'llm_provider', label: 'Provider', input: 'text', placeholder: 'openai' },
    { name: 'llm_name', label: 'Model', input: 'text', placeholder: 'gpt-4o' },
  ],
} as const satisfies ResourceDeclaration;

/** The LLM providers and models mentors of this tenant can use (read-only). */
export const mentorLlms = {
  kind: 'mentor-llms',
  label: 'Available LLMs',
  singular: 'LLM',
  plural: 'LLMs',
  area: 'models-and-keys',
  description: 'The providers and models the platform offers this tenant’s mentors.',
  idField: 'name',
  operations: { list: { method: 'get', path: `${USER}/mentor-llms/` } },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Provider' },
    { field: 'description', label: 'Description' },
    { field: 'chat_models', label: 'Chat models', format: 'entries' },
  ],
  search: ['name', 'description'],
  fields: [],
} as const satisfies ResourceDeclaration;
