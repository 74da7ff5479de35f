import type { TicketSyncState } from '../../../shared/contract';
import type { EngineServices } from '../context';
import { ApiError, isTransient, RequestAbortedError, wasNotTaken } from '../platform';
import { userScope } from '../tenants';
import { TicketApi, type ApiTicket } from './api';
import type { TicketCache } from './cache';

/** Tickets per page on full passes (the platform's maximum). */
const FULL_PAGE = 1000;
/** Pages fetched at once during a full pass: the server is busy serialising while the client inserts. */
const FULL_CONCURRENCY = 3;
const INCREMENTAL_PAGE = 200;
/** An incremental sync reads back this far before its watermark (clock skew, same-millisecond updates). */
const OVERLAP_MS = 60_000;
/** More changes than this since the last sync: a full pass is cheaper than paging by updated_at. */
const INCREMENTAL_MAX_PAGES = 25;
const MESSAGE_PAGE = 1000;
const RECONCILE_EVERY_MS = 120_000;
const PROGRESS_EVERY_MS = 250;
const LIST_REFRESH_EVERY_MS = 2_000;

export interface SyncResult {
  /** Something in the cache changed. */
  changed: boolean;
  added: ApiTicket[];
  error: unknown;
}

interface ProfileSync {
  running: Promise<SyncResult> | null;
  backfill: Promise<void> | null;
  reconcile: Promise<void> | null;
  lastReconcile: number;
  namesTried: boolean;
  state: TicketSyncState['state'];
  phase: string;
  done: number;
  total: number;
  message: string | null;
  lastProgress: number;
}

/**
 * Is this failure "the tenant cannot be reached, or not now" (show the cache, retry later) rather than a refusal? The
 * one classification of a failed answer (platform/retry.ts).
 */
export const isOffline = isTransient;

/**
 * A failed sync in words. With nothing cached for the tenant yet it says so plainly: an empty queue there means
 * "not fetched", never "no tickets", and never another tenant's queue.
 */
