/**
 * The SQLite cache behind the mentors and documents screens, per tenant connection. Rows are the contract's own
 * types, validated on the way in and on the way out: a damaged row is logged and the list is fetched again.
 */
import type { z } from 'zod';
import { Mentor, MentorDocument } from '../../../shared/contract';
import type { Log } from '../log';
import { ListFreshness, type Db, type ListMeta } from '../store';
import type { TenantIdentity } from '../profiles';

export { CHANGED_ON_TENANT, type ListMeta } from '../store';

export const MENTORS_LIST = 'mentors';
export const documentsList = (mentor: string) => `documents:${mentor}`;

export interface CachedMentor {
  mentor: Mentor;
  /** The mentor's updated_at when its settings were read (null: never read). */
  settingsOf: string | null;
}

/** The rows of a list, or null when the list was never fetched (or its rows cannot be trusted any more). */
export type Cached<T> = { rows: T[]; meta: ListMeta } | null;

export class MentorCache {
  /** When each list was read, and whether its last refresh worked (shared with the resource kit's cache). */
  private readonly freshness: ListFreshness;

  constructor(
    private readonly db: Db,
    private readonly log: Log,
    tenants: TenantIdentity,
  ) {
    this.freshness = new ListFreshness(db, (profileId) => tenants.tenantOf(profileId));
  }

  meta(profileId: string, list: string): ListMeta | null {
    return this.freshness.meta(profileId, list);
  }

  /** Records a refresh that did not work; the rows stay as they were. */
  refreshFailed(profileId: string, list: string, error: string, at = new Date().toISOString()): void {
    this.freshness.refreshFailed(profileId, list, error, at);
  }

  private setMeta(profileId: string, list: string, asOf: string): void {
    this.freshness.readAt(profileId, list, asOf);
  }

  /** The list changed on the tenant: the next read fetches it before answering. */
  markChanged(profileId: string, list: string): void {
    this.freshness.markChanged(profileId, list);
  }

  /** Forgets a list so the next read fetches it from the API. */
  forget(profileId: string, list: string): void {
    this.freshness.forget(profileId, list);
  }

  // ---- mentors ---------------------------------------------------------------------------------------------------

  mentors(profileId: string): Cached<CachedMentor> {
    const meta = this.meta(profileId, MENTORS_LIST);
    if (!meta) return null;
    const rows = this.db
      .prepare('SELECT data, settings_of FROM cached_mentors WHERE profile_id = ? ORDER BY position, name')
      .all(profileId) as { data: string; settings_of: string | null }[];
    const mentors = this.parseRows(
      rows.map((r) => r.data),
      Mentor,
      profileId,
      MENTORS_LIST,
    );
    if (!mentors) return null;
    return { rows: mentors.map((mentor, i) => ({ mentor, settingsOf: rows[i]!.settings_of })), meta };
  }

  /** A cached mentor by exact unique id, or else by exact name. */
  findMentor(profileId: string, ref: string): Mentor | null {
    if (!this.meta(profileId, MENTORS_LIST)) return null;
    const row = this.db
      .prepare(
        `SELECT data FROM cached_mentors WHERE profile_id = @profileId AND (unique_id = @ref OR name = @ref)
         ORDER BY unique_id = @ref DESC LIMIT 1`,
      )
      .get({ profileId, ref }) as { data: string } | undefined;
    if (!row) return null;
    return this.parseRows([row.data], Mentor, profileId, MENTORS_LIST)?.[0] ?? null;
  }

