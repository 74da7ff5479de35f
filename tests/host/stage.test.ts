/**
 * Browser-mode staging: the page uploads dropped files to the host, which writes them under the data folder for
 * `train.preview`. Every refusal the bridge's WebSocket makes (session cookie, Origin, Host) applies here too, plus safe
 * paths and size caps.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';

const MAX_FILE = 64 * 1024;
const MAX_STAGING = 160 * 1024;

let host: Host;
let dataDir: string;
let stagingRoot: string;
let staleDir: string;
let freshDir: string;

beforeAll(async () => {
  requireKeychainSession();
  dataDir = tempDir();
  stagingRoot = join(dataDir, 'staging');
  // Left over from earlier runs: one two days old, one from an hour ago.
  staleDir = join(stagingRoot, 'stale-staging-1');
  freshDir = join(stagingRoot, 'fresh-staging-1');
  for (const dir of [staleDir, freshDir]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.txt'), 'old');
  }
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
  utimesSync(staleDir, twoDaysAgo, twoDaysAgo);
  const rendererDir = tempDir();
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
  host = await startHost({
    dataDir,
    rendererDir,
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_SANDBOX: 'off' },
    staging: { maxFileBytes: MAX_FILE, maxStagingBytes: MAX_STAGING },
  });
});
afterAll(() => host?.close());

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

interface SendOptions {
  /** The Cookie header; the page's session cookie unless given (null: none). */
  cookie?: string | null;
  /** A token in the query string, as the printed address carries it. */
  token?: string;
  origin?: string | null;
  host?: string;
  body?: Buffer | string;
  /** Send the body without a Content-Length (chunked), as a stream of this many equal chunks. */
  chunks?: number;
}

/** A raw request: the path goes out exactly as written, with no URL normalisation on the way. */
function send(method: string, path: string, options: SendOptions = {}, to: Host = host): Promise<Answer> {
  const host = to;
  const fullPath = options.token === undefined ? path : `${path}?token=${encodeURIComponent(options.token)}`;
  const headers: Record<string, string> = { host: options.host ?? `127.0.0.1:${host.port}` };
  const cookie = options.cookie === undefined ? host.sessionCookie : options.cookie;
  if (cookie !== null) headers.cookie = cookie;
  const origin = options.origin === undefined ? host.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  if (body && !options.chunks) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, method, path: fullPath, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: parseBody(text) }));
    });
    // A refused upload may close the connection while the body is still going out; the answer still arrives.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (body && options.chunks) {
      const size = Math.ceil(body.length / options.chunks);
      for (let offset = 0; offset < body.length; offset += size) req.write(body.subarray(offset, offset + size));
    } else if (body) req.write(body);
    req.end();
  });
}

/** JSON from the staging endpoint; the host's own Host check answers in plain text. */
function parseBody(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text || '{}') as Record<string, unknown>;
  } catch {
    return { error: text };
  }
}

const stagingId = () => `stage-${Math.random().toString(36).slice(2, 12)}`;

