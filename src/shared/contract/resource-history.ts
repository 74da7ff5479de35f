/**
 * The local history of single records that keep one (a mentor's settings): every save is a snapshot, two can be
 * compared field by field, and one can be saved again (a save like any other, itself kept).
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call } from './kit';

const Tenant = { profileId: z.string().min(1).optional() };
/** The parent the record belongs to (a mentor: its unique_id, slug or name). */
const Parent = { kind: ResourceKind, key: z.string().min(1) };

export const SnapshotSummary = z.object({
  id: z.number().int(),
  takenAt: z.string(),
  /** `found`: as it was before the first save from this app. */
  reason: z.enum(['found', 'saved', 'reverted']),
  revertedTo: z.number().int().nullable(),
  /** The fields the save named. */
  changed: z.array(z.string()),
});
export type SnapshotSummary = z.infer<typeof SnapshotSummary>;

export const FieldChange = z.object({
  field: z.string(),
  label: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type FieldChange = z.infer<typeof FieldChange>;

export const resourceHistoryCalls = {
  'resources.history': call(
    z.object({ ...Tenant, ...Parent }).strict(),
    z.object({ snapshots: z.array(SnapshotSummary) }),
    "A single record's local snapshots (one per save from this app), newest first",
  ),
  'resources.historyDiff': call(
    z
      .object({
        ...Tenant,
        ...Parent,
        from: z.number().int(),
        /** A snapshot, or `current`: the record as the cache has it now. */
        to: z.union([z.number().int(), z.literal('current')]),
      })
      .strict(),
    z.object({ changes: z.array(FieldChange) }),
    'What differs, field by field, between two snapshots of a single record (or one and now)',
  ),
  'resources.revert': call(
    z.object({ ...Tenant, ...Parent, snapshotId: z.number().int() }).strict(),
    z.object({
      record: z.record(z.string(), z.unknown()),
      /** The fields saved again. */
      changed: z.array(z.string()),
      /** Fields kept in the snapshot in a shape the update does not take: left as they are. */
      skipped: z.array(z.string()),
    }),
    'Save a snapshot again: the fields that differ from now, as one save (itself kept as a snapshot)',
  ),
} as const;
