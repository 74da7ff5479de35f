/**
 * The review area's tables (migrations 023, 025 and 026): the cached logs and rated-down conversations, the reviewed marks this machine keeps (who, when), the
 * mentor names by integer id, saved views and the sync state. Everything is keyed by the tenant connection.
 */
import type { Statement } from 'better-sqlite3';
import type { ReviewFilter, ReviewItem, ReviewSource, ReviewView } from '../../../shared/contract';
import { ReviewFilter as FilterSchema } from '../../../shared/contract';
import { INDEXED_SEARCH_MOST, trigramMatch, type Db } from '../store';

/** A queue item as cached: a moderation or safety log, or a conversation rated down. */
export interface CachedItem {
  id: string;
  source: ReviewSource;
  logId: number | null;
  /** The rated conversation and the index of its rated message (negative feedback only). */
  session: string | null;
  messageIndex: number | null;
  learner: string;
  email: string;
  mentorId: number;
  prompt: string;
  reason: string;
  createdAt: string;
}

interface ItemRow {
  id: string;
  source: ReviewSource;
  log_id: number | null;
  session: string | null;
  learner: string;
  email: string;
  mentor_id: number;
  mentor_name: string | null;
  prompt: string;
  reason: string;
  created_at: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

const toItem = (r: ItemRow): ReviewItem => ({
  id: r.id,
  source: r.source,
  logId: r.log_id,
  session: r.session,
  learner: r.learner,
  email: r.email,
  mentorId: r.mentor_id,
  mentorName: r.mentor_name,
  prompt: r.prompt,
  reason: r.reason,
  createdAt: r.created_at,
  reviewedBy: r.reviewed_by,
  reviewedAt: r.reviewed_at,
});

/** The day after a YYYY-MM-DD date: `to` is inclusive. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

type Filter = ReturnType<typeof FilterSchema.parse>;

/**
 * The WHERE clause of a filter; `scope` leaves out the mentor and state (for the counts per mentor). `candidates` are
 * the items the trigram index says may hold the searched text (a JSON array of rids), or null for the scan.
 */
function whereOf(profileId: string, filter: Filter, scope: 'all' | 'counts', candidates: string | null = null) {
  const where = ['i.profile_id = @profileId'];
  const params: Record<string, unknown> = { profileId };
  if (filter.sources?.length) {
    where.push('i.source IN (SELECT value FROM json_each(@sources))');
    params.sources = JSON.stringify(filter.sources);
  }
  // A learner's items are read from the learner and email indexes first (a few of 100,000; SQLite would otherwise
  // walk the whole queue in date order to find them).
  let items = 'review_items i';
  if (filter.learner) {
    items = `(SELECT id AS learner_item FROM review_items WHERE profile_id = @profileId AND learner = @learner
              UNION SELECT id FROM review_items WHERE profile_id = @profileId AND email = @learner)
             CROSS JOIN review_items i ON i.profile_id = @profileId AND i.id = learner_item`;
    params.learner = filter.learner;
  } else if (candidates) {
    // The index's few candidates, each found by its rid, rather than a walk of the queue looking for them.
    items = `(SELECT value AS candidate FROM json_each(@candidates))
             CROSS JOIN review_items i ON i.rid = candidate`;
  }
  if (filter.from) {
    where.push('i.created_at >= @from');
    params.from = filter.from;
  }
  if (filter.to) {
    where.push('i.created_at < @to');
    params.to = dayAfter(filter.to);
  }
  if (filter.search) {
    // The test that decides; through the index only the items holding the text (or a case variant) are tested.
    where.push('(instr(lower(i.prompt), @search) > 0 OR instr(lower(i.reason), @search) > 0)');
    params.search = filter.search.toLowerCase();
    if (candidates) {
      params.candidates = candidates;
      if (filter.learner) where.push('i.rid IN (SELECT value FROM json_each(@candidates))');
    }
  }
  if (scope === 'all') {
    if (filter.mentor !== undefined) {
      where.push('i.mentor_id = @mentor');
      params.mentor = filter.mentor;
    }
    if (filter.state === 'open') where.push('m.id IS NULL');
    if (filter.state === 'reviewed') where.push('m.id IS NOT NULL');
  }
  return { items, sql: where.join(' AND '), params };
}

const MARK = 'LEFT JOIN review_marks m ON m.profile_id = i.profile_id AND m.id = i.id';

export class ReviewStore {
  private readonly statements = new Map<string, Statement>();
  constructor(private readonly db: Db) {}

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /**
   * Replaces the tenant's cached items of the sources read (a source whose read failed keeps its cache) and the
   * mentor names with a full read (marks and views stay).
   */
  replace(
    profileId: string,
    items: CachedItem[],
    mentors: { id: number; uniqueId: string; name: string }[],
    sources: readonly ReviewSource[],
  ): void {
    this.db.transaction(() => {
      this.sql('DELETE FROM review_items WHERE profile_id = ? AND source IN (SELECT value FROM json_each(?))').run(
        profileId,
        JSON.stringify(sources),
      );
      const insert = this.sql(
        // An upsert, not OR REPLACE: a replaced row would not pass through the delete triggers (counts, text index).
        `INSERT INTO review_items (profile_id, id, source, log_id, session, message_index, learner, email, mentor_id,
           prompt, reason, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, id) DO UPDATE SET source = excluded.source, log_id = excluded.log_id,
           session = excluded.session, message_index = excluded.message_index, learner = excluded.learner,
           email = excluded.email, mentor_id = excluded.mentor_id, prompt = excluded.prompt, reason = excluded.reason,
           created_at = excluded.created_at`,
      );
      for (const l of items) {
        insert.run(
          profileId,
          l.id,
          l.source,
          l.logId,
          l.session,
          l.messageIndex,
          l.learner,
          l.email,
          l.mentorId,
          l.prompt,
          l.reason,
          l.createdAt,
        );
      }
      this.sql('DELETE FROM review_mentors WHERE profile_id = ?').run(profileId);
      const mentor = this.sql(
        'INSERT OR REPLACE INTO review_mentors (profile_id, mentor_id, unique_id, name) VALUES (?, ?, ?, ?)',
      );
      for (const m of mentors) mentor.run(profileId, m.id, m.uniqueId, m.name);
      this.setSync(profileId, new Date().toISOString(), null);
    })();
  }

