/**
 * The resource kit's generic calls: one set of verbs over every declared kind (src/shared/resources/). Records travel
 * as the platform's own JSON objects (the spec's field names), minus what is never shown again (a token's key).
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call, event, Ok } from './kit';
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

/** Something the engine did to a value, said at its field (a pasted secret's spaces removed). */
export const FieldNote = z.object({ path: z.string(), message: z.string() });

/** One choice of a described form (a provider) and the fields the platform gives it. */
export const DescribedChoice = z.object({
  name: z.string(),
  label: z.string(),
  fields: z.array(z.object({ name: z.string(), type: z.string() })),
});
export type DescribedChoice = z.infer<typeof DescribedChoice>;

/**
 * The default LLM key and the free trial. The spec gives no schema for the key's usage: `usage` is the platform's
 * answer as it came (null when it answered nothing), and `defaultKey` what it says about the key being in use.
 */
export const LlmAccess = z.object({
  defaultKey: z.boolean().nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
  freeTrial: z.boolean().nullable(),
  asOf: z.string(),
  /** Why this is the last answer read in this session rather than a fresh one (the tenant is not answering). */
  offline: z.string().nullable(),
});
export type LlmAccess = z.infer<typeof LlmAccess>;

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
      notes: z.array(FieldNote).optional(),
    }),
    'Create a record; field errors come back as issues at their fields',
  ),
  'resources.update': call(
    z.object({ ...Tenant, kind: ResourceKind, id: RecordId, values: Values }).strict(),
    z.object({ record: ResourceRecord, notes: z.array(FieldNote).optional() }),
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
  'resources.describe': call(
    z.object({ ...Tenant, kind: ResourceKind }).strict(),
    z.object({ choices: z.array(DescribedChoice), asOf: z.string() }),
    "The form fields the platform describes for a kind (a credential's fields per provider), kept a while per tenant",
  ),
  'llmAccess.get': call(
    z.object({ ...Tenant }).strict(),
    LlmAccess,
    "Whether the tenant's mentors use the platform's default LLM key and the free trial, with the key's usage",
  ),
  'llmAccess.set': call(
    z
      .object({ ...Tenant, defaultKey: z.boolean().optional(), freeTrial: z.boolean().optional() })
      .strict()
      .refine((input) => input.defaultKey !== undefined || input.freeTrial !== undefined, {
        message: 'Say what to switch: defaultKey, freeTrial or both',
      }),
    z.object({ messages: z.array(z.string()) }),
    'Switch the default LLM key or the free trial on or off',
  ),
} as const;

export const resourceEvents = {
  /** The default key or the free trial was switched on a tenant. */
  'llmAccess.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [{ call: 'llmAccess.get', by: ['profileId'] }],
  }),
  /** A kind's records changed on a tenant (a write here, or a refresh that found changes): lists read again. */
  'resources.changed': event(z.object({ profileId: z.string(), kind: ResourceKind }), {
    invalidates: [
      { call: 'resources.list', by: ['profileId', 'kind'] },
      { call: 'resources.get', by: ['profileId', 'kind'] },
    ],
  }),
} as const;
