/** mentors.list: the cache serves the screen at once, the API is the truth, refreshes announce themselves. */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../src/main/engine/platform/http';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';
import { startServer } from '../platform/test-server';
import { connect, failure, recordingProxy, serverMentors, until, type Connected } from './setup';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
});
afterEach(() => server.setFaults(''));

/** The engine's own database, opened beside it (WAL lets both use it at once). */
function engineDb(connected: Connected) {
  return new Database(join(connected.dataDir, 'mentor-admin.sqlite'));
}

/** Makes the cached mentors list look older than the refresh threshold. */
function age(connected: Connected, list = 'mentors') {
  const db = engineDb(connected);
  const old = new Date(Date.now() - 10 * 60_000).toISOString();
  db.prepare('UPDATE cached_lists SET checked_at = ?, as_of = ? WHERE list = ?').run(old, old, list);
  db.close();
  return old;
}

const eventsNamed = (connected: Connected, name: string) => connected.events.filter((e) => e.name === name);

describe('mentors.list', () => {
  it('answers the first time from the API with descriptions and visibility, then from the cache without the network', async () => {
    const c = await connect(server);
    const first = await c.engine.invoke('mentors.list', {});
    expect(first.freshness).toMatchObject({ source: 'api', offline: null });
    expect(first.mentors).toHaveLength(12);
    const truth = await serverMentors(server);
    expect(
      first.mentors.map((m) => ({
        uniqueId: m.uniqueId,
        name: m.name,
        description: m.description,
        visibility: m.visibility,
      })),
    ).toEqual(expect.arrayContaining(truth));
    const calculus = first.mentors.find((m) => m.name === 'Calculus Coach')!;
    expect(calculus).toMatchObject({
      slug: 'calculus-coach',
      description: 'Limits, derivatives and integrals, step by step.',
    });
    expect(calculus.createdAt).toMatch(/^\d{4}-/);

    // Every request now fails: an answer can only come from the cache.
    server.setFaults('error5xx=1');
    const second = await c.engine.invoke('mentors.list', {});
    expect(second.freshness).toEqual({ source: 'cache', asOf: first.freshness.asOf, offline: null });
    expect(second.mentors).toEqual(first.mentors);

    // Asking for a refresh while the tenant fails still answers, from the cache, and says why.
    const third = await c.engine.invoke('mentors.list', { refresh: true });
    expect(third.mentors).toEqual(first.mentors);
    expect(third.freshness.source).toBe('cache');
    expect(third.freshness.asOf).toBe(first.freshness.asOf);
    expect(third.freshness.offline).toMatch(/not answering \(50[023] .*showing what was saved/);

    server.setFaults('');
    const fourth = await c.engine.invoke('mentors.list', { refresh: true });
    expect(fourth.freshness).toMatchObject({ source: 'api', offline: null });
    expect(Date.parse(fourth.freshness.asOf!)).toBeGreaterThan(Date.parse(first.freshness.asOf!));
  });

  it('answers from the cache when the server is gone, and fails plainly when nothing was ever cached', async () => {
    const gone = await sandbox({ seed: 'demo' });
    const c = await connect(gone);
    const before = await c.engine.invoke('mentors.list', {});
    await gone.close();

    const cached = await c.engine.invoke('mentors.list', { refresh: true });
    expect(cached.mentors).toEqual(before.mentors);
    expect(cached.freshness.offline).toMatch(/Could not reach 127\.0\.0\.1:\d+.*showing what was saved earlier/);
    // A mentor's page opens from the saved copy too, by unique id or by name.
    const saved = before.mentors[0]!;
    expect(await c.engine.invoke('mentors.get', { mentor: saved.uniqueId })).toEqual(saved);
    expect(await c.engine.invoke('mentors.get', { mentor: saved.name })).toEqual(saved);

    const empty = await connect(gone);
    const error = await failure(empty.engine, 'mentors.list', {});
    expect(error.code).toBe('unreachable');
    expect(error.message).toMatch(/Could not reach/);
    // Nothing was cached by the failure: it fails again rather than showing an empty list.
    expect((await failure(empty.engine, 'mentors.list', {})).code).toBe('unreachable');
  });

  it('refreshes a stale list in the background, then announces it with mentors.changed', async () => {
    const c = await connect(server);
    await c.engine.invoke('mentors.list', {});
    const old = age(c);
    const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      json: { name: 'Made Elsewhere' },
    });
    expect(made.status).toBe(201);

    const stale = await c.engine.invoke('mentors.list', {});
    expect(stale.freshness).toMatchObject({ source: 'cache', asOf: old });
    expect(stale.mentors.map((m) => m.name)).not.toContain('Made Elsewhere');

    await until('mentors.changed', async () => eventsNamed(c, 'mentors.changed').length > 0);
    expect(eventsNamed(c, 'mentors.changed')[0]!.payload).toEqual({ profileId: c.profileId });
    const fresh = await c.engine.invoke('mentors.list', {});
    expect(fresh.freshness.source).toBe('cache');
    expect(Date.parse(fresh.freshness.asOf!)).toBeGreaterThan(Date.parse(old));
    expect(fresh.mentors[0]!.name).toBe('Made Elsewhere');
    expect(fresh.mentors).toHaveLength(13);
    await call(server, 'DELETE', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/Made%20Elsewhere/`);
  });

  it('keeps the cache when a background refresh fails, says why, and does not retry in a loop', async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    const first = await c.engine.invoke('mentors.list', {});
    const old = age(c);
    proxy.failWith = { status: 500 };
    const sent = proxy.requests.length;
    await c.engine.invoke('mentors.list', {});
    await until('mentors.changed', async () => eventsNamed(c, 'mentors.changed').length > 0);
    // One refresh: the list call, repeated only within the client's bounded retries for a 500 on a GET.
    const refreshed = proxy.requests.length;
    expect(refreshed - sent).toBeGreaterThanOrEqual(1);
    expect(refreshed - sent).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxAttempts);
    const sentAgain = new Set(proxy.requests.slice(sent).map((r) => `${r.method} ${r.url}`));
    expect(sentAgain.size).toBe(1);

    const after = await c.engine.invoke('mentors.list', {});
    expect(after.mentors).toEqual(first.mentors);
    expect(after.freshness.asOf).toBe(old);
    expect(after.freshness.offline).toMatch(/not answering \(500 /);
    // The failed attempt counts as a check: the next answers do not send anything for a while.
    await c.engine.invoke('mentors.list', {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proxy.requests.length).toBe(refreshed);
    expect(eventsNamed(c, 'mentors.changed')).toHaveLength(1);

    proxy.failWith = null;
    const recovered = await c.engine.invoke('mentors.list', { refresh: true });
    expect(recovered.freshness).toMatchObject({ source: 'api', offline: null });
    expect((await c.engine.invoke('mentors.list', {})).freshness.offline).toBeNull();
  });

  it('does not let a refresh that started before a write overwrite it', async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    await c.engine.invoke('mentors.list', {});
    age(c);
    let release!: () => void;
    proxy.hold = { match: /page_size=/, until: new Promise<void>((resolve) => (release = resolve)) };
    const sent = proxy.requests.length;
    await c.engine.invoke('mentors.list', {}); // stale: a background refresh starts and fetches the old list
    await until('the refresh to fetch', async () => proxy.requests.length > sent);
    const created = await c.engine.invoke('mentors.create', { name: 'Race Winner' });
    onTestFinished(async () => {
      await call(server, 'DELETE', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/${created.uniqueId}/`);
    });
    const events = eventsNamed(c, 'mentors.changed').length;
    release();
    await until('the refresh to finish', async () => eventsNamed(c, 'mentors.changed').length > events);
    const list = await c.engine.invoke('mentors.list', {});
    expect(list.mentors.map((m) => m.name)).toContain('Race Winner');
  });

  it('reads settings (description, visibility) only for mentors changed since the last refresh', async () => {
    const proxy = await recordingProxy(server);
    const c = await connect({ ...server, url: proxy.url });
    const settingsReads = () => proxy.requests.filter((r) => r.method === 'GET' && r.url.includes('/settings/')).length;
    await c.engine.invoke('mentors.list', {});
    expect(settingsReads()).toBe(12);
    expect(proxy.requests.filter((r) => r.url.includes('page_size='))).toHaveLength(1);

    await c.engine.invoke('mentors.list', { refresh: true });
    expect(settingsReads()).toBe(12);

    const changed = await call(
      server,
      'PUT',
      `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mentors/Study%20Skills/settings/`,
      { json: { mentor_description: 'Revised elsewhere', mentor_visibility: 'viewable_by_anyone' } },
    );
    expect(changed.status).toBe(200);
    const after = await c.engine.invoke('mentors.list', { refresh: true });
    expect(settingsReads()).toBe(13);
    expect(after.mentors.find((m) => m.name === 'Study Skills')).toMatchObject({
      description: 'Revised elsewhere',
      visibility: 'viewable_by_anyone',
    });
  });

  it('searches the cached list by name and description, ignoring case and accents', async () => {
    const c = await connect(server);
    const created = await c.engine.invoke('mentors.create', {
      name: 'Física Básica',
      description: 'Cinemática y dinámica para principiantes',
    });
    await c.engine.invoke('mentors.list', {});
    server.setFaults('error5xx=1');
    onTestFinished(async () => {
      server.setFaults('');
      await call(server, 'DELETE', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/${created.uniqueId}/`);
    });
    const names = async (search: string) =>
      (await c.engine.invoke('mentors.list', { search })).mentors.map((m) => m.name);
    expect(await names('fisica')).toEqual(['Física Básica']);
    expect(await names('BÁSICA')).toEqual(['Física Básica']);
    expect(await names('cinematica principiantes')).toEqual(['Física Básica']);
    expect(await names('calculus')).toEqual(['Calculus Coach']);
    expect(await names('derivatives')).toEqual(['Calculus Coach']); // in the description only
    expect(await names('  ')).toHaveLength(13);
    expect(await names('no such mentor anywhere')).toEqual([]);
  });

  it("does not show one tenant's cached mentors for another after the connection changes", async () => {
    const c = await connect(server);
    expect((await c.engine.invoke('mentors.list', {})).mentors).toHaveLength(12);
    await c.engine.invoke('profiles.update', {
      id: c.profileId,
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
    });
    const other = await c.engine.invoke('mentors.list', {});
    expect(other.freshness.source).toBe('api');
    expect(other.mentors.map((m) => m.name)).toEqual(['Riverside Tutor']);
  });

  it('refetches a damaged cache instead of trusting it', async () => {
    const c = await connect(server);
    const first = await c.engine.invoke('mentors.list', {});
    const db = engineDb(c);
    db.prepare(`UPDATE cached_mentors SET data = '{"name": 42}' WHERE name = 'Calculus Coach'`).run();
    db.close();
    const again = await c.engine.invoke('mentors.list', {});
    expect(again.freshness.source).toBe('api');
    expect(again.mentors).toEqual(first.mentors);
    await expect
      .poll(() => readFileSync(join(c.dataDir, 'logs', 'engine.log'), 'utf8'))
      .toMatch(/cached mentors .* is damaged/);
  });

  it('refuses an answer of an unexpected shape, logs it, and caches nothing', async () => {
    const odd = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ count: 1, next: null, results: [{ name: 7 }] }));
    });
    const c = await connect({ ...server, url: odd.url });
    const error = await failure(c.engine, 'mentors.list', {});
    expect(error.code).toBe('api');
    expect(error.message).toMatch(/unexpected shape .*results\.0\.unique_id/);
    await expect
      .poll(() => readFileSync(join(c.dataDir, 'logs', 'engine.log'), 'utf8'))
      .toMatch(/unexpected shape of the mentor list/);
    const db = engineDb(c);
    expect(db.prepare('SELECT count(*) AS n FROM cached_lists').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM cached_mentors').get()).toEqual({ n: 0 });
    db.close();
  });

  it("drops a connection's cache with the connection", async () => {
    const c = await connect(server);
    await c.engine.invoke('mentors.list', {});
    await c.engine.invoke('profiles.remove', { id: c.profileId });
    const db = engineDb(c);
    expect(db.prepare('SELECT count(*) AS n FROM cached_mentors').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM cached_lists').get()).toEqual({ n: 0 });
    db.close();
  });
});
