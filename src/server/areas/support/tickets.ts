import type { AreaDeps } from '../../area';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { BASE, isAdmin, objectBody, pathId, statementCache, visibleTicket } from './access';
import { presentTicket, TICKET_STATUSES, type TicketRow, type TicketStatus } from './store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Orderings served by an index; anything else is ignored, as DRF's OrderingFilter does. */
const ORDERINGS: Record<string, string> = {
  created_at: 'created_at ASC, id ASC',
  '-created_at': 'created_at DESC, id DESC',
  updated_at: 'updated_at ASC, id ASC',
  '-updated_at': 'updated_at DESC, id DESC',
  id: 'id ASC',
  '-id': 'id DESC',
};
const SUBJECT_MAX = 255;

export function ticketRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const prepare = statementCache(db);

  // Admins list every ticket of the tenant; anyone else only their own.
  router.get(`${BASE}support-tickets/`, (ctx) => {
    const caller = ctx.caller!;
    const where = ['org = @org'];
    const params: Record<string, string | number> = { org: caller.org };
    if (!isAdmin(caller)) {
      where.push('username = @self');
      params.self = caller.username;
    }
    const status = ctx.query.get('status');
    if (status) {
      if (!(TICKET_STATUSES as readonly string[]).includes(status)) {
        throw badRequest(`Invalid query parameters: status must be one of ${TICKET_STATUSES.join(', ')}`);
      }
      where.push('status = @status');
      params.status = status;
    }
    const username = ctx.query.get('username');
    if (username) {
      where.push('username = @username');
      params.username = username;
    }
    const mentor = ctx.query.get('mentor_id');
    if (mentor) {
      where.push('mentor_id = @mentor');
      params.mentor = mentorUniqueId(mentor, caller.org);
    }
    const session = ctx.query.get('session');
    if (session) {
      if (!UUID.test(session)) throw badRequest('Invalid query parameters: session must be a UUID');
      where.push('session = @session');
      params.session = session.toLowerCase();
    }
    const order = ORDERINGS[ctx.query.get('ordering') ?? ''] ?? ORDERINGS['-created_at']!;
    const window = pageWindow(ctx.query, 20, 1000);
    const filter = where.join(' AND ');
    const { n } = prepare(`SELECT count(*) AS n FROM support_tickets WHERE ${filter}`).get(params) as { n: number };
    if (window.page > 1 && window.offset >= n) throw notFound('Invalid page.');
    const rows = prepare(
      `SELECT * FROM support_tickets WHERE ${filter} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
    ).all({
      ...params,
      limit: window.pageSize,
      offset: window.offset,
    }) as TicketRow[];
    return { status: 200, body: drfPage(ctx.url, window, n, rows.map(presentTicket)) };
  });

  /** The spec types `mentor_id` as a number while tickets carry the mentor's unique id: accept either. */
  function mentorUniqueId(value: string, org: string): string {
    if (!/^\d+$/.test(value)) return value.toLowerCase();
    const row = db.prepare('SELECT unique_id FROM mentors WHERE id = ? AND org = ?').get(Number(value), org) as
      { unique_id: string } | undefined;
    return row?.unique_id ?? value;
  }

  router.get(`${BASE}support-tickets/{id}/`, (ctx) => ({
    status: 200,
    body: presentTicket(visibleTicket(db, ctx.caller!, pathId(ctx.params.id))),
  }));

  router.put(`${BASE}support-tickets/{id}/`, (ctx) => update(ctx, false));
  router.patch(`${BASE}support-tickets/{id}/`, (ctx) => update(ctx, true));

  /**
   * Admins may change subject, description and status; the requester subject and description. Read-only fields
   * in the body are ignored. A PATCH to `closed` does not stamp `resolved_at`: only close/ does.
   */
  async function update(ctx: RequestContext, partial: boolean) {
    const caller = ctx.caller!;
    const row = visibleTicket(db, caller, pathId(ctx.params.id));
    const body = await objectBody(ctx);
    const next = { subject: row.subject, description: row.description, status: row.status };
    for (const field of ['subject', 'description'] as const) {
      const value = body[field];
      if (value === undefined) {
        if (!partial) throw badRequest(`Invalid request data: ${field} is required`);
        continue;
      }
      if (typeof value !== 'string' || !value.trim())
        throw badRequest(`Invalid request data: ${field} may not be blank`);
      next[field] = field === 'subject' ? value.trim() : value;
    }
    // Characters as the platform (and the column's CHECK) count them: code points, so an emoji is one.
    if ([...next.subject].length > SUBJECT_MAX) {
      throw badRequest(`Invalid request data: subject must have at most ${SUBJECT_MAX} characters`);
    }
    if (body.status !== undefined) {
      if (typeof body.status !== 'string' || !(TICKET_STATUSES as readonly string[]).includes(body.status)) {
        throw badRequest(`Invalid request data: status must be one of ${TICKET_STATUSES.join(', ')}`);
      }
      if (body.status !== row.status && !isAdmin(caller)) throw forbidden();
      next.status = body.status as TicketStatus;
    }
    db.prepare('UPDATE support_tickets SET subject = ?, description = ?, status = ?, updated_at = ? WHERE id = ?').run(
      next.subject,
      next.description,
      next.status,
      deps.now().toISOString(),
      row.id,
    );
    return { status: 200, body: presentTicket(visibleTicket(db, caller, row.id)) };
  }

  router.delete(`${BASE}support-tickets/{id}/`, (ctx) => {
    const row = visibleTicket(db, ctx.caller!, pathId(ctx.params.id));
    if (!isAdmin(ctx.caller!)) throw forbidden();
    db.prepare('DELETE FROM support_tickets WHERE id = ?').run(row.id);
    return { status: 204 };
  });

  // Admins and the requester may close; closing stamps resolved_at (kept when the ticket is already closed).
  router.post(`${BASE}support-tickets/{id}/close/`, (ctx) => {
    const row = visibleTicket(db, ctx.caller!, pathId(ctx.params.id));
    if (row.status !== 'closed' || !row.resolved_at) {
      const now = deps.now().toISOString();
      db.prepare(`UPDATE support_tickets SET status = 'closed', resolved_at = ?, updated_at = ? WHERE id = ?`).run(
        now,
        now,
        row.id,
      );
    }
    return { status: 200, body: presentTicket(visibleTicket(db, ctx.caller!, row.id)) };
  });
}
