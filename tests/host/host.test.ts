import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

let host: Host;
let rendererDir: string;

beforeAll(async () => {
  requireKeychainSession();
  rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startHost({ dataDir: tempDir(), rendererDir, keychainService: uniqueService(), env: {} });
});
afterAll(() => host?.close());

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(options: { token?: string | null; origin?: string | null; host?: string } = {}): Promise<WebSocket> {
  const token = options.token === undefined ? host.token : options.token;
  const url = `ws://127.0.0.1:${host.port}/bridge${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;
  const headers: Record<string, string> = {};
  const origin = options.origin === undefined ? host.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  if (options.host) headers.host = options.host;
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function exchange(ws: WebSocket, frame: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.kind === 'result') {
        ws.off('message', onMessage);
        resolve(message);
      }
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}

describe('browser mode host', () => {
  it('prints a loopback URL carrying a long random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('serves the renderer with a strict CSP and refuses foreign Host headers', async () => {
    const page = await get('/', { host: `127.0.0.1:${host.port}` });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(page.headers['content-security-policy'])).not.toContain('unsafe-eval');
    expect((await get('/assets/app.js', { host: `localhost:${host.port}` })).status).toBe(200);
    expect((await get('/', { host: 'evil.example:80' })).status).toBe(403);
    for (const path of ['/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f..%2fetc%2fpasswd', '/assets/..%5c..%5cetc/passwd']) {
      const escaped = await get(path, { host: `127.0.0.1:${host.port}` });
      expect(escaped.body, path).not.toContain('root:');
    }
  });

  it.each([
    ['no token', { token: null }, 'HTTP 401'],
    ['a wrong token', { token: 'x'.repeat(32) }, 'HTTP 401'],
    ['another Origin', { origin: 'http://evil.example' }, 'HTTP 403'],
    ['no Origin', { origin: null }, 'HTTP 403'],
    ['a foreign Host', { host: 'evil.example' }, 'HTTP 403'],
  ])('refuses a bridge connection with %s', async (_label, options, message) => {
    await expect(connect(options)).rejects.toThrow(message);
  });

  it('answers contract calls, and malformed or unknown ones with a typed validation error', async () => {
    const ws = await connect();
    const info = await exchange(ws, JSON.stringify({ id: 1, name: 'app.info', input: {} }));
    expect(info).toMatchObject({ id: 1, ok: true, value: { name: 'Mentor Admin', shell: 'browser' } });
    expect(await exchange(ws, 'not json')).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(await exchange(ws, JSON.stringify({ id: 2, name: 'nope' }))).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'validation', message: "Unknown call 'nope'" },
    });
    const bad = await exchange(ws, JSON.stringify({ id: 3, name: 'settings.set', input: { theme: 'neon' } }));
    expect(bad).toMatchObject({ id: 3, ok: false, error: { code: 'validation' } });
    ws.close();
  });

  it('pushes engine events to connected pages', async () => {
    const ws = await connect();
    const event = new Promise<Record<string, unknown>>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Record<string, unknown>;
        if (message.kind === 'event') resolve(message);
      }),
    );
    await exchange(ws, JSON.stringify({ id: 1, name: 'settings.set', input: { theme: 'dark' } }));
    expect(await event).toEqual({
      kind: 'event',
      name: 'settings.changed',
      payload: { theme: 'dark', notifyNewTickets: false, notifyJobEnds: true, jobWaitLimitMinutes: 60 },
    });
    ws.close();
  });
});
