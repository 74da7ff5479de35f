import type { MentorRow } from '../mentor-store';
import { entriesOf, MENTOR_TYPES, SUBJECTS } from './catalogues';
import { MENTOR_FIELDS, settingsOf } from './fields';
import type { MentorCategory } from './taxonomy';

/** Mentor JSON in the shapes of the spec's `Mentor`, `MentorCreate`, `MentorSettingsPublic` and `MentorSettings`. */

const parseMetadata = (row: MentorRow): unknown => {
  if (row.metadata === null) return null;
  try {
    return JSON.parse(row.metadata) as unknown;
  } catch {
    return null;
  }
};

function mentorFields(row: MentorRow, settings: Record<string, unknown>) {
  const fields = Object.fromEntries(Object.keys(MENTOR_FIELDS).map((key) => [key, settings[key]]));
  // `disable_chathistory` is a create-time field: `Mentor` does not carry it.
  delete fields.disable_chathistory;
  // Settings may store null for these two (MentorSettingsRequest allows it); the Mentor fields are plain booleans.
  fields.enable_suggested_prompts = settings.enable_suggested_prompts !== false;
  fields.enable_guided_prompts = settings.enable_guided_prompts !== false;
  fields.guided_prompt_instructions = (settings.guided_prompt_instructions as string | null) ?? '';
  return fields;
}

/**
 * What `Mentor` and `MentorCreate` share, in their order: `createOnly` holds the create-time fields only
 * `MentorCreate` carries, and `categories` are objects in one and ids in the other. Types and subjects come from the
 * platform's catalogues (catalogues.ts); the sandbox links no MCP servers here, so those are empty.
 */
