/**
 * Settings across many mentors: the per-mentor before/after of a change (nothing sent), the change itself as one
 * journalled `mentor-bulk-set` job, and two mentors' settings side by side.
 */
import { z } from 'zod';
import { call } from './kit';
import { Job } from './jobs';
import { FieldChange } from './resource-history';

const Tenant = { profileId: z.string().min(1).optional() };

/** The most mentors one bulk change names. */
export const MENTOR_BULK_MAX = 1000;

export const MentorBulkInput = z
  .object({
    ...Tenant,
    /** Mentors by unique id (or slug or name), as the Mentors list or a filter chose them. */
    mentors: z.array(z.string().min(1)).min(1, 'Choose at least one mentor').max(MENTOR_BULK_MAX),
    /** Fields of the mentor-settings kind and the value each mentor gets. */
    values: z.record(z.string(), z.unknown()),
  })
  .strict();
export type MentorBulkInput = z.input<typeof MentorBulkInput>;

export const MentorBulkPreviewRow = z.object({
  /** The mentor's unique id (as its settings name it). */
  mentor: z.string(),
  name: z.string(),
  /** What this mentor's settings would change from and to: empty when it already holds every value. */
  changes: z.array(FieldChange),
  /** Its settings could not be read (it is gone, or the tenant cannot be reached and nothing is cached). */
  error: z.string().nullable(),
  /** When the settings compared were read (from the cache when the tenant cannot be reached). */
  asOf: z.string().nullable(),
});
export type MentorBulkPreviewRow = z.infer<typeof MentorBulkPreviewRow>;

export const MentorDiffSide = z.object({ mentor: z.string(), name: z.string() });

export const mentorBulkCalls = {
  'mentors.bulkPreview': call(
    MentorBulkInput,
    z.object({ mentors: z.array(MentorBulkPreviewRow) }),
    "What setting these values would change on each mentor (before and after), from each mentor's settings: nothing is sent",
  ),
  'mentors.bulkSet': call(
    MentorBulkInput,
    z.object({ job: Job, resumed: z.boolean() }),
    "Set these values on every mentor as one journalled job (an unfinished job for the same change is resumed instead); each mentor's change is kept in its history",
  ),
  'mentors.diff': call(
    z.object({ ...Tenant, a: z.string().min(1), b: z.string().min(1) }).strict(),
    z.object({ a: MentorDiffSide, b: MentorDiffSide, changes: z.array(FieldChange) }),
    "Two mentors' settings field by field: the fields that differ (before: the first, after: the second)",
  ),
} as const;
