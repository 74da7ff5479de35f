/**
 * Column matching: which column of the file fills which invitation field. Remembered choices of the tenant come
 * first, then synonyms, then a look at the values (a column of addresses is the email column).
 */
import { INVITE_FIELDS, type InviteField } from '../../../shared/contract';

/** Header spellings seen in spreadsheets, compared after `normaliseHeader`. */
const SYNONYMS: Record<InviteField, string[]> = {
  email: ['email', 'e-mail', 'mail', 'email address', 'e-mail address', 'emails', 'email id', 'work email', 'courriel'],
  first_name: ['first name', 'firstname', 'given name', 'forename', 'first', 'prenom', 'vorname'],
  last_name: ['last name', 'lastname', 'surname', 'family name', 'last', 'nom', 'nachname'],
  company_name: [
    'company',
    'organisation',
    'organization',
    'company name',
    'organisation name',
    'organization name',
    'employer',
  ],
  user_group: ['user group', 'group', 'usergroup', 'group name', 'cohort'],
  user_group_owner_email: [
    'group owner email',
    'user group owner email',
    'group owner',
    'owner email',
    'group owner e-mail',
  ],
};

/** Lower case, accents and punctuation gone: "E-Mail Address " → "emailaddress". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const SYNONYM_INDEX = new Map<string, InviteField>();
for (const field of INVITE_FIELDS) {
  SYNONYM_INDEX.set(normaliseHeader(field), field);
  for (const name of SYNONYMS[field]) SYNONYM_INDEX.set(normaliseHeader(name), field);
}

export function fieldForHeader(header: string): InviteField | null {
  return SYNONYM_INDEX.get(normaliseHeader(header)) ?? null;
}

export interface MatchedColumn {
  index: number;
  header: string;
  field: InviteField | null;
  remembered: boolean;
}

/**
 * One field per column and one column per field, in column order. `memory` maps a normalised header to what the
 * admin chose for it before ('' = ignore). `samples` are a few values per column.
 */
export function matchColumns(
  headers: readonly string[],
  memory: ReadonlyMap<string, string>,
  samples: readonly (readonly string[])[],
): MatchedColumn[] {
  const taken = new Set<InviteField>();
  const columns: MatchedColumn[] = headers.map((header, index) => ({ index, header, field: null, remembered: false }));
  for (const column of columns) {
    const remembered = memory.get(normaliseHeader(column.header));
    if (remembered === undefined) continue;
    column.remembered = true;
    const field = (INVITE_FIELDS as readonly string[]).includes(remembered) ? (remembered as InviteField) : null;
    if (field && !taken.has(field)) {
      column.field = field;
      taken.add(field);
    }
  }
  for (const column of columns) {
    if (column.remembered) continue;
    const field = fieldForHeader(column.header);
    if (field && !taken.has(field)) {
      column.field = field;
      taken.add(field);
    }
  }
  if (!taken.has('email')) {
    // No header says "email": the column whose values mostly look like addresses is it.
    const candidate = columns.find((column) => {
      if (column.field || column.remembered) return false;
      const values = (samples[column.index] ?? []).filter((v) => v.trim());
      return (
        values.length > 0 && values.filter((v) => /^[^\s@]+@[^\s@]+$/.test(v.trim())).length / values.length >= 0.6
      );
    });
    if (candidate) candidate.field = 'email';
  }
  return columns;
}
