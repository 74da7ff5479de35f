import type { Caller } from '../../auth';
import type { Db } from '../../db';
import { badRequest, notFound } from '../../http/errors';
import type { RequestContext } from '../../http/router';
import type { TicketRow } from './store';

export const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';

export const isAdmin = (caller: Caller) => caller.role === 'admin';

/** A path id that is not an integer matches no row, as the platform's lookup answers (404, not 400). */
export function pathId(raw: string | undefined): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

/** The body of a write as a plain object (JSON, or a form turned into one). */
export async function objectBody(ctx: RequestContext): Promise<Record<string, unknown>> {
  const body = await ctx.json();
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('Invalid request data: expected an object');
  return body as Record<string, unknown>;
}

/**
 * The ticket with this id if the caller may see it: admins see every ticket of their tenant, anyone else only the
 * tickets they filed. Anything else is indistinguishable from a missing ticket.
 */
export function visibleTicket(db: Db, caller: Caller, id: number): TicketRow {
  const row = db.prepare('SELECT * FROM support_tickets WHERE id = ? AND org = ?').get(id, caller.org) as
    TicketRow | undefined;
  if (!row || (!isAdmin(caller) && row.user_id !== caller.userId)) throw notFound();
  return row;
}

/** Prepared statements keyed by their SQL: list queries are built from the filters given. */
export function statementCache(db: Db) {
  const cache = new Map<string, ReturnType<Db['prepare']>>();
  return (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}
