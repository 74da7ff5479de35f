/**
 * The sandbox's HTTP layer refuses what a DNS-rebinding page sends (a Host naming the attacker's domain) and answers
 * malformed requests (a bad `%` escape in a path parameter, a malformed Host) with 400, never 500.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isAllowedSandboxHost, parseHostHeader } from '../../src/server/http/host';
import { sandbox } from '../helpers/sandbox';

/** A raw request, so the Host header and the path go out exactly as written. */
function raw(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('isAllowedSandboxHost', () => {
  it.each([
    '127.0.0.1:8000',
    '127.0.0.1',
    'localhost:8000',
    'LOCALHOST:8000',
    '[::1]:8000',
    '[::1]',
    '192.168.1.20:8000', // the machine by address, e.g. through a port mapping
  ])('serves %s', (host) => {
    expect(isAllowedSandboxHost(host, '127.0.0.1')).toBe(true);
  });

  it.each([
    'rebind.attacker.example:8000',
    'rebind.attacker.example',
    'localhost.attacker.example:8000',
    '127.0.0.1.attacker.example:8000',
    'localhost.:8000',
    '',
    undefined,
    'a b',
    '127.0.0.1:',
    '127.0.0.1:99999',
    '127.0.0.1:0',
    '127.0.0.1:80:80',
    '[::1',
    '[not-v6]:80',
    'user@127.0.0.1',
    '127.0.0.1/path',
  ])('refuses %s', (host) => {
    expect(isAllowedSandboxHost(host, '127.0.0.1')).toBe(false);
  });

  it('serves the name it was told to listen on, and no other', () => {
    expect(isAllowedSandboxHost('sandbox.internal:8000', 'sandbox.internal')).toBe(true);
    expect(isAllowedSandboxHost('other.internal:8000', 'sandbox.internal')).toBe(false);
  });

  it('parses name, port and bracketed IPv6', () => {
    expect(parseHostHeader('Example.org:81')).toEqual({ hostname: 'example.org', port: 81 });
    expect(parseHostHeader('[::1]:9')).toEqual({ hostname: '[::1]', port: 9 });
    expect(parseHostHeader('[::1]')).toEqual({ hostname: '[::1]' });
  });
});

describe('the sandbox over HTTP', () => {
  it('refuses a rebinding Host with 400 on an open route and serves the same request by address', async () => {
    const server = await sandbox();
    const path = '/_sandbox/health';
    expect(await raw(server.port, path, { host: `127.0.0.1:${server.port}` })).toMatchObject({ status: 200 });
    expect(await raw(server.port, path, { host: `localhost:${server.port}` })).toMatchObject({ status: 200 });
    const rebound = await raw(server.port, path, { host: `rebind.attacker.example:${server.port}` });
    expect(rebound.status).toBe(400);
    expect(JSON.parse(rebound.body)).toEqual({ detail: 'Bad request' });
  });

  it.each([['a b'], ['[::1'], ['127.0.0.1:99999'], ['']])(
    'answers 400, not 500, to the malformed Host %j',
    async (host) => {
      const server = await sandbox();
      expect((await raw(server.port, '/_sandbox/health', { host })).status).toBe(400);
    },
  );

  it('answers 400, not 500, to a malformed % escape in a path parameter', async () => {
    const server = await sandbox();
    const headers = { host: `127.0.0.1:${server.port}`, authorization: `Api-Key ${server.apiKey}` };
    for (const org of ['%E0%A4%A', '50%', '%zz']) {
      const answer = await raw(server.port, `/api/ai-account/orgs/${org}/credential/?name=llm`, headers);
      expect(answer.status, org).toBe(400);
      expect(JSON.parse(answer.body), org).toEqual({ detail: 'Bad request' });
    }
    // A well-formed escape still routes (and finds no such org).
    const escaped = await raw(server.port, `/api/ai-account/orgs/no%20such/credential/?name=llm`, headers);
    expect(escaped.status).toBe(404);
  });
});
