/**
 * The job journal: the `jobs` and `job_items` tables, and the only code that names them (a lint rule keeps it so).
 * The runner, every job kind and the areas' screens read and write jobs through it. Each statement is prepared once.
 *
 * Every write is its own small transaction, so a kill -9 loses at most one step, with one exception: writes a kind
 * hands to `later`. Those are acknowledgements the kind can find out again after a crash (the training job looks on
 * the tenant before it sends a file again), so they wait in memory and are committed together with the next
 * transaction the journal opens (a training job's next claim), within half a second, or when the run ends: one commit
 * per file instead of two.
 */
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { ItemState, JobKind, JobState } from '../../../shared/contract';
import type { Db } from '../store';

export type {
  ItemChange,
  ItemRow,
  ItemTotals,
  JobFilter,
  JobOrder,
  JobRow,
  NewItem,
  RunnerIdentity,
  WorkItem,
} from './journal-types';
export { UNFINISHED_STATES } from './journal-types';
import type {
  ItemChange,
  ItemRow,
  ItemTotals,
  JobFilter,
  JobOrder,
  JobRow,
  NewItem,
  RunnerIdentity,
  WorkItem,
} from './journal-types';
import { identifier, itemChange, jobWhere, keyRange, now, placeholders } from './journal-sql';

/** Queued writes are committed at the latest this long after the first of them, or once this many wait. */
const LATER_MS = 500;
const LATER_MAX = 500;
const ORDERS: Record<JobOrder, string> = {
  newest: 'created_at DESC, rowid DESC',
  oldest: 'created_at, rowid',
  updated: 'updated_at DESC',
};
const FINISHED: JobState[] = ['completed', 'failed', 'cancelled'];
/** Past this many runs of consecutive ids, a change to many items names them in one JSON list instead. */
const RANGE_RUNS = 8;
/**
 * A job's items as they stand, for a job that has settled runs (settleItems): a row still unsettled that a run covers
 * takes the run's state, phase and time. Runs never overlap (an item is settled once), so the run that could cover an
 * item is the one starting nearest below it. Jobs without runs are read from their rows alone.
 */
const STANDING = `(SELECT i.id, i.job_id, i.key, i.label, coalesce(r.state, i.state) AS state,
    coalesce(r.phase, i.phase) AS phase, i.bytes, i.attempts, i.error, i.data,
    coalesce(r.updated_at, i.updated_at) AS updated_at
  FROM job_items i LEFT JOIN job_item_runs r ON i.state IN ('pending', 'active') AND r.job_id = i.job_id
    AND r.low = (SELECT max(low) FROM job_item_runs WHERE job_id = i.job_id AND low <= i.id) AND r.high >= i.id
  WHERE i.job_id = ?)`;

/** Consecutive items settled alike in one write (JobJournal.settleItems). */
interface SettledRun {
  low: number;
  high: number;
  state: ItemState;
  phase: string;
  updated_at: string;
}

/** The run that covers an item, found by binary search over runs in id order (they never overlap). */
function coveringRun(runs: readonly SettledRun[], id: number): SettledRun | undefined {
  let low = 0;
  let high = runs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const run = runs[middle]!;
    if (id < run.low) high = middle - 1;
    else if (id > run.high) low = middle + 1;
    else return run;
  }
  return undefined;
}

/** Ids as [first, last] runs of consecutive ids, in the order given. */
export function idRuns(ids: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const id of ids) {
    const last = runs[runs.length - 1];
    if (last && id === last[1] + 1) last[1] = id;
    else runs.push([id, id]);
  }
  return runs;
}

export class JobJournal {
  private readonly statements = new Map<string, Statement>();
  private queued: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  /** Prepared once per SQL text: the runner and the job kinds call these thousands of times a job. */
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  // ---- transactions and queued writes -----------------------------------------------------------------------------

