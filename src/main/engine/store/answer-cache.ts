/**
 * Cached answers (analytics' figures, the review area's trace readings, the Credentials area's badges), one row per
 * (tenant, call, parameters) with the time they were fetched, in `analytics_cache`. A fresh answer is served from
 * SQLite at once; a stale one is served at once too and refreshed in the background (an event tells the screens); when
 * the tenant cannot be reached the last answer is served with the reason, which the screens show as an offline banner.
 * (Badges use `read` and `write` only: they ask the tenant every time and keep the answer as the saved copy.)
 */
import type { Freshness } from '../../../shared/contract';
import type { EngineServices } from '../context';
import { isTransient } from '../platform';
import type { Db } from './database';

/** Answers younger than this are not fetched again unless the admin asks. */
export const FRESH_FOR_MS = 5 * 60_000;

interface Row {
  value: string;
  as_of: string;
}

/** JSON with sorted keys, so the same parameters always give the same cache key. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

export interface Cached<T> {
  value: T;
  freshness: Freshness;
}

/** Tells the screens a cached answer changed in the background (or could not be refreshed: `offline`). */
export type AnswerChanged = (profileId: string, call: string, offline: string | null) => void;

export class AnswerCache {
  private readonly refreshing = new Map<string, Promise<void>>();
  /** Why the last background refresh of a key failed, while it stays failed. */
  private readonly offline = new Map<string, string>();
  private readonly changed: AnswerChanged;

  constructor(
    private readonly db: Db,
    private readonly deps: Pick<EngineServices, 'emit' | 'log'>,
    private readonly clock: () => number = Date.now,
    /** Another area's answers announce themselves with their own event (default: `analytics.changed`). */
    changed?: AnswerChanged,
  ) {
    this.changed =
      changed ?? ((profileId, call, offline) => deps.emit('analytics.changed', { profileId, call, offline }));
  }

  read(profileId: string, call: string, params: string): { value: unknown; asOf: string } | undefined {
    const row = this.db
      .prepare('SELECT value, as_of FROM analytics_cache WHERE profile_id = ? AND call = ? AND params = ?')
      .get(profileId, call, params) as Row | undefined;
    return row ? { value: JSON.parse(row.value) as unknown, asOf: row.as_of } : undefined;
  }

  write(profileId: string, call: string, params: string, value: unknown, asOf: string): void {
    this.db
      .prepare(
        `INSERT INTO analytics_cache (profile_id, call, params, value, as_of) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, call, params) DO UPDATE SET value = excluded.value, as_of = excluded.as_of`,
      )
      .run(profileId, call, params, JSON.stringify(value), asOf);
  }

  /**
   * The cached answer to `call` with `params`, whatever its age, or `undefined` when there is none; nothing is asked
   * of the tenant now. A stale answer is refreshed in the background with `fetch`, as `answer` does.
   */
  cached<T>(
    request: { profileId: string; call: string; params: unknown; freshForMs?: number },
    fetch: () => Promise<T>,
  ): Cached<T> | undefined {
    const { profileId, call } = request;
    const params = canonical(request.params);
    const cached = this.read(profileId, call, params);
    if (!cached) return undefined;
    const key = `${profileId}\u0000${call}\u0000${params}`;
    const age = this.clock() - Date.parse(cached.asOf);
    if (age >= (request.freshForMs ?? FRESH_FOR_MS)) this.refreshInBackground(key, request, params, fetch);
    return {
      value: cached.value as T,
      freshness: { asOf: cached.asOf, source: 'cache', offline: this.offline.get(key) ?? null },
    };
  }

  /**
   * The answer to `call` with `params` for a tenant: from the cache when fresh, else from `fetch` (falling back to
   * the cache, marked offline, when the tenant is unreachable).
   */
  async answer<T>(
    request: { profileId: string; call: string; params: unknown; refresh?: boolean | undefined; freshForMs?: number },
    fetch: () => Promise<T>,
  ): Promise<Cached<T>> {
    const { profileId, call } = request;
    const params = canonical(request.params);
    const key = `${profileId}\u0000${call}\u0000${params}`;
    const cached = this.read(profileId, call, params);
    if (cached && !request.refresh) {
      const age = this.clock() - Date.parse(cached.asOf);
      if (age >= (request.freshForMs ?? FRESH_FOR_MS)) this.refreshInBackground(key, request, params, fetch);
      return {
        value: cached.value as T,
        freshness: { asOf: cached.asOf, source: 'cache', offline: this.offline.get(key) ?? null },
      };
    }
    try {
      const value = await fetch();
      const asOf = new Date(this.clock()).toISOString();
      this.write(profileId, call, params, value, asOf);
      this.offline.delete(key);
      return { value, freshness: { asOf, source: 'api', offline: null } };
    } catch (error) {
      // Unreachable, or "not now": the last answer stands in.
      if (!cached || !isTransient(error)) throw error;
      const reason = (error as Error).message;
      this.offline.set(key, reason);
      return { value: cached.value as T, freshness: { asOf: cached.asOf, source: 'cache', offline: reason } };
    }
  }

  private refreshInBackground(
    key: string,
    request: { profileId: string; call: string },
    params: string,
    fetch: () => Promise<unknown>,
  ): void {
    if (this.refreshing.has(key)) return;
    const done = fetch()
      .then(
        (value) => {
          this.write(request.profileId, request.call, params, value, new Date(this.clock()).toISOString());
          this.offline.delete(key);
          this.changed(request.profileId, request.call, null);
        },
        (error: unknown) => {
          if (!isTransient(error)) {
            this.deps.log(`refreshing ${request.call} failed: ${(error as Error).message}`);
            return;
          }
          const reason = (error as Error).message;
          const changed = this.offline.get(key) !== reason;
          this.offline.set(key, reason);
          if (changed) this.changed(request.profileId, request.call, reason);
        },
      )
      .catch((error: unknown) => this.deps.log(`could not store ${request.call}: ${String(error)}`))
      .finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, done);
  }

  /** Waits for background refreshes (tests, shutdown). */
  async settle(): Promise<void> {
    await Promise.all([...this.refreshing.values()]);
  }
}
