/**
 * How many records of one kind refer to each of some records of another (a department's members), counted from the
 * engine's saved copy of the referring kind: for a list column, where the platform's own list gives no count.
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call } from './kit';
import { Freshness } from './mentors';

export const resourceCountCalls = {
  'resources.counts': call(
    z
      .object({
        profileId: z.string().min(1).optional(),
        /** The referring kind (`department-members`), whose relation `field` names the referred record. */
        kind: ResourceKind,
        field: z.string().min(1).max(100),
        /** The referred records' ids (those on screen). */
        ids: z.array(z.string().min(1).max(1000)).min(1).max(500),
      })
      .strict(),
    z.object({
      /** Each id's count (0 when none refers to it). */
      counts: z.record(z.string(), z.number().int()),
      /** When the referring kind's list was read whole; the count is as of then. */
      freshness: Freshness,
    }),
    "How many of a kind's records refer to each id by a declared relation, from the saved copy of the whole list (read first when there is none)",
  ),
} as const;
