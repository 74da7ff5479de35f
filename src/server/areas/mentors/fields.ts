/**
 * The typed fields a mentor carries beyond its row (flags, prompts, UI settings), their defaults, and the parsing of
 * request values into them. Bodies may be JSON or forms, so booleans and numbers are also accepted as strings.
 */

export type FieldKind =
  | 'bool'
  | 'nullableBool'
  | 'string'
  | 'nullableString'
  | 'nullableInt'
  | 'int'
  | 'temperature'
  | 'color'
  | 'uri'
  | 'stringList'
  | { enum: readonly string[] };

/** A request value that cannot be used; the route turns it into its own 400 message. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = 'FieldError';
  }
}

export const GREETING_METHODS = ['proactive_prompt', 'proactive_response'] as const;
export const VISIBILITIES = ['viewable_by_tenant_admins', 'viewable_by_tenant_students', 'viewable_by_anyone'] as const;

/** Fields of `Mentor`/`MentorCreate` kept in the settings JSON, with the platform's defaults. */
export const MENTOR_FIELDS: Record<string, FieldKind> = {
  allow_anonymous: 'bool',
  enable_moderation: 'bool',
  enable_multi_query_rag: 'bool',
  enable_post_processing_system: 'bool',
  enable_openai_assistant: 'bool',
  enable_total_grounding: 'bool',
  enable_suggested_prompts: 'bool',
  enable_guided_prompts: 'bool',
  guided_prompt_instructions: 'string',
  google_voice: 'nullableInt',
  openai_voice: 'nullableInt',
  proactive_prompt: 'string',
  disclaimer: 'string',
  enable_disclaimer: 'bool',
  show_attachment: 'bool',
  show_voice_call: 'bool',
  show_voice_record: 'bool',
  embed_is_context_aware: 'bool',
  embed_open_by_default: 'bool',
  embed_show_attachment: 'bool',
  embed_show_voice_call: 'bool',
  embed_show_voice_record: 'bool',
  placeholder_prompt: 'string',
  moderation_system_prompt: 'string',
  post_processing_prompt: 'string',
  moderation_response: 'string',
  safety_system_prompt: 'string',
  safety_response: 'string',
  disable_chathistory: 'bool',
  enable_safety_system: 'bool',
  proactive_response: 'string',
  greeting_method: { enum: GREETING_METHODS },
  last_accessed_by: 'nullableInt',
};

/** Fields only `MentorSettingsRequest` writes (UI, LLM and tool settings), kept in the same JSON. */
export const SETTINGS_FIELDS: Record<string, FieldKind> = {
  ...MENTOR_FIELDS,
  enable_suggested_prompts: 'nullableBool',
  enable_guided_prompts: 'nullableBool',
  guided_prompt_instructions: 'nullableString',
  template_name: 'string',
  display_name: 'string',
  profile_image: 'uri',
  uploaded_profile_image: 'uri',
  initial_message: 'nullableString',
  suggested_message: 'nullableString',
  theme: { enum: ['dark', 'light'] },
  user_message_color: 'color',
  mentor_bubble_color: 'color',
  align_mentor_bubble: { enum: ['left', 'right'] },
  system_prompt: 'string',
  llm_provider: 'string',
  llm_name: 'string',
  custom_css: 'nullableString',
  department_id: 'nullableInt',
  enable_image_generation: 'bool',
  enable_web_browsing: 'bool',
  enable_code_interpreter: 'bool',
  forkable: 'bool',
  forkable_with_training_data: 'bool',
  can_use_tools: 'bool',
  tool_slugs: 'stringList',
  llm_temperature: 'temperature',
  google_voice: 'int',
  openai_voice: 'int',
  enable_spaced_repetition: 'bool',
  enable_instruction_mode: 'bool',
  enable_socratic_mode: 'bool',
  is_guided_mentor: 'bool',
  enable_email_chat: 'bool',
};

