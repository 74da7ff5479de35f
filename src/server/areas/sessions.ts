/**
 * A learner's chat sessions as the platform serves them one by one (issue 18): a session's messages
 * (`sessions/{session_id}/`, `MessageView`), pinned sessions (`pin-message/`) and chat-history exports as tasks
 * (`tasks/sessions/{session_id}/` and `export-chathistory/` create one; `sessions/{session_id}/tasks/{task_id}/` and
 * `downloads/tasks/{task_id}/` answer `{state: 'task_not_ready'}` until it is ready, then a `ChatHistoryItem` whose
 * `content` is the transcript, as CSV with `to_csv=true`). `{user_id}` is the learner (the router lets a tenant
 * admin name any learner of the org, a learner only themself). Sessions are the analytics area's demo conversations.
 */
import { randomUUID } from 'node:crypto';
import type { Area, AreaDeps } from '../area';
import { badRequest, fieldErrors, notFound } from '../http/errors';
import type { RequestContext, Router } from '../http/router';

const BASE = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
/** A task is ready this long after it was asked for, so a client really polls. */
const TASK_DELAY_MS = 300;

const schema = `
CREATE TABLE IF NOT EXISTS session_pins (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  username TEXT NOT NULL,
  session_id TEXT NOT NULL,
  inserted_at TEXT NOT NULL,
  UNIQUE (org, username, session_id)
);
CREATE TABLE IF NOT EXISTS session_export_tasks (
  task_id TEXT PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  username TEXT NOT NULL,
  session_id TEXT,
  created_at TEXT NOT NULL,
  ready_at INTEGER NOT NULL
);
`;