describe('browser-mode staging', () => {
  it('stages nested files with spaces, accents and emoji, and answers handles of the top-level entries for train.preview', async () => {
    const id = stagingId();
    const files = {
      'Course notes/Week 1/intro café.md': '# Intro\n',
      'Course notes/Week 1/📚 reading.txt': 'read this',
      'Course notes/empty.txt': '',
      'syllabus.html': '<h1>Syllabus</h1>',
    };
    for (const [path, content] of Object.entries(files)) {
      const encoded = path.split('/').map(encodeURIComponent).join('/');
      const answer = await send('POST', `/stage/${id}/files/${encoded}`, { body: content });
      expect(answer, path).toEqual({ status: 200, body: { ok: true, path, bytes: Buffer.byteLength(content) } });
    }
    const done = await send('POST', `/stage/${id}/done`);
    expect(done.status).toBe(200);
    const dir = join(stagingRoot, id);
    const handle = expect.stringMatching(/^fh_[A-Za-z0-9_-]{43}$/);
    expect(done.body).toEqual({
      entries: [
        { handle, name: 'Course notes', path: join(dir, 'Course notes') },
        { handle, name: 'syllabus.html', path: join(dir, 'syllabus.html') },
      ],
      files: 4,
      bytes: Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content), 0),
    });
    for (const [path, content] of Object.entries(files)) {
      expect(readFileSync(join(dir, ...path.split('/')), 'utf8')).toBe(content);
    }
  });

  it('streams a chunked upload to disk up to the cap', async () => {
    const id = stagingId();
    const body = Buffer.alloc(MAX_FILE, 7);
    const answer = await send('POST', `/stage/${id}/files/big.bin`, { body, chunks: 16 });
    expect(answer).toEqual({ status: 200, body: { ok: true, path: 'big.bin', bytes: MAX_FILE } });
    expect(readFileSync(join(stagingRoot, id, 'big.bin')).equals(body)).toBe(true);
  });

  it.each([
    ['no session cookie', { cookie: null }, 401],
    ['a wrong session cookie', { cookie: `mentor_admin_session_1=${'x'.repeat(32)}` }, 401],
    ['the printed token but no cookie', { cookie: null, token: 'TOKEN' }, 401],
    ['another Origin', { origin: 'http://evil.example' }, 403],
    ['a look-alike Origin', { origin: 'http://127.0.0.1:1' }, 403],
    ['no Origin', { origin: null }, 403],
    ['a foreign Host', { host: 'evil.example' }, 403],
  ] as const)('refuses an upload with %s and writes nothing', async (_label, options, status) => {
    const id = stagingId();
    const sent = 'token' in options ? { ...options, token: host.token } : options;
    const answer = await send('POST', `/stage/${id}/files/a.txt`, { ...sent, body: 'hello' });
    expect(answer.status).toBe(status);
    expect(typeof answer.body.error).toBe('string');
    expect(existsSync(join(stagingRoot, id))).toBe(false);
  });

  it.each([
    ['..', '../../outside.txt'],
    ['encoded ..', '%2e%2e/%2e%2e/outside.txt'],
    ['.. in the middle', 'a/../../outside.txt'],
    ['an encoded slash', '..%2F..%2Foutside.txt'],
    ['a backslash', '..%5C..%5Coutside.txt'],
    ['an absolute path', '%2Fetc%2Fpasswd'],
    ['an empty segment', 'a//b.txt'],
    ['a NUL byte', 'a%00.txt'],
    ['a drive letter', 'C%3A%5Cwindows.txt'],
    ['bad encoding', '%E0%A4%A.txt'],
  ])('refuses a path with %s', async (_label, path) => {
    const id = stagingId();
    const answer = await send('POST', `/stage/${id}/files/${path}`, { body: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/path|encoding/i);
    expect(existsSync(join(stagingRoot, id))).toBe(false);
    expect(existsSync(join(stagingRoot, 'outside.txt'))).toBe(false);
    expect(existsSync(join(dataDir, 'outside.txt'))).toBe(false);
  });

  it('refuses an unknown staging id', async () => {
    for (const id of ['short', 'a'.repeat(65), 'bad%2Fid1234', 'bad.id.1234']) {
      expect((await send('POST', `/stage/${id}/files/a.txt`, { body: 'x' })).status, id).toBe(400);
    }
  });

  it('refuses a file over the cap by its Content-Length, before reading it', async () => {
    const id = stagingId();
    const answer = await send('POST', `/stage/${id}/files/huge.bin`, { body: Buffer.alloc(MAX_FILE + 1) });
    expect(answer).toEqual({ status: 413, body: { error: expect.stringMatching(/cannot be staged/) } });
    expect(existsSync(join(stagingRoot, id, 'huge.bin'))).toBe(false);
  });

  it('stops a chunked upload that grows past the cap and leaves no partial file', async () => {
    const id = stagingId();
    await send('POST', `/stage/${id}/files/keep.txt`, { body: 'keep' });
    const answer = await send('POST', `/stage/${id}/files/huge.bin`, { body: Buffer.alloc(MAX_FILE * 2), chunks: 32 });
    expect(answer.status).toBe(413);
    expect(readdirSync(join(stagingRoot, id))).toEqual(['keep.txt']);
  });

  it('refuses what would take one staging over its total cap', async () => {
    const id = stagingId();
    const chunk = Buffer.alloc(MAX_FILE, 1);
    expect((await send('POST', `/stage/${id}/files/1.bin`, { body: chunk })).status).toBe(200);
    expect((await send('POST', `/stage/${id}/files/2.bin`, { body: chunk })).status).toBe(200);
    const third = await send('POST', `/stage/${id}/files/3.bin`, { body: chunk });
    expect(third).toEqual({ status: 413, body: { error: expect.stringMatching(/at most/) } });
    // Another drop has its own budget.
    expect((await send('POST', `/stage/${stagingId()}/files/1.bin`, { body: chunk })).status).toBe(200);
  });

  it('answers 409 when a file and a folder would share a name', async () => {
    const id = stagingId();
    expect((await send('POST', `/stage/${id}/files/notes`, { body: 'file' })).status).toBe(200);
    expect((await send('POST', `/stage/${id}/files/notes/a.txt`, { body: 'x' })).status).toBe(409);
  });

  it('answers 404 for done when nothing was staged, 405 for other methods, and forgets a staging on DELETE', async () => {
    const id = stagingId();
    expect((await send('POST', `/stage/${id}/done`)).status).toBe(404);
    expect((await send('GET', `/stage/${id}/files/a.txt`)).status).toBe(405);
    expect((await send('PUT', `/stage/${id}/files/a.txt`, { body: 'x' })).status).toBe(405);
    await send('POST', `/stage/${id}/files/a.txt`, { body: 'x' });
    expect(existsSync(join(stagingRoot, id, 'a.txt'))).toBe(true);
    expect((await send('DELETE', `/stage/${id}`, { cookie: null })).status).toBe(401);
    expect(await send('DELETE', `/stage/${id}`)).toEqual({ status: 200, body: { ok: true } });
    expect(existsSync(join(stagingRoot, id))).toBe(false);
  });

  it('removed staging folders older than a day when it started, and kept recent ones', () => {
    expect(existsSync(staleDir)).toBe(false);
    expect(existsSync(join(freshDir, 'a.txt'))).toBe(true);
  });
});

