/**
 * What a mentor knows of the person it talks to, and the tools it may call (issue 16, "Knowledge").
 *
 * The spec puts the custom instruction and the assumed knowledge under `users/{user_id}/`, not under a mentor: they
 * are the connection's user's own, read by every mentor of the tenant. The tools a mentor may use are listed per
 * mentor (`available-tools`) and per tenant (`mentor-tools/`, read-only); which of them a mentor uses is its
 * settings' `tool_slugs` (and `mcp_servers`), saved through `mentor-settings`. The user's two records are filed under
 * Mentor configuration (a screen of the kit's own, where the command palette finds them) and on each mentor's
 * Knowledge tab.
 */
import type { ResourceDeclaration } from './kit';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';

/** The user's custom instruction: created by POST, changed by PUT (the kit creates it when the PUT finds none). */
export const customInstruction = {
  kind: 'custom-instruction',
  label: 'Custom instruction',
  singular: 'custom instruction',
  area: 'mentor-configuration',
  group: 'About you',
  description: 'What mentors are told about you and how to answer you, in every mentor of the tenant.',
  idField: 'id',
  single: true,
  operations: {
    get: { method: 'get', path: `${USER}/custom-instruction/` },
    create: { method: 'post', path: `${USER}/custom-instruction/` },
    update: { method: 'put', path: `${USER}/custom-instruction/` },
  },
  envelope: 'none',
  columns: [],
  search: [],
  // The spec's CustomInstructionResponse (its examples show a `content` field the schema does not have).
  fields: [
    { name: 'about_user', label: 'About you', input: 'textarea', description: 'What mentors should know about you.' },
    { name: 'mentor_tone', label: 'Tone', input: 'textarea', description: 'How mentors should answer.' },
    { name: 'profession', label: 'Profession', input: 'text', placeholder: 'Engineer, student…' },
    {
      name: 'desired_mentor_traits',
      label: 'Desired traits',
      input: 'text',
      description: 'A comma-separated list of traits expected of a mentor.',
      placeholder: 'patient, concise',
    },
  ],
} as const satisfies ResourceDeclaration;

/** The user's assumed knowledge: a level per category, read by GET and replaced whole by POST. */
export const assumedKnowledge = {
  kind: 'assumed-knowledge',
  label: 'Assumed knowledge',
  singular: 'assumed knowledge',
  area: 'mentor-configuration',
  group: 'About you',
  description: 'How much mentors may take you to know already, by category.',
  idField: 'levels',
  single: true,
  operations: {
    get: { method: 'get', path: `${USER}/assumed-knowledge/` },
    // POST is both the first save and every later one ("Update assumed knowledge levels"): none yet reads as empty.
    create: { method: 'post', path: `${USER}/assumed-knowledge/` },
    update: { method: 'post', path: `${USER}/assumed-knowledge/` },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [
    {
      name: 'levels',
      label: 'Levels',
      input: 'json',
      description: 'A list of `{"category": …, "level": …}`.',
      placeholder: '[{"category": "Programming", "level": "Intermediate"}]',
    },
  ],
} as const satisfies ResourceDeclaration;

/** The tools of the tenant's mentors (read-only). */
export const mentorTools = {
  kind: 'mentor-tools',
  label: 'Mentor tools',
  singular: 'mentor tool',
  area: 'mentor-configuration',
  group: 'Tools',
  description: 'The tools the tenant’s mentors can be given (web search, trained documents…).',
  idField: 'slug',
  operations: { list: { method: 'get', path: `${USER}/mentor-tools/` } },
  envelope: 'array',
  columns: [
    { field: 'display_name', label: 'Name' },
    { field: 'slug', label: 'Slug' },
    { field: 'description', label: 'Description' },
  ],
  search: ['display_name', 'slug', 'description'],
  fields: [],
} as const satisfies ResourceDeclaration;

/**
 * The tools one mentor may be given (read-only): its list answered as one record per mentor, `value` holding the
 * list. Which of them it uses is its settings' `tool_slugs`.
 */
export const availableTools = {
  kind: 'available-tools',
  label: 'Available tools',
  singular: 'available tools',
  plural: 'available tools',
  area: 'mentors',
  description: 'The tools a mentor may be given.',
  idField: 'mentor',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor' },
  operations: {
    get: { method: 'get', path: `${USER}/mentors/{mentor}/available-tools/`, id: { in: 'path', name: 'mentor' } },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [],
} as const satisfies ResourceDeclaration;
