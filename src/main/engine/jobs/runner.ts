import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  describeMinutes,
  GAVE_UP_WAITING,
  type EventName,
  type EventPayload,
  type Job,
  type JobKind,
} from '../../../shared/contract';
import { ApiError, isTransient, RequestAbortedError, type PlatformClient } from '../platform';
import { conflict, EngineError, notFound } from '../errors';
import type { Log } from '../log';
import { TenantLimits, type JobShare } from './limiter';
import { ProgressMeter } from './progress';
import type { ItemTotals, JobJournal, JobRow, RunnerIdentity } from './journal';
import { presentJob } from './present';

export { JobFailed, JobNeedsAttention } from './kind';
export type { ItemReport, JobContext, JobKindRunner } from './kind';
import { JobFailed, JobNeedsAttention, type ItemReport, type JobContext, type JobKindRunner } from './kind';

/**
 * Why a run stops before it ends: paused or cancelled here; 'journal': another process paused, cancelled or took
 * over the job (the journal says so, this runner obeys); 'shutdown': the engine closes.
 */
type StopReason = 'pause' | 'cancel' | 'journal' | 'shutdown';

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
  stop?: StopReason;
}

/** One stretch of waiting for an unreachable tenant: it ends when an item finishes, or the admin steps in. */
interface WaitEpisode {
  since: number;
  /** Items finished when it began. */
  finished: number;
  step: number;
  timer?: NodeJS.Timeout;
}

const WAIT_STEPS_MS = [2_000, 5_000, 10_000, 30_000, 60_000];
const PROGRESS_EVERY_MS = 250;
/**
 * A running job's totals are recounted at most twice a second, or this many times their own cost apart when that is
 * longer, so a huge job never spends its loop counting (rates and ETA come from a sliding window anyway).
 */
const TOTALS_EVERY_MS = 500;
const TOTALS_COST_FACTOR = 20;
/** How often the runner looks whether another process changed the journal of a job it holds (it costs a pragma). */
const WATCH_EVERY_MS = 1_000;
/** How often a runner says it is alive, and after how long without a word another process may take its jobs. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 45_000;
/** A resume waits this long for another process that is still stopping the job to let it go. */
const HANDOVER_WAIT_MS = 10_000;

export interface JobRunnerDeps {
  journal: JobJournal;
  clients: (profileId: string) => Promise<PlatformClient>;
  emit: <E extends EventName>(name: E, payload: EventPayload<E>) => void;
  log: Log;
  defaultConcurrency?: number;
  /**
   * Jobs that name no concurrency of their own run as many requests at once as the tenant takes, learnt from its
   * answers, from the default up to this (jobs/adaptive.ts). Without it they run at the default.
   */
  adaptiveConcurrency?: number;
  /** Called before a job of a kind that writes in bulk runs (the engine moves SQLite checkpoints off its thread). */
  beforeBulkRun?: () => void;
  /** How long a job waits for an unreachable tenant, in minutes, unless it has its own limit (the app's setting). */
  waitLimitMinutes?: () => number;
}

/** The process is there (same host): signal 0 checks without sending anything. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The one runner for every long operation. It starts queued jobs, resumes unfinished ones at start, limits
 * concurrency per tenant, turns failures into states (401 → paused 'Authentication failed'; unreachable → waiting
 * and retrying by itself, up to a limit) and reports progress.
 *
 * The journal is the one authority: a job runs in one process at a time, the one named in its row (a heartbeat says
 * it is alive); any process may pause or cancel it by writing its state, and the runner holding it obeys within a
 * second (it watches SQLite's data_version), its in-flight items settling as in a local pause.
 */
export class JobRunner {
  private readonly journal: JobJournal;
  private readonly me: RunnerIdentity = { id: randomUUID(), pid: process.pid, host: hostname() };
  private readonly kinds = new Map<JobKind, JobKindRunner>();
  private readonly active = new Map<string, ActiveRun>();
  /** Jobs this runner holds waiting for their tenant. */
  private readonly waiting = new Map<string, WaitEpisode>();
  private readonly meters = new Map<string, ProgressMeter>();
  private readonly lastProgress = new Map<string, number>();
  private readonly counted = new Map<string, { at: number; costMs: number; totals: ItemTotals }>();
  private readonly limits: TenantLimits;
  private watcher: NodeJS.Timeout | null = null;
  private journalVersion = 0;
  private lastBeat = 0;
  private closed = false;

