/**
 * What guides a mentor's conversations (issue 16, "Knowledge" and "Memory"): the course it is linked to, its scenario
 * and the prompt it writes a learner's memory with. Each is one record per mentor.
 *
 * - `link-course/` sits under the org, not a user, and is for tenant admins. Both its GET and its POST are described
 *   as "link mentor with a course and enable guided mode"; the GET takes no course and answers LinkCourseResponse, so
 *   it is read as the link's state. The spec has no call to unlink, and names no course id format (its example is
 *   `course-id-v1:abcdefg`): any text is sent.
 * - `scenarios/` (read) and `edit-scenarios/` (PUT): the spec's `MentorScenario` is one object (display, name,
 *   prompts) in its schemas but a list of them in every example. The app writes what the schema says — one scenario
 *   — and its form says so.
 * - `auto-memory-prompt/`: GET, and POST "Set or reset" (`reset: true` goes back to the platform's prompt).
 */
import type { ResourceDeclaration } from './kit';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const MENTOR = { in: 'path', name: 'mentor' } as const;

export const mentorCourseLink = {
  kind: 'mentor-course-link',
  label: 'Linked course',
  singular: 'linked course',
  plural: 'linked courses',
  area: 'mentors',
  description:
    'The course this mentor guides learners through (guided mode). A linked course cannot be unlinked, only replaced: linking another one replaces it.',
  idField: 'mentor',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor' },
  operations: {
    get: { method: 'get', path: '/api/ai-mentor/orgs/{org}/mentors/{mentor}/link-course/', id: MENTOR },
    update: { method: 'post', path: '/api/ai-mentor/orgs/{org}/mentors/{mentor}/link-course/', id: MENTOR },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [
    {
      name: 'course_id',
      label: 'Course',
      input: 'text',
      placeholder: 'course-v1:Org+Course+Run',
      description: 'The course’s id as the platform names it.',
    },
  ],
} as const satisfies ResourceDeclaration;

export const mentorScenarios = {
  kind: 'mentor-scenarios',
  label: 'Scenario',
  singular: 'scenario',
  plural: 'scenarios',
  area: 'mentors',
  description: 'The mode learners pick and its starter prompts. A mentor has one scenario here: saving replaces it.',
  idField: 'mentor',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor' },
  operations: {
    get: { method: 'get', path: `${USER}/mentors/{mentor}/scenarios/`, id: MENTOR },
    // None saved yet answers 404 ("Mentor or scenarios not found"): read as empty, made by the same PUT.
    create: { method: 'put', path: `${USER}/mentors/{mentor}/edit-scenarios/`, id: MENTOR },
    update: { method: 'put', path: `${USER}/mentors/{mentor}/edit-scenarios/`, id: MENTOR },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'chat' },
    { name: 'display', label: 'Shown as', input: 'text', placeholder: 'Chat' },
    {
      name: 'prompts',
      label: 'Prompts',
      input: 'json',
      description: 'A list of `{"summary": …, "content": …, "icon": …}`; the icon may be left out.',
      placeholder: '[{"summary": "Give me a summary", "content": "Please summarise this topic", "icon": "add"}]',
    },
  ],
} as const satisfies ResourceDeclaration;

export const mentorAutoMemoryPrompt = {
  kind: 'mentor-auto-memory-prompt',
  label: 'Auto memory prompt',
  singular: 'auto memory prompt',
  plural: 'auto memory prompts',
  area: 'mentors',
  description: 'What the mentor is asked when it writes memory entries from a conversation.',
  idField: 'mentor',
  single: true,
  keyedBy: { param: 'mentor', label: 'Mentor' },
  operations: {
    get: { method: 'get', path: `${USER}/mentors/{mentor}/auto-memory-prompt/`, id: MENTOR },
    update: { method: 'post', path: `${USER}/mentors/{mentor}/auto-memory-prompt/`, id: MENTOR },
  },
  envelope: 'none',
  columns: [],
  search: [],
  fields: [
    { name: 'auto_memory_prompt', label: 'Prompt', input: 'textarea' },
    {
      name: 'reset',
      label: 'Back to the platform’s prompt',
      input: 'switch',
      description: 'Saved on: the platform’s own prompt replaces this mentor’s.',
    },
  ],
} as const satisfies ResourceDeclaration;
