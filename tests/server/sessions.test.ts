import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { sessionsArea } from '../../src/server/areas/sessions';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const MENTOR = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const SESSION = `${MENTOR}sessions/{session_id}/`;
const PIN = `${MENTOR}pin-message/`;
const SESSION_TASK = `${MENTOR}tasks/sessions/{session_id}/`;
const SESSION_DOWNLOAD = `${MENTOR}sessions/{session_id}/tasks/{task_id}/`;
const DOWNLOAD = `${MENTOR}downloads/tasks/{task_id}/`;
const EXPORT_ALL = `${MENTOR}export-chathistory/`;

let server: Sandbox;
let learner: string;
let session: string;
let foreignSession: string;

const path = (template: string, values: Record<string, string> = {}, user = learner, org?: string) =>
  template
    .replace('{org}', org ?? server.org)
    .replace('{user_id}', user)
    .replace(/\{(\w+)\}/g, (_m, key: string) => values[key]!);

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [analyticsArea, sessionsArea] });
  const rows = server.db
    .prepare(
      `SELECT s.username, s.session_id FROM chat_sessions s JOIN users u ON u.username = s.username AND u.org = s.org
       WHERE s.org = ? AND s.message_count > 2 ORDER BY s.id LIMIT 40`,
    )
    .all(server.org) as { username: string; session_id: string }[];
  learner = rows[0]!.username;
  // A session the seed did not pin, so the pin test starts from none.
  const pinned = new Set(server.db.prepare('SELECT session_id FROM session_pins').pluck().all() as string[]);
  session = rows.find((r) => r.username === learner && !pinned.has(r.session_id))!.session_id;
  foreignSession = rows.find((r) => r.username !== learner)!.session_id;
});