  setSync(profileId: string, syncedAt: string | null, error: string | null): void {
    this.sql(
      `INSERT INTO review_sync (profile_id, synced_at, error) VALUES (?, ?, ?)
       ON CONFLICT (profile_id) DO UPDATE SET synced_at = coalesce(excluded.synced_at, synced_at), error = excluded.error`,
    ).run(profileId, syncedAt, error);
  }

  syncState(profileId: string): { syncedAt: string | null; error: string | null } {
    const row = this.sql('SELECT synced_at, error FROM review_sync WHERE profile_id = ?').get(profileId) as
      { synced_at: string | null; error: string | null } | undefined;
    return { syncedAt: row?.synced_at ?? null, error: row?.error ?? null };
  }

  count(profileId: string): number {
    return this.sql('SELECT count(*) FROM review_items WHERE profile_id = ?').pluck().get(profileId) as number;
  }

  /**
   * The items that may hold a search's text, from the trigram index (as a JSON array of rids), when at most
   * INDEXED_SEARCH_MOST items (of any tenant) do, read no further; null for a search the scan answers (shorter than
   * a trigram, or a text most items hold, which the scan finds as quickly).
   */
  private candidates(filter: Filter): string | null {
    const match = filter.search ? trigramMatch(filter.search.toLowerCase()) : null;
    if (!match) return null;
    const rids = this.sql('SELECT rowid FROM review_items_text WHERE review_items_text MATCH ? LIMIT ?')
      .pluck()
      .all(match, INDEXED_SEARCH_MOST + 1) as number[];
    return rids.length <= INDEXED_SEARCH_MOST ? JSON.stringify(rids) : null;
  }

