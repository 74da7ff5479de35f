/**
 * The LLMs of a tenant in the sandbox: the models assigned to it (`settings/tenant-llm/`, whose POST "creates or
 * updates": posting a provider and model it already has answers that record again) and the catalogue of providers
 * its mentors can use (`mentor-llms/`, read-only).
 */
import type { Db } from '../../db';
import { genericBackend, type Backend } from './backends';

type Row = Record<string, unknown>;

export function tenantLlmBackend(db: Db): Backend {
  const generic = genericBackend(db, {
    kind: 'tenant-llms',
    idField: 'id',
    counted: true,
    duplicate: 'llm model for tenant with this id already exists.',
    auth: { read: 'admin', write: 'admin' },
    defaults: { tenant: null },
  });
  return {
    ...generic,
    create: (org, caller, body) =>
      generic.list!(org, {}).find(
        (row: Row) => row.llm_provider === body.llm_provider && row.llm_name === body.llm_name,
      ) ?? generic.create!(org, caller, body),
  };
}

/** The providers the sandbox platform offers, as `mentor-llms/` answers them (LLMResponse). */
export const MENTOR_LLMS: Row[] = [
  {
    id: 1,
    name: 'openai',
    description: 'OpenAI chat models',
    chat_models: ['gpt-4o', 'gpt-4o-mini', 'o3-mini'],
    disabled_models: [],
    logo: null,
  },
  {
    id: 2,
    name: 'google',
    description: 'Google Gemini models',
    chat_models: ['gemini-1.5-pro', 'gemini-1.5-flash'],
    disabled_models: [],
    logo: null,
  },
  {
    id: 3,
    name: 'anthropic',
    description: 'Anthropic Claude models',
    chat_models: ['claude-3-5-sonnet', 'claude-3-5-haiku'],
    disabled_models: ['claude-3-5-haiku'],
    logo: null,
  },
];

export const mentorLlmBackend: Backend = {
  auth: { read: 'user', write: 'admin' },
  missing: 'Not found.',
  list: () => MENTOR_LLMS,
};