interface SessionRow {
  id: number;
  session_id: string;
  mentor_unique_id: string;
  username: string;
  first_message: string;
  started_at: string;
}
interface Message {
  type: string;
  content: string;
  timestamp: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A CSV cell as a plain RFC 4180 writer quotes it (the platform's export; the app neutralises formulas itself). */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const transcriptCsv = (messages: Message[]) =>
  ['type,content,timestamp', ...messages.map((m) => [m.type, m.content, m.timestamp].map(cell).join(','))].join('\r\n');

function boolParam(ctx: RequestContext, name: string): boolean {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return false;
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw fieldErrors({ [name]: ['Must be a valid boolean.'] });
}

function sessionRoutes(router: Router, deps: AreaDeps): void {
  const { db } = deps;

  const learner = (ctx: RequestContext): string => {
    const found = db
      .prepare('SELECT username FROM users WHERE org = ? AND username = ?')
      .pluck()
      .get(ctx.params.org!, ctx.params.user_id!) as string | undefined;
    if (!found) throw notFound('User not found.');
    return found;
  };
  /** The learner's session, or 404: another learner's session is not theirs to read. */
  const sessionOf = (ctx: RequestContext, id: string | undefined): SessionRow => {
    const username = learner(ctx);
    const row =
      id && UUID.test(id)
        ? (db
            .prepare(
              `SELECT id, session_id, mentor_unique_id, username, first_message, started_at
               FROM chat_sessions WHERE org = ? AND session_id = ? AND username = ?`,
            )
            .get(ctx.params.org!, id.toLowerCase(), username) as SessionRow | undefined)
        : undefined;
    if (!row) throw notFound('Session not found.');
    return row;
  };
  const messagesOf = (sessionPk: number): Message[] =>
    (
      db
        .prepare('SELECT role, content, created_at FROM chat_messages WHERE session_pk = ? ORDER BY id')
        .all(sessionPk) as { role: string; content: string; created_at: string }[]
    ).map((m) => ({ type: m.role === 'user' ? 'human' : 'ai', content: m.content, timestamp: m.created_at }));

  router.get(`${BASE}sessions/{session_id}/`, (ctx) => {
    boolParam(ctx, 'share');
    const session = sessionOf(ctx, ctx.params.session_id);
    const results = messagesOf(session.id);
    return {
      status: 200,
      body: {
        count: results.length,
        title: session.first_message.slice(0, 80),
        proactive_prompt: '',
        mentor_unique_id: session.mentor_unique_id,
        platform_key: ctx.params.org!,
        // The spec types both as non-null strings: one page holds the whole session.
        previous: '',
        next: '',
        results,
      },
    };
  });

  // Pinned sessions: GET needs `session_id`; DELETE declares no parameters, so it takes it from the query or body.
  const sessionParam = async (ctx: RequestContext, fromBody: boolean): Promise<string> => {
    let value = ctx.query.get('session_id');
    if (!value && fromBody) {
      const body = (await ctx.json().catch(() => null)) as Record<string, unknown> | null;
      if (body && typeof body === 'object' && typeof body.session_id === 'string') value = body.session_id;
    }
    if (!value) throw fieldErrors({ session_id: ['This field is required.'] });
    return value;
  };
  const pinOf = (org: string, username: string, session: string) =>
    db
      .prepare('SELECT * FROM session_pins WHERE org = ? AND username = ? AND session_id = ?')
      .get(org, username, session.toLowerCase()) as { id: number } | undefined;

  router.get(`${BASE}pin-message/`, async (ctx) => {
    const session = await sessionParam(ctx, false);
    const username = learner(ctx);
    if (!pinOf(ctx.params.org!, username, session)) return { status: 200, body: [] };
    const row = sessionOf(ctx, session);
    const mentor = db
      .prepare('SELECT id, name, created_at, updated_at FROM mentors WHERE org = ? AND unique_id = ?')
      .get(ctx.params.org!, row.mentor_unique_id) as
      { id: number; name: string; created_at: string; updated_at: string } | undefined;
    const body = [
      {
        session_id: row.session_id,
        mentor: {
          id: mentor?.id ?? 0,
          name: mentor?.name ?? row.mentor_unique_id,
          unique_id: row.mentor_unique_id,
          categories: [],
          types: [],
          subjects: [],
          mcp_servers: [],
          created_at: mentor?.created_at ?? row.started_at,
          updated_at: mentor?.updated_at ?? row.started_at,
        },
        // The spec's `ChatHistory`: a message as the platform stores it (`message` holds its type and content).
        messages: (
          db
            .prepare('SELECT id, role, content, created_at FROM chat_messages WHERE session_pk = ? ORDER BY id')
            .all(row.id) as { id: number; role: string; content: string; created_at: string }[]
        ).map((m) => ({
          id: m.id,
          message: { type: m.role === 'user' ? 'human' : 'ai', content: m.content },
          inserted_at: m.created_at,
          title: null,
          feedback: null,
          document_sources: null,
          files: [],
        })),
      },
    ];
    return { status: 200, body };
  });

  router.post(`${BASE}pin-message/`, async (ctx) => {
    const body = (await ctx.json().catch(() => null)) as Record<string, unknown> | null;
    const raw = body && typeof body === 'object' ? body.session_id : undefined;
    if (typeof raw !== 'string' || !raw) throw fieldErrors({ session_id: ['This field is required.'] });
    const row = sessionOf(ctx, raw);
    db.prepare(
      `INSERT INTO session_pins (org, username, session_id, inserted_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (org, username, session_id) DO NOTHING`,
    ).run(ctx.params.org!, row.username, row.session_id, new Date().toISOString());
    const pin = pinOf(ctx.params.org!, row.username, row.session_id)!;
    return {
      status: 200,
      body: { id: pin.id, platform: ctx.params.org!, username: row.username, session_id: row.session_id },
    };
  });

  router.delete(`${BASE}pin-message/`, async (ctx) => {
    const session = await sessionParam(ctx, true);
    const pin = pinOf(ctx.params.org!, learner(ctx), session);
    if (!pin) throw notFound('Pinned message not found.');
    db.prepare('DELETE FROM session_pins WHERE id = ?').run(pin.id);
    return { status: 204 };
  });

  const newTask = (ctx: RequestContext, username: string, session: string | null) => {
    const taskId = randomUUID();
    db.prepare(
      'INSERT INTO session_export_tasks (task_id, org, username, session_id, created_at, ready_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(taskId, ctx.params.org!, username, session, new Date().toISOString(), Date.now() + TASK_DELAY_MS);
    return { status: 200, body: { task_id: taskId } };
  };
  router.post(`${BASE}tasks/sessions/{session_id}/`, (ctx) => {
    const row = sessionOf(ctx, ctx.params.session_id);
    return newTask(ctx, row.username, row.session_id);
  });
  router.post(`${BASE}export-chathistory/`, (ctx) => newTask(ctx, learner(ctx), null));

  interface TaskRow {
    task_id: string;
    username: string;
    session_id: string | null;
    created_at: string;
    ready_at: number;
  }
  const answerTask = (ctx: RequestContext, session: string | null) => {
    const toCsv = boolParam(ctx, 'to_csv');
    const username = learner(ctx);
    const id = ctx.params.task_id!;
    if (!UUID.test(id)) throw badRequest('Invalid task id');
    const task = db
      .prepare('SELECT * FROM session_export_tasks WHERE org = ? AND username = ? AND task_id = ?')
      .get(ctx.params.org!, username, id.toLowerCase()) as TaskRow | undefined;
    if (!task || (session !== null && task.session_id !== session.toLowerCase())) throw notFound('Task not found.');
    if (Date.now() < task.ready_at) return { status: 200, body: { state: 'task_not_ready' } };
    const sessions = (
      task.session_id
        ? db
            .prepare('SELECT id FROM chat_sessions WHERE org = ? AND session_id = ?')
            .all(ctx.params.org!, task.session_id)
        : db
            .prepare('SELECT id FROM chat_sessions WHERE org = ? AND username = ? ORDER BY started_at, id')
            .all(ctx.params.org!, username)
    ) as { id: number }[];
    const messages = sessions.flatMap((s) => messagesOf(s.id));
    return {
      status: 200,
      body: {
        type: toCsv ? 'csv' : 'json',
        content: toCsv ? transcriptCsv(messages) : JSON.stringify(messages),
        timestamp: task.created_at,
      },
    };
  };
  router.get(`${BASE}downloads/tasks/{task_id}/`, (ctx) => answerTask(ctx, null));
  router.get(`${BASE}sessions/{session_id}/tasks/{task_id}/`, (ctx) => answerTask(ctx, ctx.params.session_id!));
}

/** Pins on the demo conversations: every learner with several sessions has their longest one pinned. */
function seedPins(deps: AreaDeps): void {
  deps.db
    .prepare(
      `INSERT OR IGNORE INTO session_pins (org, username, session_id, inserted_at)
       SELECT org, username, session_id, ended_at FROM (
         SELECT org, username, session_id, ended_at,
           row_number() OVER (PARTITION BY org, username ORDER BY message_count DESC, id) AS n,
           count(*) OVER (PARTITION BY org, username) AS sessions
         FROM chat_sessions)
       WHERE n = 1 AND sessions > 1`,
    )
    .run();
}

export const sessionsArea: Area = {
  name: 'sessions',
  schema,
  routes: sessionRoutes,
  seed: seedPins,
};
