/**
 * Browser mode's export downloads: the host hands a finished export's file to the page that holds the session, with
 * the bridge's checks (session cookie, Origin, Host), and only a file the engine wrote (named by export id, completed, the
 * length it recorded, not a link).
 */
import { appendFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachment, downloadDecision } from '../../src/main/host/download';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { connect, settled } from '../analytics/setup';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(
  host: Host,
  method: string,
  path: string,
  options: { cookie?: string | null; origin?: string | null; host?: string } = {},
): Promise<Answer> {
  const cookie = options.cookie === undefined ? host.sessionCookie : options.cookie;
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${host.port}` };
  if (cookie !== null) headers.cookie = cookie;
  const origin = options.origin === undefined ? host.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function hostWithExport() {
  const { engine } = await connect(server);
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
  const host = await startHost({ dataDir: tempDir(), rendererDir, engine });
  const started = await engine.invoke('analytics.exportStart', {
    dataset: 'topics',
    range: { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
    timeZone: 'UTC',
    folder: tempDir(),
  });
  const done = await settled(engine, started.id);
  expect(done.state, done.error ?? '').toBe('completed');
  return { engine, host, done };
}

describe('export downloads in browser mode', () => {
  it('hands the finished file to the page holding the session, and refuses everyone else', async () => {
    const { host, done } = await hostWithExport();
    const path = `/export-file/${done.id}`;
    try {
      const ok = await send(host, 'POST', path);
      expect(ok.status).toBe(200);
      expect(ok.body.equals(readFileSync(done.path))).toBe(true);
      expect(done.bytes).toBe(ok.body.length);
      expect(ok.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(ok.headers['content-disposition']).toBe(attachment(basename(done.path)));
      expect(ok.headers['content-disposition']).toContain(`filename="${basename(done.path)}"`);
      expect(ok.headers['cache-control']).toBe('no-store');

      // The bridge's checks: the session cookie, the page's own Origin, a loopback Host.
      expect((await send(host, 'POST', path, { cookie: null })).status).toBe(401);
      const forged = host.sessionCookie.replace(/=.*$/, `=${'x'.repeat(32)}`);
      expect((await send(host, 'POST', path, { cookie: forged })).status).toBe(401);
      // The printed token is not a session: it only buys the cookie once, on the page load.
      expect((await send(host, 'POST', `${path}?token=${host.token}`, { cookie: null })).status).toBe(401);
      expect((await send(host, 'POST', path, { origin: null })).status).toBe(403);
      expect((await send(host, 'POST', path, { origin: 'http://evil.example' })).status).toBe(403);
      expect((await send(host, 'POST', path, { origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
      expect((await send(host, 'POST', path, { host: `evil.example:${host.port}` })).status).toBe(403);
      // A plain link (GET, no Origin) never downloads.
      expect((await send(host, 'GET', path, { origin: null })).status).toBe(403);
      expect((await send(host, 'GET', path)).status).toBe(405);
      // Exports are named by id, never by path.
      expect((await send(host, 'POST', '/export-file/no-such-export')).status).toBe(404);
      expect((await send(host, 'POST', `/export-file/${encodeURIComponent(done.path)}`)).status).toBe(404);
      expect((await send(host, 'POST', '/export-file/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    } finally {
      await host.close();
    }
  });

  it('hands out only the file the engine wrote: not changed, not a link, still there', async () => {
    const { host, done } = await hostWithExport();
    const path = `/export-file/${done.id}`;
    try {
      appendFileSync(done.path, 'x');
      const changed = await send(host, 'POST', path);
      expect(changed.status).toBe(409);
      expect(changed.body.toString()).toContain('changed after the export wrote it');

      rmSync(done.path);
      const gone = await send(host, 'POST', path);
      expect(gone.status).toBe(410);
      expect(gone.body.toString()).toContain(done.path);

      // A link in its place, even to a file of the right length, is not what the export wrote.
      const elsewhere = join(tempDir(), 'other.csv');
      writeFileSync(elsewhere, Buffer.alloc(done.bytes!, 'a'));
      symlinkSync(elsewhere, done.path);
      expect((await send(host, 'POST', path)).status).toBe(409);
    } finally {
      await host.close();
    }
  });

  it('decides from what the engine recorded', () => {
    const file = { isFile: true, isLink: false, size: 10 };
    const recorded = { id: 'a', state: 'completed', path: '/tmp/a.csv', bytes: 10 };
    expect(downloadDecision('a', recorded, file)).toEqual({ ok: true, path: '/tmp/a.csv', size: 10 });
    expect(downloadDecision('a', { ...recorded, state: 'running' }, file)).toMatchObject({ ok: false, status: 409 });
    expect(downloadDecision('b', recorded, file)).toMatchObject({ ok: false, status: 404 });
    expect(downloadDecision('a', undefined, file)).toMatchObject({ ok: false, status: 404 });
    expect(downloadDecision('a', recorded, { ...file, isFile: false })).toMatchObject({ ok: false, status: 409 });
    expect(attachment('Northbridge café "q".csv')).toBe(
      `attachment; filename="Northbridge caf_ _q_.csv"; filename*=UTF-8''Northbridge%20caf%C3%A9%20%22q%22.csv`,
    );
  });
});
