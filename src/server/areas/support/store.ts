import type { Db } from '../../db';

export const TICKET_STATUSES = ['open', 'in_progress', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface TicketRow {
  id: number;
  org: string;
  user_id: number;
  username: string;
  email: string;
  full_name: string;
  session: string;
  subject: string;
  description: string;
  status: TicketStatus;
  mentor_id: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

export interface MessageRow {
  id: number;
  ticket_id: number;
  org: string;
  sender: number | null;
  message: string;
  timestamp: string;
}

/** A ticket as the platform's `HumanSupportTicket` serializer answers it. */
export const presentTicket = (row: TicketRow) => ({
  id: row.id,
  username: row.username,
  email: row.email,
  full_name: row.full_name,
  user: row.user_id,
  session: row.session,
  subject: row.subject,
  description: row.description,
  status: row.status,
  mentor_id: row.mentor_id,
  created_at: row.created_at,
  updated_at: row.updated_at,
  resolved_at: row.resolved_at,
});

/** A thread message as `TicketMessage`: `sender` is a user id, or null for system messages. */
export const presentMessage = (row: MessageRow) => ({
  id: row.id,
  ticket: row.ticket_id,
  sender: row.sender,
  message: row.message,
  timestamp: row.timestamp,
});

export interface Requester {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface NewTicket {
  org: string;
  requester: Requester;
  session: string;
  subject: string;
  description: string;
  status: TicketStatus;
  mentorId: string;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

export const fullName = (u: { first_name: string; last_name: string }) => `${u.first_name} ${u.last_name}`.trim();

/** Prepared inserts shared by the demo generator and the live simulator (prepared once: seeding inserts 100k+). */
export function ticketWriter(db: Db) {
  const insertTicket = db.prepare(
    `INSERT INTO support_tickets (org, user_id, username, email, full_name, session, subject, description, status,
       mentor_id, created_at, updated_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    ticket(t: NewTicket): number {
      const { requester: r } = t;
      return Number(
        insertTicket.run(
          t.org,
          r.id,
          r.username,
          r.email,
          fullName(r) || r.username,
          t.session,
          t.subject,
          t.description,
          t.status,
          t.mentorId,
          t.createdAt,
          t.updatedAt,
          t.resolvedAt,
        ).lastInsertRowid,
      );
    },
    message(ticketId: number, org: string, sender: number | null, message: string, timestamp: string): number {
      return Number(insertMessage.run(ticketId, org, sender, message, timestamp).lastInsertRowid);
    },
  };
}
