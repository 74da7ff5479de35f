/** A learner's sessions through a real engine against a real sandbox: read, pin and unpin, export as a CSV job. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect, failure, waitForJob, type Connected } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir } from '../helpers/temp';
import { mentorOf, seedPerson } from '../person/fixture';

let server: Sandbox;
let c: Connected;
let session: string;
let otherSession: string;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  const mentor = await mentorOf(server, 'Sessions Mentor');
  await seedPerson(server, 'sam-sessions', mentor, { conversations: 2, messages: 4 });
  await seedPerson(server, 'olga-other', mentor, { conversations: 1, messages: 2 });
  const of = (username: string) =>
    server.db
      .prepare('SELECT session_id FROM chat_sessions WHERE username = ? ORDER BY id')
      .pluck()
      .get(username) as string;
  session = of('sam-sessions');
  otherSession = of('olga-other');
});
beforeEach(async () => {
  c = await connect(server);
});

describe('sessions (engine)', () => {
  it("reads a learner's session in order; another learner's session is not theirs", async () => {
    const view = await c.engine.invoke('sessions.get', { learner: 'sam-sessions', session });
    expect(view.messages.map((m) => m.role)).toEqual(['learner', 'mentor', 'learner', 'mentor']);
    expect(view.messages[1]!.content).toBe('sam-sessions says 0.1');
    expect(view.pinned).toBe(false);
    const wrong = await failure(c.engine, 'sessions.get', { learner: 'sam-sessions', session: otherSession });
    expect(wrong.message).toMatch(/No session .* of sam-sessions/);
    const bad = await failure(c.engine, 'sessions.get', { learner: 'sam-sessions', session: 'nope' });
    expect(bad.message).toMatch(/UUID/);
  });

  it('pins and unpins a session on the tenant; unpinning twice is fine', async () => {
    expect(await c.engine.invoke('sessions.pin', { learner: 'sam-sessions', session, pinned: true })).toEqual({
      pinned: true,
    });
    const raw = await call(
      server,
      'GET',
      `/api/ai-mentor/orgs/${server.org}/users/sam-sessions/pin-message/?session_id=${session}`,
    );
    expect((raw.body as { session_id: string }[]).map((p) => p.session_id)).toEqual([session]);
    expect((await c.engine.invoke('sessions.get', { learner: 'sam-sessions', session })).pinned).toBe(true);
    for (let i = 0; i < 2; i++)
      expect(await c.engine.invoke('sessions.pin', { learner: 'sam-sessions', session, pinned: false })).toEqual({
        pinned: false,
      });
  });

  it('exports a session as a job: waits for the task, saves an injection-safe CSV of that session only', async () => {
    const path = join(tempDir(), 'sam.csv');
    const started = await c.engine.invoke('sessions.export', { learner: 'sam-sessions', session, path });
    const job = await waitForJob(c.engine, started.jobId);
    expect(job.state, JSON.stringify(job)).toBe('completed');
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1).trim()).data;
    expect(rows[0]).toEqual(['session', 'learner', 'type', 'content', 'timestamp']);
    expect(rows.slice(1).map((r) => r[3])).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      'sam-sessions says 0.1',
      'sam-sessions says 0.2',
      'sam-sessions says 0.3',
    ]);
    expect(rows.slice(1).every((r) => r[0] === session && r[1] === 'sam-sessions')).toBe(true);
    const refused = await failure(c.engine, 'sessions.export', {
      learner: 'sam-sessions',
      session,
      path: join(tempDir(), 'sam.txt'),
    });
    expect(refused.message).toMatch(/FILE\.csv/);
  });
});
