/**
 * Validation of one imported row with zod: email syntax (international domains too), required fields and field
 * lengths. Duplicates inside the file and who is already invited are decided over all rows (see rows.ts, checks.ts).
 */
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { INVITE_FIELDS, type InviteField, type RowProblem } from '../../../shared/contract/invitations';

export type RowValues = Record<InviteField, string>;

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const ASCII_DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const NON_ASCII = /[^\x00-\x7f]/;
const HAS_UPPER = /[A-Z]/;
/** LOCAL_PART@ASCII_DOMAIN, in one expression (lengths and the top-level domain are checked apart). */
const PLAIN_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** The common case without copies: a plain ASCII address of the right lengths whose top-level domain has a letter. */
function isPlainAddress(value: string): boolean {
  if (value.length > 254 || !PLAIN_ADDRESS.test(value)) return false;
  if (value.indexOf('@') > 64) return false;
  for (let i = value.length - 1; i >= 0; i--) {
    const c = value.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) return true;
    if (value.charCodeAt(i) === 0x2e) return false;
  }
  return false;
}

/**
 * The address as the platform accepts it: the domain of an international address in its ASCII (punycode) form,
 * e.g. `anna@bücher.de` → `anna@xn--bcher-kva.de`. Null when it is not an address.
 */
export function asciiEmail(value: string): string | null {
  // Nearly every address is plain ASCII: no copies.
  if (isPlainAddress(value)) return value;
  if (value === last.input) return last.output;
  const at = value.lastIndexOf('@');
  let output: string | null = null;
  if (at >= 1 && at < value.length - 1) {
    const local = value.slice(0, at);
    const domain = asciiDomain(value.slice(at + 1));
    if (domain && local.length <= 64 && LOCAL_PART.test(local)) output = `${local}@${domain}`;
  }
  last.input = value;
  last.output = output;
  return output;
}

const last: { input: string | null; output: string | null } = { input: null, output: null };

/** Cohorts share a handful of domains: each is converted and checked once. */
const domains = new Map<string, string | null>();

function asciiDomain(domain: string): string | null {
  let known = domains.get(domain);
  if (known !== undefined) return known;
  let ascii = NON_ASCII.test(domain) ? domainToASCII(domain) : domain;
  if (!ascii || ascii.length > 253 || !ASCII_DOMAIN.test(ascii)) ascii = '';
  // A top-level domain has letters: "anna@10.0.0.1" is not an address the platform emails.
  if (ascii && !/[a-z]/i.test(ascii.slice(ascii.lastIndexOf('.') + 1))) ascii = '';
  known = ascii || null;
  if (domains.size >= 10_000) domains.clear();
  domains.set(domain, known);
  return known;
}

function emailProblem(value: string): string | null {
  if (asciiEmail(value)) return null;
  if (/\s/.test(value)) return 'Not a valid email address (it contains a space)';
  if (!value.includes('@')) return 'Not a valid email address (no @)';
  if (NON_ASCII.test(value.slice(0, value.lastIndexOf('@')))) {
    return 'Not a valid email address (letters with accents before the @ are not accepted)';
  }
  if (value.includes('\uFFFD')) return 'The address has characters that could not be read: check the file encoding';
  return 'Not a valid email address';
}

export const MAX_LENGTHS: Record<InviteField, number> = {
  email: 254,
  first_name: 150,
  last_name: 150,
  company_name: 255,
  user_group: 255,
  user_group_owner_email: 254,
};

const LABELS: Record<InviteField, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  company_name: 'Company',
  user_group: 'User group',
  user_group_owner_email: 'Group owner email',
};

type Report = (field: InviteField, message: string) => void;

function tooLong(row: RowValues, field: InviteField, report: Report): boolean {
  if (row[field].length <= MAX_LENGTHS[field]) return false;
  report(field, `${LABELS[field]} is longer than ${MAX_LENGTHS[field]} characters`);
  return true;
}

function unreadable(row: RowValues, field: InviteField, report: Report): void {
  if (row[field].includes('\uFFFD')) {
    report(field, `${LABELS[field]} has characters that could not be read: check the file encoding`);
  }
}

