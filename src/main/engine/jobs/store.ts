import { randomUUID } from 'node:crypto';
import type { ItemState, Job, JobItem, JobKind, JobState } from '../../../shared/contract';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database';

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

export interface NewItem {
  key: string;
  label: string;
  state?: ItemState;
  phase?: string;
  bytes?: number;
  error?: string | null;
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

const now = () => new Date().toISOString();

/** The job journal in SQLite. Every write is its own small transaction so a kill -9 loses at most one step. */
export class JobStore {
  /** Statements prepared once per SQL text: the runner and the job kinds call these thousands of times a job. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /** Writes the job and every item in one transaction, before anything is sent anywhere. */
  create(input: {
    kind: JobKind;
    profileId: string | null;
    title: string;
    params: unknown;
    items: Iterable<NewItem>;
    state?: JobState;
  }): string {
    const id = randomUUID();
    const at = now();
    const insertItem = this.sql(
      `INSERT INTO job_items (job_id, key, label, state, phase, bytes, error, data, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO jobs (id, kind, profile_id, title, state, params, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        input.kind,
        input.profileId,
        input.title,
        input.state ?? 'queued',
        JSON.stringify(input.params),
        at,
        at,
      );
      for (const item of input.items) {
        insertItem.run(
          id,
          item.key,
          item.label,
          item.state ?? 'pending',
          item.phase ?? '',
          item.bytes ?? 0,
          item.error ?? null,
          JSON.stringify(item.data ?? {}),
          at,
        );
      }
    })();
    return id;
  }

  job(id: string): JobRow | undefined {
    return this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  list(filter: { profileId?: string; kind?: JobKind; states?: JobState[]; limit: number; offset: number }): {
    rows: JobRow[];
    total: number;
  } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.profileId) {
      where.push('profile_id = ?');
      params.push(filter.profileId);
    }
    if (filter.kind) {
      where.push('kind = ?');
      params.push(filter.kind);
    }
    if (filter.states?.length) {
      where.push(`state IN (${filter.states.map(() => '?').join(',')})`);
      params.push(...filter.states);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.sql(`SELECT count(*) AS n FROM jobs ${clause}`).get(...params) as { n: number }).n;
    const rows = this.sql(`SELECT * FROM jobs ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(
      ...params,
      filter.limit,
      filter.offset,
    ) as JobRow[];
    return { rows, total };
  }

  /** Jobs the runner should pick up again at start. */
  unfinished(): JobRow[] {
    return this.sql(
      `SELECT * FROM jobs WHERE state IN ('queued', 'running', 'waiting') ORDER BY created_at`,
    ).all() as JobRow[];
  }

  setState(id: string, state: JobState, extra: { reason?: string | null; error?: string | null } = {}): void {
    const at = now();
    const finished = ['completed', 'failed', 'cancelled'].includes(state);
    this.sql(
      `UPDATE jobs SET state = ?, reason = ?, error = coalesce(?, error), updated_at = ?,
           started_at = CASE WHEN ? = 'running' THEN coalesce(started_at, ?) ELSE started_at END,
           finished_at = CASE WHEN ? THEN ? ELSE NULL END
         WHERE id = ?`,
    ).run(state, extra.reason ?? null, extra.error ?? null, at, state, at, finished ? 1 : 0, at, id);
  }

  /**
   * Makes `me` the job's runner and the job 'running' (its error cleared: it has another go), in one transaction,
   * unless `blocked` says another runner holds it. Answers the row as it was before.
   */
  claim(id: string, me: RunnerIdentity, blocked: (row: JobRow) => boolean): { claimed: boolean; row?: JobRow } {
    return this.db
      .transaction(() => {
        const row = this.job(id);
        if (!row || blocked(row)) return { claimed: false, row };
        const at = now();
        this.sql(
          `UPDATE jobs SET state = 'running', reason = NULL, error = NULL, updated_at = ?,
             started_at = coalesce(started_at, ?), finished_at = NULL,
             runner = ?, runner_pid = ?, runner_host = ?, runner_seen_at = ?
           WHERE id = ?`,
        ).run(at, at, me.id, me.pid, me.host, Date.now(), id);
        return { claimed: true, row };
      })
      .immediate();
  }

  /** The runner lets the job go (its run ended, or the job is paused, cancelled or finished). */
  release(id: string, runner: string): void {
    this.sql(
      `UPDATE jobs SET runner = NULL, runner_pid = NULL, runner_host = NULL, runner_seen_at = NULL
         WHERE id = ? AND runner = ?`,
    ).run(id, runner);
  }

  /** The runner is alive: every job it holds says so. */
  heartbeat(runner: string): void {
    this.sql('UPDATE jobs SET runner_seen_at = ? WHERE runner = ?').run(Date.now(), runner);
  }

  /**
   * Writes the state a run ended in, only while the journal still says the job runs under this runner: a pause or
   * cancel written meanwhile (by another process too) stands. Answers whether it was written.
   */
  settleRun(
    id: string,
    runner: string,
    state: JobState,
    extra: { reason?: string | null; error?: string | null; retryAt?: string; givesUpAt?: string } = {},
  ): boolean {
    const at = now();
    const finished = ['completed', 'failed', 'cancelled'].includes(state);
    return (
      this.sql(
        `UPDATE jobs SET state = ?, reason = ?, error = coalesce(?, error), updated_at = ?,
             finished_at = CASE WHEN ? THEN ? ELSE NULL END, retry_at = ?, gives_up_at = coalesce(?, gives_up_at)
           WHERE id = ? AND runner = ? AND state = 'running'`,
      ).run(
        state,
        extra.reason ?? null,
        extra.error ?? null,
        at,
        finished ? 1 : 0,
        at,
        extra.retryAt ?? null,
        extra.givesUpAt ?? null,
        id,
        runner,
      ).changes > 0
    );
  }

  /** A waiting job's limit moved (the setting changed): when it gives up now. */
  setGivesUpAt(id: string, runner: string, givesUpAt: string): void {
    this.sql(`UPDATE jobs SET gives_up_at = ?, updated_at = ? WHERE id = ? AND runner = ? AND state = 'waiting'`).run(
      givesUpAt,
      now(),
      id,
      runner,
    );
  }

  /** The job's own waiting limit in minutes; null: the app's setting. */
  setWaitLimit(id: string, minutes: number | null): void {
    this.sql('UPDATE jobs SET wait_limit_minutes = ? WHERE id = ?').run(minutes, id);
  }

  /** Changes whenever another connection (another process) commits: the runner looks at the journal then. */
  dataVersion(): number {
    return this.sql('PRAGMA data_version').pluck().get() as number;
  }

  setPhase(id: string, phase: string): void {
    this.sql('UPDATE jobs SET phase = ?, updated_at = ? WHERE id = ?').run(phase, now(), id);
  }

  addCounts(id: string, delta: Record<string, number>): void {
    const row = this.job(id);
    if (!row) return;
    const counts = JSON.parse(row.counts) as Record<string, number>;
    for (const [key, value] of Object.entries(delta)) counts[key] = (counts[key] ?? 0) + value;
    this.sql('UPDATE jobs SET counts = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(counts), now(), id);
  }

  items(
    jobId: string,
    filter: { states?: ItemState[]; search?: string; limit: number; offset: number },
  ): { rows: ItemRow[]; total: number } {
    const where = ['job_id = ?'];
    const params: unknown[] = [jobId];
    if (filter.states?.length) {
      where.push(`state IN (${filter.states.map(() => '?').join(',')})`);
      params.push(...filter.states);
    }
    if (filter.search) {
      where.push(`(label LIKE ? ESCAPE '\\' OR error LIKE ? ESCAPE '\\')`);
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      params.push(like, like);
    }
    const clause = where.join(' AND ');
    const total = (this.sql(`SELECT count(*) AS n FROM job_items WHERE ${clause}`).get(...params) as { n: number }).n;
    const rows = this.sql(`SELECT * FROM job_items WHERE ${clause} ORDER BY id LIMIT ? OFFSET ?`).all(
      ...params,
      filter.limit,
      filter.offset,
    ) as ItemRow[];
    return { rows, total };
  }

  /** Items in the given states, in journal order; the runner's work list. */
  itemsIn(jobId: string, states: ItemState[]): ItemRow[] {
    return this.sql(
      `SELECT * FROM job_items WHERE job_id = ? AND state IN (${states.map(() => '?').join(',')}) ORDER BY id`,
    ).all(jobId, ...states) as ItemRow[];
  }

  item(id: number): ItemRow | undefined {
    return this.sql('SELECT * FROM job_items WHERE id = ?').get(id) as ItemRow | undefined;
  }

  /** Updates an item; `data` is merged into what the item already holds. */
  updateItem(
    id: number,
    change: {
      state?: ItemState;
      phase?: string;
      error?: string | null;
      bytes?: number;
      attempt?: boolean;
      data?: Record<string, unknown>;
    },
  ): void {
    const current = this.item(id);
    if (!current) return;
    const data = change.data
      ? JSON.stringify({ ...(JSON.parse(current.data) as object), ...change.data })
      : current.data;
    this.sql(
      `UPDATE job_items SET state = ?, phase = ?, error = ?, bytes = ?, attempts = attempts + ?, data = ?, updated_at = ?
         WHERE id = ?`,
    ).run(
      change.state ?? current.state,
      change.phase ?? current.phase,
      change.error === undefined ? current.error : change.error,
      change.bytes ?? current.bytes,
      change.attempt ? 1 : 0,
      data,
      now(),
      id,
    );
  }

  /** Failed items (all, or the given ones) go back to pending for another try. */
  resetFailed(jobId: string, itemIds?: number[]): number {
    if (itemIds?.length) {
      const update = this.sql(
        `UPDATE job_items SET state = 'pending', error = NULL, updated_at = ? WHERE job_id = ? AND id = ? AND state = 'failed'`,
      );
      let changed = 0;
      this.db.transaction(() => {
        for (const itemId of itemIds) changed += update.run(now(), jobId, itemId).changes;
      })();
      return changed;
    }
    return this.sql(
      `UPDATE job_items SET state = 'pending', error = NULL, updated_at = ? WHERE job_id = ? AND state = 'failed'`,
    ).run(now(), jobId).changes;
  }

  /** Items left `active` by a crash are pending again; their kind decides how to resume them safely. */
  reviveActive(jobId: string): void {
    this.sql(`UPDATE job_items SET state = 'pending' WHERE job_id = ? AND state = 'active'`).run(jobId);
  }

  totals(jobId: string): ItemTotals {
    return this.sql(
      `SELECT count(*) AS total,
           coalesce(sum(state = 'done'), 0) AS done,
           coalesce(sum(state = 'failed'), 0) AS failed,
           coalesce(sum(state = 'skipped'), 0) AS skipped,
           coalesce(sum(state = 'active'), 0) AS active,
           coalesce(sum(CASE WHEN state != 'skipped' THEN bytes ELSE 0 END), 0) AS bytesTotal,
           coalesce(sum(CASE WHEN state = 'done' THEN bytes ELSE 0 END), 0) AS bytesDone
         FROM job_items WHERE job_id = ?`,
    ).get(jobId) as ItemTotals;
  }
}

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
