import type { FieldDeclaration, ResourceDeclaration } from './kit';

const PATH = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/settings/';

/** The groups a mentor's settings are shown in, in order. */
export const MENTOR_SETTINGS_GROUPS = [
  'Identity',
  'Model and provider',
  'Prompts and greeting',
  'Suggested prompts',
  'Safety and moderation',
  'Display',
  'Proactive behaviour',
  'Other',
] as const;
export type MentorSettingsGroup = (typeof MENTOR_SETTINGS_GROUPS)[number];

type Field = FieldDeclaration & { group: MentorSettingsGroup };
const text = (group: MentorSettingsGroup, name: string, label: string, extra: Partial<Field> = {}): Field => ({
  name,
  label,
  input: 'text',
  group,
  ...extra,
});
const long = (group: MentorSettingsGroup, name: string, label: string, extra: Partial<Field> = {}): Field =>
  text(group, name, label, { input: 'textarea', ...extra });
const flag = (group: MentorSettingsGroup, name: string, label: string, extra: Partial<Field> = {}): Field =>
  text(group, name, label, { input: 'switch', ...extra });
const json = (group: MentorSettingsGroup, name: string, label: string, extra: Partial<Field> = {}): Field =>
  text(group, name, label, { input: 'json', ...extra });

/**
 * Every field of the spec's `MentorSettingsRequest`, by group. The rules (types, nullability, the temperature's
 * range, URL formats) come from the spec; only `greeting_method` and visibility have enumerations there.
 */
export const MENTOR_SETTINGS_FIELDS: readonly Field[] = [
  text('Identity', 'mentor_name', 'Name'),
  text('Identity', 'display_name', 'Display name'),
  long('Identity', 'mentor_description', 'Description'),
  {
    name: 'mentor_visibility',
    label: 'Visibility',
    input: 'select',
    group: 'Identity',
    options: [
      { value: 'viewable_by_tenant_admins', label: 'Tenant admins' },
      { value: 'viewable_by_tenant_students', label: 'Tenant students' },
      { value: 'viewable_by_anyone', label: 'Anyone' },
    ],
  },
  text('Identity', 'template_name', 'Template', { readAs: 'template_mentor' }),
  text('Identity', 'profile_image', 'Profile image URL'),
  text('Identity', 'uploaded_profile_image', 'Uploaded profile image URL'),
  flag('Identity', 'featured', 'Featured', { readAs: 'is_featured' }),
  flag('Identity', 'is_featured', 'Is featured'),
  {
    name: 'categories',
    label: 'Categories',
    input: 'reference',
    references: 'mentor-categories',
    multiple: true,
    group: 'Identity',
  },
  { name: 'types', label: 'Types', input: 'reference', references: 'mentor-types', multiple: true, group: 'Identity' },
  {
    name: 'subjects',
    label: 'Subjects',
    input: 'reference',
    references: 'subjects',
    multiple: true,
    group: 'Identity',
  },
  {
    name: 'department_id',
    label: 'Department',
    input: 'reference',
    references: 'departments',
    group: 'Identity',
    description: 'The department whose users may use it.',
  },
  json('Identity', 'metadata', 'Metadata'),

  text('Model and provider', 'llm_provider', 'Provider'),
  text('Model and provider', 'llm_name', 'Model'),
  {
    name: 'llm_temperature',
    label: 'Temperature',
    input: 'number',
    group: 'Model and provider',
    description: 'From 0 (focused) to 1 (varied).',
    readAs: 'llm_config.temperature',
  },

  long('Prompts and greeting', 'system_prompt', 'System prompt'),
  long('Prompts and greeting', 'initial_message', 'Initial message'),
  long('Prompts and greeting', 'suggested_message', 'Suggested message'),
  text('Prompts and greeting', 'placeholder_prompt', 'Placeholder'),
  long('Prompts and greeting', 'disclaimer', 'Disclaimer'),

  flag('Suggested prompts', 'enable_suggested_prompts', 'Suggested prompts'),
  flag('Suggested prompts', 'enable_guided_prompts', 'Guided prompts'),
  long('Suggested prompts', 'guided_prompt_instructions', 'Guided prompt instructions'),
  flag('Suggested prompts', 'is_guided_mentor', 'Guided mentor'),

  flag('Safety and moderation', 'enable_moderation', 'Moderation'),
  long('Safety and moderation', 'moderation_system_prompt', 'Moderation prompt'),
  long('Safety and moderation', 'moderation_response', 'Moderation response'),
  flag('Safety and moderation', 'enable_safety_system', 'Safety system'),
  long('Safety and moderation', 'safety_system_prompt', 'Safety prompt'),
  long('Safety and moderation', 'safety_response', 'Safety response'),
  flag('Safety and moderation', 'enable_post_processing_system', 'Post-processing'),
  long('Safety and moderation', 'post_processing_prompt', 'Post-processing prompt'),

  // The request takes any string for these; the answer's ThemeEnum and AlignMentorBubbleEnum name the values.
  text('Display', 'theme', 'Theme', { placeholder: 'light', suggestions: ['light', 'dark'] }),
  text('Display', 'user_message_color', 'User message colour', { input: 'color', placeholder: '#2467eb' }),
  text('Display', 'mentor_bubble_color', 'Mentor bubble colour', { input: 'color', placeholder: '#f5f6f8' }),
  text('Display', 'align_mentor_bubble', 'Mentor bubble alignment', {
    placeholder: 'left',
    suggestions: ['left', 'right'],
  }),
  long('Display', 'custom_css', 'Custom CSS'),
  flag('Display', 'show_attachment', 'Attachments'),
  flag('Display', 'show_voice_call', 'Voice call'),
  flag('Display', 'show_voice_record', 'Voice recording'),
  flag('Display', 'embed_is_context_aware', 'Embed: context aware'),
  flag('Display', 'embed_open_by_default', 'Embed: open by default'),
  flag('Display', 'embed_show_attachment', 'Embed: attachments'),
  flag('Display', 'embed_show_voice_call', 'Embed: voice call'),
  flag('Display', 'embed_show_voice_record', 'Embed: voice recording'),

  {
    name: 'greeting_method',
    label: 'Greeting',
    input: 'select',
    group: 'Proactive behaviour',
    options: [
      { value: 'proactive_response', label: 'A fixed response' },
      { value: 'proactive_prompt', label: 'Generated from a prompt' },
    ],
  },
  long('Proactive behaviour', 'proactive_response', 'Proactive response'),
  long('Proactive behaviour', 'proactive_prompt', 'Proactive prompt'),
  flag('Proactive behaviour', 'enable_spaced_repetition', 'Spaced repetition'),
  flag('Proactive behaviour', 'enable_email_chat', 'Email chat'),

  flag('Other', 'can_use_tools', 'Can use tools'),
  json('Other', 'tool_slugs', 'Tool slugs', { placeholder: '["web-search"]', readAs: 'mentor_tools.*.slug' }),
  json('Other', 'mcp_servers', 'MCP server IDs', { placeholder: '[1]' }),
  flag('Other', 'enable_image_generation', 'Image generation'),
  flag('Other', 'enable_web_browsing', 'Web browsing'),
  flag('Other', 'enable_code_interpreter', 'Code interpreter'),
  flag('Other', 'enable_multi_query_rag', 'Multi-query retrieval'),
  flag('Other', 'enable_total_grounding', 'Only answer from documents'),
  flag('Other', 'enable_openai_assistant', 'OpenAI assistant'),
  flag('Other', 'enable_instruction_mode', 'Instruction mode'),
  flag('Other', 'enable_socratic_mode', 'Socratic mode'),
  flag('Other', 'allow_anonymous', 'Anonymous users'),
  flag('Other', 'forkable', 'Forkable'),
  flag('Other', 'forkable_with_training_data', 'Forkable with training data'),
  flag('Other', 'disable_chathistory', 'No chat history'),
  // The spec's `Voice` objects (`voices/{id}`): the settings take a voice's id.
  { name: 'google_voice', label: 'Google voice', input: 'reference', references: 'voices', group: 'Other' },
  { name: 'openai_voice', label: 'OpenAI voice', input: 'reference', references: 'voices', group: 'Other' },
];

