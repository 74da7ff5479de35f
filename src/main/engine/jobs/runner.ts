import type { EventName, EventPayload, Job, JobKind } from '../../../shared/contract';
import { ApiError, NetworkError, RequestAbortedError, TimeoutError, type PlatformClient } from '../platform';
import { notFound, conflict } from '../errors';
import type { Log } from '../log';
import { TenantLimits, type Slots } from './limiter';
import { ProgressMeter } from './progress';
import { type ItemTotals, type JobStore, presentJob, type JobRow } from './store';

/** What a job kind gets while it runs. */
export interface JobContext {
  job: JobRow;
  params: unknown;
  store: JobStore;
  /** Aborted when the job is paused, cancelled, or the app quits. */
  signal: AbortSignal;
  /** The platform client of the job's tenant. */
  client(): Promise<PlatformClient>;
  /** The job's concurrency within its tenant's shared one. */
  limiter: Slots;
  /** Sets the phase shown to the admin and emits progress (throttled). */
  progress(phase?: string): void;
  log: Log;
}

/** One kind of job (train, invite, export, …); `run` must be idempotent per item: it may be called again after a crash. */
export interface JobKindRunner {
  kind: JobKind;
  run(ctx: JobContext): Promise<void>;
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

type StopReason = 'pause' | 'cancel' | 'shutdown';

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
  stop?: StopReason;
}

const WAIT_STEPS_MS = [2_000, 5_000, 10_000, 30_000, 60_000];
const PROGRESS_EVERY_MS = 250;
/**
 * A running job's totals are recounted at most twice a second, or this many times their own cost apart when that is
 * longer, so a huge job never spends its loop counting (rates and ETA come from a sliding window anyway).
 */
const TOTALS_EVERY_MS = 500;
const TOTALS_COST_FACTOR = 20;

export interface JobRunnerDeps {
  store: JobStore;
  clients: (profileId: string) => Promise<PlatformClient>;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  log: Log;
  defaultConcurrency?: number;
  /** Called before a job of a kind that writes in bulk runs (the engine moves SQLite checkpoints off its thread). */
  beforeBulkRun?: () => void;
}

/**
 * The one runner for every long operation. It starts queued jobs, resumes unfinished ones at start, limits
 * concurrency per tenant, turns failures into states (401 → paused 'Authentication failed'; unreachable → waiting
 * and retrying by itself) and reports progress.
 */
export class JobRunner {
  private readonly store: JobStore;
  private readonly kinds = new Map<JobKind, JobKindRunner>();
  private readonly active = new Map<string, ActiveRun>();
  private readonly waits = new Map<string, NodeJS.Timeout>();
  /** How far each waiting job has backed off; cleared when it ends or the admin steps in. */
  private readonly waitSteps = new Map<string, number>();
  private readonly meters = new Map<string, ProgressMeter>();
  private readonly lastProgress = new Map<string, number>();
  private readonly counted = new Map<string, { at: number; costMs: number; totals: ItemTotals }>();
  private readonly limits: TenantLimits;
  private closed = false;

  constructor(private readonly deps: JobRunnerDeps) {
    this.store = deps.store;
    this.limits = new TenantLimits(deps.defaultConcurrency ?? 4);
  }

  register(kind: JobKindRunner): void {
    this.kinds.set(kind.kind, kind);
  }

  /** Picks up every job a previous run left unfinished (quit, crash, kill -9). */
  resumeAll(): void {
    for (const job of this.store.unfinished()) this.start(job.id);
  }

  present(id: string): Job {
    const row = this.store.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    // A running job's figures may be a moment old; a settled one's are exact.
    return presentJob(row, this.meter(id).measure(this.totals(id, !this.active.has(id)), row.phase));
  }

