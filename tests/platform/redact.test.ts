import { describe, expect, it } from 'vitest';
import {
  createPlatformClient,
  redactHeaders,
  scrubSecrets,
  testConnection,
  unwrap,
} from '../../src/main/engine/platform';
import { redact } from '../../src/main/engine/log';
import { closedPort, sendJson, startServer } from './test-server';

const SECRET = 'sk-live-THIS-MUST-NEVER-BE-LOGGED-9f8e7d';

describe('redaction', () => {
  it('redacts credentials in headers and keeps the rest', () => {
    const safe = redactHeaders({
      Authorization: `Api-Key ${SECRET}`,
      Cookie: 'sessionid=abc',
      'Content-Type': 'application/json',
    });
    expect(safe).toEqual({
      authorization: 'Api-Key [REDACTED]',
      cookie: '[REDACTED]',
      'content-type': 'application/json',
    });
    expect(redactHeaders({ authorization: SECRET }).authorization).toBe('[REDACTED]');
  });

  it('scrubs a known secret from any log line', () => {
    const lines: string[] = [];
    const log = scrubSecrets((line) => lines.push(line), [SECRET, 'tok-2-second-secret'])!;
    log(`oops ${SECRET} leaked`);
    log(`${SECRET}${SECRET} and tok-2-second-secret at the end: tok-2-second-secret`);
    log('a line with no secret in it');
    expect(lines).toEqual([
      'oops [REDACTED] leaked',
      '[REDACTED][REDACTED] and [REDACTED] at the end: [REDACTED]',
      'a line with no secret in it',
    ]);
  });

  it("redacts every log line's credentials, in any case, and leaves a line without them as it is", () => {
    expect(redact(`GET /x headers={"authorization":"Api-Key ${SECRET}"}`)).toBe(
      'GET /x headers={"authorization":"Api-Key [redacted]"}',
    );
    expect(redact(`AUTHORIZATION: Bearer ${SECRET}`)).toBe('AUTHORIZATION: Bearer [redacted]');
    expect(redact(`Authorization=${SECRET}`)).toBe('Authorization= [redacted]');
    expect(redact(`GET /a?Token=${SECRET}&page=2`)).toBe('GET /a?Token=[redacted]&page=2');
    expect(redact(`GET /a?page=2&KEY=${SECRET}`)).toBe('GET /a?page=2&KEY=[redacted]');
    expect(redact(`GET /a?api_key=${SECRET} -> 200`)).toBe('GET /a?api_key=[redacted] -> 200');
    expect(redact(`said ${SECRET} twice: ${SECRET}`, [SECRET])).toBe('said [redacted] twice: [redacted]');
    const plain = 'PUT /api/x/ (attempt 1/3) -> 200 OK in 4 ms';
    expect(redact(plain)).toBe(plain);
  });

  it('never writes the secret to the log, whatever happens to the requests', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const server = await startServer((req, res, { index }) => {
      if (index === 0) sendJson(res, 503, { detail: `echo ${req.headers.authorization}` });
      else if (index === 1) req.socket.destroy();
      else if (index === 2) sendJson(res, 200, { results: [] });
      else sendJson(res, 401, { detail: 'Invalid token.' });
    });

    for (const authScheme of ['Api-Key', 'Bearer'] as const) {
      const client = createPlatformClient({
        baseUrl: `${server.url}/dm`,
        authScheme,
        secret: SECRET,
        retry: { baseDelayMs: 1, maxDelayMs: 5 },
        log,
      });
      if (authScheme === 'Api-Key') {
        await unwrap(
          client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
            params: { path: { org: 'acme', user_id: 'alice' } },
          }),
        );
      }
      await expect(client.request('/api/denied/')).rejects.toThrow('Unauthorized');
    }
    const unreachable = createPlatformClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      authScheme: 'Token',
      secret: SECRET,
      retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 },
      log,
    });
    await expect(unreachable.request('/api/x/')).rejects.toThrow(/ECONNREFUSED/);
    await testConnection({
      baseUrl: server.url,
      authScheme: 'Api-Token',
      secret: SECRET,
      org: 'acme',
      username: 'alice',
      log,
    });

    expect(lines.length).toBeGreaterThan(8);
    expect(lines.some((line) => line.includes('Api-Key [REDACTED]'))).toBe(true);
    expect(lines.some((line) => line.includes('retrying'))).toBe(true);
    const leaks = lines.filter((line) => line.includes(SECRET) || line.includes(SECRET.slice(8, 30)));
    expect(leaks).toEqual([]);
  });
});
