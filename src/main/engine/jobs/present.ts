/** Journal rows as the contract shows them. */
import type { Job, JobItem } from '../../../shared/contract';
import { IMPORT_WORDS_BY_JOB_KIND } from '../../../shared/import-summary';
import type { ItemRow, JobRow } from './journal';

export function presentItem(row: ItemRow): JobItem {
  return {
    id: row.id,
    key: row.key,
    label: row.label,
    state: row.state,
    phase: row.phase,
    bytes: row.bytes,
    attempts: row.attempts,
    error: row.error,
    detail: JSON.parse(row.data) as Record<string, unknown>,
    updatedAt: row.updated_at,
  };
}

/** What an invite job's params say about judging it; the rest of them is the invitations area's business. */
interface InviteChoices {
  skipInvalid?: boolean;
}

/** A people-file import's mode (its params hold more: the people-import job's business). */
interface PeopleFileMode {
  mode?: string;
}

export function presentJob(row: JobRow, progress: Job['progress'], runner: Job['runner']): Job {
  return {
    id: row.id,
    kind: row.kind,
    profileId: row.profile_id,
    title: row.title,
    state: row.state,
    reason: row.reason,
    error: row.error,
    counts: JSON.parse(row.counts) as Record<string, number>,
    progress,
    ...(row.kind === 'invite' && { skipInvalid: (JSON.parse(row.params) as InviteChoices).skipInvalid === true }),
    ...(row.kind in IMPORT_WORDS_BY_JOB_KIND && {
      dryRun: (JSON.parse(row.params) as PeopleFileMode).mode === 'dry-run',
    }),
    retryAt: row.state === 'waiting' ? row.retry_at : null,
    givesUpAt: row.state === 'waiting' ? row.gives_up_at : null,
    waitLimitMinutes: row.wait_limit_minutes,
    runner,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
