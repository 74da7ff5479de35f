/**
 * `mentor-admin person export|erase` as separate processes, killed with SIGKILL mid-job (issue 18): the export,
 * resumed, reads again only what it had not finished and writes the same files; the erasure, resumed, finishes the
 * person it was started for and leaves everyone else as they were, and its report says what went.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { startServer, type TestServer } from '../platform/test-server';
import { mentorOf, personData, seedPerson } from './fixture';

let server: Sandbox;
let mentor: string;
let kill: (() => void) | null = null;
/** Kills the CLI as a request matching it arrives (the request itself never reaches the sandbox). */
let killOn: RegExp | null = null;
const seen: string[] = [];
let proxy: TestServer;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  mentor = await mentorOf(server);
});
// A loopback proxy in front of the sandbox (closed after each test): it records requests and does the killing.
beforeEach(async () => {
  proxy = await startServer(async (req, res, { body }) => {
    const line = `${req.method} ${req.url}`;
    seen.push(line);
    if (killOn?.test(line) && kill) {
      killOn = null;
      kill();
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(server.url + req.url, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length ? { body: new Uint8Array(body) } : {}),
    });
    res
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(Buffer.from(await answer.arrayBuffer()));
  });
});

async function cliEnv(): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MENTOR_ADMIN_HOME: tempDir(),
    MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
    MENTOR_ADMIN_SANDBOX: 'off',
  };
  delete env.MENTOR_ADMIN_API_KEY;
  const at = ['--url', proxy.url, '--org', server.org, '--user', server.user, '--key-stdin'];
  const added = await cli(['profile', 'add', 'Campus', ...at, '--activate'], { env, stdin: server.apiKey });
  expect(added.code, added.stderr).toBe(0);
  return env;
}

function run(env: NodeJS.ProcessEnv, args: string[]) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn(process.execPath, ['bin/mentor-admin.mjs', ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      kill = () => child.kill('SIGKILL');
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}

async function entries(path: string) {
  const zip = await JSZip.loadAsync(readFileSync(path));
  const out: Record<string, string> = {};
  for (const name of Object.keys(zip.files)) out[name] = await zip.file(name)!.async('string');
  return out;
}

describe('mentor-admin person', () => {
  it('export killed with SIGKILL mid-job resumes without reading the chat history again, and writes the same files', async () => {
    await seedPerson(server, 'gil-export', mentor, { conversations: 3, messages: 2 });
    const env = await cliEnv();
    const path = join(tempDir(), 'gil.zip');
    seen.length = 0;
    killOn = /GET \/api\/ai-mentor\/orgs\/[^/]+\/users\/gil-export\/memories\//;
    const first = await run(env, ['person', 'export', 'gil-export', '--out', path]);
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(seen.filter((l) => l.includes('chat-history'))).toHaveLength(1);

    seen.length = 0;
    const second = await run(env, ['person', 'export', 'gil-export', '--out', path]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/Resumed job/);
    // The finished dataset was kept: only what the kill interrupted was read again.
    expect(seen.filter((l) => l.includes('chat-history'))).toEqual([]);
    const resumed = await entries(path);

    const whole = join(tempDir(), 'gil-again.zip');
    const third = await run(env, ['person', 'export', 'gil-export', '--out', whole]);
    expect(third.code, third.stderr).toBe(0);
    const uninterrupted = await entries(whole);
    // Every CSV byte for byte what an uninterrupted export writes; the manifests differ only in the export's time.
    expect(Object.keys(resumed)).toEqual(Object.keys(uninterrupted));
    for (const name of Object.keys(resumed).filter((n) => n.endsWith('.csv')))
      expect(resumed[name], name).toBe(uninterrupted[name]);
    const manifest = (text: string) => ({ ...(JSON.parse(text) as object), exportedAt: null });
    expect(manifest(resumed['manifest.json']!)).toEqual(manifest(uninterrupted['manifest.json']!));
  });

  it('erase killed with SIGKILL mid-job resumes, finishes that person only, and reports what went', async () => {
    await seedPerson(server, 'hal-erase', mentor, { conversations: 2, messages: 2 });
    await seedPerson(server, 'ivy-stays', mentor, { conversations: 2, messages: 2 });
    const env = await cliEnv();
    const dry = await cli(['person', 'erase', 'hal-erase', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Chat history \(conversations\)\s+2/);
    expect((await personData(server, 'hal-erase')).chats.body).toMatchObject({ count: 2 });
    expect((await cli(['person', 'erase', 'hal-erase'], { env })).code).toBe(2);

    // Killed as it deletes the memory: the chat history is gone already, the rest is not.
    killOn = /DELETE \/api\/ai-mentor\/orgs\/[^/]+\/users\/hal-erase\/memory-entries\//;
    const first = await run(env, ['person', 'erase', 'hal-erase', '--yes']);
    expect(first.signal, first.stderr).toBe('SIGKILL');
    const half = await personData(server, 'hal-erase');
    expect(half.chats.body).toMatchObject({ count: 0 });
    expect(JSON.stringify(half.memories.body)).toContain('hal-erase gap');

    const second = await run(env, ['person', 'erase', 'hal-erase', '--yes']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/Resumed job/);
    expect(second.stdout).toMatch(/Erasure report .*: hal-erase — erased/);
    expect(second.stdout).toMatch(/signed off: sha256 [0-9a-f]{64}/);
    const gone = await personData(server, 'hal-erase');
    expect(JSON.stringify(gone.memories.body)).not.toContain('hal-erase');
    expect(JSON.stringify(gone.profile.body)).not.toContain('climbs');
    expect(JSON.stringify(gone.users.body)).not.toContain('hal-erase');
    const other = await personData(server, 'ivy-stays');
    expect(other.chats.body).toMatchObject({ count: 2 });
    expect(JSON.stringify(other.memories.body)).toContain('ivy-stays gap');
    expect(JSON.stringify(other.profile.body)).toContain('ivy-stays climbs');
    expect(other.edx.body).toMatchObject({ count: 1 });
    expect(JSON.stringify(other.users.body)).toContain('ivy-stays');
    // One removal was sent, for hal-erase.
    expect(seen.filter((l) => l.startsWith('POST /api/core/users/delete/'))).toHaveLength(1);
  });
});
