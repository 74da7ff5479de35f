/**
 * What a mentor remembers of one learner (issue 16, "Memory"): the current memory, its history and the learner's
 * progress, read together; and clearing it, once the learner's username has been typed (or given on the command line
 * with `--yes`). The platform takes the learner's username as the paths' `{user_id}`; a tenant admin may name any
 * learner of the tenant.
 */
import { z } from 'zod';
import { call } from './kit';

/** The spec's memory components (MemoryComponentResponse), by category. */
export const MemoryComponents = z.object({
  knowledge_gaps: z.array(z.string()),
  lessons_learned: z.array(z.string()),
  help_requests: z.array(z.string()),
});
export type MemoryComponents = z.infer<typeof MemoryComponents>;
export const MEMORY_COMPONENTS = ['knowledge_gaps', 'lessons_learned', 'help_requests'] as const;
export const MEMORY_COMPONENT_LABELS: Record<(typeof MEMORY_COMPONENTS)[number], string> = {
  knowledge_gaps: 'Knowledge gaps',
  lessons_learned: 'Lessons learned',
  help_requests: 'Help requests',
};

export const LearnerMemory = z.object({
  learner: z.string(),
  mentor: z.string(),
  current: MemoryComponents,
  /** Recorded snapshots, newest first: each with its time as the platform wrote it and what it held. */
  history: z.array(
    z.object({
      insertedAt: z.string(),
      items: z.array(z.object({ kind: z.string(), content: z.string() })),
    }),
  ),
  /** The spec's MemoryProgress (the item the mentor's memory settings name and the learner's unit in it). */
  progress: z
    .object({
      memory_type: z.string(),
      all_units: z.number().int().nullable(),
      all_unit_names: z.array(z.string()).nullable(),
      current_unit: z.number().int().nullable(),
      current_unit_name: z.string().nullable(),
      item_name: z.string().nullable(),
    })
    .nullable(),
  /** A part the platform did not answer (the others are still shown). */
  warnings: z.array(z.string()),
});
export type LearnerMemory = z.infer<typeof LearnerMemory>;

export const MemoryClearResult = z.object({
  learner: z.string(),
  /** The categories the platform deleted; none when the learner had nothing to clear. */
  cleared: z.array(z.enum(MEMORY_COMPONENTS)),
  nothingToClear: z.boolean(),
});
export type MemoryClearResult = z.infer<typeof MemoryClearResult>;

const Target = {
  profileId: z.string().min(1).optional(),
  /** The mentor's unique id, name or slug (the spec's `{mentor}`). */
  mentor: z.string().trim().min(1).max(300),
  /** The learner's username (the paths' `{user_id}`). */
  learner: z.string().trim().min(1, 'Pick a learner').max(150),
};

/** A learner's profile memory (`ai-user-profile-memory/`): what mentors know of them, one detail per tag. */
export const ProfileMemoryEntry = z.object({ tag: z.string(), detail: z.string().nullable() });
export type ProfileMemoryEntry = z.infer<typeof ProfileMemoryEntry>;

const Learner = {
  profileId: z.string().min(1).optional(),
  /** The learner's username (the paths' `{user_id}`). */
  learner: z.string().trim().min(1, 'Pick a learner').max(150),
};

/** The spec's UserEdxMemory: where a learner is in an edX course, kept for mentors (one per learner and course). */
export const EdxMemory = z.object({
  id: z.number().int(),
  username: z.string(),
  student: z.number().int(),
  course_id: z.string(),
  data: z.unknown().optional(),
  date_created: z.string(),
  last_modified: z.string(),
});
export type EdxMemory = z.infer<typeof EdxMemory>;

/** The spec's UserMemoryEntry: one remembered key and value. */
export const UserMemoryEntry = z.object({
  unique_id: z.string().optional(),
  key: z.string(),
  value: z.string().nullable().optional(),
  inserted_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string().nullable(),
  category: z.string().nullable(),
});
export type UserMemoryEntry = z.infer<typeof UserMemoryEntry>;

/** The spec's UserMemory: a learner's named memory (its mode, mentor, session, catalogue item) and its entries. */
export const UserMemory = z.object({
  mode: z.string(),
  name: z.string().optional(),
  email: z.string().nullable(),
  unique_id: z.string().optional(),
  username: z.string().nullable(),
  platform: z.string().nullable(),
  mentor: z.string().nullable(),
  session_id: z.string().nullable(),
  catalog_item_type: z.string().nullable(),
  catalog_item_id: z.string().nullable(),
  entries: z.array(UserMemoryEntry),
  inserted_at: z.string(),
  updated_at: z.string(),
  is_auto_generated: z.boolean().optional(),
  category: z.string().nullable().optional(),
});
export type UserMemory = z.infer<typeof UserMemory>;

