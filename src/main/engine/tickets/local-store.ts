import type { CannedReply, TicketFilter, TicketPriority, TicketSlaTargets, TicketSort } from '../../../shared/contract';
import { TicketFilter as TicketFilterSchema } from '../../../shared/contract';
import { notFound } from '../errors';
import type { Db } from '../store';

/** What only this app knows about tickets: claims, priority, tags, read marks, drafts, views, canned replies. */

export interface SavedViewRow {
  id: string;
  name: string | null;
  filter: TicketFilter;
  sort: TicketSort | null;
  firstReplyHours: number | null;
  resolutionHours: number | null;
}

const now = () => new Date().toISOString();

/**
 * A saved view's filter as far as it is still valid. A field the schema refuses today (an impossible date such as
 * 2026-02-30, saved before dates were checked) is dropped on its own rather than the whole filter, which would turn
 * the view into "everything".
 */
function storedFilter(raw: unknown): TicketFilter {
  const parsed = TicketFilterSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (!raw || typeof raw !== 'object') return {};
  const refused = new Set(
    parsed.error.issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0])])),
  );
  const kept = TicketFilterSchema.safeParse(Object.fromEntries(Object.entries(raw).filter(([k]) => !refused.has(k))));
  return kept.success ? kept.data : {};
}

export class TicketLocal {
  constructor(private readonly db: Db) {}

  private ensure(profileId: string, ids: number[]): void {
    const insert = this.db.prepare('INSERT OR IGNORE INTO ticket_local (profile_id, ticket_id) VALUES (?, ?)');
    for (const id of ids) insert.run(profileId, id);
  }

  setFields(
    profileId: string,
    ids: number[],
    fields: { assignee?: string | null; priority?: TicketPriority | null; tags?: string[] },
  ): number {
    const sets: string[] = [];
    const params: Record<string, unknown> = { profile: profileId, ids: JSON.stringify(ids) };
    if (fields.assignee !== undefined) {
      sets.push('assignee = @assignee');
      params.assignee = fields.assignee;
    }
    if (fields.priority !== undefined) {
      sets.push('priority = @priority');
      params.priority = fields.priority;
    }
    if (fields.tags !== undefined) {
      sets.push('tags = @tags');
      params.tags = JSON.stringify([...new Set(fields.tags)]);
    }
    if (!sets.length) return 0;
    return this.db.transaction(() => {
      this.ensure(profileId, ids);
      return this.db
        .prepare(
          `UPDATE ticket_local SET ${sets.join(', ')}
           WHERE profile_id = @profile AND ticket_id IN (SELECT value FROM json_each(@ids))`,
        )
        .run(params).changes;
    })();
  }

  /** Read up to the ticket's current activity (so later activity shows as unread again), or unread by hand. */
  markRead(profileId: string, ids: number[], read: boolean): number {
    return this.db.transaction(() => {
      this.ensure(profileId, ids);
      const sql = read
        ? `UPDATE ticket_local SET unread_forced = 0, read_at = coalesce((SELECT max(t.activity_at, coalesce(ticket_local.read_at, ''))
             FROM ticket_cache t WHERE t.profile_id = ticket_local.profile_id AND t.id = ticket_local.ticket_id), ?)
           WHERE profile_id = ? AND ticket_id IN (SELECT value FROM json_each(?))`
        : `UPDATE ticket_local SET unread_forced = 1, read_at = coalesce(read_at, ?)
           WHERE profile_id = ? AND ticket_id IN (SELECT value FROM json_each(?))`;
      return this.db.prepare(sql).run(now(), profileId, JSON.stringify(ids)).changes;
    })();
  }

  saveDraft(profileId: string, id: number, text: string): void {
    this.ensure(profileId, [id]);
    this.db
      .prepare('UPDATE ticket_local SET draft = ?, draft_updated_at = ? WHERE profile_id = ? AND ticket_id = ?')
      .run(text.trim() ? text : null, now(), profileId, id);
  }

  draft(profileId: string, id: number): string | null {
    return (
      (this.db
        .prepare('SELECT draft FROM ticket_local WHERE profile_id = ? AND ticket_id = ?')
        .pluck()
        .get(profileId, id) as string | null | undefined) ?? null
    );
  }

  /** Clears the draft once the reply that came from it is on the server. */
  clearDraftIf(profileId: string, id: number, sent: string): void {
    this.db
      .prepare('UPDATE ticket_local SET draft = NULL WHERE profile_id = ? AND ticket_id = ? AND trim(draft) = trim(?)')
      .run(profileId, id, sent);
  }

  // --- views ------------------------------------------------------------------------------------------------