  constructor(private readonly deps: JobRunnerDeps) {
    this.journal = deps.journal;
    this.limits = new TenantLimits(deps.defaultConcurrency ?? 4, {
      ...(deps.adaptiveConcurrency && { adaptTo: deps.adaptiveConcurrency }),
    });
  }

  /** A request to the tenant was throttled outside a job's own handling (the platform client's retry saw it). */
  throttled(profileId: string): void {
    this.limits.throttled(profileId);
  }

  /** How many requests at once the tenant takes, as learnt so far (undefined until a job ran against it). */
  learntConcurrency(profileId: string): number | undefined {
    return this.limits.learnt(profileId);
  }

  /**
   * A place in the tenant's concurrency for reads of many requests outside any job (a list read per parent record):
   * they share the tenant's slots with its running jobs. The caller releases it when the read ends.
   */
  share(profileId: string): JobShare {
    return this.limits.join(profileId);
  }

  /** Areas register the kinds of job they run (the runner knows none of them by itself). */
  register(kind: JobKindRunner): void {
    this.kinds.set(kind.kind, kind);
  }

  /** The item report a kind declared, if any. */
  reportOf(kind: JobKind): ItemReport | undefined {
    return this.kinds.get(kind)?.report;
  }

  /** Picks up every job a previous run left unfinished (quit, crash, kill -9), unless a live process runs it. */
  resumeAll(): void {
    for (const job of this.journal.unfinished()) this.start(job.id);
  }

  present(id: string): Job {
    const row = this.journal.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    // A running job's figures may be a moment old; a settled one's are exact.
    return presentJob(
      row,
      this.meter(id).measure(this.totals(id, !this.active.has(id)), row.phase),
      this.holderOf(row),
    );
  }