export const SETTINGS_DEFAULTS: Record<string, unknown> = {
  allow_anonymous: false,
  enable_moderation: false,
  enable_multi_query_rag: false,
  enable_post_processing_system: false,
  enable_openai_assistant: false,
  enable_total_grounding: false,
  enable_suggested_prompts: true,
  enable_guided_prompts: true,
  guided_prompt_instructions: '',
  google_voice: null,
  openai_voice: null,
  proactive_prompt: '',
  disclaimer: '',
  enable_disclaimer: false,
  show_attachment: true,
  show_voice_call: false,
  show_voice_record: true,
  embed_is_context_aware: false,
  embed_open_by_default: false,
  embed_show_attachment: false,
  embed_show_voice_call: false,
  embed_show_voice_record: false,
  placeholder_prompt: 'Ask me anything',
  moderation_system_prompt: '',
  post_processing_prompt: '',
  moderation_response: 'Sorry, I cannot help with that request.',
  safety_system_prompt: '',
  safety_response: 'Sorry, I cannot share that answer.',
  disable_chathistory: false,
  enable_safety_system: false,
  proactive_response: 'Hi! How can I help you today?',
  greeting_method: 'proactive_response',
  last_accessed_by: null,
  template_name: 'ai-mentor',
  display_name: null,
  profile_image: null,
  initial_message: null,
  suggested_message: null,
  theme: 'light',
  user_message_color: '#2467eb',
  mentor_bubble_color: '#f5f6f8',
  align_mentor_bubble: 'left',
  system_prompt: 'You are a helpful, patient mentor. Answer from the provided documents when you can.',
  llm_provider: 'openai',
  llm_name: 'gpt-4o-mini',
  custom_css: null,
  department_id: null,
  enable_image_generation: false,
  enable_web_browsing: false,
  enable_code_interpreter: false,
  forkable: false,
  forkable_with_training_data: false,
  can_use_tools: false,
  tool_slugs: [],
  llm_temperature: 0.7,
  enable_spaced_repetition: false,
  enable_instruction_mode: false,
  enable_socratic_mode: false,
  is_guided_mentor: false,
  enable_email_chat: false,
};

/** A mentor's settings: stored values over the defaults. */
export function settingsOf(json: string): Record<string, unknown> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, unknown>;
  } catch {
    // a damaged value reads as the defaults
  }
  return { ...SETTINGS_DEFAULTS, ...stored };
}

export function parseBool(field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
  }
  throw new FieldError(field, 'must be a boolean');
}

export function parseInt(field: string, value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  throw new FieldError(field, 'must be an integer');
}

/** An id list from JSON (`[1, 2]`), a repeated form field (`['1', '2']`), one value, or a JSON-encoded string. */
export function parseIntList(field: string, value: unknown): number[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      return parseIntList(field, JSON.parse(value) as unknown);
    } catch (error) {
      if (error instanceof FieldError) throw error;
      throw new FieldError(field, 'must be a list of integers');
    }
  }
  const items = Array.isArray(value) ? value : [value];
  return [...new Set(items.map((item) => parseInt(field, item)))];
}

/** Free-form JSON (`metadata`): forms carry it JSON-encoded. */
export function parseJsonValue(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FieldError(field, 'must be valid JSON');
  }
}

export function parseField(field: string, kind: FieldKind, value: unknown): unknown {
  if (typeof kind === 'object') {
    if (typeof value !== 'string' || !kind.enum.includes(value)) {
      throw new FieldError(field, `must be one of ${kind.enum.join(', ')}`);
    }
    return value;
  }
  const blank = value === null || value === undefined || (typeof value === 'string' && value === '');
  switch (kind) {
    case 'bool':
      return parseBool(field, value);
    case 'nullableBool':
      return blank ? null : parseBool(field, value);
    case 'string':
      if (typeof value !== 'string') throw new FieldError(field, 'must be a string');
      return value;
    case 'nullableString':
      if (value === null) return null;
      if (typeof value !== 'string') throw new FieldError(field, 'must be a string');
      return value;
    case 'nullableInt':
      return blank ? null : parseInt(field, value);
    case 'int':
      return parseInt(field, value);
    case 'temperature': {
      const n = typeof value === 'string' && value.trim() ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1)
        throw new FieldError(field, 'must be a number from 0 to 1');
      return n;
    }
    case 'color':
      if (typeof value !== 'string' || value.length > 7)
        throw new FieldError(field, 'must be a colour of at most 7 characters');
      return value;
    case 'uri':
      if (blank) return null;
      if (typeof value !== 'string' || !URL.canParse(value)) throw new FieldError(field, 'must be a valid URL');
      return value;
    case 'stringList': {
      if (blank) return [];
      const list =
        typeof value === 'string' && value.trim().startsWith('[') ? (parseJsonValue(field, value) as unknown) : value;
      const items = Array.isArray(list) ? list : [list];
      if (!items.every((item) => typeof item === 'string')) throw new FieldError(field, 'must be a list of strings');
      return items;
    }
  }
}

/** Reads the fields of `kinds` present in `body`; absent fields are left out. */
export function readFields(body: Record<string, unknown>, kinds: Record<string, FieldKind>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(kinds)) {
    if (body[field] !== undefined) out[field] = parseField(field, kind, body[field]);
  }
  return out;
}
