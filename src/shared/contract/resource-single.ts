/**
 * Single-record kinds of the resource kit (a tenant's metadata, branding, site config, billing status): one record
 * per tenant, read and written without an id, kept in the cache with its as-of time so it reads offline.
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call } from './kit';
import { Freshness } from './mentors';

const Tenant = { profileId: z.string().min(1).optional() };
const SingleRecord = z.record(z.string(), z.unknown());
/** The parent a keyed kind's record belongs to (a mentor, for its settings); absent for a tenant's own record. */
const Key = { key: z.string().min(1).optional() };

export const singleRecordCalls = {
  'resources.getSingle': call(
    z.object({ ...Tenant, kind: ResourceKind, ...Key, refresh: z.boolean().optional() }).strict(),
    z.object({ record: SingleRecord, freshness: Freshness }),
    "A single-record kind's record (the tenant's settings): from the cache when it is fresh, else from the platform",
  ),
  'resources.updateSingle': call(
    z.object({ ...Tenant, kind: ResourceKind, ...Key, values: z.record(z.string(), z.unknown()) }).strict(),
    z.object({ record: SingleRecord }),
    "Change a single-record kind's fields (an image field is uploaded by its own call); field errors come back as issues",
  ),
} as const;
