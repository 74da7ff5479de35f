import type { AreaDeps } from '../../area';
import type { Caller } from '../../auth';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { drfPage, pageWindow } from '../../http/pagination';
import type { RequestContext, Router } from '../../http/router';
import { BASE, isAdmin, objectBody, pathId, statementCache, visibleTicket } from './access';
import { presentMessage, type MessageRow } from './store';

/** A ticket reference in a body or query: an integer, or its decimal string (forms send strings). */
function ticketRef(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

export function messageRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;
  const prepare = statementCache(db);

  /** A message the caller may see: admins every message of the tenant, others those on their own tickets. */
  function visibleMessage(caller: Caller, id: number): MessageRow {
    const row = db.prepare('SELECT * FROM support_ticket_messages WHERE id = ? AND org = ?').get(id, caller.org) as
      MessageRow | undefined;
    if (!row) throw notFound();
    if (!isAdmin(caller)) visibleTicket(db, caller, row.ticket_id);
    return row;
  }

  /** Only admins and the message's author may change or remove it. */
  function editableMessage(caller: Caller, id: number): MessageRow {
    const row = visibleMessage(caller, id);
    if (!isAdmin(caller) && row.sender !== caller.userId) throw forbidden();
    return row;
  }

  // Threads read oldest first: by timestamp, then id for replies stamped in the same millisecond.
  router.get(`${BASE}support-ticket-messages/`, (ctx) => {
    const caller = ctx.caller!;
    const ticket = ctx.query.get('ticket');
    // With a ticket (or a learner's own tickets) the thread index leads; `+` keeps the planner off the org index.
    const narrowed = !!ticket || !isAdmin(caller);
    const where = [narrowed ? '+m.org = @org' : 'm.org = @org'];
    const params: Record<string, string | number> = { org: caller.org };
    if (!isAdmin(caller)) {
      where.push('m.ticket_id IN (SELECT id FROM support_tickets WHERE org = @org AND username = @self)');
      params.self = caller.username;
    }
    if (ticket) {
      const id = ticketRef(ticket);
      if (id === null) throw badRequest('Invalid query parameters: ticket must be a number');
      where.push('m.ticket_id = @ticket');
      params.ticket = id;
    }
    const sender = ctx.query.get('sender');
    if (sender) {
      const id = ticketRef(sender);
      if (id === null) throw badRequest('Invalid query parameters: sender must be a user id');
      where.push('m.sender = @sender');
      params.sender = id;
    }
    const window = pageWindow(ctx.query, 20, 1000);
    const filter = where.join(' AND ');
    const { n } = prepare(`SELECT count(*) AS n FROM support_ticket_messages m WHERE ${filter}`).get(params) as {
      n: number;
    };
    if (window.page > 1 && window.offset >= n) throw notFound('Invalid page.');
    const rows = prepare(
      `SELECT m.* FROM support_ticket_messages m WHERE ${filter} ORDER BY m.timestamp, m.id LIMIT @limit OFFSET @offset`,
    ).all({ ...params, limit: window.pageSize, offset: window.offset }) as MessageRow[];
    return { status: 200, body: drfPage(ctx.url, window, n, rows.map(presentMessage)) };
  });

  /** The ticket a write names, if the caller may see it; an unknown or foreign ticket is invalid data. */
  function ticketForWrite(caller: Caller, value: unknown): number {
    const id = ticketRef(value);
    if (id === null) throw badRequest('Invalid request data: ticket must be a ticket id');
    try {
      return visibleTicket(db, caller, id).id;
    } catch {
      throw badRequest(`Invalid request data: ticket ${id} does not exist`);
    }
  }

  function messageText(value: unknown): string {
    if (typeof value !== 'string' || !value.trim()) throw badRequest('Invalid request data: message may not be blank');
    return value;
  }

  // A reply: the sender is always the caller (staff replies carry the admin's id, learner replies the learner's).
  router.post(`${BASE}support-ticket-messages/`, async (ctx) => {
    const caller = ctx.caller!;
    const body = await objectBody(ctx);
    const ticket = ticketForWrite(caller, body.ticket);
    const message = messageText(body.message);
    const id = db
      .prepare(
        'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
      )
      .run(ticket, caller.org, caller.userId, message, deps.now().toISOString()).lastInsertRowid;
    return { status: 201, body: presentMessage(visibleMessage(caller, Number(id))) };
  });

  router.get(`${BASE}support-ticket-messages/{id}/`, (ctx) => ({
    status: 200,
    body: presentMessage(visibleMessage(ctx.caller!, pathId(ctx.params.id))),
  }));

  const update = (partial: boolean) => async (ctx: RequestContext) => {
    const caller = ctx.caller!;
    const row = editableMessage(caller, pathId(ctx.params.id));
    const body = await objectBody(ctx);
    if (!partial && (body.ticket === undefined || body.message === undefined)) {
      throw badRequest('Invalid request data: ticket and message are required');
    }
    const ticket = body.ticket === undefined ? row.ticket_id : ticketForWrite(caller, body.ticket);
    const message = body.message === undefined ? row.message : messageText(body.message);
    db.prepare('UPDATE support_ticket_messages SET ticket_id = ?, message = ? WHERE id = ?').run(
      ticket,
      message,
      row.id,
    );
    return { status: 200, body: presentMessage(visibleMessage(caller, row.id)) };
  };
  router.put(`${BASE}support-ticket-messages/{id}/`, update(false));
  router.patch(`${BASE}support-ticket-messages/{id}/`, update(true));

  router.delete(`${BASE}support-ticket-messages/{id}/`, (ctx) => {
    const row = editableMessage(ctx.caller!, pathId(ctx.params.id));
    db.prepare('DELETE FROM support_ticket_messages WHERE id = ?').run(row.id);
    return { status: 204 };
  });
}