  /** Items and reviewed items per mentor under the filter (its mentor and state aside). */
  private countsPerMentor(
    profileId: string,
    filter: Filter,
    candidates: string | null,
  ): { id: number; total: number; reviewed: number }[] {
    const counts = whereOf(profileId, filter, 'counts', candidates);
    if (!filter.learner && !filter.from && !filter.to && !filter.search) {
      // The kept counts (migration 024's triggers), by source: a few rows rather than every item.
      return this.sql(
        `SELECT mentor_id AS id, sum(total) AS total, sum(reviewed) AS reviewed FROM review_counts i
         WHERE ${counts.sql} GROUP BY mentor_id HAVING sum(total) > 0`,
      ).all(counts.params) as { id: number; total: number; reviewed: number }[];
    }
    if (filter.learner || candidates) {
      return this.sql(
        `SELECT i.mentor_id AS id, count(*) AS total, count(m.id) AS reviewed FROM ${counts.items} ${MARK}
         WHERE ${counts.sql} GROUP BY i.mentor_id`,
      ).all(counts.params) as { id: number; total: number; reviewed: number }[];
    }
    // Every matching item per mentor from its index; the reviewed ones from the marks (far fewer), each item found by
    // its key: CROSS JOIN keeps SQLite from walking every item to look for its mark.
    const totals = this.sql(
      `SELECT i.mentor_id AS id, count(*) AS n FROM review_items i WHERE ${counts.sql} GROUP BY i.mentor_id`,
    ).all(counts.params) as { id: number; n: number }[];
    const reviewed = new Map(
      (
        this.sql(
          `SELECT i.mentor_id AS id, count(*) AS n FROM review_marks m
           CROSS JOIN review_items i ON i.profile_id = m.profile_id AND i.id = m.id
           WHERE m.profile_id = @profileId AND ${counts.sql} GROUP BY i.mentor_id`,
        ).all(counts.params) as { id: number; n: number }[]
      ).map((r) => [r.id, r.n]),
    );
    return totals.map((t) => ({ id: t.id, total: t.n, reviewed: reviewed.get(t.id) ?? 0 }));
  }

  /**
   * A window of the filtered queue with its total and the counts per mentor: kept counts when the filter allows,
   * else grouped reads through the indexes; 100,000 items open in well under the 150 ms the queue allows.
   */
  list(profileId: string, input: ReviewFilter, offset: number, limit: number) {
    const filter = FilterSchema.parse(input);
    const names = new Map(
      (
        this.sql('SELECT mentor_id, name FROM review_mentors WHERE profile_id = ?').all(profileId) as {
          mentor_id: number;
          name: string;
        }[]
      ).map((r) => [r.mentor_id, r.name]),
    );
    const candidates = this.candidates(filter);
    const mentors = this.countsPerMentor(profileId, filter, candidates)
      .map((t) => ({ id: t.id, name: names.get(t.id) ?? null, total: t.total, open: t.total - t.reviewed }))
      .sort((a, b) => b.open - a.open || b.total - a.total || a.id - b.id);
    const counted = filter.mentor === undefined ? mentors : mentors.filter((m) => m.id === filter.mentor);
    const total = counted.reduce(
      (n, m) => n + (filter.state === 'open' ? m.open : filter.state === 'reviewed' ? m.total - m.open : m.total),
      0,
    );
    const { items, sql, params } = whereOf(profileId, filter, 'all', candidates);
    const rows = limit
      ? (this.sql(
          `SELECT i.id, i.source, i.log_id, i.session, i.learner, i.email, i.mentor_id, n.name AS mentor_name, i.prompt, i.reason,
             i.created_at, m.reviewed_by, m.reviewed_at
           FROM ${items} ${MARK}
             LEFT JOIN review_mentors n ON n.profile_id = i.profile_id AND n.mentor_id = i.mentor_id
           WHERE ${sql} ORDER BY i.created_at DESC, i.id LIMIT @limit OFFSET @offset`,
        ).all({ ...params, limit, offset }) as ItemRow[])
      : [];
    return { total, offset, items: rows.map(toItem), mentors };
  }

