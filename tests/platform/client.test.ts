import { defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { templatePathSerializer } from '../../src/main/engine/platform/client';
import { AUTH_SCHEMES } from '../../src/shared/contract';
import {
  ApiError,
  createPlatformClient,
  joinUrl,
  toMultipart,
  UnexpectedResponseError,
  unwrap,
  type PlatformClient,
} from '../../src/main/engine/platform';
import { parseMultipart, sendJson, startServer } from './test-server';

const MENTORS = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
const mentorParams = { path: { org: 'acme', user_id: 'alice' }, query: { page: 1, page_size: 1 } };

function clientFor(baseUrl: string, extra: Partial<Parameters<typeof createPlatformClient>[0]> = {}) {
  return createPlatformClient({
    baseUrl,
    authScheme: 'Api-Key',
    secret: 'k',
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 1 },
    ...extra,
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('what the engine hands its areas', () => {
  it('is the typed API only: the untyped request by path is platform/’s (and tests’)', () => {
    const made = createPlatformClient({ baseUrl: 'https://tenant.example.org', authScheme: 'Api-Key', secret: 'k' });
    expect(typeof made.request).toBe('function');
    const handed: PlatformClient = made;
    expect(Object.keys(handed)).toEqual(expect.arrayContaining(['api', 'baseUrl']));
    // @ts-expect-error -- an area (and a job's ctx.client()) gets a PlatformClient, which has no request(path).
    void handed.request;
  });
});

describe('error catalogue', () => {
  const catalogue: [number, string][] = [
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
  ];

  it.each(catalogue)('status %i gives ApiError %j with url, status, status text and body', async (status, message) => {
    const server = await startServer((_req, res) => sendJson(res, status, { detail: `why ${status}` }));
    const { api } = clientFor(server.url);

    const error = await rejectionOf(unwrap(api.GET(MENTORS, { params: mentorParams })));
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe(message);
    expect(apiError.status).toBe(status);
    expect(apiError.statusText).toBe(message);
    expect(apiError.url).toBe(`${server.url}/api/ai-mentor/orgs/acme/users/alice/?page=1&page_size=1`);
    expect(apiError.body).toEqual({ detail: `why ${status}` });
    expect(apiError.detail).toBe(`why ${status}`);
  });

  it('gives the generic message for a status outside the catalogue', async () => {
    const body = { detail: 'short and stout' };
    const server = await startServer((_req, res) => sendJson(res, 418, body));

    const error = (await rejectionOf(clientFor(server.url).request('/api/teapot/'))) as ApiError;
    expect(error.message).toBe(
      `Generic Error: status: 418; status text: I'm a Teapot; body: ${JSON.stringify(body, null, 2)}`,
    );
    expect(error.status).toBe(418);
    expect(error.detail).toBe('short and stout');
  });

  it('keeps a text body and has no detail when the server sends none', async () => {
    const server = await startServer((_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom'));
    const error = (await rejectionOf(clientFor(server.url).request('/api/x/'))) as ApiError;
    expect(error.message).toBe('Internal Server Error');
    expect(error.body).toBe('boom');
    expect(error.detail).toBeUndefined();
  });

  it('carries Retry-After on the error when the server gave one', async () => {
    const server = await startServer((_req, res) => sendJson(res, 429, {}, { 'Retry-After': '30' }));
    const error = (await rejectionOf(clientFor(server.url).request('/api/x/', { maxAttempts: 1 }))) as ApiError;
    expect(error.message).toMatch(/^Generic Error: status: 429; status text: Too Many Requests/);
    expect(error.retryAfterMs).toBe(30_000);
  });

  it("throws the typed API's failed answers where the call was made, with a text body, none, or any way of reading", async () => {
    const server = await startServer((req, res) => {
      if (req.url!.includes('page=1&')) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
      else if (req.url!.includes('page=2&')) res.writeHead(404).end();
      else sendJson(res, 403, { detail: 'not yours' });
    });
    const { api } = clientFor(server.url);
    const page = (n: number) => ({ params: { ...mentorParams, query: { page: n, page_size: 1 } } });
    const text = (await rejectionOf(api.GET(MENTORS, page(1)))) as ApiError;
    expect([text.status, text.message, text.body, text.detail]).toEqual([
      500,
      'Internal Server Error',
      'boom',
      undefined,
    ]);
    const empty = (await rejectionOf(api.GET(MENTORS, page(2)))) as ApiError;
    expect([empty.status, empty.message, empty.body]).toEqual([404, 'Not Found', undefined]);
    const blob = (await rejectionOf(api.GET(MENTORS, { ...page(3), parseAs: 'blob' }))) as ApiError;
    expect([blob instanceof ApiError, blob.status, blob.detail]).toEqual([true, 403, 'not yours']);
  });

  it('turns a 2xx HTML page into UnexpectedResponseError instead of a JSON SyntaxError', async () => {
    const server = await startServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>'));
    const error = await rejectionOf(unwrap(clientFor(server.url).api.GET(MENTORS, { params: mentorParams })));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain('text/html');
  });

  it('turns a 2xx JSON answer that does not parse into UnexpectedResponseError naming the address', async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"results": ['),
    );
    const error = await rejectionOf(clientFor(server.url).api.GET(MENTORS, { params: mentorParams }));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain(`${server.url}/api/ai-mentor/orgs/acme/users/alice/`);
  });
});

describe('urls and headers', () => {
  it('keeps a base URL path prefix such as /dm, without double slashes', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, { results: [] }));

    await unwrap(clientFor(`${server.url}/dm`).api.GET(MENTORS, { params: mentorParams }));
    await unwrap(clientFor(`${server.url}/dm/`).api.GET(MENTORS, { params: mentorParams }));
    await clientFor(`${server.url}/dm//`).request('/api/core/thing/', { query: { tag: ['a', 'b'], skip: null } });

    expect(server.requests.map((request) => request.url)).toEqual([
      '/dm/api/ai-mentor/orgs/acme/users/alice/?page=1&page_size=1',
      '/dm/api/ai-mentor/orgs/acme/users/alice/?page=1&page_size=1',
      '/dm/api/core/thing/?tag=a&tag=b',
    ]);
  });

  it('joins URLs with exactly one slash', () => {
    expect(joinUrl('https://h/dm/', '/api/x/')).toBe('https://h/dm/api/x/');
    expect(joinUrl('https://h', 'api/x/', { page: 2 })).toBe('https://h/api/x/?page=2');
  });

  it.each(AUTH_SCHEMES)('sends Authorization with the %s scheme', async (scheme) => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const client = clientFor(server.url, { authScheme: scheme, secret: 'secret-123' });

    await unwrap(client.api.GET(MENTORS, { params: mentorParams }));
    await client.request('/api/other/');

    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      `${scheme} secret-123`,
      `${scheme} secret-123`,
    ]);
  });

  it('asks for JSON unless the call asks for something else', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const { api } = clientFor(server.url);
    await api.GET(MENTORS, { params: mentorParams });
    await api.GET(MENTORS, { params: mentorParams, headers: { Accept: 'text/csv' }, parseAs: 'text' });
    expect(server.requests.map((request) => request.headers.accept)).toEqual(['application/json', 'text/csv']);
  });

  it("fills path templates as openapi-fetch's own serializer does, each template split once", () => {
    const serialize = templatePathSerializer();
    const cases: [string, Record<string, unknown>][] = [
      ['https://h/dm/api/orgs/{org}/users/{user_id}/', { org: 'acme', user_id: 'ada lovelace/ü?#' }],
      ['https://h/api/orgs/{org}/users/{user_id}/', { org: 'acme', user_id: 'bob' }],
      ['https://h/api/{org}/{org}/x/{id}', { org: 'a&b', id: 7 }],
      ['https://h/api/{org}/items/{id}/', { org: 'acme' }],
      ['https://h/api/{org}/items/{id}/', { org: null, id: false }],
      ['https://h/api/{org}/items/{id}/', { org: 'x{id}y', id: 3 }],
      ['https://h/api/{org}/tags/{tags}/', { org: 'acme', tags: ['a', 'b'] }],
      ['https://h/api/{org}/filter/{f}/', { org: 'acme', f: { role: 'admin' } }],
      ['https://h/api/{.label}/{;matrix}/{list*}', { label: 'l', matrix: 'm', list: ['a', 'b'] }],
      ['https://h/api/no-params/', { org: 'acme' }],
    ];
    for (const [path, params] of cases) {
      expect(serialize(path, params)).toBe(defaultPathSerializer(path, params));
      expect(serialize(path, params)).toBe(defaultPathSerializer(path, params));
    }
  });

  it('sends no Authorization header without a secret', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    await unwrap(clientFor(server.url, { secret: null }).api.GET(MENTORS, { params: mentorParams }));
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('keeps two profiles apart', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const first = clientFor(`${server.url}/one`, { authScheme: 'Token', secret: 'first-secret' });
    const second = clientFor(`${server.url}/two`, { authScheme: 'Bearer', secret: 'second-secret' });

    await Promise.all([first.request('/api/a/'), second.request('/api/b/'), first.request('/api/c/')]);

    const seen = server.requests.map((request) => `${request.url} ${request.headers.authorization}`).sort();
    expect(seen).toEqual([
      '/one/api/a/ Token first-secret',
      '/one/api/c/ Token first-secret',
      '/two/api/b/ Bearer second-secret',
    ]);
  });
});