  start(id: string): void {
    if (this.closed || this.active.has(id)) return;
    const row = this.store.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    const kind = this.kinds.get(row.kind);
    if (!kind) throw new Error(`No runner for jobs of kind '${row.kind}'`);
    this.clearWait(id);
    if (kind.bulkWrites) this.deps.beforeBulkRun?.();
    this.store.reviveActive(id);
    this.store.setState(id, 'running');
    this.changed(id);

    const controller = new AbortController();
    const run: ActiveRun = { controller, done: Promise.resolve() };
    const share = this.limits.join(row.profile_id, concurrencyOf(row));
    const ctx: JobContext = {
      job: row,
      params: JSON.parse(row.params) as unknown,
      store: this.store,
      signal: controller.signal,
      client: () => {
        if (!row.profile_id) throw new JobFailed('This job has no tenant connection (it was removed)');
        return this.deps.clients(row.profile_id);
      },
      limiter: share.slots,
      progress: (phase) => this.progress(id, phase),
      log: this.deps.log,
    };
    run.done = kind
      .run(ctx)
      .then(
        () => this.settle(id, run, null),
        (error: unknown) => this.settle(id, run, error),
      )
      .finally(() => {
        share.release();
        this.active.delete(id);
      });
    this.active.set(id, run);
  }

  async pause(id: string): Promise<Job> {
    const row = this.requireJob(id);
    if (['completed', 'failed', 'cancelled'].includes(row.state))
      throw conflict(`The job has already ${row.state === 'completed' ? 'completed' : row.state}`);
    await this.stopRun(id, 'pause');
    this.clearWait(id);
    this.waitSteps.delete(id);
    this.store.setState(id, 'paused', { reason: 'Paused' });
    this.changed(id);
    return this.present(id);
  }

  resume(id: string): Job {
    const row = this.requireJob(id);
    if (row.state === 'cancelled') throw conflict('A cancelled job cannot be resumed; start a new one');
    if (row.state === 'completed') throw conflict('The job has already completed');
    this.start(id);
    return this.present(id);
  }

  /**
   * Jobs waiting for an unreachable tenant try again now, their back-off started over: after sleep or a network
   * change the next timed try may be a minute away. Answers how many were woken.
   */
  wakeWaiting(): number {
    const waiting = [...this.waits.keys()];
    for (const id of waiting) {
      this.clearWait(id);
      this.waitSteps.delete(id);
      if (this.store.job(id)?.state === 'waiting') this.start(id);
    }
    return waiting.length;
  }

  async cancel(id: string): Promise<Job> {
    const row = this.requireJob(id);
    if (['completed', 'cancelled'].includes(row.state)) return this.present(id);
    await this.stopRun(id, 'cancel');
    this.clearWait(id);
    this.waitSteps.delete(id);
    this.store.setState(id, 'cancelled', { reason: 'Cancelled' });
    this.changed(id);
    return this.present(id);
  }

  retry(id: string, itemIds?: number[]): Job {
    const row = this.requireJob(id);
    if (row.state === 'cancelled') throw conflict('A cancelled job cannot be retried; start a new one');
    this.store.resetFailed(id, itemIds);
    if (!this.active.has(id)) this.start(id);
    return this.present(id);
  }

  /** A tenant's credentials changed: jobs paused by a 401 try again. */
  credentialsChanged(profileId: string): void {
    for (const job of this.store.list({ states: ['paused'], limit: 1000, offset: 0 }).rows) {
      if (job.profile_id === profileId && job.reason === 'Authentication failed') this.start(job.id);
    }
  }

  /** Stops every running job where it is; their journal says 'running', so the next start resumes them. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.waits.values()) clearTimeout(timer);
    this.waits.clear();
    await Promise.all([...this.active.keys()].map((id) => this.stopRun(id, 'shutdown')));
  }

  /** Resolves when the job's current run ends (tests and the CLI wait on it). */
  async settled(id: string): Promise<void> {
    await this.active.get(id)?.done;
  }

  isActive(id: string): boolean {
    return this.active.has(id);
  }

  private requireJob(id: string): JobRow {
    const row = this.store.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    return row;
  }