  item(profileId: string, id: string): ReviewItem | null {
    const row = this.sql(
      `SELECT i.id, i.source, i.log_id, i.session, i.learner, i.email, i.mentor_id, n.name AS mentor_name, i.prompt, i.reason,
         i.created_at, m.reviewed_by, m.reviewed_at
       FROM review_items i ${MARK} LEFT JOIN review_mentors n ON n.profile_id = i.profile_id AND n.mentor_id = i.mentor_id
       WHERE i.profile_id = @profileId AND i.id = @id`,
    ).get({ profileId, id }) as ItemRow | undefined;
    return row ? toItem(row) : null;
  }

  /** The rated message's index in the conversation of a negative feedback item (null for a log). */
  messageIndex(profileId: string, id: string): number | null {
    return (
      (this.sql('SELECT message_index FROM review_items WHERE profile_id = ? AND id = ?').pluck().get(profileId, id) as
        number | null | undefined) ?? null
    );
  }

  mentorUniqueId(profileId: string, mentorId: number): string | null {
    return (
      (this.sql('SELECT unique_id FROM review_mentors WHERE profile_id = ? AND mentor_id = ?')
        .pluck()
        .get(profileId, mentorId) as string | undefined) ?? null
    );
  }

  /** Marks (or unmarks) the ids the cache holds; answers how many changed and the ids it does not know. */
  mark(profileId: string, ids: string[], by: string, reviewed: boolean, at = new Date().toISOString()) {
    const known = this.sql('SELECT 1 FROM review_items WHERE profile_id = ? AND id = ?').pluck();
    const set = this.sql(
      'INSERT OR IGNORE INTO review_marks (profile_id, id, reviewed_by, reviewed_at) VALUES (?, ?, ?, ?)',
    );
    const clear = this.sql('DELETE FROM review_marks WHERE profile_id = ? AND id = ?');
    const unknown: string[] = [];
    let marked = 0;
    this.db.transaction(() => {
      for (const id of ids) {
        if (!known.get(profileId, id)) {
          unknown.push(id);
          continue;
        }
        marked += (reviewed ? set.run(profileId, id, by, at) : clear.run(profileId, id)).changes;
      }
    })();
    return { marked, unknown };
  }

  remove(profileId: string, id: string): void {
    this.sql('DELETE FROM review_items WHERE profile_id = ? AND id = ?').run(profileId, id);
  }

  views(profileId: string): ReviewView[] {
    const rows = this.sql('SELECT id, name, filter FROM review_views WHERE profile_id = ? ORDER BY name').all(
      profileId,
    ) as { id: number; name: string; filter: string }[];
    return rows.map((r) => ({ id: r.id, name: r.name, filter: FilterSchema.parse(JSON.parse(r.filter)) }));
  }

  saveView(profileId: string, view: { id?: number; name: string; filter: ReviewFilter }): ReviewView {
    const filter = JSON.stringify(FilterSchema.parse(view.filter));
    const id =
      view.id === undefined
        ? Number(
            this.sql('INSERT INTO review_views (profile_id, name, filter) VALUES (?, ?, ?)').run(
              profileId,
              view.name,
              filter,
            ).lastInsertRowid,
          )
        : view.id;
    if (view.id !== undefined) {
      const { changes } = this.sql('UPDATE review_views SET name = ?, filter = ? WHERE id = ? AND profile_id = ?').run(
        view.name,
        filter,
        view.id,
        profileId,
      );
      if (!changes) throw new Error(`No saved view ${view.id}`);
    }
    return this.views(profileId).find((v) => v.id === id)!;
  }

  deleteView(profileId: string, id: number): boolean {
    return this.sql('DELETE FROM review_views WHERE id = ? AND profile_id = ?').run(id, profileId).changes > 0;
  }
}