/** `memory-filter/`: the memory categories, and the users who have memories. */
export const MemoryFilterOptions = z.object({
  categories: z.array(z.string()),
  users: z.array(
    z.object({
      username: z.string(),
      email: z.string().nullable().optional(),
      lti_email: z.string().nullable().optional(),
    }),
  ),
});
export type MemoryFilterOptions = z.infer<typeof MemoryFilterOptions>;

/** `filtered-memories/`'s `mode`: the values its description names (a string in the spec, so others are sent too). */
export const MEMORY_MODES = ['all', 'guided', 'regular'] as const;

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}/, 'An ISO date, such as 2026-11-26');

export const memoryCalls = {
  'memory.filterOptions': call(
    z.object({ profileId: z.string().min(1).optional() }).strict(),
    MemoryFilterOptions,
    'The memory categories and the users who have memories (memory-filter/)',
  ),
  'memory.memories': call(
    z
      .object({
        ...Learner,
        category: z.string().trim().min(1).max(100).optional(),
        /** The mentor's unique id. */
        mentor: z.string().trim().min(1).max(300).optional(),
        mode: z.string().trim().min(1).max(50).optional(),
        startDate: isoDate.optional(),
        endDate: isoDate.optional(),
      })
      .strict(),
    z.object({ learner: z.string(), memories: z.array(UserMemory) }),
    "A learner's memories, filtered (filtered-memories/, every page)",
  ),
  'memory.memory': call(
    z.object({ ...Learner, memory: z.string().trim().min(1).max(300) }).strict(),
    UserMemory,
    "One of a learner's memories, by unique id or name, with its entries",
  ),
  'memory.entrySave': call(
    // The spec's body for memory-entries POST: key required, value nullable; the platform's refusals at their fields.
    z
      .object({
        ...Learner,
        entry: z.string().trim().min(1).max(300),
        key: z.string().trim().min(1, 'Enter a key').max(500),
        value: z.string().nullable(),
      })
      .strict(),
    UserMemoryEntry,
    "Change the key and value of one entry of a learner's memory",
  ),
  'memory.memoryDelete': call(
    z
      .object({
        ...Learner,
        memory: z.string().trim().min(1).max(300),
        /** The learner's username, typed by the admin: anything else is refused at this field. */
        confirm: z.string().max(150),
      })
      .strict(),
    z.object({ memory: z.string(), deleted: z.boolean() }),
    "Delete one of a learner's memories and its entries, once their username is typed (deleted: false when gone)",
  ),
  'memory.edx': call(
    z.object({ ...Learner, courseId: z.string().trim().min(1).max(200).optional() }).strict(),
    z.object({ learner: z.string(), records: z.array(EdxMemory) }),
    "A learner's edX memory: the courses they were last in, and where (every page)",
  ),
  'memory.edxDelete': call(
    z.object({ ...Learner, id: z.number().int().positive() }).strict(),
    z.object({ id: z.number().int(), deleted: z.boolean() }),
    "Delete one of a learner's edX memory records (deleted: false when the platform had none)",
  ),
  'memory.profile': call(
    z.object(Learner).strict(),
    z.object({ learner: z.string(), entries: z.array(ProfileMemoryEntry) }),
    "A learner's profile memory entries, by tag",
  ),
  'memory.profileSave': call(
    // The spec's AIUserProfileRequest: both required strings; the platform's refusals come back at their fields.
    z.object({ ...Learner, tag: z.string().trim().min(1, 'Enter a tag').max(255), detail: z.string() }).strict(),
    ProfileMemoryEntry,
    'Add a profile memory entry to a learner, or change the detail of a tag they have',
  ),
  'memory.profileDelete': call(
    z.object({ ...Learner, tag: z.string().min(1).max(255) }).strict(),
    z.object({ tag: z.string(), deleted: z.boolean() }),
    "Delete a learner's profile memory entry by tag (deleted: false when the platform had none)",
  ),
  'memory.learner': call(
    z.object(Target).strict(),
    LearnerMemory,
    "What a mentor remembers of a learner: current memory, its history and the learner's progress",
  ),
  'memory.clear': call(
    z
      .object({
        ...Target,
        /** The learner's username, typed by the admin: anything else is refused at this field. */
        confirm: z.string().max(150),
      })
      .strict(),
    MemoryClearResult,
    "Clear a learner's knowledge gaps, lessons learned and help requests (every mentor's), once their username is typed",
  ),
} as const;