  private async stopRun(id: string, reason: StopReason): Promise<void> {
    const run = this.active.get(id);
    if (!run) return;
    run.stop = reason;
    run.controller.abort(new RequestAbortedError());
    await run.done;
  }

  private settle(id: string, run: ActiveRun, error: unknown): void {
    if (run.stop) {
      // pause() and cancel() write their own state; a shutdown leaves 'running' for the next start.
      this.progress(id, undefined, true);
      return;
    }
    if (error === null) {
      this.store.setState(id, 'completed', { reason: null });
      this.finish(id);
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      this.store.setState(id, 'paused', { reason: 'Authentication failed' });
      this.changed(id);
      return;
    }
    if (error instanceof JobNeedsAttention) {
      this.store.setState(id, 'paused', { reason: error.message });
      this.changed(id);
      return;
    }
    if (
      error instanceof NetworkError ||
      error instanceof TimeoutError ||
      // Still rate-limited after the client's retries: the tenant is busy, not refusing the job.
      (error instanceof ApiError && (error.status >= 500 || error.status === 429))
    ) {
      this.waitAndRetry(id, error);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof JobFailed))
      this.deps.log(`job ${id} failed: ${error instanceof Error ? error.stack : message}`);
    this.store.setState(id, 'failed', { error: message, reason: null });
    this.finish(id);
  }

  /** The tenant is unreachable: wait, then resume by itself, backing off up to a minute. */
  private waitAndRetry(id: string, error: Error): void {
    const step = Math.min((this.waitSteps.get(id) ?? -1) + 1, WAIT_STEPS_MS.length - 1);
    this.waitSteps.set(id, step);
    const delay = WAIT_STEPS_MS[step]!;
    this.store.setState(id, 'waiting', {
      reason: `The tenant is unreachable (${error.message}); retrying in ${Math.round(delay / 1000)} s`,
    });
    this.changed(id);
    const timer = setTimeout(() => {
      this.waits.delete(id);
      if (this.store.job(id)?.state === 'waiting') this.start(id);
    }, delay);
    timer.unref?.();
    this.waits.set(id, timer);
  }

  private clearWait(id: string): void {
    clearTimeout(this.waits.get(id));
    this.waits.delete(id);
  }

  private finish(id: string): void {
    this.waitSteps.delete(id);
    this.changed(id);
    const job = this.present(id);
    this.kinds.get(job.kind)?.finished?.(job);
  }

  private changed(id: string): void {
    const row = this.store.job(id);
    if (!row) return;
    this.deps.emit('jobs.changed', { id, state: row.state, kind: row.kind });
    this.progress(id, undefined, true);
  }

  private progress(id: string, phase?: string, force = false): void {
    if (phase !== undefined) this.store.setPhase(id, phase);
    const now = Date.now();
    if (!force && now - (this.lastProgress.get(id) ?? 0) < PROGRESS_EVERY_MS) return;
    this.lastProgress.set(id, now);
    const row = this.store.job(id);
    if (!row) return;
    this.deps.emit('jobs.progress', {
      id,
      state: row.state,
      progress: this.meter(id).measure(this.totals(id, force), row.phase),
    });
  }

  private totals(id: string, fresh: boolean): ItemTotals {
    const last = this.counted.get(id);
    const at = performance.now();
    if (!fresh && last && at - last.at < Math.max(TOTALS_EVERY_MS, last.costMs * TOTALS_COST_FACTOR))
      return last.totals;
    const totals = this.store.totals(id);
    this.counted.set(id, { at, costMs: performance.now() - at, totals });
    return totals;
  }

  private meter(id: string): ProgressMeter {
    let meter = this.meters.get(id);
    if (!meter) this.meters.set(id, (meter = new ProgressMeter()));
    return meter;
  }
}

function concurrencyOf(row: JobRow): number | undefined {
  const params = JSON.parse(row.params) as { concurrency?: unknown };
  return typeof params.concurrency === 'number' && params.concurrency > 0 ? params.concurrency : undefined;
}