  /**
   * Runs `work` in one transaction, after the queued writes (when this is the outermost transaction; inside another
   * one it is a savepoint and the queue waits for a transaction of the journal's own, so it cannot be rolled back
   * with someone else's work). `immediate` takes the write lock first (claims that other processes race for).
   */
  transaction<T>(work: () => T, options: { immediate?: boolean } = {}): T {
    if (this.db.inTransaction) return this.db.transaction(work)();
    const queued = this.takeQueue();
    let failing = -1;
    const run = this.db.transaction(() => {
      for (let i = 0; i < queued.length; i++) {
        failing = i;
        queued[i]!();
      }
      failing = -1;
      return work();
    });
    try {
      return options.immediate ? run.immediate() : run();
    } catch (error) {
      // Rolled back with `work`: they go with the next transaction. A queued write that fails itself is dropped (a
      // crash could have lost it as well; its kind finds out again), so it cannot fail every write after it.
      this.requeue(queued.filter((_, i) => i !== failing));
      throw error;
    }
  }

  /**
   * Queues writes a crash may lose without harm: the kind finds out again after a restart (it looks on the tenant
   * before it sends anything twice). They are committed before any other write of the journal, within LATER_MS, and
   * at `flush`.
   */
  later(write: () => void): void {
    this.queued.push(write);
    if (this.queued.length >= LATER_MAX && !this.db.inTransaction) return this.flush();
    this.armTimer();
  }

