/**
 * DRF-paged lists (`envelope: 'drf'`): RBAC roles (`page`/`page_size`, answering `{count, next, previous, results}`)
 * served by the sandbox's store and read by the engine's typed calls page by page into the per-tenant cache, over HTTP.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../src/main/engine/platform';
import { DRF_PAGE_SIZE, ResourceApi } from '../../src/main/engine/resources/api';
import { ResourceCache } from '../../src/main/engine/resources/cache';
import { ProfileStore } from '../../src/main/engine/profiles';
import { readPages } from '../../src/main/engine/resources/paging';
import type { Sandbox } from '../../src/server/app';
import { RESOURCES } from '../../src/shared/resources';
import { connect } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';

const roles = RESOURCES['rbac-roles'];

const TOTAL = 2 * DRF_PAGE_SIZE + 37;
let server: Sandbox;

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'rbac-roles', ?, ?)");
  for (let id = 1; id <= TOTAL; id++) {
    const role = {
      id,
      name: `Role ${String(id).padStart(3, '0')}`,
      is_internal: false,
      platform: { id: 1, key: server.org, name: null },
      actions: [],
      data_actions: [],
    };
    insert.run(server.org, String(id), JSON.stringify(role));
  }
});

describe('DRF-paged lists', () => {
  it('the sandbox answers the spec’s pages: count, next, previous and results, and "Invalid page." past the end', async () => {
    const first = await call(server, 'GET', `/api/core/rbac/roles/?platform_key=${server.org}&page=1&page_size=100`);
    expect(first.status).toBe(200);
    const body = first.body as { count: number; next: string; previous: null; results: { id: number }[] };
    expect(body).toMatchObject({ count: TOTAL, previous: null });
    expect(new URL(body.next).searchParams.get('page')).toBe('2');
    expect(body.results.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const last = (await call(server, 'GET', `/api/core/rbac/roles/?platform_key=${server.org}&page=3&page_size=100`))
      .body as { next: null; results: unknown[] };
    expect(last).toMatchObject({ next: null });
    expect(last.results).toHaveLength(37);
    const past = await call(server, 'GET', `/api/core/rbac/roles/?platform_key=${server.org}&page=4&page_size=100`);
    expect(past).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
    const bad = await call(server, 'GET', `/api/core/rbac/roles/?platform_key=${server.org}&page=first`);
    expect(bad.status).toBe(400);
  });

  it('reads every page into the cache page by page, in the platform’s order, each later page announced', async () => {
    const c = await connect(server);
    const client = createPlatformClient({ baseUrl: server.url, authScheme: 'Api-Key', secret: server.apiKey });
    const api = new ResourceApi(client, { org: server.org, username: server.user });
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'));
    const cache = new ResourceCache(db, () => {}, new ProfileStore(db));
    const seen: number[] = [];
    const read = readPages(api, cache, c.profileId, roles, {
      startedAt: new Date().toISOString(),
      current: () => true,
      progressive: true,
      grew: () => seen.push(cache.page(c.profileId, 'rbac-roles', { page: 1, pageSize: 1000 }).total),
    });
    await read.first;
    // The first page is there before the rest (the screen can paint it).
    expect(cache.page(c.profileId, 'rbac-roles', { page: 1, pageSize: 1000 }).total).toBeGreaterThanOrEqual(100);
    await read.rest;
    expect(seen).toEqual([200, TOTAL]);
    const all = cache.page(c.profileId, 'rbac-roles', { page: 1, pageSize: 1000 });
    expect(all.total).toBe(TOTAL);
    expect(all.records.map((r) => r.id)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    // Search runs on the cache (the spec declares no search parameter for roles).
    expect(cache.page(c.profileId, 'rbac-roles', { search: 'role 23', page: 1, pageSize: 50 }).total).toBe(8);

    // A refresh over a cached list keeps it whole until its last page has come.
    server.db.prepare("DELETE FROM resource_store WHERE kind = 'rbac-roles' AND id = '1'").run();
    const again = readPages(api, cache, c.profileId, roles, {
      startedAt: new Date().toISOString(),
      current: () => true,
      progressive: false,
      grew: () => {
        throw new Error('a refresh announces no partial list');
      },
    });
    await again.first;
    expect(cache.page(c.profileId, 'rbac-roles', { page: 1, pageSize: 1000 }).total).toBe(TOTAL - 1);
    db.close();
  });

  it('asks for the pages the first one promises a few at once, taking them in order', async () => {
    const many = await sandbox();
    const pages = 9;
    const insert = many.db.prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'rbac-roles', ?, ?)");
    for (let id = 1; id <= pages * DRF_PAGE_SIZE; id++) {
      const role = { id, name: `Role ${id}`, is_internal: false, platform: { id: 1, key: many.org, name: null } };
      insert.run(many.org, String(id), JSON.stringify({ ...role, actions: [], data_actions: [] }));
    }
    const client = createPlatformClient({ baseUrl: many.url, authScheme: 'Api-Key', secret: many.apiKey });
    const api = new ResourceApi(client, { org: many.org, username: many.user });
    const order: number[] = [];
    // Each answer takes a while, as a tenant's over the network does (later pages answered out of order too).
    many.setFaults('latency=20-60ms');
    many.takeLoad();
    const records = await api.list(roles, { onPage: (_records, page) => order.push(page.index) });
    // One after another, a long list's pages cost a round trip each.
    expect(many.takeLoad().peakInFlight).toBeGreaterThan(1);
    expect(order).toEqual(Array.from({ length: pages }, (_, i) => i));
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: pages * DRF_PAGE_SIZE }, (_, i) => i + 1));
  });
});
