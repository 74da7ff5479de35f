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

function connect(
  options: { cookie?: string | null; token?: string; origin?: string | null; host?: string } = {},
): Promise<WebSocket> {
  const url = `ws://127.0.0.1:${host.port}/bridge${options.token ? `?token=${encodeURIComponent(options.token)}` : ''}`;
  const headers: Record<string, string> = {};
  const cookie = options.cookie === undefined ? host.sessionCookie : options.cookie;
  if (cookie !== null) headers.cookie = cookie;
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
    // The e2e helpers and tools open exactly this address.
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

  it('exchanges the printed token, once the page is loaded with it, for an HttpOnly SameSite=Strict session cookie', async () => {
    const first = await get(`/?token=${host.token}`);
    expect(first.status).toBe(200);
    const setCookie = first.headers['set-cookie'] as string[];
    expect(setCookie).toHaveLength(1);
    const [pair, ...attributes] = setCookie[0]!.split(';').map((part) => part.trim());
    expect(pair).toBe(host.sessionCookie);
    expect(pair).toMatch(new RegExp(`^mentor_admin_session_${host.port}=[A-Za-z0-9_-]{32}$`));
    // The cookie is not the token: what the address carried is not what the page holds.
    expect(pair).not.toContain(host.token);
    expect(attributes.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
    expect(String(first.headers['referrer-policy'])).toBe('no-referrer');
    expect(String(first.headers['cache-control'])).toBe('no-store');
    // The printed address keeps working for the run (another browser, a second tab); a wrong token gets nothing.
    expect((await get(`/?token=${host.token}`)).headers['set-cookie']).toEqual(setCookie);
    expect((await get(`/?token=${'x'.repeat(32)}`)).headers['set-cookie']).toBeUndefined();
    expect((await get('/')).headers['set-cookie']).toBeUndefined();
  });

  it('tells the page whether it holds the session cookie', async () => {
    expect((await get('/session', { cookie: host.sessionCookie })).status).toBe(204);
    expect((await get('/session', { cookie: `other=1; ${host.sessionCookie}` })).status).toBe(204);
    expect((await get('/session')).status).toBe(401);
    expect((await get('/session', { cookie: `${host.sessionCookie.split('=')[0]}=${'x'.repeat(32)}` })).status).toBe(
      401,
    );
    // The token itself is no session.
    expect((await get(`/session?token=${host.token}`)).status).toBe(401);
    expect(
      (await get('/session', { cookie: `mentor_admin_session_1=${host.sessionCookie.split('=')[1]}` })).status,
    ).toBe(401);
  });

  it.each([
    ['no session cookie', { cookie: null }, 'HTTP 401'],
    ['a wrong session cookie', { cookie: `mentor_admin_session_1=${'x'.repeat(32)}` }, 'HTTP 401'],
    ['the token but no cookie (the token opens nothing but the page)', { cookie: null, token: 'TOKEN' }, 'HTTP 401'],
    ['another Origin', { origin: 'http://evil.example' }, 'HTTP 403'],
    ['no Origin', { origin: null }, 'HTTP 403'],
    ['a foreign Host', { host: 'evil.example' }, 'HTTP 403'],
  ])('refuses a bridge connection with %s', async (_label, options, message) => {
    const withToken = 'token' in options ? { ...options, token: host.token } : options;
    await expect(connect(withToken)).rejects.toThrow(message);
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
      payload: {
        theme: 'dark',
        notifyNewTickets: false,
        notifyJobEnds: true,
        navigation: 'auto',
        formatLocale: 'system',
        jobWaitLimitMinutes: 60,
      },
    });
    ws.close();
  });
});