/** A mentor's settings: one record per mentor, read with its GET and changed with its PUT. */
export const mentorSettings = {
  kind: 'mentor-settings',
  label: 'Mentor settings',
  singular: 'mentor settings',
  plural: 'mentor settings',
  area: 'mentors',
  description: "A mentor's settings: identity, model, prompts, safety, display and behaviour.",
  idField: 'mentor_unique_id',
  single: true,
  // The spec's `{mentor}` is its "name, slug, or unique_id".
  keyedBy: { param: 'mentor', label: 'Mentor', aliases: ['mentor_slug', 'mentor_name', 'mentor'] },
  history: true,
  // The settings' PUT answers each linked MCP server whole, its credentials included: never kept or shown.
  writeOnly: ['mcp_servers.*.credentials'],
  operations: {
    get: { method: 'get', path: PATH, id: { in: 'path', name: 'mentor' } },
    update: { method: 'put', path: PATH, id: { in: 'path', name: 'mentor' } },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: MENTOR_SETTINGS_FIELDS,
} as const satisfies ResourceDeclaration;

/** What anyone the mentor's visibility allows may read of it (no credentials needed): read-only. */
export const mentorPublicSettings = {
  kind: 'mentor-public-settings',
  label: 'Mentor public settings',
  singular: 'mentor public settings',
  plural: 'mentor public settings',
  area: 'mentors',
  description: 'What the platform shows of a mentor to anyone its visibility allows, without credentials.',
  idField: 'mentor_unique_id',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor', aliases: ['mentor_slug', 'mentor_name', 'mentor'] },
  operations: {
    get: {
      method: 'get',
      path: '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/public-settings/',
      id: { in: 'path', name: 'mentor' },
    },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [],
} as const satisfies ResourceDeclaration;