  /**
   * Runs the job here. Answers false, and does nothing, when another live process holds it (unless `takeOver` and
   * it only waits there: then this process takes it). `handoff` goes to the run this call starts (JobContext), if any.
   */
  start(id: string, options: { takeOver?: boolean; handoff?: unknown } = {}): boolean {
    if (this.closed) return false;
    if (this.active.has(id)) return true;
    const row = this.journal.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    const kind = this.kinds.get(row.kind);
    if (!kind) throw new Error(`No runner for jobs of kind '${row.kind}'`);
    const claim = this.journal.claim(id, this.me, (current) => {
      const holder = this.holderOf(current);
      return !!holder && !holder.here && !(options.takeOver && current.state === 'waiting');
    });
    if (!claim.claimed) return false;
    this.clearWaitTimer(id);
    if (kind.bulkWrites) this.deps.beforeBulkRun?.();
    this.journal.reviveActive(id);
    this.changed(id);
    this.watch();

    const controller = new AbortController();
    // Every request of the job in flight listens to this one signal (and lets go when it answers): dozens at once are
    // the job's concurrency, not a leak.
    setMaxListeners(0, controller.signal);
    const run: ActiveRun = { controller, done: Promise.resolve() };
    const share = this.limits.join(row.profile_id, concurrencyOf(row));
    const ctx: JobContext = {
      job: row,
      params: JSON.parse(row.params) as unknown,
      journal: this.journal,
      signal: controller.signal,
      client: () => {
        if (!row.profile_id) throw new JobFailed('This job has no tenant connection (it was removed)');
        return this.deps.clients(row.profile_id);
      },
      limiter: share.slots,
      progress: (phase) => this.progress(id, phase),
      log: this.deps.log,
      ...(options.handoff !== undefined && { handoff: options.handoff }),
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
        // What the run queued is committed before anything else is said about the job.
        this.journal.flush();
        // Items cut off by a stop are not done: they are pending again (their kind resumes them safely).
        if (run.stop) this.journal.reviveActive(id);
        if (!this.waiting.has(id)) this.journal.release(id, this.me.id);
        if (run.stop === 'journal') this.changed(id);
        this.unwatchIfIdle();
      });
    this.active.set(id, run);
    return true;
  }

  /** Pauses the job wherever it runs: the journal says 'paused' at once, and its runner stops. */
  async pause(id: string): Promise<Job> {
    const row = this.requireJob(id);
    if (['completed', 'failed', 'cancelled'].includes(row.state))
      throw conflict(`The job has already ${row.state === 'completed' ? 'completed' : row.state}`);
    this.journal.setState(id, 'paused', { reason: 'Paused' });
    await this.letGo(id, 'pause');
    return this.present(id);
  }

  /**
   * Runs a paused or waiting job here; a job waiting in another process is taken over, one that runs there goes on
   * there (a conflict says so). `waitLimitMinutes` gives the job its own waiting limit (null: the setting again).
   */
  resume(id: string, options: { waitLimitMinutes?: number | null } = {}): Job {
    const row = this.requireJob(id);
    if (row.state === 'cancelled') throw conflict('A cancelled job cannot be resumed; start a new one');
    if (row.state === 'completed') throw conflict('The job has already completed');
    if (options.waitLimitMinutes !== undefined) this.journal.setWaitLimit(id, options.waitLimitMinutes);
    // The admin steps in: a new stretch of waiting, if it comes to that, has its full limit.
    this.forgetWait(id);
    if (!this.start(id, { takeOver: true })) {
      const current = this.requireJob(id);
      const holder = this.holderOf(current);
      const where = holder
        ? `another Mentor Admin process (pid ${holder.pid}${holder.host === this.me.host ? '' : ` on ${holder.host}`})`
        : 'another Mentor Admin process';
      throw current.state === 'running'
        ? conflict(`This job runs in ${where}; it goes on there`)
        : new StillStopping(`The job is still stopping in ${where}; resume it in a moment`);
    }
    return this.present(id);
  }

  /** `resume`, waiting a moment for another process that is still stopping the job (a pause just written) to let go. */
  async resumeSoon(id: string, options: { waitLimitMinutes?: number | null } = {}): Promise<Job> {
    const until = Date.now() + HANDOVER_WAIT_MS;
    for (;;) {
      try {
        return this.resume(id, options);
      } catch (error) {
        if (!(error instanceof StillStopping) || Date.now() > until) throw error;
        await sleep(100);
      }
    }
  }

  /**
   * Jobs waiting for an unreachable tenant try again now, their back-off started over: after sleep or a network
   * change the next timed try may be a minute away. `profileId`: only that tenant's (it answered again). Answers how
   * many were woken.
   */
  wakeWaiting(profileId?: string): number {
    const waiting = [...this.waiting.entries()].filter(
      ([id]) => profileId === undefined || this.journal.job(id)?.profile_id === profileId,
    );
    for (const [id, episode] of waiting) {
      this.clearWaitTimer(id);
      episode.step = -1;
      if (this.journal.job(id)?.state === 'waiting') this.start(id);
    }
    return waiting.length;
  }

  /** Cancels the job wherever it runs: the journal says 'cancelled' at once, and its runner stops. */
  async cancel(id: string): Promise<Job> {
    const row = this.requireJob(id);
    if (['completed', 'cancelled'].includes(row.state)) return this.present(id);
    this.journal.setState(id, 'cancelled', { reason: 'Cancelled' });
    await this.letGo(id, 'cancel');
    return this.present(id);
  }

  retry(id: string, itemIds?: number[]): Job {
    const row = this.requireJob(id);
    if (row.state === 'cancelled') throw conflict('A cancelled job cannot be retried; start a new one');
    this.journal.resetFailed(id, itemIds);
    if (!this.active.has(id)) this.start(id);
    return this.present(id);
  }

  /** A tenant's credentials changed: jobs paused by a 401 try again. */
  credentialsChanged(profileId: string): void {
    for (const job of this.journal.list({ states: ['paused'], limit: 1000, offset: 0 }).rows) {
      if (job.profile_id === profileId && job.reason === 'Authentication failed') this.start(job.id);
    }
  }

  /** The waiting limit setting changed: jobs waiting here give up at their new time (or try a last time now). */
  waitLimitChanged(): void {
    for (const id of this.waiting.keys()) this.scheduleWait(id);
  }

  /** Stops every running job where it is; their journal says 'running', so the next start resumes them. */
  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.waiting.keys()]) {
      this.clearWaitTimer(id);
      this.journal.release(id, this.me.id);
    }
    this.waiting.clear();
    await Promise.all([...this.active.keys()].map((id) => this.stopRun(id, 'shutdown')));
    this.unwatchIfIdle();
  }

  /** Resolves when the job's current run ends (tests and the CLI wait on it). */
  async settled(id: string): Promise<void> {
    await this.active.get(id)?.done;
  }

  isActive(id: string): boolean {
    return this.active.has(id);
  }

  /** The process that holds the job, if it is alive. */
  private holderOf(row: JobRow): Job['runner'] {
    if (!row.runner || row.runner_pid === null || row.runner_host === null) return null;
    if (row.runner === this.me.id) return { pid: this.me.pid, host: this.me.host, here: true };
    const stale = Date.now() - (row.runner_seen_at ?? 0) > STALE_MS;
    if (stale || (row.runner_host === this.me.host && !processAlive(row.runner_pid))) return null;
    return { pid: row.runner_pid, host: row.runner_host, here: false };
  }

  private requireJob(id: string): JobRow {
    const row = this.journal.job(id);
    if (!row) throw notFound(`No job with id '${id}'`);
    return row;
  }

  /** After a pause or cancel written here: the run (or the wait) here ends and the job is let go. */
  private async letGo(id: string, reason: 'pause' | 'cancel'): Promise<void> {
    this.forgetWait(id);
    await this.stopRun(id, reason);
    this.journal.release(id, this.me.id);
    this.changed(id);
    this.unwatchIfIdle();
  }

  private async stopRun(id: string, reason: StopReason): Promise<void> {
    const run = this.active.get(id);
    if (!run) return;
    run.stop ??= reason;
    run.controller.abort(new RequestAbortedError());
    await run.done;
  }

  private settle(id: string, run: ActiveRun, error: unknown): void {
    if (run.stop) {
      // pause() and cancel() wrote their state, another process wrote its own; a shutdown leaves 'running'.
      this.progress(id, undefined, true);
      return;
    }
    const write = (state: Parameters<JobJournal['settleRun']>[2], extra: Parameters<JobJournal['settleRun']>[3]) => {
      const written = this.journal.settleRun(id, this.me.id, state, extra);
      // Not written: the journal changed under the run (paused or cancelled elsewhere); it stands.
      if (!written) this.changed(id);
      return written;
    };
    if (error === null) {
      if (write('completed', { reason: null })) this.finish(id);
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      if (write('paused', { reason: 'Authentication failed' })) this.changed(id);
      return;
    }
    if (error instanceof JobNeedsAttention) {
      if (write('paused', { reason: error.message })) this.changed(id);
      return;
    }
    // Still unreachable, failing or rate-limited after the client's retries: the tenant is busy, not refusing the job.
    if (isTransient(error)) {
      this.waitAndRetry(id, error);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof JobFailed))
      this.deps.log(`job ${id} failed: ${error instanceof Error ? error.stack : message}`);
    if (write('failed', { error: message, reason: null })) this.finish(id);
  }

  /** The job's waiting limit in ms: its own, or the setting (read each time, so a change applies at once). */
  private waitLimitMs(id: string): number {
    const own = this.journal.job(id)?.wait_limit_minutes;
    return (own ?? this.deps.waitLimitMinutes?.() ?? 60) * 60_000;
  }

  /**
   * The tenant is unreachable: wait, then resume by itself, backing off up to a minute, until the job's waiting
   * limit runs out; then it pauses, saying so, and the admin resumes it later.
   */
  private waitAndRetry(id: string, error: Error): void {
    const finished = this.finishedItems(id);
    let episode = this.waiting.get(id);
    // Items finished since the last wait: the tenant answered for a while, so this is a new stretch of waiting.
    if (!episode || finished > episode.finished) {
      clearTimeout(episode?.timer);
      episode = { since: Date.now(), finished, step: -1 };
    }
    const limitMs = this.waitLimitMs(id);
    if (Date.now() >= episode.since + limitMs) {
      this.waiting.delete(id);
      const limit = describeMinutes(Math.round(limitMs / 60_000));
      this.journal.settleRun(id, this.me.id, 'paused', {
        reason: `${GAVE_UP_WAITING} after ${limit} (${error.message}). Resume the job once the tenant answers again.`,
      });
      this.deps.log(`job ${id} gave up waiting after ${limit}: ${error.message}`);
      this.changed(id);
      return;
    }
    episode.step = Math.min(episode.step + 1, WAIT_STEPS_MS.length - 1);
    this.waiting.set(id, episode);
    const delay = Math.min(WAIT_STEPS_MS[episode.step]!, episode.since + limitMs - Date.now());
    const written = this.journal.settleRun(id, this.me.id, 'waiting', {
      reason: `The tenant is unreachable (${error.message}); retrying in ${Math.max(1, Math.round(delay / 1000))} s`,
      retryAt: new Date(Date.now() + delay).toISOString(),
      givesUpAt: new Date(episode.since + limitMs).toISOString(),
    });
    if (!written) this.waiting.delete(id);
    this.changed(id);
    if (written) this.armWaitTimer(id, delay);
  }

  /** The waiting limit may have moved: the job's give-up time is written again and its next try kept before it. */
  private scheduleWait(id: string): void {
    const episode = this.waiting.get(id);
    const row = this.journal.job(id);
    if (!episode || !row || row.state !== 'waiting' || row.runner !== this.me.id) return;
    const givesUpAt = episode.since + this.waitLimitMs(id);
    if (row.gives_up_at === new Date(givesUpAt).toISOString()) return;
    this.journal.setGivesUpAt(id, this.me.id, new Date(givesUpAt).toISOString());
    const retryAt = row.retry_at ? Date.parse(row.retry_at) : Date.now();
    this.armWaitTimer(id, Math.max(0, Math.min(retryAt, givesUpAt) - Date.now()));
    this.changed(id);
  }

  private armWaitTimer(id: string, delay: number): void {
    const episode = this.waiting.get(id);
    if (!episode) return;
    clearTimeout(episode.timer);
    episode.timer = setTimeout(() => {
      episode.timer = undefined;
      const row = this.journal.job(id);
      if (row?.state === 'waiting' && row.runner === this.me.id) this.start(id);
    }, delay);
    episode.timer.unref?.();
    this.watch();
  }

  private clearWaitTimer(id: string): void {
    const episode = this.waiting.get(id);
    if (!episode) return;
    clearTimeout(episode.timer);
    episode.timer = undefined;
  }

  /** The job stops waiting here for good (paused, cancelled, resumed by the admin, taken elsewhere). */
  private forgetWait(id: string): void {
    this.clearWaitTimer(id);
    this.waiting.delete(id);
  }

  private finishedItems(id: string): number {
    const totals = this.journal.totals(id);
    return totals.done + totals.failed + totals.skipped;
  }

  /** Looks at the journal once a second while this runner holds a job; says it is alive every few seconds. */
  private watch(): void {
    if (this.watcher || this.closed) return;
    this.journalVersion = this.journal.dataVersion();
    this.watcher = setInterval(() => {
      try {
        this.lookAtJournal();
      } catch {
        // The database is closing; the runner is closing with it.
      }
    }, WATCH_EVERY_MS);
    this.watcher.unref();
  }

  private unwatchIfIdle(): void {
    if (!this.watcher || this.active.size || this.waiting.size) return;
    clearInterval(this.watcher);
    this.watcher = null;
  }

  private lookAtJournal(): void {
    const now = Date.now();
    if (now - this.lastBeat >= HEARTBEAT_MS) {
      this.lastBeat = now;
      this.journal.heartbeat(this.me.id);
    }
    const version = this.journal.dataVersion();
    if (version === this.journalVersion) return;
    this.journalVersion = version;
    for (const id of new Set([...this.active.keys(), ...this.waiting.keys()])) this.obeyJournal(id);
  }

  /** Another process wrote the job's row: a pause, a cancel, a take-over, or a new waiting limit. */
  private obeyJournal(id: string): void {
    const row = this.journal.job(id);
    const run = this.active.get(id);
    const ours = row?.runner === this.me.id;
    if (row && ours && row.state === 'waiting') return this.scheduleWait(id);
    if (row && ours && row.state === 'running') return;
    this.forgetWait(id);
    if (run) {
      void this.stopRun(id, 'journal');
      return;
    }
    if (ours) this.journal.release(id, this.me.id);
    this.changed(id);
    this.unwatchIfIdle();
  }

  private finish(id: string): void {
    this.waiting.delete(id);
    this.changed(id);
    const job = this.present(id);
    this.kinds.get(job.kind)?.finished?.(job);
  }

  private changed(id: string): void {
    const row = this.journal.job(id);
    if (!row) return;
    this.deps.emit('jobs.changed', { id, state: row.state, kind: row.kind, profileId: row.profile_id });
    this.progress(id, undefined, true);
  }

  private progress(id: string, phase?: string, force = false): void {
    if (phase !== undefined) this.journal.setPhase(id, phase);
    const now = Date.now();
    if (!force && now - (this.lastProgress.get(id) ?? 0) < PROGRESS_EVERY_MS) return;
    this.lastProgress.set(id, now);
    const row = this.journal.job(id);
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
    const totals = this.journal.totals(id);
    this.counted.set(id, { at, costMs: performance.now() - at, totals });
    return totals;
  }

  private meter(id: string): ProgressMeter {
    let meter = this.meters.get(id);
    if (!meter) this.meters.set(id, (meter = new ProgressMeter()));
    return meter;
  }
}

/** Another process is letting the job go (a pause or cancel it obeys): a resume can follow in a moment. */
class StillStopping extends EngineError {
  constructor(message: string) {
    super('conflict', message);
  }
}

function concurrencyOf(row: JobRow): number | undefined {
  const params = JSON.parse(row.params) as { concurrency?: unknown };
  return typeof params.concurrency === 'number' && params.concurrency > 0 ? params.concurrency : undefined;
}
