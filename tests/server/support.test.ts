import { beforeAll, describe, expect, it } from 'vitest';
import type { Area } from '../../src/server/area';
import type { Sandbox } from '../../src/server/app';
import { supportArea } from '../../src/server/areas/support';
import { activeMentors } from '../../src/server/areas/mentor-store';
import { call, sandbox, type Call } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const TICKETS = `${BASE}support-tickets/`;
const TICKET = `${BASE}support-tickets/{id}/`;
const CLOSE = `${BASE}support-tickets/{id}/close/`;
const MESSAGES = `${BASE}support-ticket-messages/`;
const MESSAGE = `${BASE}support-ticket-messages/{id}/`;

interface Ticket {
  id: number;
  username: string;
  user: number;
  session: string;
  subject: string;
  description: string;
  status: string;
  mentor_id: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}
interface Message {
  id: number;
  ticket: number;
  sender: number | null;
  message: string;
  timestamp: string;
}
interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** The spec declares no error responses for ticket operations: errors are checked for the platform's `{detail}`. */
function expectDetail(res: Call, status: number, detail?: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ detail: detail ?? expect.any(String) });
}

let server: Sandbox;
let adminId: number;
let studentId: number;
const path = (template: string, values: Record<string, string | number> = {}, user = server.user) =>
  template
    .replace('{org}', server.org)
    .replace('{user_id}', user)
    .replace(/\{(\w+)\}/g, (_m, key: string) => String(values[key]));
const asStudent = (template: string, values: Record<string, string | number> = {}) =>
  path(template, values, server.studentUser);

async function list<T>(template: string, query = '', key?: string, user?: string): Promise<Page<T>> {
  const res = await call(server, 'GET', `${path(template, {}, user ?? server.user)}${query}`, {
    key: key ?? server.apiKey,
  });
  expect(res.status).toBe(200);
  expectSpecValid('get', template, 200, res.body);
  return res.body as Page<T>;
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [supportArea] });
  const id = (username: string) =>
    (server.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id;
  adminId = id(server.user);
  studentId = id(server.studentUser);
});

