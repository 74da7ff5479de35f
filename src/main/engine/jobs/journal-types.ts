/** The shapes the job journal (journal.ts) reads and writes: a job, its items, their changes and filters. */
import type { ItemState, JobKind, JobState } from '../../../shared/contract';

export interface JobRow {
  id: string;
  kind: JobKind;
  profile_id: string | null;
  title: string;
  state: JobState;
  reason: string | null;
  error: string | null;
  phase: string;
  params: string;
  counts: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The runner (of some Mentor Admin process) that runs the job or holds it waiting; see `claim`. */
  runner: string | null;
  runner_pid: number | null;
  runner_host: string | null;
  runner_seen_at: number | null;
  retry_at: string | null;
  gives_up_at: string | null;
  wait_limit_minutes: number | null;
}

/** A runner as the journal names it: its own id, and the process it lives in. */
export interface RunnerIdentity {
  id: string;
  pid: number;
  host: string;
}

export interface ItemRow {
  id: number;
  job_id: string;
  key: string;
  label: string;
  state: ItemState;
  phase: string;
  bytes: number;
  attempts: number;
  error: string | null;
  data: string;
  updated_at: string;
}

/** An item as a kind's work list reads it (JobJournal.workIn). */
export type WorkItem = Pick<ItemRow, 'id' | 'phase' | 'data'>;

export interface NewItem {
  key: string;
  label: string;
  state?: ItemState;
  phase?: string;
  bytes?: number;
  error?: string | null;
  data?: Record<string, unknown>;
}

/** A change to an item; what it leaves out stays as it is. */
export interface ItemChange {
  state?: ItemState;
  phase?: string;
  /** null clears it. */
  error?: string | null;
  bytes?: number;
  /** Counts one more attempt. */
  attempt?: boolean;
  /** Merged into the item's data (SQLite's json_patch: a key set to null is removed). */
  data?: Record<string, unknown>;
}

export interface ItemTotals {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  active: number;
  bytesTotal: number;
  bytesDone: number;
}

/** Which jobs: every condition given must hold. `params` compares top-level values of the job's params. */
export interface JobFilter {
  profileId?: string;
  kind?: JobKind;
  states?: JobState[];
  params?: Record<string, string | number>;
}

/** Newest first (the default), oldest first, or most recently changed first. */
export type JobOrder = 'newest' | 'oldest' | 'updated';

/** The jobs a live runner may still run or resume. */
export const UNFINISHED_STATES: JobState[] = ['queued', 'running', 'waiting', 'paused'];