function mentorBody<C, E extends object>(
  row: MentorRow,
  settings: Record<string, unknown>,
  categories: C,
  createOnly: E,
) {
  return {
    name: row.name,
    unique_id: row.unique_id,
    flow: null,
    slug: row.slug,
    platform: row.org,
    metadata: parseMetadata(row),
    ...mentorFields(row, settings),
    ...createOnly,
    categories,
    types: entriesOf(MENTOR_TYPES, settings.types),
    is_featured: row.is_featured === 1,
    subjects: entriesOf(SUBJECTS, settings.subjects),
    mcp_servers: [],
    recently_accessed_at: (settings.recently_accessed_at as string | undefined) ?? null,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** `Mentor`: categories as objects. */
export function presentMentor(row: MentorRow, categories: MentorCategory[]) {
  return { id: row.id, ...mentorBody(row, settingsOf(row.settings), categories, {}) };
}

/** `MentorCreate` (what PATCH answers): the same fields with categories, types, subjects and MCP servers as ids. */
export function presentMentorCreate(row: MentorRow, categoryIds: number[]) {
  const settings = settingsOf(row.settings);
  const body = mentorBody(row, settings, categoryIds, { disable_chathistory: settings.disable_chathistory === true });
  const ids = (entries: { id: number }[]) => entries.map((entry) => entry.id);
  return { ...body, types: ids(body.types), subjects: ids(body.subjects) };
}

/** `MentorSettingsPublic`: what the chat UI needs; no prompts or other secrets. */
export function presentSettingsPublic(row: MentorRow, categories: MentorCategory[]) {
  const s = settingsOf(row.settings);
  const bool = (key: string) => s[key] === true;
  return {
    id: row.id,
    display_name: (s.display_name as string | null) ?? row.name,
    profile_image: s.profile_image ?? null,
    initial_message: s.initial_message ?? null,
    suggested_message: s.suggested_message ?? null,
    theme: s.theme,
    user_message_color: s.user_message_color,
    mentor_bubble_color: s.mentor_bubble_color,
    align_mentor_bubble: s.align_mentor_bubble,
    mentor: row.name,
    mentor_slug: row.slug,
    mentor_unique_id: row.unique_id,
    mentor_id: row.id,
    metadata: parseMetadata(row),
    mentor_visibility: row.visibility,
    enable_image_generation: bool('enable_image_generation'),
    enable_web_browsing: bool('enable_web_browsing'),
    enable_code_interpreter: bool('enable_code_interpreter'),
    enable_memory_component: false,
    custom_css: s.custom_css ?? null,
    allow_anonymous: bool('allow_anonymous'),
    mentor_description: row.description,
    suggested_prompts: [],
    proactive_response: s.proactive_response,
    greeting_method: s.greeting_method,
    mentor_tools: (s.tool_slugs as string[]).map((slug) => ({ slug, name: slug })),
    can_use_tools: bool('can_use_tools'),
    llm_name: s.llm_name,
    proactive_prompt: s.proactive_prompt,
    disclaimer: s.disclaimer,
    enable_disclaimer: bool('enable_disclaimer'),
    show_attachment: bool('show_attachment'),
    show_voice_call: bool('show_voice_call'),
    show_voice_record: bool('show_voice_record'),
    embed_is_context_aware: bool('embed_is_context_aware'),
    embed_open_by_default: bool('embed_open_by_default'),
    embed_show_attachment: bool('embed_show_attachment'),
    embed_show_voice_call: bool('embed_show_voice_call'),
    embed_show_voice_record: bool('embed_show_voice_record'),
    placeholder_prompt: s.placeholder_prompt,
    enable_email_chat: bool('enable_email_chat'),
    enable_spaced_repetition: bool('enable_spaced_repetition'),
    enable_instruction_mode: bool('enable_instruction_mode'),
    enable_socratic_mode: bool('enable_socratic_mode'),
    is_guided_mentor: bool('is_guided_mentor'),
    is_featured: row.is_featured === 1,
    enable_guided_prompts: s.enable_guided_prompts !== false,
    enable_moderation: bool('enable_moderation'),
    enable_multi_query_rag: bool('enable_multi_query_rag'),
    enable_post_processing_system: bool('enable_post_processing_system'),
    enable_safety_system: bool('enable_safety_system'),
    forkable: bool('forkable'),
    forkable_with_training_data: bool('forkable_with_training_data'),
    mentor_name: row.name,
    categories,
    types: entriesOf(MENTOR_TYPES, s.types),
    subjects: entriesOf(SUBJECTS, s.subjects),
    // The spec requires a date here; a mentor nobody has opened yet reports its last change.
    recently_accessed_at: (s.recently_accessed_at as string | undefined) ?? row.updated_at,
    created_by: row.created_by ?? '',
    created_at: row.created_at,
    updated_at: row.updated_at,
    platform_key: row.org,
    llm_config: { provider: s.llm_provider, model: s.llm_name, temperature: s.llm_temperature },
    llm_provider: s.llm_provider,
  };
}

/** `MentorSettings` (what the settings PUT answers): the public settings plus prompts, LLM and call settings. */
export function presentSettings(row: MentorRow, categories: MentorCategory[], departmentName: string | null) {
  const s = settingsOf(row.settings);
  const voice = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  return {
    ...presentSettingsPublic(row, categories),
    system_prompt: s.system_prompt,
    llm_temperature: s.llm_temperature,
    safety_system_prompt: s.safety_system_prompt,
    safety_response: s.safety_response,
    moderation_system_prompt: s.moderation_system_prompt,
    post_processing_prompt: s.post_processing_prompt,
    moderation_response: s.moderation_response,
    mcp_servers: [],
    department: departmentName ?? '',
    // The spec types this flag as a string on this schema.
    disable_chathistory: String(s.disable_chathistory === true),
    call_configuration: {
      id: row.id,
      mentor: row.unique_id,
      mode: 'inference',
      tts_provider: 'openai',
      stt_provider: 'openai',
      llm_provider: 'openai',
      use_function_calling_for_rag: false,
      openai_voice_id: s.openai_voice ?? null,
      google_voice_id: s.google_voice ?? null,
      enable_video: false,
      platform_key: row.org,
    },
    guided_prompt_instructions: (s.guided_prompt_instructions as string | null) ?? '',
    seo_tags: {},
    marketing_conversations: [],
    template_mentor: s.template_name,
    google_voice: voice(s.google_voice),
    openai_voice: voice(s.openai_voice),
    enable_openai_assistant: s.enable_openai_assistant === true,
    enable_total_grounding: s.enable_total_grounding === true,
    enable_suggested_prompts: s.enable_suggested_prompts !== false,
    is_deleted: row.is_deleted === 1,
  };
}