async function waitReady(url: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const res = await call(server, 'GET', url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as Record<string, unknown>;
    if (body.state !== 'task_not_ready') return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task never ready');
}

describe('sessions sandbox', () => {
  it("serves a learner's session with its messages in order; someone else's session is a 404", async () => {
    const res = await call(server, 'GET', path(SESSION, { session_id: session }));
    expect(res.status).toBe(200);
    expectSpecValid('get', SESSION, 200, res.body);
    const body = res.body as { count: number; results: { type: string; content: string }[] };
    const stored = server.db
      .prepare(
        `SELECT m.content FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk
         WHERE s.session_id = ? ORDER BY m.id`,
      )
      .pluck()
      .all(session);
    expect(body.count).toBe(stored.length);
    expect(body.results.map((m) => m.content)).toEqual(stored);
    expect(body.results[0]!.type).toBe('human');
    expect((await call(server, 'GET', path(SESSION, { session_id: foreignSession }))).status).toBe(404);
    expect((await call(server, 'GET', path(SESSION, { session_id: 'not-a-uuid' }))).status).toBe(404);
    expect((await call(server, 'GET', `${path(SESSION, { session_id: session })}?share=maybe`)).status).toBe(400);
  });

  it('pins a session, lists the pin with its messages, unpins it; session_id is required', async () => {
    const url = `${path(PIN)}?session_id=${session}`;
    expect((await call(server, 'GET', url)).body).toEqual([]);
    const created = await call(server, 'POST', path(PIN), { json: { session_id: session } });
    expect(created.status).toBe(200);
    expectSpecValid('post', PIN, 200, created.body);
    expect(created.body).toMatchObject({ username: learner, session_id: session, platform: server.org });
    const listed = await call(server, 'GET', url);
    expectSpecValid('get', PIN, 200, listed.body);
    const pins = listed.body as { session_id: string; messages: unknown[] }[];
    expect(pins.map((p) => p.session_id)).toEqual([session]);
    expect(pins[0]!.messages.length).toBeGreaterThan(2);
    // Pinning twice keeps one pin.
    const again = await call(server, 'POST', path(PIN), { json: { session_id: session } });
    expect((again.body as { id: number }).id).toBe((created.body as { id: number }).id);
    expect((await call(server, 'GET', path(PIN))).body).toEqual({ session_id: ['This field is required.'] });
    expect((await call(server, 'POST', path(PIN), { json: {} })).status).toBe(400);
    expect((await call(server, 'POST', path(PIN), { json: { session_id: foreignSession } })).status).toBe(404);
    expect((await call(server, 'DELETE', url)).status).toBe(204);
    expect((await call(server, 'GET', url)).body).toEqual([]);
    expect((await call(server, 'DELETE', url)).status).toBe(404);
  });

  it('exports a session as a task: not ready at first, then its transcript as JSON or CSV', async () => {
    const created = await call(server, 'POST', path(SESSION_TASK, { session_id: session }), {
      json: { task_id: '' },
    });
    expect(created.status).toBe(200);
    expectSpecValid('post', SESSION_TASK, 200, created.body);
    const taskId = (created.body as { task_id: string }).task_id;
    const first = await call(server, 'GET', path(DOWNLOAD, { task_id: taskId }));
    expect(first.body).toEqual({ state: 'task_not_ready' });
    const json = await waitReady(path(DOWNLOAD, { task_id: taskId }));
    expectSpecValid('get', DOWNLOAD, 200, json);
    const messages = JSON.parse(json.content as string) as { content: string }[];
    expect(messages.length).toBeGreaterThan(2);
    const csv = await waitReady(`${path(SESSION_DOWNLOAD, { session_id: session, task_id: taskId })}?to_csv=true`);
    expectSpecValid('get', SESSION_DOWNLOAD, 200, csv);
    expect(csv.type).toBe('csv');
    expect((csv.content as string).split('\r\n')[0]).toBe('type,content,timestamp');
    // The task belongs to its session and its learner; a bad flag or id is refused.
    expect(
      (await call(server, 'GET', path(SESSION_DOWNLOAD, { session_id: foreignSession, task_id: taskId }))).status,
    ).toBe(404);
    expect((await call(server, 'GET', `${path(DOWNLOAD, { task_id: taskId })}?to_csv=perhaps`)).status).toBe(400);
    expect((await call(server, 'GET', path(DOWNLOAD, { task_id: 'nope' }))).status).toBe(400);
    expect((await call(server, 'POST', path(SESSION_TASK, { session_id: foreignSession }), { json: {} })).status).toBe(
      404,
    );
  });

  it("exports a learner's whole chat history through export-chathistory/", async () => {
    const created = await call(server, 'POST', path(EXPORT_ALL));
    expectSpecValid('post', EXPORT_ALL, 200, created.body);
    const body = await waitReady(path(DOWNLOAD, { task_id: (created.body as { task_id: string }).task_id }));
    const all = JSON.parse(body.content as string) as unknown[];
    const stored = server.db
      .prepare(
        `SELECT count(*) FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk WHERE s.org = ? AND s.username = ?`,
      )
      .pluck()
      .get(server.org, learner);
    expect(all.length).toBe(stored);
  });

  it('keeps tenants apart and learners to their own sessions', async () => {
    const other = server.otherOrg;
    const crossed = await call(server, 'GET', path(SESSION, { session_id: session }, learner, other.org), {
      key: other.apiKey,
    });
    expect(crossed.status).toBe(404);
    const intoOurs = await call(server, 'GET', path(SESSION, { session_id: session }), { key: other.apiKey });
    expect([401, 403, 404]).toContain(intoOurs.status);
    const student = await call(server, 'GET', path(SESSION, { session_id: session }), { key: server.studentKey });
    if (server.studentUser !== learner) expect(student.status).toBe(403);
  });
});

describe('sessions sandbox: demo pins', () => {
  it("pins each demo learner's longest conversation when they have several", async () => {
    const pinned = server.db
      .prepare(
        `SELECT p.session_id FROM session_pins p JOIN chat_sessions s ON s.session_id = p.session_id
         WHERE p.org = ? AND p.username = s.username`,
      )
      .pluck()
      .all(server.org) as string[];
    expect(pinned.length).toBeGreaterThan(3);
    const owner = server.db
      .prepare('SELECT username FROM chat_sessions WHERE session_id = ?')
      .pluck()
      .get(pinned[0]) as string;
    const res = await call(server, 'GET', `${path(PIN, {}, owner)}?session_id=${pinned[0]}`);
    expect((res.body as unknown[]).length).toBe(1);
  });
});
