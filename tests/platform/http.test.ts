import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createPlatformClient,
  NetworkError,
  parseRetryAfter,
  RequestAbortedError,
  sendRequest,
  TimeoutError,
  type RetryEvent,
} from '../../src/main/engine/platform';
import { parseMultipart, sendJson, startServer } from './test-server';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

function clientFor(baseUrl: string, extra: Partial<Parameters<typeof createPlatformClient>[0]> = {}) {
  return createPlatformClient({ baseUrl, authScheme: 'Api-Key', secret: 'k', retry: FAST_RETRY, ...extra });
}

/** Settles with the rejection (or fails the test if the promise resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('retries', () => {
  it('retries a GET on 503 until it succeeds', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index < 2) sendJson(res, 503, { detail: 'busy' });
      else sendJson(res, 200, { ok: true });
    });
    const retries: RetryEvent[] = [];
    const client = clientFor(server.url, { onRetry: (event) => retries.push(event) });

    await expect(client.request('/api/thing/')).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(retries.map((event) => [event.attempt, event.status])).toEqual([
      [1, 503],
      [2, 503],
    ]);
  });

  it('gives up after maxAttempts and returns the last answer', async () => {
    const server = await startServer((_req, res) => sendJson(res, 503, { detail: 'down' }));
    const client = clientFor(server.url, { retry: { ...FAST_RETRY, maxAttempts: 3 } });

    const error = await rejectionOf(client.request('/api/thing/'));
    expect(error.message).toBe('Service Unavailable');
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0) sendJson(res, 429, { detail: 'slow down' }, { 'Retry-After': '1' });
      else sendJson(res, 200, { ok: true });
    });
    const started = performance.now();
    await expect(clientFor(server.url).request('/api/thing/')).resolves.toEqual({ ok: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('caps Retry-After at maxRetryAfterMs', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0) sendJson(res, 503, {}, { 'Retry-After': '3600' });
      else sendJson(res, 200, { ok: true });
    });
    const retries: RetryEvent[] = [];
    const client = clientFor(server.url, {
      retry: { ...FAST_RETRY, maxRetryAfterMs: 50 },
      onRetry: (event) => retries.push(event),
    });
    await expect(client.request('/api/thing/')).resolves.toEqual({ ok: true });
    expect(retries[0]?.delayMs).toBe(50);
  });

  it('does not retry a POST after a connection reset, but does with retryUnsafe', async () => {
    const server = await startServer((req, res, { index }) => {
      if (index === 0 || index === 1) req.socket.destroy();
      else sendJson(res, 201, { created: true });
    });
    const client = clientFor(server.url);

    const error = await rejectionOf(client.request('/api/thing/', { method: 'POST', json: { a: 1 } }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);

    await expect(client.request('/api/thing/', { method: 'POST', json: { a: 1 }, retryUnsafe: true })).resolves.toEqual(
      { created: true },
    );
    expect(server.requests).toHaveLength(3);
  });

  it('retries a GET after a connection reset', async () => {
    const server = await startServer((req, res, { index }) => {
      if (index === 0) req.socket.destroy();
      else sendJson(res, 200, { ok: true });
    });
    await expect(clientFor(server.url).request('/api/thing/')).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a GET after a 500, but not a POST (it may have done part of the work)', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0 || index === 2) sendJson(res, 500, { detail: 'Internal server error' });
      else sendJson(res, 200, { ok: true });
    });
    const client = clientFor(server.url);
    await expect(client.request('/api/thing/')).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);

    const error = await rejectionOf(client.request('/api/thing/', { method: 'POST', json: { a: 1 } }));
    expect(error).toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a POST on 503 and resends the same body', async () => {
    const server = await startServer((_req, res, { index }) => {
      if (index === 0) sendJson(res, 503, {});
      else sendJson(res, 201, { created: true });
    });
    const { api } = clientFor(server.url);
    const { data, response } = await api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
      params: { path: { org: 'acme', user_id: 'alice' } },
      body: { name: 'Tutor' } as never,
    });
    expect(response.status).toBe(201);
    expect(data).toEqual({ created: true });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.toString()).toBe(server.requests[0]!.body.toString());
    expect(JSON.parse(server.requests[1]!.body.toString())).toEqual({ name: 'Tutor' });
  });

  it("sends a typed call again as its operation's rule says: a read after a 500, not a search; an upload once", async () => {
    const statuses = [500, 200, 500, 503, 200];
    const server = await startServer((_req, res, { index }) =>
      sendJson(res, statuses[index] ?? 200, { count: 0, next: null, previous: null, results: [] }),
    );
    const { api } = clientFor(server.url);
    const user = { org: 'acme', user_id: 'alice' };
    await api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', { params: { path: user } });
    expect(server.requests).toHaveLength(2);

    const search = await rejectionOf(
      api.POST('/api/ai-index/orgs/{org}/users/{user_id}/documents/search/', {
        params: { path: user },
        body: { query: 'q', pathway: 'p' },
      }),
    );
    expect(search).toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(3);

    // Even a 503 is not repeated here: the train job repeats an upload after looking whether it landed.
    const upload = await rejectionOf(
      api.POST('/api/ai-index/orgs/{org}/users/{user_id}/documents/train/', {
        params: { path: user },
        body: { type: 'txt', pathway: 'p' },
      }),
    );
    expect(upload).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(4);
  });

  it('repeats a POST after a lost answer only when its operation is declared repeatable', async () => {
    const server = await startServer((req, res, { index }) => {
      if (index === 0 || index === 2) req.socket.destroy();
      else sendJson(res, 200, { results: [] });
    });
    const { api } = clientFor(server.url);
    const user = { org: 'acme', user_id: 'alice' };
    // A search changes nothing: sent again.
    const { response } = await api.POST('/api/ai-index/orgs/{org}/users/{user_id}/documents/search/', {
      params: { path: user },
      body: { query: 'q', pathway: 'p' },
    });
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    // Creating a mentor twice would make two: not sent again, whatever the call asks for.
    const error = await rejectionOf(
      api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: user },
        body: { name: 'Tutor' },
        retryUnsafe: true,
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(3);
  });
});

describe('timeouts and cancellation', () => {
  it('times out an attempt that gets no answer', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const client = clientFor(server.url, { timeoutMs: 150, retry: { ...FAST_RETRY, maxAttempts: 2 } });
    const started = performance.now();
    const error = await rejectionOf(client.request('/api/slow/'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out a body that stalls after the headers', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"partial":');
    });
    const client = clientFor(server.url, { timeoutMs: 150, retry: { maxAttempts: 1 } });
    expect(await rejectionOf(client.request('/api/slow/'))).toBeInstanceOf(TimeoutError);
  });

  it("cancels mid-request with exactly 'Request aborted'", async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const error = await rejectionOf(clientFor(server.url).request('/api/slow/', { signal: controller.signal }));
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.message).toBe('Request aborted');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("cancels during the backoff sleep with exactly 'Request aborted'", async () => {
    const server = await startServer((_req, res) => sendJson(res, 503, {}, { 'Retry-After': '10' }));
    const controller = new AbortController();
    const client = clientFor(server.url, { onRetry: () => setTimeout(() => controller.abort(), 50) });
    const started = performance.now();
    const error = await rejectionOf(client.request('/api/thing/', { signal: controller.signal }));
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.message).toBe('Request aborted');
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('cancels an openapi-fetch call too', async () => {
    const server = await startServer(() => {
      /* never answers */
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejectionOf(
      clientFor(server.url).api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: { org: 'acme', user_id: 'alice' } },
        signal: controller.signal,
      }),
    );
    expect(error.message).toBe('Request aborted');
  });

  it('cancels every request in flight under one signal, which holds one listener for all of them, not one each', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/api/quick/') sendJson(res, 200, { ok: true });
      /* the others never answer */
    });
    const client = clientFor(server.url);
    const controller = new AbortController();
    const { signal } = controller;
    // A finished request leaves nothing behind on the signal; twenty in flight share one listener.
    await client.request('/api/quick/', { signal });
    const pending = Array.from({ length: 20 }, (_, i) => rejectionOf(client.request(`/api/slow/${i}/`, { signal })));
    await expect.poll(() => server.requests.length).toBe(21);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    controller.abort();
    const errors = await Promise.all(pending);
    expect(errors.map((error) => error instanceof RequestAbortedError && error.message)).toEqual(
      Array(20).fill('Request aborted'),
    );
  });

  it('refuses to start when the signal is already aborted', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}));
    const error = await rejectionOf(
      sendRequest({ method: 'GET', url: server.url, signal: AbortSignal.abort() }, { retry: FAST_RETRY }),
    );
    expect(error.message).toBe('Request aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('retry arithmetic', () => {
  it('uses full jitter under an exponential ceiling', () => {
    const policy = { baseDelayMs: 250, maxDelayMs: 30_000 };
    expect(backoffDelay(1, policy, () => 1)).toBe(250);
    expect(backoffDelay(3, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(500);
    expect(backoffDelay(20, policy, () => 1)).toBe(30_000);
    expect(backoffDelay(4, policy, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('the transport (node:http under the fetch interface)', () => {
  it('follows a redirect as fetch does, and never carries the key to another origin', async () => {
    const elsewhere = await startServer((_req, res) => sendJson(res, 200, { at: 'elsewhere' }));
    const server = await startServer((req, res) => {
      if (req.url === '/api/moved/') res.writeHead(301, { Location: '/api/here/' }).end();
      else if (req.url === '/api/away/') res.writeHead(302, { Location: `${elsewhere.url}/api/there/` }).end();
      else if (req.url === '/api/created/') res.writeHead(303, { Location: '/api/here/' }).end();
      else sendJson(res, 200, { at: req.url });
    });
    const client = clientFor(server.url);

    await expect(client.request('/api/moved/')).resolves.toEqual({ at: '/api/here/' });
    expect(server.requests[1]!.headers.authorization).toBe('Api-Key k');

    await expect(client.request('/api/away/')).resolves.toEqual({ at: 'elsewhere' });
    expect(elsewhere.requests[0]!.headers.authorization).toBeUndefined();

    // A 303 after a POST is followed by a GET without the body.
    await expect(client.request('/api/created/', { method: 'POST', json: { a: 1 } })).resolves.toEqual({
      at: '/api/here/',
    });
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/here/' });
    expect(server.requests.at(-1)!.body.byteLength).toBe(0);
  });

  it("answers a Response that reads as fetch's: once, as text, JSON, bytes, a Blob or a stream; cloned before a read", async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('\ufeff{"name":"Tutor","note":"é"}'),
    );
    const url = `${server.url}/api/thing/`;
    const ours = () => sendRequest({ method: 'GET', url });
    const fetched = () => fetch(url);
    const reads = async (get: () => Promise<Response>) => {
      const a = await get();
      const copy = a.clone();
      const before = a.bodyUsed;
      const json: unknown = await a.json();
      const second = await a.text().then(
        () => 'read again',
        (error: Error) => error.constructor.name,
      );
      const cloneAfterRead = (() => {
        try {
          a.clone();
          return 'cloned';
        } catch (error) {
          return (error as Error).constructor.name;
        }
      })();
      const streamed = await get();
      const chunks: Uint8Array[] = [];
      for await (const chunk of streamed.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
      const blob = await (await get()).blob();
      return {
        status: a.status,
        ok: a.ok,
        url: a.url,
        before,
        after: a.bodyUsed,
        json,
        copy: await copy.text(),
        second,
        cloneAfterRead,
        streamed: Buffer.concat(chunks).toString(),
        streamedUsed: streamed.bodyUsed,
        bytes: (await (await get()).arrayBuffer()).byteLength,
        blob: [blob.type, await blob.text()],
      };
    };
    const expected = await reads(fetched);
    expect(expected.json).toEqual({ name: 'Tutor', note: 'é' });
    expect(await reads(ours)).toEqual(expected);
    // A HEAD answer has no body to read.
    const head = await sendRequest({ method: 'HEAD', url });
    expect([head.body, await head.text()]).toEqual([null, '']);
  });

  it('asks for and decodes compressed answers', async () => {
    const { gzipSync } = await import('node:zlib');
    const server = await startServer((_req, res) => {
      const body = gzipSync(JSON.stringify({ results: Array.from({ length: 50 }, (_, i) => ({ id: i })) }));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(body);
    });
    const page = await clientFor(server.url).request<{ results: unknown[] }>('/api/page/');
    expect(page.results).toHaveLength(50);
    expect(server.requests[0]!.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('streams a file-backed upload from disk with its length, as one multipart body', async () => {
    const { mkdtempSync, openAsBlob, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'transport-'));
    try {
      const file = join(dir, 'notes.md');
      writeFileSync(file, 'x'.repeat(3 * 1024 * 1024));
      const server = await startServer((_req, res) => sendJson(res, 201, { document_id: 1 }));
      const form = new FormData();
      form.set('file', await openAsBlob(file), 'course/notes.md');
      form.set('pathway', 'p');
      await clientFor(server.url).request('/api/upload/', { method: 'POST', body: form });

      const [recorded] = server.requests;
      expect(recorded!.headers['transfer-encoding']).toBeUndefined();
      expect(Number(recorded!.headers['content-length'])).toBe(recorded!.body.byteLength);
      const parsed = await parseMultipart(recorded!);
      expect(parsed.get('pathway')).toBe('p');
      const sent = parsed.get('file') as File;
      expect(sent.name).toBe('course/notes.md');
      expect(sent.size).toBe(3 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