export function describeSyncFailure(error: unknown, tenant: string, cached: boolean): string {
  if (isOffline(error) && !cached) {
    return `Nothing is cached for ${tenant} yet: ${unreachable(error)} (${(error as Error).message})`;
  }
  if (!cached) {
    const why = describeFailure(error);
    return `Nothing is cached for ${tenant} yet: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
  }
  return describeFailure(error);
}

/** An offline failure's cause: no answer, or an answer asking to come back later. */
const unreachable = (error: unknown) =>
  wasNotTaken(error) ? 'the tenant asks to come back later' : 'the tenant is unreachable';

export function describeFailure(error: unknown): string {
  if (isOffline(error)) {
    const why = unreachable(error);
    return `${why.charAt(0).toUpperCase()}${why.slice(1)} (${(error as Error).message}); showing the cached queue`;
  }
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return `The tenant refused the ticket list (${error.status} ${error.status === 401 ? 'Unauthorized' : 'Forbidden'}): check the key in Settings → Tenants`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Keeps the local cache in step with the tenant: a first full pass (100k tickets in seconds: big pages, several at
 * once, one transaction each), then incremental passes by updated_at, new messages after the last known one, older
 * threads backfilled newest first in the background, and a full id pass now and then to notice deletions.
 */
/** What the tickets area uses of the engine. */
export type TicketServices = Pick<
  EngineServices,
  'tenant' | 'platform' | 'profiles' | 'settings' | 'journal' | 'runner' | 'emit' | 'log' | 'bulkWrites'
>;

export class TicketSync {
  private readonly profiles = new Map<string, ProfileSync>();
  private closed = false;
  private readonly controller = new AbortController();
  pollMs = (_profileId: string) => 0;

  constructor(
    private readonly ctx: TicketServices,
    private readonly cache: TicketCache,
  ) {}

  async api(profileId: string): Promise<TicketApi> {
    const [client, scope] = await Promise.all([this.ctx.platform(profileId), userScope(this.ctx.profiles, profileId)]);
    return new TicketApi(client, scope);
  }

  private of(profileId: string): ProfileSync {
    let s = this.profiles.get(profileId);
    if (!s) {
      s = {
        running: null,
        backfill: null,
        reconcile: null,
        lastReconcile: 0,
        namesTried: false,
        state: 'idle',
        phase: '',
        done: 0,
        total: 0,
        message: null,
        lastProgress: 0,
      };
      this.profiles.set(profileId, s);
    }
    return s;
  }

  /** Cached messages per tenant, counted at most every two seconds (lists ask for the status with every window). */
  private readonly messageCounts = new Map<string, { at: number; n: number }>();

  private cachedMessages(profileId: string): number {
    const known = this.messageCounts.get(profileId);
    if (known && Date.now() - known.at < 2000) return known.n;
    const n = this.cache.messageCount(profileId);
    this.messageCounts.set(profileId, { at: Date.now(), n });
    return n;
  }

  status(profileId: string): TicketSyncState {
    const s = this.of(profileId);
    const row = this.cache.syncRow(profileId);
    const cached = row.server_messages ? Math.min(1, this.cachedMessages(profileId) / row.server_messages) : 1;
    return {
      asOf: row.last_synced_at,
      state: s.state,
      phase: s.phase,
      done: s.done,
      total: s.total,
      threadsCached: row.first_synced_at ? cached : 0,
      message: s.message,
      pollMs: this.pollMs(profileId),
    };
  }

  private progress(profileId: string, force = false): void {
    const s = this.of(profileId);
    const now = Date.now();
    if (!force && now - s.lastProgress < PROGRESS_EVERY_MS) return;
    s.lastProgress = now;
    this.ctx.emit('tickets.sync', { profileId, sync: this.status(profileId) });
  }

  /** One sync at a time per tenant; callers joining a running one get its result. Never throws. */
  sync(profileId: string, options: { full?: boolean } = {}): Promise<SyncResult> {
    this.ctx.bulkWrites();
    const s = this.of(profileId);
    if (s.running) return s.running;
    const run = this.run(profileId, !!options.full).finally(() => {
      s.running = null;
    });
    s.running = run;
    return run;
  }

  private async run(profileId: string, full: boolean): Promise<SyncResult> {
    const s = this.of(profileId);
    const first = !this.cache.syncRow(profileId).first_synced_at;
    s.state = 'syncing';
    s.phase = first ? 'Fetching every ticket (first sync)' : full ? 'Re-reading every ticket' : 'Checking for changes';
    s.done = 0;
    s.total = 0;
    this.progress(profileId, true);
    try {
      const api = await this.api(profileId);
      if (first || full || !s.namesTried) await this.mentorNames(profileId, api);
      const result =
        first || full ? await this.fullPass(profileId, api, first) : await this.incremental(profileId, api);
      const messages = await this.newMessages(profileId, api);
      s.state = 'idle';
      s.phase = '';
      s.message = null;
      this.cache.updateSync(profileId, { last_synced_at: new Date().toISOString() });
      this.progress(profileId, true);
      const ids = [...new Set([...result.ids, ...messages])];
      if (ids.length || result.removed) {
        this.ctx.emit('tickets.changed', {
          profileId,
          ids: ids.length <= 500 && !result.removed ? ids : null,
          reason: 'sync',
        });
      }
      if (!first && result.added.length) {
        this.ctx.emit('tickets.new', {
          profileId,
          tickets: result.added
            .filter((t) => t.status !== 'closed')
            .slice(0, 50)
            .map((t) => ({ id: t.id, subject: t.subject, requester: t.full_name || t.username })),
        });
      }
      this.startBackfill(profileId, api);
      return { changed: ids.length > 0 || result.removed, added: first ? [] : result.added, error: null };
    } catch (error) {
      s.state = isOffline(error) || error instanceof RequestAbortedError ? 'offline' : 'error';
      s.phase = '';
      s.message = describeSyncFailure(error, this.ctx.profiles.nameOf(profileId), !first);
      this.progress(profileId, true);
      return { changed: false, added: [], error };
    }
  }

  /** Mentor names for the per-mentor views; a tenant that will not list mentors keeps showing their ids. */
  private async mentorNames(profileId: string, api: TicketApi): Promise<void> {
    this.of(profileId).namesTried = true;
    try {
      this.cache.setMentorNames(profileId, await api.mentorNames(this.controller.signal));
    } catch (error) {
      if (isOffline(error)) throw error;
      this.ctx.log(`tickets: mentor names unavailable: ${describeFailure(error)}`);
    }
  }

  /** Every ticket, big pages, a few at once. On a complete pass, cached tickets the server no longer has go. */
  private async fullPass(profileId: string, api: TicketApi, first: boolean) {
    const s = this.of(profileId);
    const signal = this.controller.signal;
    const firstPage = await api.tickets({ page: 1, pageSize: FULL_PAGE, signal });
    const pages = Math.max(1, Math.ceil(firstPage.count / FULL_PAGE));
    s.total = firstPage.count;
    const seen = new Set<number>();
    const ids: number[] = [];
    const added: ApiTicket[] = [];
    let lastListRefresh = Date.now();
    let watermark = this.cache.syncRow(profileId).tickets_watermark ?? '';
    // An empty cache is loaded in bulk: the list indexes are built once at the end.
    const bulk = first && this.cache.count(profileId) === 0;
    if (bulk) this.cache.dropIndexes();
    const take = (results: ApiTicket[], invalid: number) => {
      if (invalid) this.ctx.log(`tickets: ${invalid} ticket rows did not match HumanSupportTicket and were skipped`);
      const result = this.cache.upsertTickets(profileId, results, { fresh: first });
      for (const t of results) {
        seen.add(t.id);
        if (t.updated_at > watermark) watermark = t.updated_at;
      }
      added.push(...result.added);
      if (!first) ids.push(...result.changed, ...result.added.map((t) => t.id));
      s.done = Math.min(s.total, s.done + results.length);
      this.progress(profileId);
      // The first sync fills the queue as it goes.
      if (first && !bulk && Date.now() - lastListRefresh > LIST_REFRESH_EVERY_MS) {
        lastListRefresh = Date.now();
        this.ctx.emit('tickets.changed', { profileId, ids: null, reason: 'sync' });
      }
    };
    let next = 2;
    try {
      take(firstPage.results, firstPage.invalid);
      const worker = async () => {
        while (next <= pages && !this.closed) {
          const page = next++;
          try {
            const result = await api.tickets({ page, pageSize: FULL_PAGE, signal });
            take(result.results, result.invalid);
          } catch (error) {
            // Tickets deleted during the pass shorten the list: the last page may no longer exist.
            if (error instanceof ApiError && error.status === 404 && page === pages) return;
            throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(FULL_CONCURRENCY, pages - 1) }, worker));
    } finally {
      if (bulk) {
        s.phase = 'Indexing';
        this.progress(profileId, true);
        this.cache.ensureIndexes();
        this.cache.optimizeSearch();
      }
    }
    if (this.closed) throw new RequestAbortedError();
    const removed = this.cache.removeMissing(profileId, seen);
    const row = this.cache.syncRow(profileId);
    const now = new Date().toISOString();
    this.cache.updateSync(profileId, {
      first_synced_at: row.first_synced_at ?? now,
      // What was there at the first sync counts as read; anything after it is new.
      read_baseline: row.read_baseline ?? this.cache.maxActivity(profileId) ?? now,
      tickets_watermark: watermark || null,
    });
    this.of(profileId).lastReconcile = Date.now();
    if (first) await this.startMessageIndex(profileId, api);
    return { ids, added, removed: removed.length > 0 };
  }

  /** Changes since the watermark (newest updated first), then a count check that notices deletions. */
  private async incremental(profileId: string, api: TicketApi) {
    const row = this.cache.syncRow(profileId);
    const since = row.tickets_watermark ? Date.parse(row.tickets_watermark) - OVERLAP_MS : 0;
    const collected: ApiTicket[] = [];
    let serverCount = 0;
    for (let page = 1; ; page++) {
      if (page > INCREMENTAL_MAX_PAGES) return this.fullPass(profileId, api, false);
      const result = await api.tickets({
        page,
        pageSize: INCREMENTAL_PAGE,
        ordering: '-updated_at',
        signal: this.controller.signal,
      });
      if (page === 1) serverCount = result.count;
      collected.push(...result.results);
      const oldest = result.results[result.results.length - 1];
      if (!result.next || !oldest || Date.parse(oldest.updated_at) < since) break;
    }
    const fresh = collected.filter((t) => Date.parse(t.updated_at) >= since);
    const { added, changed } = this.cache.upsertTickets(profileId, fresh);
    const watermark = fresh.reduce((max, t) => (t.updated_at > max ? t.updated_at : max), row.tickets_watermark ?? '');
    if (watermark) this.cache.updateSync(profileId, { tickets_watermark: watermark });
    // Deleted tickets do not show up by updated_at: when the counts disagree, a full id pass settles it.
    if (this.cache.count(profileId) !== serverCount) this.scheduleReconcile(profileId, api, serverCount);
    return { ids: [...changed, ...added.map((t) => t.id)], added, removed: false };
  }

  private scheduleReconcile(profileId: string, api: TicketApi, serverCount: number): void {
    const s = this.of(profileId);
    if (s.reconcile || Date.now() - s.lastReconcile < (serverCount <= 5 * FULL_PAGE ? 0 : RECONCILE_EVERY_MS)) return;
    s.lastReconcile = Date.now();
    s.reconcile = (async () => {
      try {
        const result = await this.fullPass(profileId, api, false);
        if (result.removed || result.ids.length) {
          this.ctx.emit('tickets.changed', { profileId, ids: null, reason: result.removed ? 'deleted' : 'sync' });
        }
      } catch (error) {
        this.ctx.log(`tickets: reconcile failed: ${describeFailure(error)}`);
      } finally {
        s.reconcile = null;
      }
    })();
  }

  /** After the first sync: remember how many messages exist; older pages are backfilled newest first. */
  private async startMessageIndex(profileId: string, api: TicketApi): Promise<void> {
    const probe = await api.messages({ page: 1, pageSize: 1, signal: this.controller.signal });
    this.cache.updateSync(profileId, {
      messages_known: probe.count,
      server_messages: probe.count,
      backfill_page_size: MESSAGE_PAGE,
      backfill_next_page: Math.ceil(probe.count / MESSAGE_PAGE),
    });
  }

  /** Messages after the last known one (threads only grow at the end; one page of overlap covers deletions). */
  private async newMessages(profileId: string, api: TicketApi): Promise<number[]> {
    const row = this.cache.syncRow(profileId);
    if (!row.first_synced_at) return [];
    const touched = new Set<number>();
    let page = Math.floor(Math.max(0, row.messages_known - 1) / MESSAGE_PAGE) + 1;
    let count = row.messages_known;
    for (;;) {
      let result;
      try {
        result = await api.messages({ page, pageSize: MESSAGE_PAGE, signal: this.controller.signal });
      } catch (error) {
        // Messages were deleted and the page moved: start again from the page that now holds the end.
        if (error instanceof ApiError && error.status === 404 && page > 1) {
          page = Math.max(1, page - 1);
          const probe = await api.messages({ page: 1, pageSize: 1, signal: this.controller.signal });
          page = Math.floor(Math.max(0, probe.count - 1) / MESSAGE_PAGE) + 1;
          continue;
        }
        throw error;
      }
      for (const id of this.cache.upsertMessages(profileId, result.results)) touched.add(id);
      count = result.count;
      if (!result.next || !result.results.length) break;
      page++;
    }
    const added = Math.max(0, count - row.messages_known);
    this.cache.updateSync(profileId, {
      messages_known: count,
      server_messages: Math.max(count, row.server_messages + added),
    });
    return [...touched];
  }

  /** Older thread pages, newest first, one at a time in the background; stops quietly when offline. */
  private startBackfill(profileId: string, api: TicketApi): void {
    const s = this.of(profileId);
    if (s.backfill || this.closed || !this.cache.syncRow(profileId).backfill_next_page) return;
    s.backfill = (async () => {
      let lastRefresh = Date.now();
      try {
        for (;;) {
          const row = this.cache.syncRow(profileId);
          if (this.closed || row.backfill_next_page <= 0) break;
          // Two pages at a time: the server reads the next while this side writes the last.
          const page = row.backfill_next_page;
          const pages = page > 1 ? [page, page - 1] : [page];
          const results = await Promise.all(
            pages.map((p) =>
              api.messages({ page: p, pageSize: row.backfill_page_size, signal: this.controller.signal }),
            ),
          );
          for (const result of results) this.cache.upsertMessages(profileId, result.results);
          const next = page - pages.length;
          this.cache.updateSync(profileId, { backfill_next_page: next });
          // Every thread is in: one merged search index answers fastest.
          if (next === 0) this.cache.optimizeSearch();
          this.progress(profileId);
          if (Date.now() - lastRefresh > 10_000 || next === 0) {
            lastRefresh = Date.now();
            this.ctx.emit('tickets.changed', { profileId, ids: null, reason: 'sync' });
          }
        }
      } catch (error) {
        if (!(error instanceof RequestAbortedError))
          this.ctx.log(`tickets: thread backfill paused: ${describeFailure(error)}`);
      } finally {
        s.backfill = null;
        this.progress(profileId, true);
      }
    })();
  }

  /** Resolves when a tenant's background thread backfill is done (tests, benchmarks). */
  async backfilled(profileId: string): Promise<void> {
    while (this.of(profileId).backfill) await this.of(profileId).backfill;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller.abort(new RequestAbortedError());
    await Promise.allSettled(
      [...this.profiles.values()].flatMap((s) => [s.running, s.backfill, s.reconcile].filter(Boolean)),
    );
  }
}
