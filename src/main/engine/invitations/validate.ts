/**
 * Validation of one imported row with zod: a required email address of valid syntax (international domains too).
 * Duplicates inside the file and who is already invited are decided over all rows (see rows.ts, checks.ts).
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

/** The longest address (RFC 5321 §4.5.3.1: a 256-octet path less its angle brackets). */
export const MAX_EMAIL = 254;

type Report = (field: InviteField, message: string) => void;

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

/**
 * The platform's rules for a row, from the spec: `email` is required (the bulk call's description) and is
 * `format: email`. Nothing else of a row has a rule: names, company, user group and its owner are "additional
 * parameters", stored as metadata (the group owner is optional, so is the group). Doubts about those columns are
 * told once per column (`columnNotices`, `readNotices`), never as row errors.
 */
function checkRow(row: RowValues, report: Report, emailIsGood: boolean): void {
  const { email } = row;
  if (email === '') report('email', 'Email is required');
  else if (email.length > MAX_EMAIL) report('email', `Email is longer than ${MAX_EMAIL} characters`);
  else if (!emailIsGood) {
    const problem = emailProblem(email);
    if (problem) report('email', problem);
  }
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
const Rows = z.array(RowShape).check((ctx) => {
  const rows = ctx.value;
  let index = 0;
  const report: Report = (field, message) =>
    ctx.issues.push({ code: 'custom', path: [index, field], message, input: rows[index]![field] });
  for (; index < rows.length; index++) checkRow(rows[index]!, report, !!goodAddresses[index]);
});

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
export function validateRows(rows: readonly RowValues[]): ValidatedRows {
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
    result = Rows.safeParse(rows);
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
