/**
 * Membership kinds (department members, user group members): who is in which group, put there in bulk from a CSV file.
 * The spec declares the bulk calls ("Add users to department, or update status", "Add users to user group, or update
 * status") with no body and no answer, so their shapes below are INFERRED, as the single-member calls' shapes are
 * (groups.ts): the group by the same id field as the single add (`department_id`, `group_id`), its people by `username`
 * or `email` as the single add takes one, and an answer that says per person, in the order given, whether they were
 * added, were in the group already, or are not the tenant's. The app and the sandbox share these schemas.
 *
 * `departments/members/check/` ("Get department member admin info of requesting user") tells about the caller, not
 * about the people of a file, so an import does not use it; the sandbox answers it (areas/resources/members-bulk.ts).
 */
import { z } from 'zod';
import type { OperationRef } from './kit';

/** What a membership kind's CSV import needs to know besides its declaration. */
export interface MembershipImport {
  /** The kind of the groups people are put in, and the body field that names one. */
  groupKind: 'departments' | 'user-groups';
  groupField: 'department_id' | 'group_id';
  bulk: OperationRef;
  /** The group column's header on the screen, and its other spellings (the person column's are PERSON_SYNONYMS). */
  groupLabel: string;
  groupSynonyms: readonly string[];
}

/** A person as the bulk body names one: by username, or by email. */
export const BulkPerson = z.union([
  z.object({ username: z.string().min(1) }).strict(),
  z.object({ email: z.string().min(1) }).strict(),
]);
export type BulkPerson = z.infer<typeof BulkPerson>;

export const BULK_STATUSES = ['added', 'already', 'not_found'] as const;

export const BulkMemberResult = z
  .object({
    username: z.string().nullish(),
    email: z.string().nullish(),
    user_id: z.number().int().nullable(),
    status: z.enum(BULK_STATUSES),
    detail: z.string().optional(),
  })
  .loose();

/** The bulk answer: one result per person of the body, in its order. */
export const BulkMembersAnswer = z.object({ results: z.array(BulkMemberResult) }).loose();
export type BulkMembersAnswer = z.infer<typeof BulkMembersAnswer>;

/** The person a CSV cell names: an address is an email, anything else a username. */
export const bulkPersonOf = (cell: string): BulkPerson =>
  cell.includes('@') ? { email: cell.trim() } : { username: cell.trim() };

/** Header spellings of the two columns of a membership file (matched as the invitations import matches its own). */
export const PERSON_SYNONYMS = [
  'person',
  'user',
  'username',
  'user name',
  'login',
  'email',
  'e-mail',
  'mail',
  'email address',
  'e-mail address',
  'email or username',
  'username or email',
  'work email',
];
