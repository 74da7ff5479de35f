/**
 * A mentor's memory (issue 16, "Memory"). Its memory settings are one record per mentor, read with GET and changed
 * with POST (`mentors/{mentor}/memory-settings/`, "accessible to platform admins"). What a mentor remembers of one
 * learner is read and cleared through the memory area's own calls (contract/memory.ts): those paths take the
 * learner's username as `{user_id}`, where the kit always puts the connection's.
 */
import type { ResourceDeclaration } from './kit';

const SETTINGS = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/memory-settings/';

export const mentorMemorySettings = {
  kind: 'mentor-memory-settings',
  label: 'Memory settings',
  singular: 'memory settings',
  plural: 'memory settings',
  area: 'mentors',
  description: 'What a mentor tracks a learner’s progress through, and when the learner moves on.',
  idField: 'mentor',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor' },
  operations: {
    get: { method: 'get', path: SETTINGS, id: { in: 'path', name: 'mentor' } },
    update: { method: 'post', path: SETTINGS, id: { in: 'path', name: 'mentor' } },
  },
  envelope: 'none',
  columns: [],
  search: [],
  // The spec's MentorMemorySettingsRequest: every field optional and nullable, no enumeration for the item type
  // (its examples name `course` and `program`).
  fields: [
    {
      name: 'item_type',
      label: 'Item type',
      input: 'text',
      suggestions: ['course', 'program'],
      placeholder: 'course',
      description: 'What the mentor follows the learner through.',
    },
    {
      name: 'item_identifier',
      label: 'Item identifier',
      input: 'text',
      placeholder: 'course-v1:edX+DemoX+Demo_Course',
    },
    {
      name: 'learner_advance_correct_rate',
      label: 'Correct rate to advance',
      input: 'number',
      placeholder: '0.5',
      description: 'The share of correct answers after which the learner moves on.',
    },
    {
      name: 'learner_advance_question_count',
      label: 'Questions before advancing',
      input: 'number',
      placeholder: '12',
    },
  ],
} as const satisfies ResourceDeclaration;