/** The rules of a row: a required, valid email; valid addresses; lengths; a user group needs its owner. */
function checkRow(row: RowValues, report: Report, readCheck: boolean, emailIsGood: boolean): void {
  const { email, user_group_owner_email: owner } = row;
  if (email === '') report('email', 'Email is required');
  else if (!tooLong(row, 'email', report) && !emailIsGood) {
    const problem = emailProblem(email);
    if (problem) report('email', problem);
  }
  if (owner && !tooLong(row, 'user_group_owner_email', report) && !(emailIsGood && owner === email)) {
    const problem = emailProblem(owner);
    if (problem) report('user_group_owner_email', problem);
  }
  tooLong(row, 'first_name', report);
  tooLong(row, 'last_name', report);
  tooLong(row, 'company_name', report);
  tooLong(row, 'user_group', report);
  if (readCheck) {
    unreadable(row, 'first_name', report);
    unreadable(row, 'last_name', report);
    unreadable(row, 'company_name', report);
    unreadable(row, 'user_group', report);
  }
  // The platform puts an invitee into a user group through its owner: one without the other is a mistake.
  if (row.user_group && !owner) report('user_group_owner_email', 'Group owner email is required with a user group');
}

const RowShape = z.object({
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  company_name: z.string(),
  user_group: z.string(),
  user_group_owner_email: z.string(),
});

/** Whether each row's address is already known to be good (its key was computed just before validating). */
let goodAddresses: readonly (string | null)[] = [];

/**
 * Rows of an import, after trimming: zod checks their shape, then the rules of each row. The rules run as one check
 * over the batch (not one refinement per field): validating a million rows stays close to the cost of parsing them.
 */
const rowsWithRules = (readCheck: boolean) =>
  z.array(RowShape).check((ctx) => {
    const rows = ctx.value;
    let index = 0;
    const report: Report = (field, message) =>
      ctx.issues.push({ code: 'custom', path: [index, field], message, input: rows[index]![field] });
    for (; index < rows.length; index++) checkRow(rows[index]!, report, readCheck, !!goodAddresses[index]);
  });

const Rows = rowsWithRules(false);
/**
 * The same, also flagging cells with characters the decoder could not read (U+FFFD: the file's encoding was
 * guessed wrong). Used once such a character has been seen, and for fixes typed by the admin.
 */
const RowsReadCheck = rowsWithRules(true);

export interface ValidatedRows {
  problems: (RowProblem[] | null)[];
  /** Lower-cased ASCII addresses: what duplicates and "already invited" compare. */
  keys: (string | null)[];
}

export function emptyValues(): RowValues {
  return { email: '', first_name: '', last_name: '', company_name: '', user_group: '', user_group_owner_email: '' };
}

const isField = (value: unknown): value is InviteField =>
  typeof value === 'string' && (INVITE_FIELDS as readonly string[]).includes(value);

/**
 * Validates trimmed rows with zod, a batch at a time (one parse per few thousand rows: the per-call cost of zod
 * would otherwise dominate reading a large file).
 */
export function validateRows(rows: readonly RowValues[], readCheck = true): ValidatedRows {
  const problems: (RowProblem[] | null)[] = new Array<RowProblem[] | null>(rows.length).fill(null);
  const keys: (string | null)[] = new Array<string | null>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const given = rows[i]!.email;
    const email = given ? asciiEmail(given) : null;
    keys[i] = email && (HAS_UPPER.test(email) ? email.toLowerCase() : email);
  }
  goodAddresses = keys;
  let result;
  try {
    result = (readCheck ? RowsReadCheck : Rows).safeParse(rows);
  } finally {
    goodAddresses = [];
  }
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [index, field] = issue.path;
      if (typeof index !== 'number') continue;
      (problems[index] ??= []).push({ field: isField(field) ? field : null, message: issue.message });
    }
  }
  return { problems, keys };
}

export interface ValidatedRow {
  problems: RowProblem[] | null;
  emailKey: string | null;
}

/** Trims every field in place and validates one row (a fix typed by the admin). */
export function validateRow(values: RowValues): ValidatedRow {
  for (const field of INVITE_FIELDS) values[field] = values[field].trim();
  const { problems, keys } = validateRows([values]);
  return { problems: problems[0] ?? null, emailKey: keys[0] ?? null };
}