describe('support tickets: list', () => {
  it('pages 300 demo tickets newest first in the DRF envelope', async () => {
    const first = await list<Ticket>(TICKETS, '?page_size=25');
    expect(first.count).toBe(300);
    expect(first.results).toHaveLength(25);
    expect(first.previous).toBeNull();
    expect(new URL(first.next!).searchParams.get('page')).toBe('2');
    const created = first.results.map((t) => t.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const last = await list<Ticket>(TICKETS, '?page_size=25&page=12');
    expect(last.next).toBeNull();
    expect(last.previous).not.toBeNull();
    expectDetail(await call(server, 'GET', `${path(TICKETS)}?page_size=25&page=13`), 404, 'Invalid page.');
  });

  it('filters by status, mentor unique id (or numeric id), username and session', async () => {
    for (const status of ['open', 'in_progress', 'closed']) {
      const page = await list<Ticket>(TICKETS, `?status=${status}&page_size=100`);
      expect(page.count).toBeGreaterThan(0);
      expect(page.results.every((t) => t.status === status)).toBe(true);
    }
    const mentor = activeMentors({ db: server.db }, server.org)[0]!;
    const byUnique = await list<Ticket>(TICKETS, `?mentor_id=${mentor.unique_id}&page_size=100`);
    expect(byUnique.count).toBeGreaterThan(0);
    expect(byUnique.results.every((t) => t.mentor_id === mentor.unique_id)).toBe(true);
    expect((await list<Ticket>(TICKETS, `?mentor_id=${mentor.id}&page_size=100`)).count).toBe(byUnique.count);

    const sample = byUnique.results[0]!;
    const byUser = await list<Ticket>(TICKETS, `?username=${sample.username}`);
    expect(byUser.results.every((t) => t.username === sample.username)).toBe(true);
    const bySession = await list<Ticket>(TICKETS, `?session=${sample.session}`);
    expect(bySession.results.map((t) => t.id)).toContain(sample.id);
    const combined = await list<Ticket>(
      TICKETS,
      `?status=${sample.status}&mentor_id=${mentor.unique_id}&username=${sample.username}`,
    );
    expect(combined.results.map((t) => t.id)).toContain(sample.id);

    expectDetail(await call(server, 'GET', `${path(TICKETS)}?status=pending`), 400);
    expectDetail(await call(server, 'GET', `${path(TICKETS)}?session=not-a-uuid`), 400);
  });

  it('orders by updated_at when asked', async () => {
    const page = await list<Ticket>(TICKETS, '?ordering=-updated_at&page_size=50');
    const updated = page.results.map((t) => t.updated_at);
    expect([...updated].sort().reverse()).toEqual(updated);
  });

  it('seeds HTML, Markdown, hostile markup, emoji and right-to-left text in descriptions', async () => {
    const all = (await list<Ticket>(TICKETS, '?page_size=300')).results;
    const text = all.map((t) => `${t.subject}\n${t.description}`).join('\n');
    for (const needle of ['<script>', 'onerror=', '<iframe', 'javascript:', '<p>', '**', '😟', 'لا أستطيع']) {
      expect(text).toContain(needle);
    }
    expect(all.every((t) => t.subject.length <= 255)).toBe(true);
    const open = all.filter((t) => t.status === 'open').length;
    expect(open).toBeGreaterThan(10);
    expect(all.filter((t) => t.status === 'in_progress').length).toBeGreaterThan(10);
    const days = all.map((t) => (Date.parse('2026-11-01T12:00:00Z') - Date.parse(t.created_at)) / 86_400_000);
    expect(Math.max(...days)).toBeLessThanOrEqual(180);
    expect(Math.min(...days)).toBeGreaterThanOrEqual(0);
  });
});

describe('support tickets: retrieve, update, close, delete', () => {
  it('retrieves, PUTs and PATCHes with the spec shapes, and validates the fields', async () => {
    const [ticket] = (await list<Ticket>(TICKETS, '?status=open&page_size=1')).results;
    const url = path(TICKET, { id: ticket!.id });
    const got = await call(server, 'GET', url);
    expect(got.status).toBe(200);
    expectSpecValid('get', TICKET, 200, got.body);
    expect(got.body).toEqual(ticket);

    const put = await call(server, 'PUT', url, {
      json: {
        subject: 'Refund request 💸',
        description: '<p>Updated by staff</p>',
        status: 'in_progress',
        username: 'ignored',
      },
    });
    expect(put.status).toBe(200);
    expectSpecValid('put', TICKET, 200, put.body);
    expect(put.body).toMatchObject({ subject: 'Refund request 💸', status: 'in_progress', username: ticket!.username });

    const patch = await call(server, 'PATCH', url, { json: { subject: 'Short' } });
    expect(patch.status).toBe(200);
    expectSpecValid('patch', TICKET, 200, patch.body);
    expect(patch.body).toMatchObject({
      subject: 'Short',
      description: '<p>Updated by staff</p>',
      status: 'in_progress',
    });

    expectDetail(await call(server, 'PATCH', url, { json: { subject: 'x'.repeat(256) } }), 400);
    expectDetail(await call(server, 'PATCH', url, { json: { status: 'resolved' } }), 400);
    expectDetail(await call(server, 'PUT', url, { json: { subject: 'Only a subject' } }), 400);
    expect((await call(server, 'PATCH', url, { json: { subject: 'y'.repeat(255) } })).status).toBe(200);
    expectDetail(await call(server, 'GET', path(TICKET, { id: 999_999 })), 404, 'Not found.');
    expectDetail(await call(server, 'GET', path(TICKET, { id: 'abc' })), 404, 'Not found.');
  });

  it('close/ stamps resolved_at; a PATCH to closed does not', async () => {
    const [a, b] = (await list<Ticket>(TICKETS, '?status=open&page_size=2')).results;
    const patched = await call(server, 'PATCH', path(TICKET, { id: a!.id }), { json: { status: 'closed' } });
    expect(patched.body).toMatchObject({ status: 'closed', resolved_at: null });

    const closed = await call(server, 'POST', path(CLOSE, { id: b!.id }));
    expect(closed.status).toBe(200);
    expectSpecValid('post', CLOSE, 200, closed.body);
    const after = (await call(server, 'GET', path(TICKET, { id: b!.id }))).body as Ticket;
    expect(after.status).toBe('closed');
    expect(after.resolved_at).not.toBeNull();
    expect(Date.now() - Date.parse(after.resolved_at!)).toBeLessThan(60_000);
    // Closing again keeps the first stamp; closing the PATCH-closed ticket stamps it now.
    expect(((await call(server, 'POST', path(CLOSE, { id: b!.id }))).body as Ticket).resolved_at).toBe(
      after.resolved_at,
    );
    expect(((await call(server, 'POST', path(CLOSE, { id: a!.id }))).body as Ticket).resolved_at).not.toBeNull();
    expectDetail(await call(server, 'POST', path(CLOSE, { id: 999_999 })), 404);
  });

  it('deletes a ticket and its thread (204), then answers 404', async () => {
    const [ticket] = (await list<Ticket>(TICKETS, '?status=closed&page_size=1')).results;
    const url = path(TICKET, { id: ticket!.id });
    const res = await call(server, 'DELETE', url);
    expect(res.status).toBe(204);
    expectSpecValid('delete', TICKET, 204, res.body);
    expectDetail(await call(server, 'GET', url), 404);
    expect((await list<Message>(MESSAGES, `?ticket=${ticket!.id}`)).count).toBe(0);
    expectDetail(await call(server, 'DELETE', url), 404);
  });
});

describe('support tickets: roles and tenants', () => {
  it('shows a student only their own tickets and lets them edit subject and description only', async () => {
    const own = await list<Ticket>(TICKETS, '', server.studentKey, server.studentUser);
    expect(own.count).toBe(3);
    expect(own.results.every((t) => t.username === server.studentUser && t.user === studentId)).toBe(true);
    expect((await list<Ticket>(TICKETS, '?username=learner0002', server.studentKey, server.studentUser)).count).toBe(0);

    const [other] = (await list<Ticket>(TICKETS, `?status=open&page_size=50`)).results.filter(
      (t) => t.username !== server.studentUser,
    );
    const key = { key: server.studentKey };
    expectDetail(await call(server, 'GET', asStudent(TICKET, { id: other!.id }), key), 404);
    expectDetail(
      await call(server, 'PATCH', asStudent(TICKET, { id: other!.id }), { ...key, json: { subject: 'x' } }),
      404,
    );
    expectDetail(await call(server, 'POST', asStudent(CLOSE, { id: other!.id }), key), 404);
    // Another user's path is refused outright.
    expectDetail(await call(server, 'GET', path(TICKETS, {}, 'learner0002'), key), 403);

    const mine = own.results.find((t) => t.status !== 'closed')!;
    const edited = await call(server, 'PATCH', asStudent(TICKET, { id: mine.id }), {
      ...key,
      json: { subject: 'Still stuck', description: 'More details' },
    });
    expect(edited.status).toBe(200);
    expectSpecValid('patch', TICKET, 200, edited.body);
    expectDetail(
      await call(server, 'PATCH', asStudent(TICKET, { id: mine.id }), { ...key, json: { status: 'closed' } }),
      403,
    );
    // Sending the unchanged status (a full PUT of what was read) is fine.
    expect(
      (await call(server, 'PUT', asStudent(TICKET, { id: mine.id }), { ...key, json: { ...mine, subject: 'Again' } }))
        .status,
    ).toBe(200);
    expectDetail(await call(server, 'DELETE', asStudent(TICKET, { id: mine.id }), key), 403);
    const closed = await call(server, 'POST', asStudent(CLOSE, { id: mine.id }), key);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', resolved_at: expect.any(String) });
  });

  it('never shows another tenant’s tickets', async () => {
    const other = { key: server.otherOrg.apiKey };
    expectDetail(await call(server, 'GET', path(TICKETS), other), 404, 'Organization not found');
    const [ticket] = (await list<Ticket>(TICKETS, '?page_size=1')).results;
    const foreign = (template: string) =>
      template
        .replace('{org}', server.otherOrg.org)
        .replace('{user_id}', server.otherOrg.user)
        .replace('{id}', String(ticket!.id));
    const theirs = await call(server, 'GET', foreign(TICKETS), other);
    expect(theirs.status).toBe(200);
    expect((theirs.body as Page<Ticket>).count).toBe(0);
    expectDetail(await call(server, 'GET', foreign(TICKET), other), 404, 'Not found.');
    expectDetail(await call(server, 'PATCH', foreign(TICKET), { ...other, json: { subject: 'x' } }), 404);
    expectDetail(await call(server, 'POST', foreign(CLOSE), other), 404);
    expectDetail(await call(server, 'DELETE', foreign(TICKET), other), 404);
    const messages = await call(server, 'GET', `${foreign(MESSAGES)}?ticket=${ticket!.id}`, other);
    expect((messages.body as Page<Message>).count).toBe(0);
    expectDetail(
      await call(server, 'POST', foreign(MESSAGES), { ...other, json: { ticket: ticket!.id, message: 'hi' } }),
      400,
    );
    expectDetail(await call(server, 'GET', path(TICKETS), { key: null }), 401);
  });
});

describe('support ticket messages', () => {
  it('lists a thread by timestamp and appends replies from the caller', async () => {
    const [ticket] = (await list<Ticket>(TICKETS, '?status=in_progress&page_size=1')).results;
    const before = await list<Message>(MESSAGES, `?ticket=${ticket!.id}`);
    expect(before.count).toBeGreaterThanOrEqual(2);
    expect(before.results[0]!.sender).toBeNull(); // the mentor's system note opens every thread
    expect(before.results.some((m) => m.sender === ticket!.user)).toBe(true);

    const reply = await call(server, 'POST', path(MESSAGES), {
      json: { ticket: ticket!.id, message: 'On it — **checking** now.', sender: 42 },
    });
    expect(reply.status).toBe(201);
    expectSpecValid('post', MESSAGES, 201, reply.body);
    expect(reply.body).toMatchObject({ ticket: ticket!.id, sender: adminId });
    const second = await call(server, 'POST', path(MESSAGES), {
      json: { ticket: String(ticket!.id), message: 'Second' },
    });
    expect(second.status).toBe(201);

    const after = await list<Message>(MESSAGES, `?ticket=${ticket!.id}&page_size=100`);
    expect(after.count).toBe(before.count + 2);
    const stamps = after.results.map((m) => m.timestamp);
    expect([...stamps].sort()).toEqual(stamps);
    expect(after.results.slice(-2).map((m) => m.message)).toEqual(['On it — **checking** now.', 'Second']);
    expect(
      (await list<Message>(MESSAGES, `?ticket=${ticket!.id}&sender=${adminId}&page_size=100`)).results.every(
        (m) => m.sender === adminId,
      ),
    ).toBe(true);

    expectDetail(await call(server, 'POST', path(MESSAGES), { json: { ticket: ticket!.id, message: '   ' } }), 400);
    expectDetail(await call(server, 'POST', path(MESSAGES), { json: { ticket: 999_999, message: 'x' } }), 400);
    expectDetail(await call(server, 'POST', path(MESSAGES), { json: { message: 'x' } }), 400);
    expectDetail(await call(server, 'GET', `${path(MESSAGES)}?ticket=abc`), 400);
  });

  it('retrieves, edits and deletes one message; learners write only on their own tickets', async () => {
    const own = (await list<Ticket>(TICKETS, '', server.studentKey, server.studentUser)).results[0]!;
    const key = { key: server.studentKey };
    const mine = await call(server, 'POST', asStudent(MESSAGES), {
      ...key,
      json: { ticket: own.id, message: 'Any news? 🙂' },
    });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ sender: studentId });
    const id = (mine.body as Message).id;

    const got = await call(server, 'GET', path(MESSAGE, { id }));
    expect(got.status).toBe(200);
    expectSpecValid('get', MESSAGE, 200, got.body);
    const patched = await call(server, 'PATCH', asStudent(MESSAGE, { id }), { ...key, json: { message: 'Any news?' } });
    expect(patched.status).toBe(200);
    expectSpecValid('patch', MESSAGE, 200, patched.body);
    const put = await call(server, 'PUT', asStudent(MESSAGE, { id }), {
      ...key,
      json: { ticket: own.id, message: 'Any news, please?' },
    });
    expect(put.status).toBe(200);
    expectSpecValid('put', MESSAGE, 200, put.body);
    expect(put.body).toMatchObject({ message: 'Any news, please?', sender: studentId });

    // The learner sees only their own tickets' messages and cannot edit staff messages.
    const theirs = await list<Message>(MESSAGES, '?page_size=1000', server.studentKey, server.studentUser);
    const ownTickets = new Set(
      (await list<Ticket>(TICKETS, '', server.studentKey, server.studentUser)).results.map((t) => t.id),
    );
    expect(theirs.results.every((m) => ownTickets.has(m.ticket))).toBe(true);
    const staffReply = await call(server, 'POST', path(MESSAGES), { json: { ticket: own.id, message: 'Staff here' } });
    const staffId = (staffReply.body as Message).id;
    expectDetail(
      await call(server, 'PATCH', asStudent(MESSAGE, { id: staffId }), { ...key, json: { message: 'hacked' } }),
      403,
    );
    expectDetail(await call(server, 'DELETE', asStudent(MESSAGE, { id: staffId }), key), 403);
    const [foreignTicket] = (await list<Ticket>(TICKETS, '?page_size=50')).results.filter(
      (t) => t.username !== server.studentUser,
    );
    expectDetail(
      await call(server, 'POST', asStudent(MESSAGES), { ...key, json: { ticket: foreignTicket!.id, message: 'x' } }),
      400,
    );
    const foreignMessage = (await list<Message>(MESSAGES, `?ticket=${foreignTicket!.id}`)).results[0]!;
    expectDetail(await call(server, 'GET', asStudent(MESSAGE, { id: foreignMessage.id }), key), 404);

    const deleted = await call(server, 'DELETE', asStudent(MESSAGE, { id }), key);
    expect(deleted.status).toBe(204);
    expectSpecValid('delete', MESSAGE, 204, deleted.body);
    expectDetail(await call(server, 'GET', path(MESSAGE, { id })), 404);
  });
});