  private armTimer(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        if (!this.db.inTransaction) this.flush();
        else this.armTimer();
      } catch {
        // Busy or closing: the queue stays for the next write, or is lost with the process (its kinds find out again).
      }
    }, LATER_MS);
    this.timer.unref();
  }

  /** Commits the queued writes now (a run ends, the engine closes). */
  flush(): void {
    if (this.queued.length && this.db.open) this.transaction(() => {});
  }

  private takeQueue(): (() => void)[] {
    const queued = this.queued;
    this.queued = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return queued;
  }

  private requeue(writes: (() => void)[]): void {
    if (!writes.length) return;
    this.queued = [...writes, ...this.queued];
    this.armTimer();
  }

  /** A single write: committed together with whatever is queued (outside a transaction; inside one, as part of it). */
  private write<T>(work: () => T): T {
    return this.queued.length && !this.db.inTransaction ? this.transaction(work) : work();
  }

  // ---- jobs -------------------------------------------------------------------------------------------------------

  /** Writes the job and every item in one transaction, before anything is sent anywhere. */
  create(input: {
    kind: JobKind;
    profileId: string | null;
    title: string;
    params: unknown;
    items: Iterable<NewItem>;
    state?: JobState;
    /** Told each item's id as it is written (a kind hands its first run the work list it has in memory). */
    inserted?: (item: NewItem, itemId: number) => void;
  }): string {
    const id = randomUUID();
    const at = now();
    this.transaction(() => {
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
      this.insertItems(id, input.items, at, false, input.inserted);
    });
    return id;
  }

  job(id: string): JobRow | undefined {
    return this.sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  /** A page of jobs, newest first, and how many match. */
  list(filter: JobFilter & { limit: number; offset: number }): { rows: JobRow[]; total: number } {
    const { clause, params } = jobWhere(filter);
    const total = (this.sql(`SELECT count(*) AS n FROM jobs ${clause}`).get(...params) as { n: number }).n;
    const rows = this.sql(`SELECT * FROM jobs ${clause} ORDER BY ${ORDERS.newest} LIMIT ? OFFSET ?`).all(
      ...params,
      filter.limit,
      filter.offset,
    ) as JobRow[];
    return { rows, total };
  }

  /** The jobs that match, in the order asked for (newest first by default), at most `limit` of them. */
  find(filter: JobFilter & { order?: JobOrder; limit?: number }): JobRow[] {
    const { clause, params } = jobWhere(filter);
    const limit = filter.limit === undefined ? '' : ' LIMIT ?';
    return this.sql(`SELECT * FROM jobs ${clause} ORDER BY ${ORDERS[filter.order ?? 'newest']}${limit}`).all(
      ...params,
      ...(filter.limit === undefined ? [] : [filter.limit]),
    ) as JobRow[];
  }

  /** The last jobs of a kind that ended for a tenant, the latest first. */
  lastFinished(kind: JobKind, profileId: string, limit: number): JobRow[] {
    return this.sql(
      `SELECT * FROM jobs WHERE kind = ? AND profile_id = ? AND finished_at IS NOT NULL
         ORDER BY finished_at DESC LIMIT ?`,
    ).all(kind, profileId, limit) as JobRow[];
  }

  /** Jobs the runner should pick up again at start. */
  unfinished(): JobRow[] {
    return this.sql(
      `SELECT * FROM jobs WHERE state IN ('queued', 'running', 'waiting') ORDER BY created_at`,
    ).all() as JobRow[];
  }

  /** Jobs changed at or after `since` (an ISO time), the oldest change first. */
  changedSince(since: string): Pick<JobRow, 'id' | 'kind' | 'profile_id' | 'state' | 'updated_at'>[] {
    return this.sql(
      'SELECT id, kind, profile_id, state, updated_at FROM jobs WHERE updated_at >= ? ORDER BY updated_at',
    ).all(since) as Pick<JobRow, 'id' | 'kind' | 'profile_id' | 'state' | 'updated_at'>[];
  }

  /** The state of each of these jobs that exists. */
  states(ids: readonly string[]): Map<string, JobState> {
    const rows = this.sql('SELECT id, state FROM jobs WHERE id IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(ids),
    ) as { id: string; state: JobState }[];
    return new Map(rows.map((row) => [row.id, row.state]));
  }

  state(id: string): JobState | undefined {
    return this.sql('SELECT state FROM jobs WHERE id = ?').pluck().get(id) as JobState | undefined;
  }

  setState(id: string, state: JobState, extra: { reason?: string | null; error?: string | null } = {}): void {
    const at = now();
    const finished = FINISHED.includes(state);
    this.write(() =>
      this.sql(
        `UPDATE jobs SET state = ?, reason = ?, error = coalesce(?, error), updated_at = ?,
             started_at = CASE WHEN ? = 'running' THEN coalesce(started_at, ?) ELSE started_at END,
             finished_at = CASE WHEN ? THEN ? ELSE NULL END
           WHERE id = ?`,
      ).run(state, extra.reason ?? null, extra.error ?? null, at, state, at, finished ? 1 : 0, at, id),
    );
  }

  /**
   * Makes `me` the job's runner and the job 'running' (its error cleared: it has another go), in one transaction,
   * unless `blocked` says another runner holds it. Answers the row as it was before.
   */
  claim(id: string, me: RunnerIdentity, blocked: (row: JobRow) => boolean): { claimed: boolean; row?: JobRow } {
    return this.transaction(
      () => {
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
      },
      { immediate: true },
    );
  }

  /** The runner lets the job go (its run ended, or the job is paused, cancelled or finished). */
  release(id: string, runner: string): void {
    this.write(() =>
      this.sql(
        `UPDATE jobs SET runner = NULL, runner_pid = NULL, runner_host = NULL, runner_seen_at = NULL
           WHERE id = ? AND runner = ?`,
      ).run(id, runner),
    );
  }

  /** The runner is alive: every job it holds says so. */
  heartbeat(runner: string): void {
    this.write(() => this.sql('UPDATE jobs SET runner_seen_at = ? WHERE runner = ?').run(Date.now(), runner));
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
    const finished = FINISHED.includes(state);
    return this.write(
      () =>
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
        ).changes > 0,
    );
  }

  /** A waiting job's limit moved (the setting changed): when it gives up now. */
  setGivesUpAt(id: string, runner: string, givesUpAt: string): void {
    this.write(() =>
      this.sql(`UPDATE jobs SET gives_up_at = ?, updated_at = ? WHERE id = ? AND runner = ? AND state = 'waiting'`).run(
        givesUpAt,
        now(),
        id,
        runner,
      ),
    );
  }

  /** The job's own waiting limit in minutes; null: the app's setting. */
  setWaitLimit(id: string, minutes: number | null): void {
    this.write(() => this.sql('UPDATE jobs SET wait_limit_minutes = ? WHERE id = ?').run(minutes, id));
  }

  /** Changes whenever another connection (another process) commits: the runner looks at the journal then. */
  dataVersion(): number {
    return this.sql('PRAGMA data_version').pluck().get() as number;
  }

  /** A job's title once its run knows what it works on by name (a licence's, a department's). */
  setTitle(id: string, title: string): void {
    this.write(() => this.sql('UPDATE jobs SET title = ?, updated_at = ? WHERE id = ?').run(title, now(), id));
  }

  setPhase(id: string, phase: string): void {
    this.write(() => this.sql('UPDATE jobs SET phase = ?, updated_at = ? WHERE id = ?').run(phase, now(), id));
  }

  /** Adds to the job's counts (a count not there yet starts at 0). */
  addCounts(id: string, delta: Record<string, number>): void {
    const entries = Object.entries(delta);
    if (!entries.length) return;
    const at = now();
    const add = this.sql(
      `UPDATE jobs SET counts = json_set(counts, ?, coalesce(json_extract(counts, ?), 0) + ?), updated_at = ?
         WHERE id = ?`,
    );
    this.write(() => {
      for (const [key, value] of entries) {
        const path = `$.${identifier(key)}`;
        add.run(path, path, value, at, id);
      }
    });
  }

  /** Sets some of the job's counts (the others stay). */
  setCounts(id: string, values: Record<string, number>): void {
    const set = this.sql('UPDATE jobs SET counts = json_set(counts, ?, ?) WHERE id = ?');
    this.transaction(() => {
      for (const [key, value] of Object.entries(values)) set.run(`$.${identifier(key)}`, value, id);
    });
  }

  /** Removes one of the job's params. */
  removeParam(id: string, key: string): void {
    this.write(() =>
      this.sql('UPDATE jobs SET params = json_remove(params, ?) WHERE id = ?').run(`$.${identifier(key)}`, id),
    );
  }

  /** Sets one of the job's params (a choice the admin made again when resuming it). */
  setParam(id: string, key: string, value: unknown): void {
    this.write(() =>
      this.sql('UPDATE jobs SET params = json_set(params, ?, json(?)) WHERE id = ?').run(
        `$.${identifier(key)}`,
        JSON.stringify(value),
        id,
      ),
    );
  }

  // ---- items ------------------------------------------------------------------------------------------------------

  /** Adds items a job found it has (an export's pages); keys it has already are left as they are. */
  addItems(jobId: string, items: Iterable<NewItem>): void {
    this.transaction(() => this.insertItems(jobId, items, now(), true));
  }

  private insertItems(
    jobId: string,
    items: Iterable<NewItem>,
    at: string,
    ignoreKnown: boolean,
    inserted?: (item: NewItem, itemId: number) => void,
  ): void {
    const insert = this.sql(
      `INSERT ${ignoreKnown ? 'OR IGNORE ' : ''}INTO job_items (job_id, key, label, state, phase, bytes, error, data, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const item of items) {
      const { lastInsertRowid } = insert.run(
        jobId,
        item.key,
        item.label,
        item.state ?? 'pending',
        item.phase ?? '',
        item.bytes ?? 0,
        item.error ?? null,
        JSON.stringify(item.data ?? {}),
        at,
      );
      inserted?.(item, Number(lastInsertRowid));
    }
  }

  /** A page of a job's items in journal order, and how many match. */
  items(
    jobId: string,
    filter: { states?: ItemState[]; phases?: string[]; search?: string; limit: number; offset: number },
  ): { rows: ItemRow[]; total: number } {
    const where = ['job_id = ?'];
    const params: unknown[] = [jobId];
    if (filter.states?.length) {
      where.push(`state IN (${placeholders(filter.states.length)})`);
      params.push(...filter.states);
    }
    if (filter.phases?.length) {
      where.push(`phase IN (${placeholders(filter.phases.length)})`);
      params.push(...filter.phases);
    }
    if (filter.search) {
      where.push(`(label LIKE ? ESCAPE '\\' OR error LIKE ? ESCAPE '\\')`);
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      params.push(like, like);
    }
    const clause = where.join(' AND ');
    const from = this.itemsOf(jobId);
    const total = (
      this.sql(`SELECT count(*) AS n FROM ${from.table} WHERE ${clause}`).get(...from.params, ...params) as {
        n: number;
      }
    ).n;
    const rows = this.sql(`SELECT * FROM ${from.table} WHERE ${clause} ORDER BY id LIMIT ? OFFSET ?`).all(
      ...from.params,
      ...params,
      filter.limit,
      filter.offset,
    ) as ItemRow[];
    return { rows, total };
  }

  /** Items in the given states, in journal order; the runner's work list. */
  itemsIn(jobId: string, states: ItemState[]): ItemRow[] {
    return this.standingIn(jobId, states, '*') as ItemRow[];
  }

  /**
   * The same work list with only each item's id, phase and data: what a kind that sends thousands of rows needs, read
   * in a third of the time (no other columns become values), before its first request.
   */
  workIn(jobId: string, states: ItemState[]): WorkItem[] {
    if (!this.hasRuns(jobId)) {
      // Column by column (one read transaction): better-sqlite3 makes a row object far more slowly than it reads a
      // value, and most phases of a work list are empty; 10,000 rows are read in half the time.
      const where = `job_id = ? AND state IN (${placeholders(states.length)})`;
      return this.transaction(() => {
        const ids = this.sql(`SELECT id FROM job_items WHERE ${where} ORDER BY id`)
          .pluck()
          .all(jobId, ...states) as number[];
        const data = this.sql(`SELECT data FROM job_items WHERE ${where} ORDER BY id`)
          .pluck()
          .all(jobId, ...states) as string[];
        const phases = new Map(
          this.sql(`SELECT id, phase FROM job_items WHERE ${where} AND phase != ''`)
            .raw()
            .all(jobId, ...states) as [number, string][],
        );
        return ids.map((id, i) => ({ id, phase: phases.get(id) ?? '', data: data[i]! }));
      });
    }
    return this.standingIn(jobId, states, 'id, state, phase, data').map(({ id, phase, data }) => ({
      id,
      phase,
      data: data!,
    }));
  }

  /**
   * A job's items in the given states as they stand, in journal order. With settled runs, the rows are read by their
   * own states (unsettled ones too where a run could settle them into a state asked for) and the runs laid over them
   * here, by binary search: a work list of 100,000 rows is not slowed by a lookup per row in SQL.
   */
  private standingIn(
    jobId: string,
    states: ItemState[],
    columns: string,
  ): (Pick<ItemRow, 'id' | 'state' | 'phase'> & Partial<ItemRow>)[] {
    const read = (asked: ItemState[]) =>
      this.sql(
        `SELECT ${columns} FROM job_items WHERE job_id = ? AND state IN (${placeholders(asked.length)}) ORDER BY id`,
      ).all(jobId, ...asked) as (Pick<ItemRow, 'id' | 'state' | 'phase'> & Partial<ItemRow>)[];
    const runs = this.runsOf(jobId);
    if (!runs.length) return read(states);
    const asked = new Set(states);
    if (runs.some((run) => asked.has(run.state))) asked.add('pending').add('active');
    return read([...asked]).flatMap((row) => {
      const run = row.state === 'pending' || row.state === 'active' ? coveringRun(runs, row.id) : undefined;
      const standing = run ? { ...row, state: run.state, phase: run.phase, updated_at: run.updated_at } : row;
      return states.includes(standing.state) ? [standing] : [];
    });
  }

  /** A job's settled runs in id order. */
  private runsOf(jobId: string): SettledRun[] {
    return this.sql('SELECT low, high, state, phase, updated_at FROM job_item_runs WHERE job_id = ? ORDER BY low').all(
      jobId,
    ) as SettledRun[];
  }

  /**
   * The next `limit` pending items in journal order, leaving out `excluding`, each with the values its data holds at
   * the given keys as SQLite's json_extract gives them (objects and arrays as JSON text): a million-row job shapes
   * its requests without parsing every item's data.
   */
  pendingPage<K extends string>(
    jobId: string,
    page: { excluding: readonly number[]; limit: number; detail: readonly K[] },
  ): ({ id: number; phase: string } & Record<K, string | number | null>)[] {
    const columns = page.detail.map((key) => `json_extract(data, '$.${identifier(key)}') AS "${identifier(key)}"`);
    const from = this.itemsOf(jobId);
    return this.sql(
      `SELECT id, phase${columns.map((column) => `, ${column}`).join('')}
       FROM ${from.table} WHERE job_id = ? AND state = 'pending'
       AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`,
    ).all(...from.params, jobId, JSON.stringify(page.excluding), page.limit) as ({ id: number; phase: string } & Record<
      K,
      string | number | null
    >)[];
  }

  item(id: number): ItemRow | undefined {
    return this.standing(this.sql('SELECT * FROM job_items WHERE id = ?').get(id) as ItemRow | undefined);
  }

  itemByKey(jobId: string, key: string): ItemRow | undefined {
    return this.standing(
      this.sql('SELECT * FROM job_items WHERE job_id = ? AND key = ?').get(jobId, key) as ItemRow | undefined,
    );
  }

  /** Items whose key starts with `prefix`, in key order. */
  itemsByKeyPrefix(jobId: string, prefix: string): ItemRow[] {
    const from = this.itemsOf(jobId);
    return this.sql(`SELECT * FROM ${from.table} WHERE job_id = ? AND key >= ? AND key < ? ORDER BY key`).all(
      ...from.params,
      jobId,
      ...keyRange(prefix),
    ) as ItemRow[];
  }

  /** Where a job's items are read from: their rows, or their rows with the job's settled runs laid over them. */
  private itemsOf(jobId: string): { table: string; params: unknown[] } {
    return this.hasRuns(jobId) ? { table: STANDING, params: [jobId] } : { table: 'job_items', params: [] };
  }

  private hasRuns(jobId: string): boolean {
    return this.sql('SELECT 1 FROM job_item_runs WHERE job_id = ? LIMIT 1').pluck().get(jobId) !== undefined;
  }

  /** One item's row as it stands: an unsettled row a settled run covers takes the run's state, phase and time. */
  private standing(row: ItemRow | undefined): ItemRow | undefined {
    if (row?.state !== 'pending' && row?.state !== 'active') return row;
    const run = this.sql(
      'SELECT high, state, phase, updated_at FROM job_item_runs WHERE job_id = ? AND low <= ? ORDER BY low DESC LIMIT 1',
    ).get(row.job_id, row.id) as { high: number; state: ItemState; phase: string; updated_at: string } | undefined;
    return run && run.high >= row.id ? { ...row, state: run.state, phase: run.phase, updated_at: run.updated_at } : row;
  }

  /**
   * Settles many pending items alike (a bulk request's answer) with one write per run of consecutive ids instead of
   * one per item: the item list, totals and work lists read them through. For items the caller holds unsettled
   * (its work list) and settles for good: a settled item is not set back to pending. Scattered ids (more than
   * RANGE_RUNS runs) are written on their rows.
   */
  settleItems(jobId: string, ids: readonly number[], change: { state: 'done' | 'skipped'; phase: string }): void {
    if (!ids.length) return;
    const runs = idRuns(ids);
    if (runs.length > RANGE_RUNS) return this.updateItems(ids, change);
    const insert = this.sql(
      'INSERT INTO job_item_runs (job_id, low, high, state, phase, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const at = now();
    const work = () => {
      for (const [low, high] of runs) insert.run(jobId, low, high, change.state, change.phase, at);
    };
    if (runs.length === 1) this.write(work);
    else this.transaction(work);
  }

  updateItem(id: number, change: ItemChange): void {
    const { set, params } = itemChange(change);
    this.write(() => this.sql(`UPDATE job_items SET ${set} WHERE id = @id`).run({ ...params, id }));
  }

  /**
   * The same change to many items, at once. Ids that run on without a gap (a batch of rows read in journal order)
   * are changed by range, which SQLite walks in place instead of looking each id up from a JSON list.
   */
  updateItems(ids: readonly number[], change: ItemChange): void {
    if (!ids.length) return;
    const { set, params } = itemChange(change);
    const runs = idRuns(ids);
    if (runs.length > RANGE_RUNS) {
      this.write(() =>
        this.sql(`UPDATE job_items SET ${set} WHERE id IN (SELECT value FROM json_each(@ids))`).run({
          ...params,
          ids: JSON.stringify(ids),
        }),
      );
      return;
    }
    const update = this.sql(`UPDATE job_items SET ${set} WHERE id BETWEEN @low AND @high`);
    const work = () => {
      for (const [low, high] of runs) update.run({ ...params, low, high });
    };
    if (runs.length === 1) this.write(work);
    else this.transaction(work);
  }

  updateItemByKey(jobId: string, key: string, change: ItemChange): void {
    const { set, params } = itemChange(change);
    this.write(() =>
      this.sql(`UPDATE job_items SET ${set} WHERE job_id = @jobId AND key = @key`).run({ ...params, jobId, key }),
    );
  }

  /** Failed items (all, or the given ones) go back to pending for another try. */
  resetFailed(jobId: string, itemIds?: number[]): number {
    if (itemIds?.length) {
      return this.write(
        () =>
          this.sql(
            `UPDATE job_items SET state = 'pending', error = NULL, updated_at = ?
               WHERE job_id = ? AND id IN (SELECT value FROM json_each(?)) AND state = 'failed'`,
          ).run(now(), jobId, JSON.stringify(itemIds)).changes,
      );
    }
    return this.write(
      () =>
        this.sql(
          `UPDATE job_items SET state = 'pending', error = NULL, updated_at = ? WHERE job_id = ? AND state = 'failed'`,
        ).run(now(), jobId).changes,
    );
  }

  /** Items left `active` by a crash are pending again; their kind decides how to resume them safely. */
  reviveActive(jobId: string): void {
    this.write(() =>
      this.sql(`UPDATE job_items SET state = 'pending' WHERE job_id = ? AND state = 'active'`).run(jobId),
    );
  }

  totals(jobId: string): ItemTotals {
    const totals = this.rowTotals(jobId);
    if (!this.hasRuns(jobId)) return totals;
    // Unsettled rows that settled runs cover count in the runs' states: run by run (CROSS JOIN keeps that order), each
    // a range of the state index.
    const settled = this.sql(
      `SELECT r.state AS state, i.state AS was, count(*) AS n, coalesce(sum(i.bytes), 0) AS bytes
         FROM job_item_runs r CROSS JOIN job_items i
           ON i.job_id = r.job_id AND i.state IN ('pending', 'active') AND i.id BETWEEN r.low AND r.high
         WHERE r.job_id = ? GROUP BY r.state, i.state`,
    ).all(jobId) as { state: 'done' | 'skipped'; was: ItemState; n: number; bytes: number }[];
    for (const { state, was, n, bytes } of settled) {
      totals[state] += n;
      if (was === 'active') totals.active -= n;
      if (state === 'done') totals.bytesDone += bytes;
      else totals.bytesTotal -= bytes;
    }
    return totals;
  }

  /** Counted by state along the state index (a few sums instead of seven expressions per row). */
  private rowTotals(jobId: string): ItemTotals {
    const totals: ItemTotals = { total: 0, done: 0, failed: 0, skipped: 0, active: 0, bytesTotal: 0, bytesDone: 0 };
    const rows = this.sql(
      'SELECT state, count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM job_items WHERE job_id = ? GROUP BY state',
    ).all(jobId) as { state: ItemState; n: number; bytes: number }[];
    for (const { state, n, bytes } of rows) {
      totals.total += n;
      if (state !== 'pending') totals[state] += n;
      if (state !== 'skipped') totals.bytesTotal += bytes;
      if (state === 'done') totals.bytesDone += bytes;
    }
    return totals;
  }

  /** How many of a job's items have `key` in their data. */
  itemsWithDetail(jobId: string, key: string): number {
    return this.sql(
      `SELECT count(*) FROM job_items WHERE job_id = ? AND json_extract(data, '$.${identifier(key)}') IS NOT NULL`,
    )
      .pluck()
      .get(jobId) as number;
  }

  /**
   * Over the items whose key starts with `prefix`: how many, how many are done, and over the done ones the sum of
   * the number at `sum` in their data and the largest at `max`.
   */
  keyedTotals(
    jobId: string,
    prefix: string,
    detail: { sum: string; max: string },
  ): { items: number; done: number; sum: number; max: number | null } {
    const sum = `json_extract(data, '$.${identifier(detail.sum)}')`;
    const max = `json_extract(data, '$.${identifier(detail.max)}')`;
    const from = this.itemsOf(jobId);
    return this.sql(
      `SELECT count(*) AS items, coalesce(sum(state = 'done'), 0) AS done,
         coalesce(sum(CASE WHEN state = 'done' THEN ${sum} END), 0) AS sum,
         max(CASE WHEN state = 'done' THEN ${max} END) AS max
       FROM ${from.table} WHERE job_id = ? AND key >= ? AND key < ?`,
    ).get(...from.params, jobId, ...keyRange(prefix)) as {
      items: number;
      done: number;
      sum: number;
      max: number | null;
    };
  }
}
