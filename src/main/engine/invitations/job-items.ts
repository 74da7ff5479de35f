/**
 * Writing an invite job from an import: one journal item per input row, in file order, in one transaction with the
 * job and its first counts. Rows that will not be sent are settled from the start, with the reason; the others wait
 * for the job. Runs in the worker thread (a million items is a lot of SQLite work).
 */
import type { JobKind } from '../../../shared/contract/jobs';
import { JobJournal, type NewItem } from '../jobs';
import type { Db } from '../store';
import type { InviteCounts, InviteItemData } from './job';
import { ImportRows, type StoredRow } from './import-rows-store';
import { asciiEmail, type RowValues } from './validate';

export interface CreateJobInput {
  importId: string;
  profileId: string;
  title: string;
  params: unknown;
}

const OPTIONAL_FIELDS = ['first_name', 'last_name', 'company_name', 'user_group', 'user_group_owner_email'] as const;

/**
 * What the platform gets for a row besides target and source: non-empty fields, addresses in ASCII form. A group
 * owner that is not an address is left out (the owner is optional; the person is still invited into the group), as
 * the import's notice says.
 */
export function fieldsOf(row: RowValues): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of OPTIONAL_FIELDS) if (row[field]) fields[field] = row[field];
  if (fields.user_group_owner_email) {
    const owner = asciiEmail(fields.user_group_owner_email);
    if (owner) fields.user_group_owner_email = owner;
    else delete fields.user_group_owner_email;
  }
  return fields;
}

const SETTLED: Record<string, keyof InviteCounts> = {
  invalid: 'invalid',
  duplicate: 'duplicate',
  dropped: 'dropped',
  already_invited: 'alreadyInvited',
  already_member: 'alreadyMember',
};

export function itemOf(row: StoredRow): NewItem {
  const data: InviteItemData = { line: row.line, email: row.email, emailKey: row.email_key, fields: fieldsOf(row) };
  const to = row.email ? asciiEmail(row.email) : null;
  if (to && to !== row.email) data.to = to;
  const base = { key: `line:${row.line}`, label: row.email || `Line ${row.line}` };
  const settled = (phase: string, message: string): NewItem => ({
    ...base,
    state: 'skipped',
    phase,
    data: { ...data, message },
  });
  if (row.dropped) return settled('dropped', 'Left out in the import wizard');
  switch (row.status) {
    case 'ok':
      return { ...base, state: 'pending', phase: '', data };
    case 'invalid': {
      const problems = row.problems ? (JSON.parse(row.problems) as { message: string }[]) : [];
      return settled('invalid', problems.map((p) => p.message).join('; ') || 'Invalid row');
    }
    case 'duplicate':
      return settled('duplicate', `The same address as line ${row.dup_of}`);
    case 'already_invited':
      return settled('already_invited', 'Already invited');
    case 'already_member':
      return settled('already_member', 'Already a member');
  }
}

/** Writes the job, every item and the counts of the rows settled from the start; answers the job's id. */
export function createInviteJob(db: Db, input: CreateJobInput): { jobId: string } {
  const rows = new ImportRows(db);
  const journal = new JobJournal(db);
  const counts: InviteCounts = {};
  function* items(): Generator<NewItem> {
    for (const row of rows.inOrder(input.importId)) {
      const item = itemOf(row);
      const key = item.phase ? SETTLED[item.phase] : undefined;
      if (key) counts[key] = (counts[key] ?? 0) + 1;
      yield item;
    }
  }
  const jobId = journal.transaction(() => {
    const id = journal.create({
      kind: 'invite' satisfies JobKind,
      profileId: input.profileId,
      title: input.title,
      params: input.params,
      items: items(),
    });
    journal.addCounts(id, counts);
    return id;
  });
  return { jobId };
}
