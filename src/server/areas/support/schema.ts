/**
 * Human-support tickets filed by the mentors' human-support tool, and their threads. Identity fields are copied
 * onto the ticket when it is filed (as the platform's serializer reports them), so lists need no join.
 */
export const supportSchema = `
CREATE TABLE IF NOT EXISTS support_tickets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org TEXT NOT NULL REFERENCES orgs(key),
  user_id INTEGER NOT NULL REFERENCES users(id),
  username TEXT NOT NULL,
  email TEXT NOT NULL,
  full_name TEXT NOT NULL,
  session TEXT NOT NULL,
  subject TEXT NOT NULL CHECK (length(subject) <= 255),
  description TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'closed')),
  mentor_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE INDEX IF NOT EXISTS support_tickets_created ON support_tickets(org, created_at, id);
CREATE INDEX IF NOT EXISTS support_tickets_updated ON support_tickets(org, updated_at, id);
CREATE INDEX IF NOT EXISTS support_tickets_status ON support_tickets(org, status, created_at);
CREATE INDEX IF NOT EXISTS support_tickets_mentor ON support_tickets(org, mentor_id, created_at);
CREATE INDEX IF NOT EXISTS support_tickets_username ON support_tickets(org, username, created_at);
CREATE INDEX IF NOT EXISTS support_tickets_session ON support_tickets(org, session);
CREATE TABLE IF NOT EXISTS support_ticket_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ticket_id INTEGER NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
  org TEXT NOT NULL REFERENCES orgs(key),
  sender INTEGER,
  message TEXT NOT NULL,
  timestamp TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS support_ticket_messages_thread ON support_ticket_messages(ticket_id, timestamp, id);
CREATE INDEX IF NOT EXISTS support_ticket_messages_org ON support_ticket_messages(org, timestamp, id);
CREATE INDEX IF NOT EXISTS support_ticket_messages_sender ON support_ticket_messages(org, sender, timestamp);
`;
