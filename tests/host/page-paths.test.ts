/**
 * Browser mode: the page names files only by the handles the host gave it for staged uploads. Over the real
 * WebSocket bridge, to a real engine on a real sandbox: a path the page writes itself (even the path of its own
 * staged copy) never reaches the engine, and no call from the page writes where the page says.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost, type Host } from '../../src/main/host/server';
import type { BridgeResult } from '../../src/shared/contract';
import type { StagedDrop } from '../../src/shared/transport';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

let host: Host;
let ws: WebSocket;
let exportDir: string;
let mentor: string;
let nextId = 1;

beforeAll(async () => {
  requireKeychainSession();
  const server = await sandbox();
  exportDir = tempDir();
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
  host = await startHost({
    dataDir: tempDir(),
    rendererDir,
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_SANDBOX: 'off', MENTOR_ADMIN_EXPORT_DIR: exportDir },
  });
  await host.engine.invoke('profiles.add', {
    name: 'Sandbox University',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    secret: server.apiKey,
    makeActive: true,
  });
  mentor = (await host.engine.invoke('mentors.create', { name: 'Chemistry 201', description: 'Matter' })).uniqueId;
  ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, {
    headers: { cookie: host.sessionCookie, origin: host.origin },
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
});
afterAll(async () => {
  ws?.close();
  await host?.close();
});

/** One contract call from the page. */
function call(name: string, input: unknown): Promise<BridgeResult> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { kind: string; id?: number } & BridgeResult;
      if (message.kind !== 'result' || message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, name, input }));
  });
}

function post(path: string, body?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { cookie: host.sessionCookie, origin: host.origin };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const req = request({ host: '127.0.0.1', port: host.port, method: 'POST', path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Uploads files as the page does, and answers what `done` gives it. */
async function stage(files: Record<string, string>): Promise<StagedDrop> {
  const id = `drop-${Math.random().toString(36).slice(2, 12)}`;
  for (const [path, text] of Object.entries(files)) {
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    expect((await post(`/stage/${id}/files/${encoded}`, text)).status).toBe(200);
  }
  const done = await post(`/stage/${id}/done`);
  expect(done.status).toBe(200);
  return done.body as StagedDrop;
}

const refusal = (field: string) => ({
  ok: false,
  error: { code: 'validation', message: expect.stringMatching(/^Refused /), issues: [{ path: field }] },
});

const CSV = 'email,name\nada@example.com,Ada\n';

describe('paths from the browser page', () => {
  it('opens a staged CSV by its handle, and refuses the path of that very file', async () => {
    const staged = await stage({ 'cohort.csv': CSV });
    const [entry] = staged.entries;
    expect(existsSync(entry!.path)).toBe(true);
    expect(await call('invitations.importOpen', { path: entry!.path })).toMatchObject(refusal('path'));
    expect(await call('invitations.importOpen', { path: '/etc/passwd' })).toMatchObject(refusal('path'));
    const opened = await call('invitations.importOpen', { path: entry!.handle });
    expect(opened).toMatchObject({ ok: true, value: { name: 'cohort.csv', size: CSV.length } });
  });

  it('previews a staged folder by its handle, and refuses a path next to it', async () => {
    const staged = await stage({ 'Course notes/intro.md': '# Intro\n', 'Course notes/week 1/bonds.txt': 'Bonds.\n' });
    const folder = staged.entries[0]!;
    expect(await call('train.preview', { mentor, paths: [folder.path] })).toMatchObject(refusal('paths.0'));
    expect(await call('train.preview', { mentor, paths: [folder.handle, join(folder.path, '..')] })).toMatchObject(
      refusal('paths.1'),
    );
    const preview = await call('train.preview', { mentor, paths: [folder.handle] });
    expect(preview).toMatchObject({ ok: true, value: { totalFiles: 2, classes: { new: 2 } } });
  });

  it('never writes where the page says: export, schedule and report paths are refused, staged handles too', async () => {
    const elsewhere = tempDir();
    const staged = await stage({ 'notes.txt': 'x' });
    const users = { dataset: 'users', range: { preset: '7d' } };
    expect(await call('analytics.exportStart', { ...users, folder: elsewhere })).toMatchObject(refusal('folder'));
    expect(await call('analytics.exportStart', { ...users, path: join(elsewhere, 'users.csv') })).toMatchObject(
      refusal('path'),
    );
    // A staged upload is read-only to the engine.
    const readOnly = await call('analytics.exportStart', { ...users, folder: staged.entries[0]!.handle });
    expect(readOnly).toMatchObject(refusal('folder'));
    expect(!readOnly.ok && readOnly.error.message).toContain('not as a place to write');
    const schedule = { name: 'Weekly', dataset: 'users', cadence: 'daily', time: '06:00', rangeDays: 7 };
    expect(await call('analytics.scheduleSave', { ...schedule, folder: elsewhere })).toMatchObject(refusal('folder'));
    expect(await call('jobs.exportReport', { id: 'any', path: join(elsewhere, 'report.csv') })).toMatchObject(
      refusal('path'),
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('exports and schedules into the export folder when the page names none', async () => {
    const started = await call('analytics.exportStart', { dataset: 'users', range: { preset: '7d' } });
    expect(started).toMatchObject({ ok: true });
    expect(started.ok && (started.value as { path: string }).path.startsWith(join(exportDir, ''))).toBe(true);
    const saved = await call('analytics.scheduleSave', {
      name: 'Daily users',
      dataset: 'users',
      cadence: 'daily',
      time: '06:00',
      rangeDays: 7,
    });
    expect(saved).toMatchObject({ ok: true, value: { folder: exportDir } });
  });
});