  views(profileId: string): SavedViewRow[] {
    const rows = this.db
      .prepare('SELECT * FROM ticket_views WHERE profile_id = ? ORDER BY created_at')
      .all(profileId) as {
      id: string;
      name: string | null;
      filter: string;
      sort: string | null;
      first_reply_hours: number | null;
      resolution_hours: number | null;
    }[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      filter: storedFilter(JSON.parse(r.filter)),
      sort: (r.sort as TicketSort | null) ?? null,
      firstReplyHours: r.first_reply_hours,
      resolutionHours: r.resolution_hours,
    }));
  }

  view(profileId: string, id: string): SavedViewRow | undefined {
    return this.views(profileId).find((v) => v.id === id);
  }

  saveView(
    profileId: string,
    input: {
      id?: string | undefined;
      name?: string | undefined;
      filter?: TicketFilter | undefined;
      sort?: TicketSort | null | undefined;
      sla?: { firstReplyHours: number | null; resolutionHours: number | null } | undefined;
    },
  ): string {
    return this.db.transaction(() => {
      let id = input.id;
      if (!id) {
        const next =
          ((this.db
            .prepare(
              `SELECT max(CAST(substr(id, 7) AS INTEGER)) FROM ticket_views WHERE profile_id = ? AND id LIKE 'saved:%'`,
            )
            .pluck()
            .get(profileId) as number | null) ?? 0) + 1;
        id = `saved:${next}`;
      } else if (id.startsWith('saved:') && !this.view(profileId, id)) {
        throw notFound(`No saved view '${id}'`);
      }
      this.db
        .prepare(
          `INSERT INTO ticket_views (profile_id, id, name, filter, sort, first_reply_hours, resolution_hours, created_at)
           VALUES (@profile, @id, @name, @filter, @sort, @first, @resolution, @now)
           ON CONFLICT (profile_id, id) DO UPDATE SET
             name = coalesce(@name, name),
             filter = CASE WHEN @hasFilter THEN @filter ELSE filter END,
             sort = CASE WHEN @hasSort THEN @sort ELSE sort END,
             first_reply_hours = CASE WHEN @hasSla THEN @first ELSE first_reply_hours END,
             resolution_hours = CASE WHEN @hasSla THEN @resolution ELSE resolution_hours END`,
        )
        .run({
          profile: profileId,
          id,
          name: input.name ?? null,
          filter: JSON.stringify(input.filter ?? {}),
          sort: input.sort ?? null,
          first: input.sla?.firstReplyHours ?? null,
          resolution: input.sla?.resolutionHours ?? null,
          hasFilter: input.filter ? 1 : 0,
          hasSort: input.sort !== undefined ? 1 : 0,
          hasSla: input.sla ? 1 : 0,
          now: now(),
        });
      return id;
    })();
  }

  /** The tenant's SLA targets for views that set none (none until the admin sets them). */
  slaDefaults(profileId: string): TicketSlaTargets {
    const row = this.db
      .prepare(
        `SELECT first_reply_hours AS firstReplyHours, resolution_hours AS resolutionHours
         FROM ticket_sla_defaults WHERE profile_id = ?`,
      )
      .get(profileId) as TicketSlaTargets | undefined;
    return { firstReplyHours: row?.firstReplyHours ?? null, resolutionHours: row?.resolutionHours ?? null };
  }

  setSlaDefaults(profileId: string, sla: TicketSlaTargets): TicketSlaTargets {
    this.db
      .prepare(
        `INSERT INTO ticket_sla_defaults (profile_id, first_reply_hours, resolution_hours, updated_at)
         VALUES (@profile, @first, @resolution, @now)
         ON CONFLICT (profile_id) DO UPDATE SET
           first_reply_hours = excluded.first_reply_hours,
           resolution_hours = excluded.resolution_hours,
           updated_at = excluded.updated_at`,
      )
      .run({ profile: profileId, first: sla.firstReplyHours, resolution: sla.resolutionHours, now: now() });
    return this.slaDefaults(profileId);
  }

  /** Removes a saved view; built-in and mentor views are not the admin's to delete (their SLA rows go with "clear"). */
  deleteView(profileId: string, id: string): void {
    if (!id.startsWith('saved:')) throw notFound(`No saved view '${id}'`);
    const changes = this.db
      .prepare('DELETE FROM ticket_views WHERE profile_id = ? AND id = ?')
      .run(profileId, id).changes;
    if (!changes) throw notFound(`No saved view '${id}'`);
  }

  // --- canned replies ----------------------------------------------------------------------------------------

  cannedReplies(): CannedReply[] {
    return this.db
      .prepare('SELECT id, title, body FROM ticket_canned_replies ORDER BY title, id')
      .all() as CannedReply[];
  }

  saveCannedReply(input: { id?: number | undefined; title: string; body: string }): CannedReply {
    if (input.id !== undefined) {
      const changes = this.db
        .prepare('UPDATE ticket_canned_replies SET title = ?, body = ?, updated_at = ? WHERE id = ?')
        .run(input.title, input.body, now(), input.id).changes;
      if (!changes) throw notFound(`No canned reply ${input.id}`);
      return { id: input.id, title: input.title, body: input.body };
    }
    const id = Number(
      this.db
        .prepare('INSERT INTO ticket_canned_replies (title, body, updated_at) VALUES (?, ?, ?)')
        .run(input.title, input.body, now()).lastInsertRowid,
    );
    return { id, title: input.title, body: input.body };
  }

  deleteCannedReply(id: number): void {
    const changes = this.db.prepare('DELETE FROM ticket_canned_replies WHERE id = ?').run(id).changes;
    if (!changes) throw notFound(`No canned reply ${id}`);
  }
}
