/**
 * This app's copy of a tenant's invitation lists (`invite_list_cache`), per target. The platform's list filters an
 * address exactly (the spec's `email`: "Filter by user email"); searching part of an address or a name is answered
 * here, from a copy read whole, page by page, and said to be a copy with the time it was read. The same copy shows
 * the list while the tenant cannot be reached.
 */
import type { Db } from '../store';
import type { PlatformClient } from '../platform';
import type { InviteTarget } from '../../../shared/contract';
import { nameOf, readInvitations, targetQuery, type ApiInvitation } from './api';

/** Pages of this size are read to copy a whole list (the platform's catalog lists allow up to 1000). */
const SYNC_PAGE = 1000;

/** One page of a platform list: its rows and how many the whole list has. */
export type ReadPage = (page: number, pageSize: number) => Promise<{ rows: ApiInvitation[]; count: number }>;

export interface CacheFilter {
  search?: string | undefined;
  active?: boolean | undefined;
  source?: string | undefined;
  page: number;
  pageSize: number;
}

/** LIKE pattern for "contains", with the wildcards of the text itself escaped. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class InvitationCache {
  private readonly syncing = new Map<string, Promise<void>>();
  private readonly upsertRow;

  constructor(private readonly db: Db) {
    this.upsertRow = db.prepare(
      `INSERT INTO invite_list_cache (profile_id, target, id, email, username, name, source, active, data, generation)
       VALUES (@profile, @target, @id, @email, @username, @name, @source, @active, @data, @generation)
       ON CONFLICT (profile_id, target, id) DO UPDATE SET email = excluded.email, username = excluded.username,
         name = excluded.name, source = excluded.source, active = excluded.active, data = excluded.data,
         generation = max(generation, excluded.generation)`,
    );
  }

  /** When the whole list of a target was last read; null when it never was. */
  syncedAt(profileId: string, target: string): string | null {
    const row = this.db
      .prepare('SELECT synced_at FROM invite_list_synced WHERE profile_id = ? AND target = ?')
      .get(profileId, target) as { synced_at: string } | undefined;
    return row?.synced_at ?? null;
  }

  /** Rows read one page at a time (the list screen's pages) keep the copy current between whole reads. */
  upsert(profileId: string, target: string, rows: readonly ApiInvitation[], generation = 0): void {
    this.db.transaction(() => {
      for (const row of rows) {
        this.upsertRow.run({
          profile: profileId,
          target,
          id: row.id,
          email: row.email ?? null,
          username: row.username ?? null,
          name: nameOf(row),
          source: row.source ?? null,
          active: row.active ? 1 : 0,
          data: JSON.stringify(row),
          generation,
        });
      }
    })();
  }

  remove(profileId: string, target: string, id: number): void {
    this.db
      .prepare('DELETE FROM invite_list_cache WHERE profile_id = ? AND target = ? AND id = ?')
      .run(profileId, target, id);
  }

  /** Reads the whole list of a target into the copy (one read at a time per target); invitations gone are dropped. */
  sync(profileId: string, targetKey: string, read: ReadPage) {
    const key = `${profileId}\u0000${targetKey}`;
    let running = this.syncing.get(key);
    if (!running) {
      running = this.readWhole(profileId, targetKey, read).finally(() => this.syncing.delete(key));
      this.syncing.set(key, running);
    }
    return running;
  }

  /** Resolves once no read is under way (the engine waits for them before it closes the database). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.syncing.values()]);
  }

  private async readWhole(profileId: string, target: string, read: ReadPage): Promise<void> {
    const last = this.db
      .prepare('SELECT max(generation) AS g FROM invite_list_cache WHERE profile_id = ? AND target = ?')
      .get(profileId, target) as { g: number | null };
    const generation = (last.g ?? 0) + 1;
    const started = new Date().toISOString();
    // Paged by the count the platform gives (a server may cap the page size below the one asked for).
    let seen = 0;
    for (let page = 1; ; page++) {
      const { rows, count } = await read(page, SYNC_PAGE);
      this.upsert(profileId, target, rows, generation);
      seen += rows.length;
      if (!rows.length || seen >= count) break;
    }
    this.db.transaction(() => {
      this.db
        .prepare('DELETE FROM invite_list_cache WHERE profile_id = ? AND target = ? AND generation < ?')
        .run(profileId, target, generation);
      this.db
        .prepare(
          `INSERT INTO invite_list_synced (profile_id, target, generation, synced_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (profile_id, target) DO UPDATE SET generation = excluded.generation, synced_at = excluded.synced_at`,
        )
        .run(profileId, target, generation, started);
    })();
  }

  /** A page of the copy, newest first: `search` is part of an address, a username or a name, in any case. */
  page(profileId: string, target: string, filter: CacheFilter): { rows: ApiInvitation[]; total: number } {
    const where = ['profile_id = @profile', 'target = @target'];
    const params: Record<string, unknown> = { profile: profileId, target };
    if (filter.search) {
      where.push(
        `(email LIKE @search ESCAPE '\\' OR username LIKE @search ESCAPE '\\' OR name LIKE @search ESCAPE '\\')`,
      );
      params.search = contains(filter.search);
    }
    if (filter.active !== undefined) {
      where.push('active = @active');
      params.active = filter.active ? 1 : 0;
    }
    if (filter.source) {
      where.push('source = @source');
      params.source = filter.source;
    }
    const clause = where.join(' AND ');
    const { n } = this.db.prepare(`SELECT count(*) AS n FROM invite_list_cache WHERE ${clause}`).get(params) as {
      n: number;
    };
    const rows = this.db
      .prepare(`SELECT data FROM invite_list_cache WHERE ${clause} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: filter.pageSize, offset: (filter.page - 1) * filter.pageSize }) as { data: string }[];
    return { rows: rows.map((row) => JSON.parse(row.data) as ApiInvitation), total: n };
  }
}

/** Reads one page of a target's whole list, for `InvitationCache.sync`. */
export function pageReader(client: PlatformClient, org: string, target: InviteTarget): ReadPage {
  return async (page, pageSize) => {
    const query = { ...targetQuery(target, org), page, page_size: pageSize, sort: '-id' };
    const { results, count } = await readInvitations(client, target, query);
    return { rows: results, count };
  };
}