describe('support tickets: demo data and simulator', () => {
  it('links tickets to the chat sessions the analytics area seeded', async () => {
    // A stand-in for the analytics area's table: one session per learner for the first 200 learners.
    const chats: Area = {
      name: 'chats',
      schema:
        'CREATE TABLE IF NOT EXISTS chat_sessions (session_id TEXT PRIMARY KEY, username TEXT, mentor_unique_id TEXT, started_at TEXT)',
      routes() {},
      seed(deps, _size, rng) {
        const mentors = activeMentors(deps, 'northbridge');
        const insert = deps.db.prepare('INSERT INTO chat_sessions VALUES (?, ?, ?, ?)');
        for (let i = 1; i <= 200; i++) {
          const started = new Date(Date.parse('2026-11-01T12:00:00Z') - rng.int(1, 170) * 86_400_000).toISOString();
          insert.run(rng.uuid(), `learner${String(i).padStart(4, '0')}`, rng.pick(mentors).unique_id, started);
        }
      },
    };
    const linked = await sandbox({ seed: 'demo', areas: [chats, supportArea] });
    const rows = linked.db
      .prepare(
        `SELECT t.username, t.mentor_id, c.username AS chat_user, c.mentor_unique_id AS chat_mentor FROM support_tickets t
         LEFT JOIN chat_sessions c ON c.session_id = t.session`,
      )
      .all() as { username: string; mentor_id: string; chat_user: string | null; chat_mentor: string | null }[];
    const fromChats = rows.filter((r) => r.chat_user !== null);
    expect(fromChats.length).toBeGreaterThan(rows.length * 0.7);
    expect(fromChats.every((r) => r.chat_user === r.username && r.chat_mentor === r.mentor_id)).toBe(true);
  });

  it('generates the same tickets from the same seed', async () => {
    const again = await sandbox({ seed: 'demo', areas: [supportArea] });
    const first = (db: Sandbox['db']) =>
      db.prepare('SELECT subject, description, session, created_at FROM support_tickets WHERE id = 42').get();
    expect(first(again.db)).toEqual(first(server.db));
  });

  it('keeps filing tickets and learner replies while running with --simulate', async () => {
    const live = await sandbox({ seed: 'demo', areas: [supportArea], simulateRate: 1200 });
    const count = () => (live.db.prepare('SELECT count(*) AS n FROM support_tickets').get() as { n: number }).n;
    const messages = () =>
      (live.db.prepare('SELECT count(*) AS n FROM support_ticket_messages').get() as { n: number }).n;
    const startMessages = messages();
    const deadline = Date.now() + 5000;
    while (count() <= 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(count()).toBeGreaterThan(300);
    const res = await call(
      live,
      'GET',
      `/api/ai-mentor/orgs/${live.org}/users/${live.user}/support-tickets/?page_size=1`,
    );
    const newest = (res.body as Page<Ticket>).results[0]!;
    expect(newest.status).toBe('open');
    expect(Date.now() - Date.parse(newest.created_at)).toBeLessThan(10_000);
    const thread = await call(
      live,
      'GET',
      `/api/ai-mentor/orgs/${live.org}/users/${live.user}/support-ticket-messages/?ticket=${newest.id}`,
    );
    expect((thread.body as Page<Message>).count).toBeGreaterThanOrEqual(2);
    while (messages() < startMessages + 10 && Date.now() < deadline + 3000) await new Promise((r) => setTimeout(r, 50));
    expect(messages()).toBeGreaterThanOrEqual(startMessages + 10);
  });
});