  replaceMentors(profileId: string, mentors: CachedMentor[], asOf = new Date().toISOString()): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM cached_mentors WHERE profile_id = ?').run(profileId);
      const insert = this.db.prepare(
        'INSERT INTO cached_mentors (profile_id, unique_id, name, position, data, settings_of) VALUES (?, ?, ?, ?, ?, ?)',
      );
      mentors.forEach(({ mentor, settingsOf }, position) =>
        insert.run(profileId, mentor.uniqueId, mentor.name, position, JSON.stringify(Mentor.parse(mentor)), settingsOf),
      );
      this.setMeta(profileId, MENTORS_LIST, asOf);
    })();
  }

  /** Adds or replaces one mentor (after a write); a new one goes first, like the API's newest-first order. */
  putMentor(profileId: string, { mentor, settingsOf }: CachedMentor): void {
    if (!this.meta(profileId, MENTORS_LIST)) return;
    this.db
      .prepare(
        `INSERT INTO cached_mentors (profile_id, unique_id, name, position, data, settings_of)
         VALUES (@profileId, @uniqueId, @name,
           (SELECT coalesce(min(position), 0) - 1 FROM cached_mentors WHERE profile_id = @profileId), @data, @settingsOf)
         ON CONFLICT (profile_id, unique_id) DO UPDATE SET name = excluded.name, data = excluded.data,
           settings_of = excluded.settings_of`,
      )
      .run({
        profileId,
        uniqueId: mentor.uniqueId,
        name: mentor.name,
        data: JSON.stringify(Mentor.parse(mentor)),
        settingsOf,
      });
  }

  removeMentor(profileId: string, uniqueId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM cached_mentors WHERE profile_id = ? AND unique_id = ?').run(profileId, uniqueId);
      this.db.prepare('DELETE FROM cached_documents WHERE profile_id = ? AND mentor = ?').run(profileId, uniqueId);
      this.forget(profileId, documentsList(uniqueId));
    })();
  }

  // ---- documents -------------------------------------------------------------------------------------------------

  documents(profileId: string, mentor: string): Cached<MentorDocument> {
    const list = documentsList(mentor);
    const meta = this.meta(profileId, list);
    if (!meta) return null;
    const rows = this.db
      .prepare('SELECT data FROM cached_documents WHERE profile_id = ? AND mentor = ? ORDER BY position')
      .all(profileId, mentor) as { data: string }[];
    const documents = this.parseRows(
      rows.map((r) => r.data),
      MentorDocument,
      profileId,
      list,
    );
    return documents ? { rows: documents, meta } : null;
  }

  replaceDocuments(
    profileId: string,
    mentor: string,
    documents: MentorDocument[],
    asOf = new Date().toISOString(),
  ): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM cached_documents WHERE profile_id = ? AND mentor = ?').run(profileId, mentor);
      const insert = this.db.prepare(
        'INSERT INTO cached_documents (profile_id, mentor, id, position, data) VALUES (?, ?, ?, ?, ?)',
      );
      documents.forEach((document, position) =>
        insert.run(profileId, mentor, document.id, position, JSON.stringify(MentorDocument.parse(document))),
      );
      this.setMeta(profileId, documentsList(mentor), asOf);
    })();
  }

  putDocument(profileId: string, mentor: string, document: MentorDocument): void {
    if (!this.meta(profileId, documentsList(mentor))) return;
    this.db
      .prepare(
        `INSERT INTO cached_documents (profile_id, mentor, id, position, data)
         VALUES (@profileId, @mentor, @id,
           (SELECT coalesce(min(position), 0) - 1 FROM cached_documents WHERE profile_id = @profileId AND mentor = @mentor),
           @data)
         ON CONFLICT (profile_id, mentor, id) DO UPDATE SET data = excluded.data`,
      )
      .run({ profileId, mentor, id: document.id, data: JSON.stringify(MentorDocument.parse(document)) });
  }

  removeDocument(profileId: string, mentor: string, id: string): void {
    this.db
      .prepare('DELETE FROM cached_documents WHERE profile_id = ? AND mentor = ? AND id = ?')
      .run(profileId, mentor, id);
  }

  /** Rows that no longer match the contract (an older app wrote them, or the file was damaged) drop the list. */
  private parseRows<S extends z.ZodType>(
    texts: string[],
    schema: S,
    profileId: string,
    list: string,
  ): z.output<S>[] | null {
    const out: z.output<S>[] = [];
    for (const text of texts) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        this.log(`mentors: cached ${list} of ${profileId} is damaged (${parsed.error.issues[0]?.message}); refetching`);
        this.forget(profileId, list);
        return null;
      }
      out.push(parsed.data);
    }
    return out;
  }
}
