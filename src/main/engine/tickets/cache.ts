import type { Db } from '../store';
import type { ApiMessage, ApiTicket } from './api';
import { searchableText } from './markup';

/**
 * The list indexes, as migration 007 creates them. A first sync drops them, bulk-loads, and builds them once (several
 * times faster than updating seven b-trees row by row); `ensureIndexes` rebuilds any left missing by a crash.
 */
export const LIST_INDEXES: readonly (readonly [name: string, columns: string])[] = [
  ['ticket_cache_created', 'profile_id, created_at, id'],
  ['ticket_cache_status_created', 'profile_id, status, created_at, id'],
  ['ticket_cache_activity', 'profile_id, activity_at, id'],
  ['ticket_cache_status_activity', 'profile_id, status, activity_at, id'],
  ['ticket_cache_waiting', 'profile_id, waiting_since, id'],
  ['ticket_cache_status_waiting', 'profile_id, status, waiting_since, id'],
  ['ticket_cache_mentor', 'profile_id, mentor_id, created_at, id'],
];

/** `waiting_since` of a ticket nobody waits on: sorts after every timestamp, so "waiting longest" uses an index. */
export const NOT_WAITING = '~';

export interface CachedTicket {
  rid: number;
  profile_id: string;
  id: number;
  user_id: number | null;
  username: string;
  email: string;
  full_name: string;
  session: string | null;
  subject: string;
  description: string;
  status: 'open' | 'in_progress' | 'closed';
  mentor_id: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  message_count: number;
  last_message_at: string | null;
  first_staff_reply_at: string | null;
  activity_at: string;
  waiting_since: string;
}

/** A cached ticket with its local fields and mentor name, as lists and the detail read it. */
export interface TicketView extends CachedTicket {
  assignee: string | null;
  priority: string | null;
  tags: string | null;
  read_at: string | null;
  draft: string | null;
  mentor_name: string | null;
  unread: number;
}

export interface CachedMessage {
  mid: number;
  id: number;
  ticket_id: number;
  sender: number | null;
  message: string;
  timestamp: string;
}

export interface SyncRow {
  profile_id: string;
  first_synced_at: string | null;
  last_synced_at: string | null;
  read_baseline: string | null;
  tickets_watermark: string | null;
  messages_known: number;
  backfill_next_page: number;
  backfill_page_size: number;
  server_messages: number;
  my_user_id: number | null;
}

/** Name, username and the mailbox of the email (its domain is shared by everyone and would match every search). */
/** Search tokens for a ticket's tenant, status and mentor (see `facetQuery`). */
export const facetTokens = (profileId: string, status: string, mentorId: string) =>
  `${facet('p', profileId)} ${facet('s', status)} ${facet('m', mentorId)}`;
export const facet = (kind: 'p' | 's' | 'm', value: string) =>
  `${kind}${value.toLowerCase().replace(/[^a-z0-9]/g, '')}x`;

const requesterText = (t: Pick<ApiTicket, 'full_name' | 'username' | 'email'>) =>
  `${t.full_name} ${t.username} ${t.email.split('@')[0] ?? ''}`;

