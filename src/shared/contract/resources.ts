/**
 * The resource kit's generic calls: one set of verbs over every declared kind (src/shared/resources/). Records travel
 * as the platform's own JSON objects (the spec's field names), minus what is never shown again (a token's key).
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call, event, Ok } from './kit';
import { Job } from './jobs';
import { Freshness } from './mentors';

/** Which tenant a call is about; the active one when absent. */
const Tenant = { profileId: z.string().min(1).optional() };

export const ResourceRecord = z.record(z.string(), z.unknown());
export type ResourceRecord = z.infer<typeof ResourceRecord>;

/** Field values as the admin gave them; the engine checks them against the spec's request schema. */
const Values = z.record(z.string(), z.unknown());
const RecordId = z.string().min(1).max(1000);

export const ResourceListInput = z
  .object({
    ...Tenant,
    kind: ResourceKind,
    search: z.string().max(200).optional(),
    /** Equality on record fields (`is_active: "true"`), typed by the spec's schema of the field. */
    where: z.record(z.string(), z.string()).optional(),
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(500).default(50),
    refresh: z.boolean().optional(),
  })
  .strict();

export const ResourceList = z.object({
  records: z.array(ResourceRecord),
  /** Records matching the search and filters, across all pages. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  freshness: Freshness,
  /**
   * False for kinds the platform cannot list (the domain whitelist): the records are those this app created or
   * looked up on this tenant.
   */
  listed: z.boolean(),
});
export type ResourceList = z.infer<typeof ResourceList>;

/** Most records one bulk job takes: a page of the list at most is selected at once, or a CLI line. */
export const BULK_MAX = 1000;

export const ResourceBulkInput = z
  .object({
    ...Tenant,
    kind: ResourceKind,
    /** `delete`, or a named action of the kind (its declaration says which). */
    action: z.string().min(1).max(100),
    ids: z.array(RecordId).min(1).max(BULK_MAX),
  })
  .strict();

export const ResourceExportInput = z
  .object({
    ...Tenant,
    kind: ResourceKind,
    search: z.string().max(200).optional(),
    where: z.record(z.string(), z.string()).optional(),
    /** Record fields to write, in order; every declared column when absent. */
    columns: z.array(z.string().min(1).max(100)).min(1).max(100).optional(),
    /** A UTF-8 byte order mark so Excel reads the file as UTF-8. */
    bom: z.boolean().default(true),
  })
  .strict();

export const ResourceExport = z.object({
  /** A name to save the file under: `<tenant>-<kind>-<date>.csv`. */
  fileName: z.string(),
  /** The whole file: injection-safe cells, CRLF lines, the BOM when asked. */
  csv: z.string(),
  rows: z.number().int(),
});
export type ResourceExport = z.infer<typeof ResourceExport>;

export const resourceCalls = {
  'resources.list': call(
    ResourceListInput,
    ResourceList,
    "One page of a kind's records from the cache at once; a refresh follows and announces itself with resources.changed",
  ),
  'resources.get': call(
    z.object({ ...Tenant, kind: ResourceKind, id: RecordId }).strict(),
    z.object({ record: ResourceRecord }),
    'One record, by its id, from the platform',
  ),
  'resources.create': call(
    z.object({ ...Tenant, kind: ResourceKind, values: Values }).strict(),
    z.object({
      record: ResourceRecord,
      /** What the platform answers once (a new token's key): shown to the admin now, never stored or answered again. */
      revealed: z.record(z.string(), z.string()),
    }),
    'Create a record; field errors come back as issues at their fields',
  ),
  'resources.update': call(
    z.object({ ...Tenant, kind: ResourceKind, id: RecordId, values: Values }).strict(),
    z.object({ record: ResourceRecord }),
    "Change a record's fields",
  ),
  'resources.delete': call(
    z.object({ ...Tenant, kind: ResourceKind, id: RecordId }).strict(),
    Ok,
    'Delete (revoke) a record',
  ),
  'resources.action': call(
    z
      .object({
        ...Tenant,
        kind: ResourceKind,
        id: RecordId,
        action: z.string().min(1).max(100),
        values: Values.optional(),
      })
      .strict(),
    z.object({ record: ResourceRecord.nullable() }),
    'Run a named action of a kind on one record',
  ),
  'resources.bulk': call(
    ResourceBulkInput,
    Job,
    'Delete (or run a named action on) many records as one journalled job; a record already gone counts as done',
  ),
  'resources.export': call(
    ResourceExportInput,
    ResourceExport,
    "A kind's records (matching the search and filters) as a CSV file for the admin to save",
  ),
} as const;

export const resourceEvents = {
  /** A kind's records changed on a tenant (a write here, or a refresh that found changes): lists read again. */
  'resources.changed': event(z.object({ profileId: z.string(), kind: ResourceKind }), {
    invalidates: [
      { call: 'resources.list', by: ['profileId', 'kind'] },
      { call: 'resources.get', by: ['profileId', 'kind'] },
    ],
  }),
} as const;