describe('bodies', () => {
  it('sends JSON bodies as JSON', async () => {
    const server = await startServer((_req, res) => sendJson(res, 201, { id: 1 }));
    const created = await unwrap(
      clientFor(server.url).api.POST(MENTORS, {
        params: { path: { org: 'acme', user_id: 'alice' } },
        body: { name: 'Tutor', flags: [1, 2] } as never,
      }),
    );
    expect(created).toEqual({ id: 1 });
    expect(server.requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[0]!.body.toString())).toEqual({ name: 'Tutor', flags: [1, 2] });
  });

  it('builds multipart bodies like the vendor SDK: repeated arrays, files, JSON for the rest', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0) sendJson(res, 503, {});
      else sendJson(res, 200, { document_id: 7 });
    });
    const client = clientFor(server.url, { retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 } });
    const fields = {
      file: new File(['hello world'], 'notes.txt', { type: 'text/plain' }),
      pathway: 'b7a2c6e0-0000-4000-8000-000000000001',
      type: 'txt',
      tags: ['alpha', 'beta'],
      custom_metadata: { source: 'drop' },
      train: true,
      skipped: null,
      missing: undefined,
    };

    // A PUT is repeated by the client itself (an upload to `train/` is repeated by the train job instead).
    const { data } = await client.api.PUT('/api/ai-index/orgs/{org}/users/{user_id}/documents/{document_id}/', {
      params: { path: { org: 'acme', user_id: 'alice', document_id: '7' } },
      body: fields as never,
      bodySerializer: toMultipart,
    });

    expect(data).toEqual({ document_id: 7 });
    expect(server.requests).toHaveLength(2);
    for (const recorded of server.requests) {
      expect(recorded.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const form = await parseMultipart(recorded);
      expect(form.getAll('tags')).toEqual(['alpha', 'beta']);
      expect(form.get('pathway')).toBe(fields.pathway);
      expect(form.get('custom_metadata')).toBe('{"source":"drop"}');
      expect(form.get('train')).toBe('true');
      expect(form.has('skipped')).toBe(false);
      expect(form.has('missing')).toBe(false);
      const file = form.get('file') as File;
      expect(file.name).toBe('notes.txt');
      expect(await file.text()).toBe('hello world');
    }
  });

  it('resends a FormData body given to request() on retry', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0) sendJson(res, 502, {});
      else sendJson(res, 200, {});
    });
    const client = clientFor(server.url, { retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 2 } });
    await client.request('/api/upload/', { method: 'POST', body: toMultipart({ ids: [1, 2] }) });
    const forms = await Promise.all(server.requests.map(parseMultipart));
    expect(forms.map((form) => form.getAll('ids'))).toEqual([
      ['1', '2'],
      ['1', '2'],
    ]);
  });
});
