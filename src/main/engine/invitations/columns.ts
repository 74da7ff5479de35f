/**
 * Column matching for invitations: the invitation fields and their spellings in spreadsheets, over the shared
 * matcher (csv-import/columns.ts). Without a header that says "email", a column of addresses is the email column.
 */
import { INVITE_FIELDS, type InviteField } from '../../../shared/contract';
import { columnMatcher, type MatchedColumn } from '../csv-import';

export { normaliseHeader } from '../csv-import';
export type InviteColumn = MatchedColumn<InviteField>;

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

export const inviteColumns = columnMatcher<InviteField>(
  INVITE_FIELDS.map((name) => ({ name, synonyms: SYNONYMS[name] })),
  (columns, samples, taken) => {
    if (taken.has('email')) return;
    // No header says "email": the column whose values mostly look like addresses is it.
    const candidate = columns.find((column) => {
      if (column.field || column.remembered) return false;
      const values = (samples[column.index] ?? []).filter((v) => v.trim());
      return (
        values.length > 0 && values.filter((v) => /^[^\s@]+@[^\s@]+$/.test(v.trim())).length / values.length >= 0.6
      );
    });
    if (candidate) candidate.field = 'email';
  },
);

export const fieldForHeader = inviteColumns.fieldForHeader;
export const matchColumns = inviteColumns.matchColumns;
