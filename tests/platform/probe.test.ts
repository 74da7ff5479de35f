import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProfileTestResult } from '../../src/shared/contract';
import { RequestAbortedError, testConnection, type ProbeConnection } from '../../src/main/engine/platform';
import { closedPort, sendJson, startServer, type Handler } from './test-server';

const PROBE_PATH = '/api/ai-mentor/orgs/acme/users/alice/?page=1&page_size=1';

function connection(baseUrl: string, extra: Partial<ProbeConnection> = {}): ProbeConnection {
  return {
    baseUrl,
    authScheme: 'Api-Key',
    secret: 'probe-secret',
    org: 'acme',
    username: 'alice',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  };
}

async function probeAgainst(handler: Handler, extra: Partial<ProbeConnection> = {}) {
  const server = await startServer(handler);
  const result = await testConnection(connection(server.url, extra), { timeoutMs: 2_000 });
  return { server, result };
}

/** Every result must satisfy the contract and tell the user what to do next. */
function expectWellFormed(result: ProfileTestResult) {
  expect(ProfileTestResult.parse(result)).toEqual(result);
  expect(result.message.trim()).not.toBe('');
  expect(result.hint.trim()).not.toBe('');
  expect(result.ok).toBe(result.outcome === 'ok');
}

describe('testConnection', () => {
  it('reports ok for a JSON answer and calls the mentors list with page_size=1', async () => {
    const { server, result } = await probeAgainst((_req, res) =>
      sendJson(res, 200, { count: 0, next: null, previous: null, results: [] }),
    );
    expectWellFormed(result);
    expect(result).toMatchObject({ outcome: 'ok', ok: true, status: 200, message: 'Connected to acme as alice.' });
    expect(result.url).toBe(`${server.url}${PROBE_PATH}`);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: PROBE_PATH });
    expect(server.requests[0]!.headers.authorization).toBe('Api-Key probe-secret');
  });

  it('URL-encodes org and username and keeps the path prefix', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, { results: [] }));
    const result = await testConnection(connection(`${server.url}/dm/`, { org: 'a+b', username: 'ann@example.org' }));
    expect(result.outcome).toBe('ok');
    const expectedPath = '/dm/api/ai-mentor/orgs/a%2Bb/users/ann%40example.org/?page=1&page_size=1';
    expect(server.requests[0]!.url).toBe(expectedPath);
    expect(result.url).toBe(`${server.url}${expectedPath}`);
  });

  it.each([
    [401, 'auth_failed', /auth scheme/],
    [403, 'forbidden', /tenant admin/],
    [404, 'not_found', /path prefix/],
    [500, 'server_error', /try again/i],
  ] as const)('maps %i to %s', async (status, outcome, hint) => {
    const { result } = await probeAgainst((_req, res) => sendJson(res, status, { detail: 'server says why' }));
    expectWellFormed(result);
    expect(result).toMatchObject({ outcome, ok: false, status });
    expect(result.hint).toMatch(hint);
    expect(result.message).toContain('server says why');
  });

  it('reports unexpected for a 2xx HTML page (wrong base URL or prefix)', async () => {
    const { result } = await probeAgainst((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Home</title>'),
    );
    expectWellFormed(result);
    expect(result).toMatchObject({ outcome: 'unexpected', status: 200 });
    expect(result.message).toContain('HTML');
    expect(result.hint).toMatch(/path prefix/);
  });

  it('reports unreachable for a closed port', async () => {
    const result = await testConnection(connection(`http://127.0.0.1:${await closedPort()}`));
    expectWellFormed(result);
    expect(result.outcome).toBe('unreachable');
    expect(result.message).toContain('ECONNREFUSED');
    expect(result.status).toBeUndefined();
  });

  it('reports timeout when the server does not answer in time', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const started = performance.now();
    const result = await testConnection(connection(server.url), { timeoutMs: 150 });
    expectWellFormed(result);
    expect(result.outcome).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('without a key checks the address, TLS and path with no Authorization header, and says the sign-in is untested', async () => {
    const server = await startServer((_req, res) =>
      sendJson(res, 401, { detail: 'Authentication credentials were not provided.' }),
    );
    for (const secret of [null, '', '  ']) {
      const result = await testConnection(connection(server.url, { secret }));
      expectWellFormed(result);
      expect(result).toMatchObject({ outcome: 'no_secret', ok: false, status: 401 });
      expect(result.message).toMatch(
        /answers at this address .*host name, TLS and the path are right.*No key was sent/,
      );
      expect(result.hint).toMatch(/Enter the API key/);
      expect(result.url).toBe(`${server.url}${PROBE_PATH}`);
    }
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) expect(request.headers.authorization).toBeUndefined();
    // A wrong path or a closed port says so without a key too.
    const missing = await startServer((_req, res) => sendJson(res, 404, { detail: 'Not Found' }));
    expect((await testConnection(connection(missing.url, { secret: null }))).outcome).toBe('not_found');
    const closed = await testConnection(connection(`http://127.0.0.1:${await closedPort()}`, { secret: null }));
    expect(closed.outcome).toBe('unreachable');
  });

  it('reports unexpected for a base URL that is not a URL', async () => {
    const result = await testConnection(connection('api.example.org/dm'));
    expectWellFormed(result);
    expect(result.outcome).toBe('unexpected');
    expect(result.hint).toMatch(/https:\/\//);
  });

  it('rethrows a cancel instead of reporting a verdict', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(testConnection(connection(server.url), { signal: controller.signal })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
  });
});

describe('testConnection over TLS', () => {
  const certDir = mkdtempSync(join(tmpdir(), 'mentor-admin-tls-'));
  afterAll(() => rmSync(certDir, { recursive: true, force: true }));

  /** A throwaway self-signed certificate for 127.0.0.1, made offline with Debian's openssl. */
  function selfSignedCert() {
    const key = join(certDir, 'key.pem');
    const cert = join(certDir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  }

  let hasOpenssl = true;
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    hasOpenssl = false;
  }

  it.skipIf(!hasOpenssl)('reports tls_error for a self-signed certificate', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}), selfSignedCert());
    const result = await testConnection(connection(server.url));
    expectWellFormed(result);
    expect(result.outcome).toBe('tls_error');
    expect(result.message).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(result.hint).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(server.requests).toHaveLength(0);
  });
});
