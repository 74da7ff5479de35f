/**
 * Stale-while-revalidate for cached lists. A list that was never fetched (or that the caller asks to refresh) is
 * fetched before answering; otherwise the cache answers at once and, when it is older than the list allows, a
 * background refresh follows and announces itself with an event. One refresh per list at a time; a refresh that
 * started before a write is not allowed to overwrite that write's result.
 */
import type { Freshness } from '../../../shared/contract';
import { RequestAbortedError } from '../platform';
import type { Log } from '../log';
import { CHANGED_ON_TENANT, type Cached, type MentorCache } from './cache';
import { explain, isUnreachable, offlineNote, type Asked } from './explain';
import type { CallOptions } from './mentor-api';

/** When a screen is already showing saved rows, it should not wait through the whole retry policy. */
export const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };

export interface ListSource<T> {
  profileId: string;
  /** The cache's list key. */
  list: string;
  read(): Cached<T>;
  fetch(options: CallOptions): Promise<T[]>;
  store(rows: T[], asOf: string): void;
  /** Emits the list's "changed" event. */
  changed(): void;
  /** How old the rows may be before a background refresh. */
  staleAfterMs(rows: T[]): number;
  /** Lazily, for error messages. */
  asked(): Asked;
}

export interface Answer<T> {
  rows: T[];
  freshness: Freshness;
}

interface Refreshed<T> {
  rows: T[];
  /** False when a write landed meanwhile and the rows were not stored. */
  stored: boolean;
  /** When the fetch started: the rows are at least this fresh. */
  asOf: string;
}

export class Freshener {
  private readonly running = new Map<string, { task: Promise<Refreshed<unknown>>; writes: number }>();
  private readonly writes = new Map<string, number>();
  private readonly background = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private closed = false;

  constructor(
    private readonly cache: MentorCache,
    private readonly log: Log,
  ) {}

  async answer<T>(source: ListSource<T>, refresh = false): Promise<Answer<T>> {
    const cached = source.read();
    // Marked as changed on the tenant (a training job settled documents): the saved rows are known to be old, so
    // this read fetches them (falling back to the saved copy when the tenant cannot be reached).
    const changed = cached?.meta.checkedAt === CHANGED_ON_TENANT;
    if (cached && !refresh && !changed) {
      const age = Date.now() - Date.parse(cached.meta.checkedAt || '1970-01-01T00:00:00Z');
      if (!(age < source.staleAfterMs(cached.rows))) this.refreshInBackground(source);
      return {
        rows: cached.rows,
        freshness: { asOf: cached.meta.asOf, source: 'cache', offline: cached.meta.error },
      };
    }
    try {
      const { rows, stored, asOf } = await this.refresh(source, cached ? INTERACTIVE : {});
      if (!stored) {
        // A write landed while this refresh was under way: the cache holds the newer truth.
        const now = source.read();
        if (now) return { rows: now.rows, freshness: { asOf: now.meta.asOf, source: 'cache', offline: null } };
      }
      return { rows, freshness: { asOf, source: 'api', offline: null } };
    } catch (error) {
      if (cached && isUnreachable(error)) {
        const note = offlineNote(error);
        this.log(`mentors: refreshing ${source.list} failed, answering from the cache: ${String(error)}`);
        this.cache.refreshFailed(source.profileId, source.list, note);
        return { rows: cached.rows, freshness: { asOf: cached.meta.asOf, source: 'cache', offline: note } };
      }
      throw explain(error, source.asked());
    }
  }

  /** A write changed the list: refreshes that started before it must not store what they fetched. */
  wrote(profileId: string, list: string): void {
    const key = keyOf(profileId, list);
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
  }

  /**
   * The list changed on the tenant behind the cache's back (another area, e.g. a training job, settled documents):
   * a refresh under way started too early to store its rows, and the next read fetches the list again. The mark is
   * in SQLite, so an app following a job that another process runs sees it too.
   */
  changedOnTenant(profileId: string, list: string): void {
    this.wrote(profileId, list);
    this.cache.markChanged(profileId, list);
  }

  private refresh<T>(source: ListSource<T>, options: CallOptions): Promise<Refreshed<T>> {
    const key = keyOf(source.profileId, source.list);
    const writes = this.writes.get(key) ?? 0;
    const running = this.running.get(key);
    // One refresh at a time, unless the one under way started before a change: its rows would be old already.
    if (running && running.writes === writes) return running.task as Promise<Refreshed<T>>;
    const startedAt = new Date().toISOString();
    const task = source.fetch({ ...options, signal: this.stop.signal }).then((rows) => {
      const stored = !this.closed && (this.writes.get(key) ?? 0) === writes;
      if (stored) source.store(rows, startedAt);
      return { rows, stored, asOf: startedAt };
    });
    const tracked = task.finally(() => {
      if (this.running.get(key)?.task === tracked) this.running.delete(key);
    });
    this.running.set(key, { task: tracked, writes });
    return tracked;
  }

  private refreshInBackground<T>(source: ListSource<T>): void {
    if (this.closed || this.running.has(keyOf(source.profileId, source.list))) return;
    const task = this.refresh(source, {}).then(
      () => {
        if (!this.closed) source.changed();
      },
      (error: unknown) => {
        if (this.closed || error instanceof RequestAbortedError) return;
        const explained = explain(error, source.asked());
        const note = isUnreachable(error)
          ? offlineNote(error)
          : `Could not refresh: ${explained instanceof Error ? explained.message : String(explained)}`;
        this.log(`mentors: background refresh of ${source.list} failed: ${String(error)}`);
        this.cache.refreshFailed(source.profileId, source.list, note);
        source.changed();
      },
    );
    this.background.add(task);
    void task.finally(() => this.background.delete(task));
  }

  /** Stops background refreshes and waits for them, so nothing touches the database after the engine closes. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop.abort();
    await Promise.allSettled([...this.background]);
  }
}

const keyOf = (profileId: string, list: string) => `${profileId}\n${list}`;