/** The local ticket cache: tickets, threads, their full-text indexes and the derived fields lists sort by. */
export class TicketCache {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    // A first sync that was cut short leaves its indexes dropped.
    for (const [name, columns] of LIST_INDEXES)
      db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ticket_cache (${columns})`);
    this.s = {
      existing: p(
        `SELECT rid, updated_at, status, subject, description, full_name, username, email, mentor_id, resolved_at
         FROM ticket_cache WHERE profile_id = ? AND id = ?`,
      ),
      insert: p(
        `INSERT OR IGNORE INTO ticket_cache (profile_id, id, user_id, username, email, full_name, session, subject, description,
           status, mentor_id, created_at, updated_at, resolved_at, activity_at, waiting_since)
         VALUES (@profile, @id, @user, @username, @email, @full_name, @session, @subject, @description, @status,
           @mentor_id, @created_at, @updated_at, @resolved_at, @updated_at,
           CASE WHEN @status = 'closed' THEN '${NOT_WAITING}' ELSE @created_at END)`,
      ),
      update: p(
        `UPDATE ticket_cache SET user_id = @user, username = @username, email = @email, full_name = @full_name,
           session = @session, subject = @subject, description = @description, status = @status,
           mentor_id = @mentor_id, created_at = @created_at, updated_at = @updated_at, resolved_at = @resolved_at
         WHERE rid = @rid`,
      ),
      ftsInsert: p(
        'INSERT INTO ticket_fts (rowid, subject, description, requester, thread, facets) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      indexed: p(
        `SELECT rid, subject, description, full_name, username, email, status, mentor_id FROM ticket_cache
         WHERE profile_id = ? AND id = ?`,
      ),
      threadText: p(
        `SELECT group_concat(message, char(10)) FROM (SELECT message FROM ticket_messages
         WHERE profile_id = ? AND ticket_id = ? ORDER BY timestamp, id)`,
      ).pluck(),
      ftsDelete: p('DELETE FROM ticket_fts WHERE rowid = ?'),
      messageExisting: p(
        'SELECT mid, ticket_id, sender, message, timestamp FROM ticket_messages WHERE profile_id = ? AND id = ?',
      ),
      messageInsert: p(
        'INSERT INTO ticket_messages (profile_id, id, ticket_id, sender, message, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      messageUpdate: p(
        'UPDATE ticket_messages SET ticket_id = ?, sender = ?, message = ?, timestamp = ? WHERE mid = ?',
      ),
      derivedThread: p(
        `UPDATE ticket_cache AS t SET
           message_count = (SELECT count(*) FROM ticket_messages m WHERE m.profile_id = t.profile_id AND m.ticket_id = t.id),
           last_message_at = (SELECT max(m.timestamp) FROM ticket_messages m
             WHERE m.profile_id = t.profile_id AND m.ticket_id = t.id),
           first_staff_reply_at = (SELECT min(m.timestamp) FROM ticket_messages m
             WHERE m.profile_id = t.profile_id AND m.ticket_id = t.id AND m.sender IS NOT NULL
               AND m.sender <> coalesce(t.user_id, -1))
         WHERE t.profile_id = ? AND t.id IN (SELECT value FROM json_each(?))`,
      ),
      // Waiting: since the ticket was filed while no staff answered; else since the first requester message after
      // the last staff message; not at all when closed or when staff spoke last.
      derivedClock: p(
        `UPDATE ticket_cache AS t SET
           activity_at = max(t.updated_at, coalesce(t.last_message_at, '')),
           waiting_since = CASE
             WHEN t.status = 'closed' THEN '${NOT_WAITING}'
             WHEN t.first_staff_reply_at IS NULL THEN t.created_at
             ELSE coalesce((SELECT min(m.timestamp) FROM ticket_messages m
               WHERE m.profile_id = t.profile_id AND m.ticket_id = t.id AND m.sender = t.user_id
                 AND m.timestamp > (SELECT max(s.timestamp) FROM ticket_messages s
                   WHERE s.profile_id = t.profile_id AND s.ticket_id = t.id AND s.sender IS NOT NULL
                     AND s.sender <> coalesce(t.user_id, -1))), '${NOT_WAITING}')
           END
         WHERE t.profile_id = ? AND t.id IN (SELECT value FROM json_each(?))`,
      ),
      ticketRid: p('SELECT rid FROM ticket_cache WHERE profile_id = ? AND id = ?'),
      threadMids: p('SELECT mid, id FROM ticket_messages WHERE profile_id = ? AND ticket_id = ?'),
      deleteMessage: p('DELETE FROM ticket_messages WHERE mid = ?'),
      deleteTicket: p('DELETE FROM ticket_cache WHERE rid = ?'),
      count: p('SELECT count(*) FROM ticket_cache WHERE profile_id = ?').pluck(),
      messageCount: p('SELECT count(*) FROM ticket_messages WHERE profile_id = ?').pluck(),
      maxActivity: p('SELECT max(activity_at) FROM ticket_cache WHERE profile_id = ?').pluck(),
      sync: p('SELECT * FROM ticket_sync WHERE profile_id = ?'),
      syncEnsure: p('INSERT OR IGNORE INTO ticket_sync (profile_id) VALUES (?)'),
      view: p(
        `SELECT t.*, l.assignee, l.priority, l.tags, l.read_at, l.draft, mn.name AS mentor_name,
           (coalesce(l.unread_forced, 0) = 1 OR t.activity_at > coalesce(l.read_at, @baseline)) AS unread
         FROM ticket_cache t
         LEFT JOIN ticket_local l ON l.profile_id = t.profile_id AND l.ticket_id = t.id
         LEFT JOIN ticket_mentors mn ON mn.profile_id = t.profile_id AND mn.unique_id = t.mentor_id
         WHERE t.profile_id = @profile AND t.id = @id`,
      ),
      threadSlice: p(
        `SELECT mid, id, ticket_id, sender, message, timestamp FROM ticket_messages
         WHERE profile_id = ? AND ticket_id = ? ORDER BY timestamp, id LIMIT ? OFFSET ?`,
      ),
      threadTotal: p('SELECT count(*) FROM ticket_messages WHERE profile_id = ? AND ticket_id = ?').pluck(),
      mentorUpsert: p(
        `INSERT INTO ticket_mentors (profile_id, unique_id, name) VALUES (?, ?, ?)
         ON CONFLICT (profile_id, unique_id) DO UPDATE SET name = excluded.name`,
      ),
    };
  }

  /**
   * Writes tickets as the server answered them. Returns the ones that were not cached before and the ids whose
   * server fields changed; unchanged rows are not rewritten (incremental syncs see many of them). `fresh`: the
   * first sync of an empty cache, where no thread can exist yet to derive fields from.
   */
  upsertTickets(
    profileId: string,
    tickets: ApiTicket[],
    options: { fresh?: boolean } = {},
  ): { added: ApiTicket[]; changed: number[] } {
    const added: ApiTicket[] = [];
    const changed: number[] = [];
    const reindex: number[] = [];
    this.db.transaction(() => {
      for (const t of tickets) {
        const values = {
          profile: profileId,
          id: t.id,
          user: t.user,
          username: t.username,
          email: t.email,
          full_name: t.full_name,
          session: t.session,
          subject: t.subject,
          description: t.description,
          status: t.status,
          mentor_id: t.mentor_id,
          created_at: t.created_at,
          updated_at: t.updated_at,
          resolved_at: t.resolved_at,
        };
        // A bulk load tries the insert first (one statement instead of two); a row seen twice goes the long way.
        if (options.fresh) {
          const inserted = this.s.insert.run(values);
          if (inserted.changes) {
            const rid = Number(inserted.lastInsertRowid);
            this.s.ftsInsert.run(
              rid,
              t.subject,
              searchableText(t.description),
              requesterText(t),
              '',
              facetTokens(profileId, t.status, t.mentor_id),
            );
            added.push(t);
            continue;
          }
        }
        const row = this.s.existing.get(profileId, t.id) as
          | Pick<
              CachedTicket,
              | 'rid'
              | 'updated_at'
              | 'status'
              | 'subject'
              | 'description'
              | 'full_name'
              | 'username'
              | 'email'
              | 'mentor_id'
              | 'resolved_at'
            >
          | undefined;
        if (!row) {
          this.s.insert.run(values);
          reindex.push(t.id);
          added.push(t);
          continue;
        }
        const same =
          row.updated_at === t.updated_at &&
          row.status === t.status &&
          row.subject === t.subject &&
          row.description === t.description &&
          row.resolved_at === t.resolved_at &&
          row.mentor_id === t.mentor_id &&
          row.full_name === t.full_name;
        if (same) continue;
        this.s.update.run({ ...values, rid: row.rid });
        if (
          row.subject !== t.subject ||
          row.description !== t.description ||
          row.full_name !== t.full_name ||
          row.username !== t.username ||
          row.email !== t.email ||
          row.status !== t.status ||
          row.mentor_id !== t.mentor_id
        )
          reindex.push(t.id);
        changed.push(t.id);
      }
      const derive = options.fresh ? changed : [...changed, ...added.map((t) => t.id)];
      if (derive.length) this.refreshDerived(profileId, derive);
      this.reindex(profileId, reindex);
    })();
    return { added, changed };
  }

  /** Writes messages; returns the tickets whose threads changed (their derived fields are refreshed). */
  upsertMessages(profileId: string, messages: ApiMessage[]): number[] {
    const touched = new Set<number>();
    this.db.transaction(() => {
      for (const m of messages) {
        const row = this.s.messageExisting.get(profileId, m.id) as Omit<CachedMessage, 'id'> | undefined;
        if (!row) {
          this.s.messageInsert.run(profileId, m.id, m.ticket, m.sender, m.message, m.timestamp);
          touched.add(m.ticket);
          continue;
        }
        if (
          row.ticket_id === m.ticket &&
          row.sender === m.sender &&
          row.message === m.message &&
          row.timestamp === m.timestamp
        )
          continue;
        this.s.messageUpdate.run(m.ticket, m.sender, m.message, m.timestamp, row.mid);
        touched.add(m.ticket);
        touched.add(row.ticket_id);
      }
      if (touched.size) {
        this.refreshDerived(profileId, [...touched]);
        this.reindex(profileId, [...touched]);
      }
    })();
    return [...touched];
  }

  /** A whole thread as the server has it now: messages it no longer has are removed. */
  replaceThread(profileId: string, ticketId: number, messages: ApiMessage[]): boolean {
    let changed = false;
    this.db.transaction(() => {
      const keep = new Set(messages.map((m) => m.id));
      for (const row of this.s.threadMids.all(profileId, ticketId) as { mid: number; id: number }[]) {
        if (keep.has(row.id)) continue;
        this.s.deleteMessage.run(row.mid);
        changed = true;
      }
      if (this.upsertMessages(profileId, messages).length) changed = true;
      if (changed) {
        this.refreshDerived(profileId, [ticketId]);
        this.reindex(profileId, [ticketId]);
      }
    })();
    return changed;
  }

  refreshDerived(profileId: string, ticketIds: number[]): void {
    for (let i = 0; i < ticketIds.length; i += 5000) {
      const ids = JSON.stringify(ticketIds.slice(i, i + 5000));
      this.s.derivedThread.run(profileId, ids);
      this.s.derivedClock.run(profileId, ids);
    }
  }

  /** Rewrites the search rows of these tickets from their fields and whole threads. */
  reindex(profileId: string, ticketIds: number[]): void {
    for (const id of ticketIds) {
      const row = this.s.indexed.get(profileId, id) as
        | {
            rid: number;
            subject: string;
            description: string;
            full_name: string;
            username: string;
            email: string;
            status: string;
            mentor_id: string;
          }
        | undefined;
      if (!row) continue;
      const thread = (this.s.threadText.get(profileId, id) as string | null) ?? '';
      this.s.ftsDelete.run(row.rid);
      this.s.ftsInsert.run(
        row.rid,
        row.subject,
        searchableText(row.description),
        requesterText(row),
        thread,
        facetTokens(profileId, row.status, row.mentor_id),
      );
    }
  }

  /** Merges the search index into one segment (after a bulk load or backfill: faster lookups). */
  optimizeSearch(): void {
    this.db.exec(`INSERT INTO ticket_fts (ticket_fts) VALUES ('optimize')`);
  }

  /** Removes a ticket, its thread and their index rows (local fields and the draft stay). */
  remove(profileId: string, id: number): boolean {
    let removed = false;
    this.db.transaction(() => {
      for (const row of this.s.threadMids.all(profileId, id) as { mid: number }[]) this.s.deleteMessage.run(row.mid);
      const rid = this.s.ticketRid.get(profileId, id) as { rid: number } | undefined;
      if (rid) {
        this.s.ftsDelete.run(rid.rid);
        this.s.deleteTicket.run(rid.rid);
        removed = true;
      }
    })();
    return removed;
  }

  /** Tickets cached but not among `seen` (a complete listing of the server): deleted there. */
  removeMissing(profileId: string, seen: Set<number>): number[] {
    const ids = this.db.prepare('SELECT id FROM ticket_cache WHERE profile_id = ?').pluck().all(profileId) as number[];
    const gone = ids.filter((id) => !seen.has(id));
    for (const id of gone) this.remove(profileId, id);
    return gone;
  }

  count(profileId: string): number {
    return this.s.count.get(profileId) as number;
  }

  messageCount(profileId: string): number {
    return this.s.messageCount.get(profileId) as number;
  }

  maxActivity(profileId: string): string | null {
    return (this.s.maxActivity.get(profileId) as string | null) ?? null;
  }

  ensureIndexes(): void {
    for (const [name, columns] of LIST_INDEXES)
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ticket_cache (${columns})`);
  }

  dropIndexes(): void {
    for (const [name] of LIST_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
  }

  /**
   * A bulk load writes ticket ids in no particular order into the (profile, id) index and the search index: with
   * SQLite's default 2 MB page cache most of those writes miss. A larger cache for the load; the old size after.
   */
  withLargeCache<T>(run: () => Promise<T>): Promise<T> {
    const before = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma('cache_size = -65536');
    return run().finally(() => this.db.pragma(`cache_size = ${before}`));
  }

  view(profileId: string, id: number, baseline: string): TicketView | undefined {
    return this.s.view.get({ profile: profileId, id, baseline }) as TicketView | undefined;
  }

  /** One cached message of the tenant's, by its platform id. */
  message(profileId: string, id: number): CachedMessage | undefined {
    return this.db
      .prepare(
        'SELECT mid, id, ticket_id, sender, message, timestamp FROM ticket_messages WHERE profile_id = ? AND id = ?',
      )
      .get(profileId, id) as CachedMessage | undefined;
  }

  thread(profileId: string, ticketId: number, offset: number, limit: number): CachedMessage[] {
    return this.s.threadSlice.all(profileId, ticketId, limit, offset) as CachedMessage[];
  }

  threadTotal(profileId: string, ticketId: number): number {
    return this.s.threadTotal.get(profileId, ticketId) as number;
  }

  syncRow(profileId: string): SyncRow {
    const row = this.s.sync.get(profileId) as SyncRow | undefined;
    if (row) return row;
    this.s.syncEnsure.run(profileId);
    return this.s.sync.get(profileId) as SyncRow;
  }

  updateSync(profileId: string, fields: Partial<Omit<SyncRow, 'profile_id'>>): void {
    const keys = Object.keys(fields);
    if (!keys.length) return;
    this.s.syncEnsure.run(profileId);
    this.db
      .prepare(`UPDATE ticket_sync SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE profile_id = @profile_id`)
      .run({ ...fields, profile_id: profileId });
  }

  setMentorNames(profileId: string, names: Map<string, string>): void {
    this.db.transaction(() => {
      for (const [id, name] of names) this.s.mentorUpsert.run(profileId, id, name);
    })();
  }

  mentorNames(profileId: string): Map<string, string> {
    const rows = this.db
      .prepare('SELECT unique_id, name FROM ticket_mentors WHERE profile_id = ?')
      .raw()
      .all(profileId) as [string, string][];
    return new Map(rows);
  }
}
