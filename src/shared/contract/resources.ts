/**
 * The resource kit's generic calls: one set of verbs over every declared kind (src/shared/resources/). Records travel
 * as the platform's own JSON objects (the spec's field names), minus what is never shown again (a token's key).
 */
import { z } from 'zod';
import { ResourceKind } from '../resources';
import { call, event, Ok } from './kit';
import { Job } from './jobs';
import { Freshness } from './mentors';
import { singleRecordCalls } from './resource-single';
import { accessCalls } from './access';
import { peopleCalls } from './people';
import { personCalls } from './person';
import { licenceCalls } from './licences';
import { catalogueCalls } from './catalogue';
import { memoryCalls } from './memory';
import { callCredentialCalls } from './calls';
import { badgeCalls } from './badges';
import { resourceHistoryCalls } from './resource-history';
import { resourceCountCalls } from './resource-counts';
import { mentorBulkCalls } from './mentor-bulk';
import { mentorEvalCalls, mentorEvalEvents } from './mentor-evals';
import { CsvDelimiter, CsvEncoding } from './invitations';

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
    /**
     * Records whose field holds one of these values match the search too: a group's members found by a name, where
     * the directory says which usernames have it (the members' own records hold no names).
     */
    searchAlso: z
      .object({ field: z.string().min(1), values: z.array(z.string().max(1000)).max(500) })
      .strict()
      .optional(),
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(500).default(50),
    refresh: z.boolean().optional(),
    /**
     * When the list is read from the platform now, answer once every page is stored, not after the first (a
     * script's `get --where` over a long paged list must see all of it).
     */
    whole: z.boolean().optional(),
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
    /** `delete`, `update` (the same `values` set on every record), or a named action of the kind. */
    action: z.string().min(1).max(100),
    ids: z.array(RecordId).min(1).max(BULK_MAX),
    /** For `update`: the fields to set, checked by the spec's rules like a form's. */
    values: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine(
    (input) => (input.action === 'update') === (input.values !== undefined && Object.keys(input.values).length > 0),
    {
      message: 'update takes the values to set (at least one field); other actions take none',
      path: ['values'],
    },
  );

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

/** Records of other kinds that refer to some records (an LTI key's tools), as the cache has them. */
export const ResourceReferrers = z.object({
  referrers: z.array(
    z.object({ kind: ResourceKind, field: z.string(), id: z.string(), name: z.string(), refersTo: z.string() }),
  ),
  /** Referring lists not read lately (or whose last read failed): others may refer that the cache does not know. */
  unsure: z.array(
    z.object({ kind: ResourceKind, asOf: z.string().nullable(), reason: z.string(), error: z.string().nullable() }),
  ),
  /**
   * Kinds of which many may refer to one record (a department's members), counted per record rather than named:
   * as the platform answered (`exact`), or as the saved list has them when it could not be asked.
   */
  counts: z
    .array(
      z.object({
        kind: ResourceKind,
        refersTo: z.string(),
        count: z.number().int(),
        exact: z.boolean(),
        asOf: z.string().nullable(),
      }),
    )
    .optional(),
});
export type ResourceReferrers = z.infer<typeof ResourceReferrers>;

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
  /** Why this is the last answer kept on this computer rather than a fresh one (the tenant is not answering). */
  offline: z.string().nullable(),
});
export type LlmAccess = z.infer<typeof LlmAccess>;

/** A row's problem, at the field (CSV column) that has it; null: the row as a whole. */
export const ImportProblem = z.object({ field: z.string().nullable(), message: z.string() });

export const ResourceImportRow = z.object({
  /** 1-based record number in the file. */
  line: z.number().int(),
  /** The row's cells by field, as the file has them (after the admin's fixes). */
  values: z.record(z.string(), z.string()),
  problems: z.array(ImportProblem),
  dropped: z.boolean(),
  /** A people file's row that repeats an earlier one (the same person and target): that row's line. Sent once. */
  repeatOf: z.number().int().optional(),
});
export type ResourceImportRow = z.infer<typeof ResourceImportRow>;

export const ResourceImportInput = z
  .object({
    ...Tenant,
    kind: ResourceKind,
    /** The file on this machine; or its text (pasted, or read in the renderer) with its name. */
    path: z.string().min(1).max(4096).optional(),
    text: z
      .string()
      .max(20 * 1024 * 1024)
      .optional(),
    name: z.string().max(255).optional(),
    encoding: CsvEncoding.optional(),
    delimiter: CsvDelimiter.optional(),
    /** 0-based record that names the columns; null: the file has no header. Detected when absent. */
    headerRow: z.number().int().min(0).max(29).nullable().optional(),
    /** Per column of the file: the field it fills, or null to ignore it. Matched by header and synonyms when absent. */
    mapping: z.array(z.string().max(200).nullable()).max(500).optional(),
    /** Cells fixed in place, by line and field. */
    fixes: z
      .array(z.object({ line: z.number().int().min(1), field: z.string().max(200), value: z.string().max(10_000) }))
      .max(10_000)
      .optional(),
    /** Lines left out. */
    dropped: z.array(z.number().int().min(1)).max(1_000_000).optional(),
    /** Which rows to answer: every row, or only those with problems (and a people file's repeated rows). */
    rows: z
      .object({
        filter: z.enum(['all', 'invalid']).default('all'),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(0).max(1000).default(100),
      })
      .optional(),
    /** Confirmed: write the job (one item per row) and start it. Without it, nothing is sent (a dry run). */
    start: z.boolean().optional(),
    /**
     * With start, for membership and seat kinds: the job reads the tenant's people, groups and memberships and reports what
     * each row would do (added, already, unknown), sending nothing. Other kinds' dry run is the preview itself.
     */
    dryRun: z.boolean().optional(),
    /** Membership kinds: the group (name or id) of every row whose file gives none (an import from a group's details). */
    group: z.string().min(1).max(255).optional(),
    /** Seat kinds (license-assignments): the licence whose seats the file's people take. */
    licenseId: z.number().int().positive().optional(),
  })
  .strict()
  .refine((input) => (input.path === undefined) !== (input.text === undefined), {
    message: 'Give the file (path) or its text, one of the two',
    path: ['path'],
  });

