/**
 * Call credentials (issue 16, "Voice and calls"): the engine asks the platform for a mentor's call credentials
 * (`create-call-credentials/`) and answers the call's server, room and participant — never the participant token,
 * which is a secret: a proxy in front of the sandbox records the tokens the platform issued, and none of them is in
 * the engine's answer, its data folder (SQLite, logs) or the CLI's output. Refusals come back in the platform's words.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { cliTenant } from '../invitations/setup';
import { startServer, type TestServer } from '../platform/test-server';
import { connect, failure } from './setup';

let server: Sandbox;
let proxy: TestServer;
const issued: string[] = [];
const mentors: Record<string, string> = {};

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  for (const name of ['Voice Coach', 'Quiet Coach']) {
    const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      json: { name },
    });
    mentors[name] = String((made.body as { unique_id: string }).unique_id);
  }
  await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/call-configurations/`, {
    json: { mentor: mentors['Voice Coach'], mode: 'realtime' },
  });
});

// Passes everything on; keeps each participant token the platform answers (test servers close after each test).
beforeEach(async () => {
  proxy = await startServer(async (req, res, { body }) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(server.url + req.url, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    });
    const text = await answer.text();
    const token = /"participant_token"\s*:\s*"([^"]+)"/.exec(text)?.[1];
    if (token) issued.push(token);
    res
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(text);
  });
});

/** Every file under a folder, as text (SQLite pages and WAL included). */
function everything(dir: string): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    all += statSync(path).isDirectory() ? everything(path) : readFileSync(path).toString('latin1');
  }
  return all;
}

describe('call credentials', () => {
  it('answers the call’s server, room and participant; the token never leaves the engine', async () => {
    const c = await connect({ ...server, url: proxy.url });
    const mentor = mentors['Voice Coach']!;
    const checked = await c.engine.invoke('calls.credentials', { mentor, enableVideo: true });
    expect(checked).toMatchObject({
      mentor,
      roomName: `mentor-audio-call-${mentor}|${server.org}`,
      participantName: server.user,
      tokenIssued: true,
    });
    expect(checked.tokenExpiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(checked.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(issued).toHaveLength(1);
    const token = issued[0]!;
    expect(JSON.stringify(checked)).not.toContain(token);
    expect(JSON.stringify(checked)).not.toContain(token.split('.')[2]!);
    await c.engine.close();
    expect(everything(c.dataDir)).not.toContain(token.split('.')[2]!);
  });

  it('says the platform’s refusals: a mentor without calls, an unknown mentor', async () => {
    const c = await connect(server);
    const unconfigured = await failure(c.engine, 'calls.credentials', { mentor: mentors['Quiet Coach']! });
    expect(unconfigured.code).toBe('api');
    expect(unconfigured.message).toContain(
      'Invalid request parameters or improperly configured IBL Call Pro credentials',
    );
    const unknown = await failure(c.engine, 'calls.credentials', { mentor: 'no-such-mentor' });
    expect(unknown.code).toBe('not_found');
    expect(unknown.message).toContain('No mentor or session found');
  });

  it('CLI: calls check by the mentor’s name shows the room, never the token', async () => {
    const before = issued.length;
    const { dataDir, env } = await cliTenant(server, proxy.url);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const checked = await run(['calls', 'check', '--mentor', 'Voice Coach']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain(`Room:        mentor-audio-call-${mentors['Voice Coach']}|${server.org}`);
    expect(checked.stdout).toContain('Token:       issued (not shown)');
    const json = await run(['--json', 'calls', 'check', '--mentor', 'Voice Coach', '--video']);
    expect(json.code, json.stderr).toBe(0);
    expect(issued.length).toBe(before + 2);
    for (const token of issued.slice(before)) {
      const signature = token.split('.')[2]!;
      expect(checked.stdout + checked.stderr + json.stdout + json.stderr).not.toContain(signature);
      expect(everything(dataDir)).not.toContain(signature);
    }
    const refused = await run(['calls', 'check', '--mentor', 'Quiet Coach']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('improperly configured IBL Call Pro credentials');
  });
});
