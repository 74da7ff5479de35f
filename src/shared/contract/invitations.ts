/**
 * Invitations to the platform, a course or a program: the list, single invitations, and importing people from a
 * CSV file (open → columns → target → validated rows → confirm → a durable `invite` job). Nothing is sent before
 * `invitations.importStart`.
 */
import { z } from 'zod';
import { call, event, Ok } from './kit';
import { Freshness } from './mentors';

/** Which tenant a call is about; the active one when absent. */
const Tenant = { profileId: z.string().min(1).optional() };

export const InviteTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('platform') }).strict(),
  // The spec puts no length on course ids or program keys: the bound only keeps calls sane.
  z.object({ kind: z.literal('course'), id: z.string().trim().min(1, 'Choose a course').max(1000) }).strict(),
  z.object({ kind: z.literal('program'), id: z.string().trim().min(1, 'Choose a program').max(1000) }).strict(),
]);
export type InviteTarget = z.infer<typeof InviteTarget>;

/** The columns an import can fill; anything else in the file is ignored (with a notice). */
export const INVITE_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'company_name',
  'user_group',
  'user_group_owner_email',
] as const;
export const InviteField = z.enum(INVITE_FIELDS);
export type InviteField = z.infer<typeof InviteField>;

export const INVITE_FIELD_LABELS: Record<InviteField, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  company_name: 'Company',
  user_group: 'User group',
  user_group_owner_email: 'Group owner email',
};

export const INVITATION_STATES = ['pending', 'accepted', 'inactive', 'expired'] as const;
export const InvitationState = z.enum(INVITATION_STATES);
export type InvitationState = z.infer<typeof InvitationState>;

export const Invitation = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  /** "First Last" from the invitation's metadata (where imported names are kept); null when it has none. */
  name: z.string().nullable(),
  target: InviteTarget,
  source: z.string().nullable(),
  redirectTo: z.string().nullable(),
  active: z.boolean(),
  /**
   * accepted (used: started), expired (its expiry date has passed, active or not), inactive (switched off, e.g.
   * revoked), pending (sent, not used yet).
   */
  state: InvitationState,
  createdAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Invitation = z.infer<typeof Invitation>;

const RedirectTo = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => value === '' || /^https?:\/\/\S+$/i.test(value), 'Use a full http(s) address')
  .nullable();

/** A CSV import sent by an invite job: its invitations carry `source`, so the list can find them again. */
export const ImportBatch = z.object({
  source: z.string(),
  fileName: z.string(),
  target: InviteTarget,
  jobId: z.string(),
  createdAt: z.string(),
  /** Rows of the file, and how many of them were invited so far. */
  rows: z.number().int(),
  invited: z.number().int(),
});
export type ImportBatch = z.infer<typeof ImportBatch>;

export const CatalogItem = z.object({ id: z.string(), name: z.string() });
export type CatalogItem = z.infer<typeof CatalogItem>;

// ---------------------------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------------------------

export const CSV_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export const CsvEncoding = z.enum(CSV_ENCODINGS);
export type CsvEncoding = z.infer<typeof CsvEncoding>;

export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export const CsvDelimiter = z.enum(CSV_DELIMITERS);
export type CsvDelimiter = z.infer<typeof CsvDelimiter>;

export const IMPORT_STATES = [
  'sniffed', // opened: encoding, delimiter, header row and columns guessed; rows not read yet
  'parsing', // reading and validating every row (off the UI thread)
  'parsed', // rows stored; no target chosen yet
  'checking', // asking the platform who is already invited or a member
  'ready', // the admin can review, fix and confirm
  'failed', // reading failed (see error); settings can be changed and the file read again
  'started', // confirmed: an invite job sends it
] as const;
export const ImportState = z.enum(IMPORT_STATES);
export type ImportState = z.infer<typeof ImportState>;

export const ROW_STATUSES = ['ok', 'invalid', 'duplicate', 'already_invited', 'already_member'] as const;
export const RowStatus = z.enum(ROW_STATUSES);
export type RowStatus = z.infer<typeof RowStatus>;

export const ROW_FILTERS = ['all', 'problems', 'ok', 'already', 'dropped'] as const;
export const RowFilter = z.enum(ROW_FILTERS);
export type RowFilter = z.infer<typeof RowFilter>;

export const ImportColumn = z.object({
  index: z.number().int(),
  header: z.string(),
  field: InviteField.nullable(),
  /** The mapping came from what the admin chose for this header before (per tenant). */
  remembered: z.boolean(),
  samples: z.array(z.string()),
});
export type ImportColumn = z.infer<typeof ImportColumn>;

