/** What the runner and a kind of job (train, invite, export, …) agree on: what a run gets, and how it ends early. */
import type { Job, JobKind } from '../../../shared/contract';
import type { PlatformClient } from '../platform';
import type { Log } from '../log';
import type { ItemRow, JobJournal, JobRow } from './journal';
import type { Slots } from './limiter';

/** What a job kind gets while it runs. */
export interface JobContext {
  job: JobRow;
  params: unknown;
  journal: JobJournal;
  /** Aborted when the job is paused or cancelled (here or by another process), or the app quits. */
  signal: AbortSignal;
  /** The platform client of the job's tenant. */
  client(): Promise<PlatformClient>;
  /** The job's concurrency within its tenant's shared one. */
  limiter: Slots;
  /** Sets the phase shown to the admin and emits progress (throttled). */
  progress(phase?: string): void;
  log: Log;
  /**
   * What the code that has just written the job handed its first run in memory (its work list, as written), so the
   * run need not read back what was written a moment ago; undefined on every other run (a resume reads the journal).
   */
  handoff?: unknown;
}

/** A job's items as CSV (jobs.exportReport): the header, and one row per item. */
export interface ItemReport {
  header: string[];
  row(item: ItemRow): unknown[];
}

/**
 * One kind of job (train, invite, export, …), declared in its area, which registers it with the runner. `run` must be
 * idempotent per item: it may be called again after a crash.
 */
export interface JobKindRunner {
  kind: JobKind;
  run(ctx: JobContext): Promise<void>;
  /** Its item report's columns (default: the journal's own: key, label, state, step, error, attempts, bytes). */
  report?: ItemReport;
  /**
   * Its jobs commit one journal row per item, thousands in a row (training, invitations): the engine then moves
   * SQLite's checkpoints off its thread. Others (exports, replies) commit rarely and spare the worker's memory.
   */
  bulkWrites?: boolean;
  /** Called when a job finishes, for notifications and follow-up work. */
  finished?(job: Job): void;
}

/** Ends a job as failed with a message for the admin (e.g. its mentor was deleted). */
export class JobFailed extends Error {
  override name = 'JobFailed';
}

/** Pauses a job until the admin (or a profile change) resumes it. */
export class JobNeedsAttention extends Error {
  override name = 'JobNeedsAttention';
}