describe('the staging folder as a whole', () => {
  const MAX_TOTAL = 200 * 1024;
  let capped: Host;
  let root: string;
  let earlier: string;
  const chunk = Buffer.alloc(MAX_FILE, 3);
  const upload = (id: string, name: string, options: SendOptions = {}) =>
    send('POST', `/stage/${id}/files/${name}`, { body: chunk, ...options }, capped);

  beforeAll(async () => {
    const data = tempDir();
    root = join(data, 'staging');
    // An earlier run's drop, an hour old: it still counts.
    earlier = join(root, 'earlier-run-1');
    mkdirSync(earlier, { recursive: true });
    writeFileSync(join(earlier, 'notes.bin'), Buffer.alloc(100 * 1024, 1));
    const rendererDir = tempDir();
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Mentor Admin</title>');
    capped = await startHost({
      dataDir: data,
      rendererDir,
      keychainService: uniqueService(),
      env: { MENTOR_ADMIN_SANDBOX: 'off' },
      staging: { maxFileBytes: MAX_FILE, maxStagingBytes: MAX_STAGING, maxTotalBytes: MAX_TOTAL },
    });
  });
  afterAll(() => capped?.close());

  it("refuses an upload that would fill it past its cap, counting earlier runs' drops, and writes nothing", async () => {
    expect((await upload('drop-aaaaaaaa', 'a.bin')).status).toBe(200);
    const full = await upload('drop-bbbbbbbb', 'b.bin');
    expect(full).toEqual({
      status: 507,
      body: { error: expect.stringMatching(/^The staging folder is full: .* 164 KB of the 200 KB it may hold/) },
    });
    expect(existsSync(join(root, 'drop-bbbbbbbb', 'b.bin'))).toBe(false);
  });

  it('stops a chunked upload that would fill it, leaving no partial file', async () => {
    const answer = await upload('drop-bbbbbbbb', 'b.bin', { chunks: 16 });
    expect(answer.status).toBe(507);
    expect(readdirSync(join(root, 'drop-bbbbbbbb')).filter((name) => name.startsWith('b.bin'))).toEqual([]);
  });

  it('has room again once a drop is discarded', async () => {
    expect((await send('DELETE', '/stage/drop-aaaaaaaa', {}, capped)).status).toBe(200);
    expect((await upload('drop-bbbbbbbb', 'b.bin')).status).toBe(200);
  });

  it('clears drops over a day old to make room when it is full', async () => {
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(earlier, twoDaysAgo, twoDaysAgo);
    expect(existsSync(earlier)).toBe(true);
    expect((await upload('drop-cccccccc', 'c.bin')).status).toBe(200);
    expect(existsSync(earlier)).toBe(false);
    expect(existsSync(join(root, 'drop-bbbbbbbb', 'b.bin'))).toBe(true);
  });
});