export const ImportSummary = z.object({
  /** Rows read (not counting the header, title lines and blank lines). */
  rows: z.number().int(),
  ok: z.number().int(),
  invalid: z.number().int(),
  duplicate: z.number().int(),
  alreadyInvited: z.number().int(),
  alreadyMember: z.number().int(),
  dropped: z.number().int(),
  /** How many people confirming would email. */
  willEmail: z.number().int(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

/**
 * What becomes of an import's rows, in one vocabulary for the review, the confirmation, the job's result, its report
 * and the CLI: the job's counts use these keys, and the review's summary maps onto them (`summaryCounts`).
 */
export const IMPORT_OUTCOMES = [
  'invited',
  'invalid',
  'duplicate',
  'alreadyInvited',
  'alreadyMember',
  'dropped',
  'failed',
] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];
export type OutcomeCounts = Partial<Record<ImportOutcome, number>>;

/** The words after a count: `sent` once the job has run ("invited"), before it the promise ("will be emailed"). */
export function outcomeWords(outcome: ImportOutcome, n: number, sent: boolean): string {
  switch (outcome) {
    case 'invited':
      return sent ? 'invited' : 'will be emailed';
    case 'invalid':
      return 'invalid';
    case 'duplicate':
      return n === 1 ? 'duplicate' : 'duplicates';
    case 'alreadyInvited':
      return 'already invited';
    case 'alreadyMember':
      return n === 1 ? 'already a member' : 'already members';
    case 'dropped':
      return 'left out';
    case 'failed':
      return 'failed';
  }
}

/** The review's summary in the job's terms: what confirming would send is what the job will have invited. */
export function summaryCounts(summary: ImportSummary): Required<OutcomeCounts> {
  return {
    invited: summary.willEmail,
    invalid: summary.invalid,
    duplicate: summary.duplicate,
    alreadyInvited: summary.alreadyInvited,
    alreadyMember: summary.alreadyMember,
    dropped: summary.dropped,
    failed: 0,
  };
}

/** "1 row", "2 rows": counts as the admin reads them (the CLI and the screens alike). */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export const ImportDraft = z.object({
  id: z.string(),
  profileId: z.string(),
  name: z.string(),
  size: z.number(),
  encoding: CsvEncoding,
  bom: z.boolean(),
  delimiter: CsvDelimiter,
  /** 0-based record holding the column names; null when the file has none. */
  headerRow: z.number().int().nullable(),
  /** The first records of the file as read with the current settings (to pick the header row). */
  preview: z.array(z.array(z.string())),
  columns: z.array(ImportColumn),
  target: InviteTarget.nullable(),
  redirectTo: z.string().nullable(),
  active: z.boolean(),
  state: ImportState,
  phase: z.string(),
  progress: z.object({ rows: z.number().int(), bytes: z.number(), totalBytes: z.number() }),
  summary: ImportSummary,
  /** Things the admin should know (unknown columns ignored, ragged rows, checks that could not run…). */
  notices: z.array(z.string()),
  error: z.string().nullable(),
  jobId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ImportDraft = z.infer<typeof ImportDraft>;

export const RowProblem = z.object({ field: InviteField.nullable(), message: z.string() });
export type RowProblem = z.infer<typeof RowProblem>;

export const ImportRow = z.object({
  /** The record's number in the file (1-based; title lines and the header count). */
  line: z.number().int(),
  values: z.record(InviteField, z.string()),
  status: RowStatus,
  problems: z.array(RowProblem),
  /** For duplicates: the line of the first row with the same address. */
  duplicateOf: z.number().int().nullable(),
  dropped: z.boolean(),
  edited: z.boolean(),
});
export type ImportRow = z.infer<typeof ImportRow>;

const ImportRef = z.object({ id: z.string().min(1) }).strict();
const Wait = { wait: z.boolean().optional() };

export const ImportOpenInput = z.union([
  z.object({ ...Tenant, path: z.string().min(1).max(4096) }).strict(),
  z
    .object({
      ...Tenant,
      name: z.string().min(1).max(255),
      /** Small files from the page (the app's page passes a handle to a dropped, chosen or staged file instead). */
      text: z.string().max(3_000_000, 'The text is too long: pass the file by its path instead'),
    })
    .strict(),
]);

export const invitationCalls = {
  'invitations.list': call(
    z
      .object({
        ...Tenant,
        target: InviteTarget,
        active: z.boolean().optional(),
        /** An exact address: the platform filters by it. */
        email: z.string().trim().max(320).optional(),
        /**
         * Part of an address, a username or a name, any case. The platform filters addresses only exactly, so this
         * is answered from the app's copy of the whole list (read again when older than a minute, or on `refresh`).
         */
        search: z.string().trim().max(320).optional(),
        /** Exact, as the platform filters it: an import batch's tag (see `invitations.batches`), a campaign… */
        source: z.string().trim().max(1000).optional(),
        /** Read the list again from the tenant now (the copy behind `search` included). */
        refresh: z.boolean().optional(),
        page: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(1).max(100).default(25),
      })
      .strict(),
    z.object({
      invitations: z.array(Invitation),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
      /** `cache`: from the app's copy (a search, or the tenant could not be reached), as of `asOf`. */
      freshness: Freshness,
    }),
    'Invitations to the platform, a course or a program, newest first',
  ),
  'invitations.batches': call(
    z
      .object({ ...Tenant })
      .strict()
      .optional(),
    z.object({ batches: z.array(ImportBatch) }),
    "The tenant's CSV imports sent from this app, newest first: each one's `source` finds its invitations again",
  ),
  'invitations.create': call(
    z
      .object({
        ...Tenant,
        target: InviteTarget,
        email: z.string().trim().min(1, 'Email is required').max(254),
        /** Kept as metadata by the platform, which sets no length on them. */
        firstName: z.string().trim().max(1000).optional(),
        lastName: z.string().trim().max(1000).optional(),
        redirectTo: RedirectTo.optional(),
        active: z.boolean().default(true),
      })
      .strict(),
    Invitation,
    'Invite one person (emails them)',
  ),
  'invitations.revoke': call(
    z.object({ ...Tenant, target: InviteTarget, id: z.number().int().positive() }).strict(),
    Ok,
    'Revoke (delete) an invitation',
  ),
  'invitations.courses': call(
    z
      .object({ ...Tenant })
      .strict()
      .optional(),
    z.object({ courses: z.array(CatalogItem) }),
    "The tenant's courses, for pickers",
  ),
  'invitations.programs': call(
    z
      .object({ ...Tenant })
      .strict()
      .optional(),
    z.object({ programs: z.array(CatalogItem) }),
    "The tenant's programs, for pickers",
  ),

  'invitations.importOpen': call(
    ImportOpenInput,
    ImportDraft,
    'Open a CSV file: detect encoding, delimiter, header row and columns; reads no further and sends nothing',
    { localPaths: { path: 'read' } },
  ),
  'invitations.importConfigure': call(
    z
      .object({
        id: z.string().min(1),
        encoding: CsvEncoding.optional(),
        delimiter: CsvDelimiter.optional(),
        headerRow: z.number().int().min(0).max(1000).nullable().optional(),
        /** One entry per column: the field it fills, or null to ignore it. */
        mapping: z.array(InviteField.nullable()).max(1000).optional(),
      })
      .strict(),
    ImportDraft,
    'Change how the file is read (encoding, delimiter, header row, column mapping)',
  ),
  'invitations.importParse': call(
    z.object({ id: z.string().min(1), ...Wait }).strict(),
    ImportDraft,
    'Read and validate every row (in the background; `wait` resolves when done)',
  ),
  'invitations.importTarget': call(
    z
      .object({
        id: z.string().min(1),
        target: InviteTarget,
        redirectTo: RedirectTo.optional(),
        active: z.boolean().optional(),
        ...Wait,
      })
      .strict(),
    ImportDraft,
    'Choose where to invite; checks who is already invited or a member',
  ),
  'invitations.importGet': call(ImportRef, ImportDraft, 'An import with its state and summary'),
  'invitations.importRows': call(
    z
      .object({
        id: z.string().min(1),
        filter: RowFilter.default('all'),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    z.object({ rows: z.array(ImportRow), total: z.number().int() }),
    'A page of the rows of an import',
  ),
  'invitations.importEditRow': call(
    z
      .object({ id: z.string().min(1), line: z.number().int().min(1), field: InviteField, value: z.string().max(1000) })
      .strict(),
    ImportRow,
    'Fix a cell in place; the row is validated again',
  ),
  'invitations.importDropRows': call(
    z
      .object({
        id: z.string().min(1),
        lines: z.array(z.number().int().min(1)).min(1).max(100_000),
        dropped: z.boolean(),
      })
      .strict(),
    z.object({ changed: z.number().int() }),
    'Leave rows out of the import (or bring them back)',
  ),
  'invitations.importStart': call(
    z
      .object({
        id: z.string().min(1),
        /**
         * Invalid rows were left out on purpose (`invite --skip-invalid`): they do not count as failures of the job.
         * Kept with the job (a resumed one takes the latest choice), so `jobs resume` judges it the same way.
         */
        skipInvalid: z.boolean().optional(),
      })
      .strict(),
    z.object({ jobId: z.string(), resumed: z.boolean() }),
    'Confirmed: start the invite job (resumes an unfinished job for the same file and target)',
  ),
  'invitations.importDiscard': call(ImportRef, Ok, 'Forget an import and its rows'),
} as const;

export const invitationEvents = {
  'invitations.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [{ call: 'invitations.list', by: ['profileId'] }],
  }),
  /** An import's draft moved on (read, checked, fixed, sent): its summary and rows are views of it. */
  'invitations.importChanged': event(z.object({ id: z.string(), state: ImportState }), {
    invalidates: [
      { call: 'invitations.importGet', by: ['id'] },
      { call: 'invitations.importRows', by: ['id'] },
    ],
  }),
} as const;