export const ResourceImportPreview = z.object({
  name: z.string(),
  encoding: CsvEncoding,
  delimiter: CsvDelimiter,
  headerRow: z.number().int().nullable(),
  headers: z.array(z.string()),
  mapping: z.array(z.string().nullable()),
  /** The kind's CSV columns: what a column may fill. */
  fields: z.array(z.object({ field: z.string(), label: z.string(), required: z.boolean() })),
  /** Headers of the file that name no field of the kind (ignored). */
  unknownColumns: z.array(z.string()),
  /** The first records as the file has them, to choose the header row. */
  preview: z.array(z.array(z.string())),
  /** What reading found, in words (ragged rows, duplicates, missing required columns). */
  notices: z.array(z.string()),
  counts: z.object({
    rows: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    dropped: z.number().int(),
    /** A people file's rows that repeat an earlier one: valid, warned about, sent once (counted in `valid`). */
    repeated: z.number().int().optional(),
  }),
  rows: z.array(ResourceImportRow),
  /** Rows matching the filter asked for. */
  rowsTotal: z.number().int(),
  /** The job that creates or updates the rows, once started (an unfinished one for the same file is resumed). */
  job: z.object({ id: z.string(), resumed: z.boolean() }).nullable(),
});
export type ResourceImportPreview = z.infer<typeof ResourceImportPreview>;

export const resourceCalls = {
  ...peopleCalls,
  ...personCalls,
  ...licenceCalls,
  ...catalogueCalls,
  ...memoryCalls,
  ...callCredentialCalls,
  ...badgeCalls,
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
  'resources.bulk': call(
    ResourceBulkInput,
    Job,
    'Delete, change (one set of values) or run a named action on many records as one journalled job; a record already gone (deleted) or already holding the values (changed) counts as done',
  ),
  'resources.referrers': call(
    z
      .object({
        ...Tenant,
        kind: ResourceKind,
        ids: z.array(RecordId).min(1).max(BULK_MAX),
        /** Read the referring kinds' lists from the platform first when they are not fresh (the CLI does). */
        refresh: z.boolean().optional(),
      })
      .strict(),
    ResourceReferrers,
    'The records of other kinds that refer to these (by the declared relations), from the cache, and the referring lists too old to be sure of: said before a delete, never a refusal',
  ),
  'resources.usedByApp': call(
    z.object({ ...Tenant, kind: ResourceKind, ids: z.array(RecordId).min(1).max(BULK_MAX) }).strict(),
    /** `checked`: false when the platform could not be asked (nothing is said then). */
    z.object({ ids: z.array(RecordId), checked: z.boolean() }),
    'Which of these records hold the key this app uses for the tenant, compared in the engine (the key never leaves it): said before a delete',
  ),
  'resources.export': call(
    ResourceExportInput,
    ResourceExport,
    "A kind's records (matching the search and filters) as a CSV file for the admin to save",
  ),
  ...singleRecordCalls,
  ...accessCalls,
  ...resourceHistoryCalls,
  ...resourceCountCalls,
  ...mentorBulkCalls,
  ...mentorEvalCalls,
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
  'resources.import': call(
    ResourceImportInput,
    ResourceImportPreview,
    "Reads a CSV file of a kind's records: how it is written, which column fills which field, every row checked " +
      "against the spec's request schema; with start, the job that creates or updates them by the kind's id",
    { localPaths: { path: 'read' } },
  ),
} as const;

export const resourceEvents = {
  ...mentorEvalEvents,
  /** The default key or the free trial was switched on a tenant. */
  'llmAccess.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [{ call: 'llmAccess.get', by: ['profileId'] }],
  }),
  /** A kind's records changed on a tenant (a write here, or a refresh that found changes): lists read again. */
  'resources.changed': event(z.object({ profileId: z.string(), kind: ResourceKind }), {
    invalidates: [
      { call: 'resources.list', by: ['profileId', 'kind'] },
      { call: 'resources.get', by: ['profileId', 'kind'] },
      { call: 'resources.getSingle', by: ['profileId', 'kind'] },
      { call: 'resources.history', by: ['profileId', 'kind'] },
      { call: 'resources.historyDiff', by: ['profileId', 'kind'] },
      // Another kind's records may refer to this kind's: what is said before a delete is read again.
      { call: 'resources.referrers', by: ['profileId'] },
      // A list's counts of this kind's records (a department's members).
      { call: 'resources.counts', by: ['profileId', 'kind'] },
      { call: 'resources.usedByApp', by: ['profileId', 'kind'] },
      // The access matrix and its answers are computed from the RBAC lists.
      { call: 'access.matrix', by: ['profileId'] },
      { call: 'access.effective', by: ['profileId'] },
      { call: 'access.whoCan', by: ['profileId'] },
      { call: 'licences.seats', by: ['profileId'] },
      { call: 'catalogue.metadata', by: ['profileId'] },
    ],
  }),
} as const;
