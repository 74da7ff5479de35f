/**
 * Listing a mentor's documents page by page (limit/offset): every document once and in order, the pages after the
 * first asked for a few at once, whatever page size the server actually serves.
 */
import { describe, expect, it } from 'vitest';
import { DocumentApi } from '../../src/main/engine/mentors';
import { createPlatformClient } from '../../src/main/engine/platform';
import { sendJson, startServer } from '../platform/test-server';

/**
 * A server holding `total` documents of one mentor, serving at most `cap` per page; counts requests in flight. With a
 * `gate`, the pages from offset `gate.from` on are held until `gate.size` of them are in flight (or 3 s pass): a client
 * that asks for them at once has them all in flight together however slow the machine, one that asks one by one never.
 */
async function documentsServer(total: number, cap: number, gate?: { from: number; size: number }) {
  const ids = Array.from({ length: total }, (_, i) => i + 1);
  let inFlight = 0;
  const seen = { maxInFlight: 0, pages: 0 };
  let held: (() => void)[] = [];
  const release = () => {
    for (const go of held) go();
    held = [];
  };
  const server = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://server.invalid');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), cap);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    inFlight++;
    seen.pages++;
    seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
    if (gate && offset >= gate.from) {
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length >= gate.size) release();
        else setTimeout(release, 3_000);
      });
    }
    inFlight--;
    const results = ids.slice(offset, offset + limit).map((id) => ({ id, pathway: 'p', document_name: `doc-${id}` }));
    const next = offset + limit < ids.length ? `${url.pathname}?limit=${limit}&offset=${offset + limit}` : null;
    sendJson(res, 200, { count: ids.length, next, previous: null, results });
  });
  const client = createPlatformClient({ baseUrl: server.url, authScheme: 'Api-Key', secret: 'k' });
  return { api: new DocumentApi(client, { org: 'acme', username: 'alice' }, () => {}), seen, ids };
}

describe("a mentor's document list", () => {
  it('asks for the pages after the first a few at once and returns every document once, in order', async () => {
    const { api, seen, ids } = await documentsServer(430, 100, { from: 100, size: 4 });
    const listed = await api.list('p');
    expect(listed.map((doc) => doc.id)).toEqual(ids);
    expect(seen.pages).toBe(5);
    // The first page alone (it says how many there are), then the other four together.
    expect(seen.maxInFlight).toBe(4);
  });

  it('asks for every page a caller expects at once', async () => {
    const { api, seen, ids } = await documentsServer(400, 100, { from: 0, size: 4 });
    expect((await api.list('p', { expected: 400 })).map((doc) => doc.id)).toEqual(ids);
    expect(seen).toMatchObject({ pages: 4, maxInFlight: 4 });
  });

  it('follows the page size the server serves when it is smaller than the one asked for', async () => {
    const { api, ids } = await documentsServer(175, 30);
    expect((await api.list('p')).map((doc) => doc.id)).toEqual(ids);
  });

  it('stops once the caller has seen what it needs', async () => {
    const { api, seen } = await documentsServer(1000, 100);
    const listed = await api.list('p', { stopWhen: (docs) => docs.some((doc) => doc.id === 50) });
    expect(listed).toHaveLength(100);
    expect(seen.pages).toBe(1);
  });
});
