/**
 * How fresh each cached list of a tenant connection is — when it was last read in full, last checked, and why the last
 * refresh failed — for every cache of the engine (the mentors area's lists, the resource kit's kinds): the one owner
 * of `cached_lists`. Lists are named by their cache (`mentors`, `documents:<mentor>`, `kit:<kind>`). A list read under
 * another base URL, org or username than the connection's now is not its: it reads as never read.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';

export interface ListMeta {
  asOf: string;
  checkedAt: string;
  error: string | null;
}

/** `checked_at` of a list whose rows are known to be old: it changed on the tenant (see Freshener.changedOnTenant). */
export const CHANGED_ON_TENANT = '';

export class ListFreshness {
  private readonly read: Statement;
  private readonly readMany: Statement;
  private readonly failed: Statement;
  private readonly written: Statement;
  private readonly writtenMany: Statement;
  private readonly answered: Statement;
  private readonly changed: Statement;
  private readonly dropped: Statement;

  constructor(
    db: Db,
    /** Base URL, org and username of a connection (null: no such connection). */
    private readonly tenantOf: (profileId: string) => string | null,
  ) {
    this.read = db.prepare(
      'SELECT tenant, as_of, checked_at, error FROM cached_lists WHERE profile_id = ? AND list = ?',
    );
    this.readMany = db.prepare(
      `SELECT list, tenant, as_of, checked_at, error FROM cached_lists
         WHERE profile_id = ? AND list IN (SELECT value FROM json_each(?))`,
    );
    this.failed = db.prepare('UPDATE cached_lists SET checked_at = ?, error = ? WHERE profile_id = ? AND list = ?');
    this.written = db.prepare(
      `INSERT INTO cached_lists (profile_id, list, tenant, as_of, checked_at, error) VALUES (?, ?, ?, ?, ?, NULL)
       ON CONFLICT (profile_id, list) DO UPDATE SET tenant = excluded.tenant, as_of = excluded.as_of,
         checked_at = excluded.checked_at, error = NULL`,
    );
    // The same for a JSON list of lists, in one statement (WHERE true: SQLite's rule for an upsert from a SELECT).
    this.writtenMany = db.prepare(
      `INSERT INTO cached_lists (profile_id, list, tenant, as_of, checked_at, error)
         SELECT @profileId, value, @tenant, @asOf, @asOf, NULL FROM json_each(@lists) WHERE true
       ON CONFLICT (profile_id, list) DO UPDATE SET tenant = excluded.tenant, as_of = excluded.as_of,
         checked_at = excluded.checked_at, error = NULL`,
    );
    this.answered = db.prepare('UPDATE cached_lists SET error = NULL WHERE profile_id = ? AND list = ?');
    this.changed = db.prepare('UPDATE cached_lists SET checked_at = ? WHERE profile_id = ? AND list = ?');
    this.dropped = db.prepare('DELETE FROM cached_lists WHERE profile_id = ? AND list = ?');
  }

  meta(profileId: string, list: string): ListMeta | null {
    const row = this.read.get(profileId, list) as
      { tenant: string; as_of: string; checked_at: string; error: string | null } | undefined;
    if (!row || row.tenant !== this.tenantOf(profileId)) return null;
    return { asOf: row.as_of, checkedAt: row.checked_at, error: row.error };
  }

  /** Several lists' freshness in one read (a bulk change looks at hundreds of mentors' settings); unknown ones left out. */
  metas(profileId: string, lists: readonly string[]): Map<string, ListMeta> {
    const tenant = this.tenantOf(profileId);
    const rows = this.readMany.all(profileId, JSON.stringify(lists)) as {
      list: string;
      tenant: string;
      as_of: string;
      checked_at: string;
      error: string | null;
    }[];
    return new Map(
      rows
        .filter((row) => row.tenant === tenant)
        .map((row) => [row.list, { asOf: row.as_of, checkedAt: row.checked_at, error: row.error }]),
    );
  }

  /** The list was read in full (or, for a list the platform cannot give, added to) at `asOf`. */
  readAt(profileId: string, list: string, asOf: string): void {
    this.readAtAll(profileId, [list], asOf);
  }

  /** `readAt` for several lists (a bulk change's hundreds of mentors) in one statement. */
  readAtAll(profileId: string, lists: readonly string[], asOf: string): void {
    const tenant = this.tenantOf(profileId) ?? '';
    if (lists.length === 1) this.written.run(profileId, lists[0], tenant, asOf, asOf);
    else if (lists.length) this.writtenMany.run({ profileId, tenant, asOf, lists: JSON.stringify(lists) });
  }

  /** A refresh that did not work; the rows stay as they were. */
  refreshFailed(profileId: string, list: string, error: string, at: string): void {
    this.failed.run(at, error, profileId, list);
  }

  /** The tenant just answered: a note that it could not be reached is no longer true. */
  answeredNow(profileId: string, list: string): void {
    this.answered.run(profileId, list);
  }

  /** The list changed on the tenant: the next read fetches it before answering. */
  markChanged(profileId: string, list: string): void {
    this.changed.run(CHANGED_ON_TENANT, profileId, list);
  }

  /** Forgets a list so the next read fetches it. */
  forget(profileId: string, list: string): void {
    this.dropped.run(profileId, list);
  }
}
