/**
 * resources.* over a real engine and a real sandbox: lists from the cache with their as-of time, writes through the
 * typed platform calls, DRF field errors at their fields, events, offline reads, and a new token's key that is
 * answered once and written nowhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect, failure, until } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession } from '../helpers/temp';
import { startServer } from '../platform/test-server';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});
afterEach(() => server.setFaults(''));

describe('resources: API tokens', () => {
  it('lists from the platform first, then from the cache with its as-of time, without any key', async () => {
    const c = await connect(server);
    const first = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(first).toMatchObject({ listed: true, total: 2, page: 1, freshness: { source: 'api', offline: null } });
    expect(first.records.map((r) => r.name)).toEqual(['sandbox', 'student']);
    expect(first.records.every((r) => !('key' in r))).toBe(true);
    expect(Date.parse(first.freshness.asOf!)).toBeGreaterThan(Date.now() - 60_000);

    server.setFaults('error5xx=1');
    const cached = await c.engine.invoke('resources.list', { kind: 'api-tokens', search: 'STU' });
    expect(cached).toMatchObject({ total: 1, freshness: { source: 'cache', asOf: first.freshness.asOf } });
    expect(cached.records.map((r) => r.name)).toEqual(['student']);
    const byUser = await c.engine.invoke('resources.list', { kind: 'api-tokens', where: { username: 'learner0001' } });
    expect(byUser.records.map((r) => r.name)).toEqual(['student']);
    const paged = await c.engine.invoke('resources.list', { kind: 'api-tokens', page: 2, pageSize: 1 });
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.records.map((r) => r.name)).toEqual(['student']);

    // Asked to refresh while the tenant fails: the saved list, and why it is not fresh.
    const offline = await c.engine.invoke('resources.list', { kind: 'api-tokens', refresh: true });
    expect(offline.freshness).toMatchObject({ source: 'cache', asOf: first.freshness.asOf });
    expect(offline.freshness.offline).toMatch(/not answering .*showing what was saved earlier/);
    expect(offline.records).toHaveLength(2);

    // A write the tenant answers shows it is back: the note goes with it.
    server.setFaults('');
    await c.engine.invoke('resources.create', { kind: 'api-tokens', values: { name: 'back-online' } });
    const back = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(back.freshness.offline).toBeNull();
    expect(back.records.map((r) => r.name)).toContain('back-online');
  });

  it('answers an old list from the cache at once, then refreshes it in the background and says so', async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: 'made-elsewhere', platform_key: server.org },
    });
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'));
    db.prepare("UPDATE cached_lists SET checked_at = '2026-01-01T00:00:00.000Z' WHERE list LIKE 'kit:%'").run();
    db.close();
    c.events.length = 0;
    const old = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(old.freshness.source).toBe('cache');
    expect(old.records.map((r) => r.name)).not.toContain('made-elsewhere');
    await until('the background refresh', () => c.events.some((e) => e.name === 'resources.changed'));
    const fresh = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(fresh.records.map((r) => r.name)).toContain('made-elsewhere');
    await call(server, 'DELETE', `/api/core/platform/api-tokens/made-elsewhere?platform_key=${server.org}`);
  });

  it('creates a token whose key is answered once and written to no cache, log or file', async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    const created = await c.engine.invoke('resources.create', { kind: 'api-tokens', values: { name: 'nightly-sync' } });
    const key = created.revealed.key!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(created.record).toMatchObject({ name: 'nightly-sync', username: server.user });
    expect('key' in created.record).toBe(false);
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(200);
    expect(c.events).toContainEqual({
      name: 'resources.changed',
      payload: { profileId: c.profileId, kind: 'api-tokens' },
    });

    const listed = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(listed.records[0]).toMatchObject({ name: 'nightly-sync' });
    expect(JSON.stringify(listed)).not.toContain(key);
    const fresh = await c.engine.invoke('resources.list', { kind: 'api-tokens', refresh: true });
    expect(JSON.stringify(fresh)).not.toContain(key);
    expect(fresh.records.map((r) => r.name)).toContain('nightly-sync');

    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    await c.engine.close();
    expect(filesContaining(c.dataDir, key)).toEqual([]);
  });

  it('puts field errors at their fields: the spec’s rules before sending, the platform’s answer after', async () => {
    const c = await connect(server);
    const local = await failure(c.engine, 'resources.create', { kind: 'api-tokens', values: { name: 'two words' } });
    expect(local).toMatchObject({ code: 'validation', issues: [{ path: 'name' }] });
    const foreign = await failure(c.engine, 'resources.create', {
      kind: 'api-tokens',
      values: { name: 'ok', platform_key: server.otherOrg.org },
    });
    expect(foreign.issues).toEqual([{ path: 'platform_key', message: 'Not a field of API tokens' }]);

    await c.engine.invoke('resources.create', { kind: 'api-tokens', values: { name: 'taken' } });
    const duplicate = await failure(c.engine, 'resources.create', { kind: 'api-tokens', values: { name: 'taken' } });
    expect(duplicate).toMatchObject({
      code: 'validation',
      status: 400,
      issues: [{ path: 'name', message: 'platform api key with this name already exists.' }],
    });
    const expiry = await failure(c.engine, 'resources.create', {
      kind: 'api-tokens',
      values: { name: 'later', expires_in: 'next week' },
    });
    expect(expiry.issues).toEqual([
      {
        path: 'expires_in',
        message: 'Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].',
      },
    ]);
  });

  it('revokes a token: gone from the platform and the list; a second revoke says it is not there', async () => {
    const c = await connect(server);
    const { revealed } = await c.engine.invoke('resources.create', {
      kind: 'api-tokens',
      values: { name: 'to-revoke' },
    });
    await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    c.events.length = 0;
    await c.engine.invoke('resources.delete', { kind: 'api-tokens', id: 'to-revoke' });
    expect(c.events.map((e) => e.name)).toEqual(['resources.changed']);
    expect((await call(server, 'GET', '/api/core/platform/users/', { key: revealed.key! })).status).toBe(401);
    const listed = await c.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(listed.records.map((r) => r.name)).not.toContain('to-revoke');
    expect(await failure(c.engine, 'resources.delete', { kind: 'api-tokens', id: 'to-revoke' })).toMatchObject({
      code: 'not_found',
      message: 'No API token "to-revoke" on this tenant',
    });
  });

  it('says plainly that nothing is cached for a tenant it cannot reach', async () => {
    const c = await connect(server, { baseUrl: 'http://127.0.0.1:9' });
    const error = await failure(c.engine, 'resources.list', { kind: 'api-tokens' });
    expect(error.code).toBe('unreachable');
    expect(error.message).toMatch(
      /^Nothing is cached for Sandbox yet: the tenant cannot be reached \(Could not reach 127\.0\.0\.1:9/,
    );
  });

  it('says when the platform answers a shape its spec does not allow, never as a field error', async () => {
    const odd = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ name: 42 }]));
    });
    const c = await connect(server, { baseUrl: odd.url });
    const error = await failure(c.engine, 'resources.list', { kind: 'api-tokens' });
    expect(error).toMatchObject({ code: 'api' });
    expect(error.issues).toBeUndefined();
    expect(error.message).toMatch(
      /^The platform's answer to GET \/api\/core\/platform\/api-tokens\/ does not match its spec \(0\.\w+: /,
    );
  });

  it("keeps each tenant's list apart", async () => {
    const ours = await connect(server);
    const theirs = await connect(server, {
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
    });
    await ours.engine.invoke('resources.create', { kind: 'api-tokens', values: { name: 'ours-only' } });
    const listed = await theirs.engine.invoke('resources.list', { kind: 'api-tokens' });
    expect(listed.records.map((r) => r.name)).toEqual(['sandbox']);
  });

  it('refuses a filter on a field the kind does not have, and a value of the wrong type', async () => {
    const c = await connect(server);
    expect(await failure(c.engine, 'resources.list', { kind: 'api-tokens', where: { owner: 'x' } })).toMatchObject({
      code: 'validation',
      issues: [{ path: 'where.owner' }],
    });
    expect(await failure(c.engine, 'resources.list', { kind: 'domains', where: { is_active: 'yes' } })).toMatchObject({
      issues: [{ path: 'where.is_active', message: 'is_active is true or false' }],
    });
    expect(
      await failure(c.engine, 'resources.action', { kind: 'api-tokens', id: 'sandbox', action: 'rotate' }),
    ).toMatchObject({
      code: 'validation',
      message: "API tokens have no action 'rotate' (they have no actions)",
    });
  });
});

describe('resources: the domain whitelist', () => {
  it('lists the domains added or checked here (the platform has no list), and checks one on the platform', async () => {
    const c = await connect(server);
    const empty = await c.engine.invoke('resources.list', { kind: 'domains' });
    expect(empty).toMatchObject({ listed: false, total: 0, records: [], freshness: { asOf: null } });

    const added = await c.engine.invoke('resources.create', {
      kind: 'domains',
      values: { url: 'portal.northbridge.example', is_active: true },
    });
    expect(added).toEqual({ record: { url: 'portal.northbridge.example', is_active: true }, revealed: {} });
    await call(server, 'POST', '/api/core/domains/whitelist/', {
      json: { url: 'elsewhere.example', is_active: false },
    });
    const checked = await c.engine.invoke('resources.get', { kind: 'domains', id: 'elsewhere.example' });
    expect(checked.record).toEqual({ url: 'elsewhere.example', is_active: false });

    const listed = await c.engine.invoke('resources.list', { kind: 'domains' });
    expect(listed.records.map((r) => r.url)).toEqual(['elsewhere.example', 'portal.northbridge.example']);
    expect(listed.freshness.asOf).not.toBeNull();
    const active = await c.engine.invoke('resources.list', { kind: 'domains', where: { is_active: 'true' } });
    expect(active.records.map((r) => r.url)).toEqual(['portal.northbridge.example']);

    expect(await failure(c.engine, 'resources.get', { kind: 'domains', id: 'unknown.example' })).toMatchObject({
      code: 'not_found',
      message: 'No domain "unknown.example" on this tenant',
    });
    expect(
      await failure(c.engine, 'resources.create', { kind: 'domains', values: { url: 'portal.northbridge.example' } }),
    ).toMatchObject({ issues: [{ path: 'url', message: 'whitelisted domain with this url already exists.' }] });
    expect(await failure(c.engine, 'resources.delete', { kind: 'domains', id: 'elsewhere.example' })).toMatchObject({
      code: 'validation',
      message: 'The platform offers no way to delete a domain',
    });
  });
});

describe('resources: LTI keys', () => {
  it('creates, renames with a PUT that keeps the rest of the record, reads one and deletes it', async () => {
    const c = await connect(server);
    const { record } = await c.engine.invoke('resources.create', { kind: 'lti-keys', values: { name: 'Blackboard' } });
    const id = String(record.id);
    expect(record.public_key).toMatch(/BEGIN PUBLIC KEY/);
    const renamed = await c.engine.invoke('resources.update', {
      kind: 'lti-keys',
      id,
      values: { name: 'Blackboard Learn' },
    });
    expect(renamed.record).toMatchObject({ id: record.id, name: 'Blackboard Learn', public_key: record.public_key });
    expect((await c.engine.invoke('resources.get', { kind: 'lti-keys', id })).record.name).toBe('Blackboard Learn');
    const listed = await c.engine.invoke('resources.list', { kind: 'lti-keys', search: 'learn' });
    expect(listed.records.map((r) => r.name)).toEqual(['Blackboard Learn']);
    await c.engine.invoke('resources.delete', { kind: 'lti-keys', id });
    expect(await failure(c.engine, 'resources.get', { kind: 'lti-keys', id })).toMatchObject({ code: 'not_found' });
  });
});

describe('resources: bulk changes and export', () => {
  it('deletes a selection as one journalled job: each record’s outcome in its report, one already gone counts as done', async () => {
    const c = await connect(server);
    const made = [];
    for (const name of ['Bulk A', 'Bulk B', 'Bulk C'])
      made.push((await c.engine.invoke('resources.create', { kind: 'lti-keys', values: { name } })).record);
    await c.engine.invoke('resources.list', { kind: 'lti-keys', refresh: true });
    const [a, b, keep] = made.map((record) => String(record.id));
    // B goes elsewhere first: the job finds it gone, which is what was asked.
    await call(server, 'DELETE', `/api/core/lti/1p3/provider/lti-keys/${b}/?platform_key=${server.org}`);
    c.events.length = 0;
    const started = await c.engine.invoke('resources.bulk', { kind: 'lti-keys', action: 'delete', ids: [a!, b!, a!] });
    expect(started).toMatchObject({ kind: 'resource-bulk', title: expect.stringMatching(/^Delete 2 LTI keys on /) });
    const job = await until('the bulk job', async () => {
      const now = await c.engine.invoke('jobs.get', { id: started.id });
      return now.state === 'completed' && now;
    });
    expect(job.progress).toMatchObject({ total: 2, done: 2, failed: 0 });
    expect(job.counts).toMatchObject({ deleted: 1, gone: 1 });
    const { items } = await c.engine.invoke('jobs.items', { id: job.id });
    expect(items.map((item) => [item.label, item.state, item.phase])).toEqual([
      ['Bulk A', 'done', 'deleted'],
      ['Bulk B', 'done', 'already gone'],
    ]);
    const path = join(c.dataDir, 'bulk-report.csv');
    await c.engine.invoke('jobs.exportReport', { id: job.id, path });
    expect(readFileSync(path, 'utf8')).toContain(`${b},Bulk B,already gone`);
    expect(c.events.some((e) => e.name === 'resources.changed')).toBe(true);
    const left = await c.engine.invoke('resources.list', { kind: 'lti-keys', search: 'Bulk' });
    expect(left.records.map((r) => r.name)).toEqual(['Bulk C']);
    const onPlatform = (await call(server, 'GET', `/api/core/lti/1p3/provider/lti-keys/?platform_key=${server.org}`))
      .body as { id: number }[];
    expect(onPlatform.map((key) => String(key.id))).toContain(keep);
    expect(onPlatform.map((key) => String(key.id))).not.toContain(a);

    expect(
      await failure(c.engine, 'resources.bulk', { kind: 'domains', action: 'delete', ids: ['x.example'] }),
    ).toMatchObject({
      code: 'validation',
      message: 'The platform offers no way to delete a domain',
    });
  });

  it('a bulk job waits while the tenant is not answering and finishes when it answers: nothing is lost', async () => {
    const c = await connect(server);
    const { record } = await c.engine.invoke('resources.create', {
      kind: 'lti-keys',
      values: { name: 'Offline bulk' },
    });
    server.setFaults('error5xx=1');
    const started = await c.engine.invoke('resources.bulk', {
      kind: 'lti-keys',
      action: 'delete',
      ids: [String(record.id)],
    });
    await until(
      'the job to wait',
      async () => (await c.engine.invoke('jobs.get', { id: started.id })).state === 'waiting',
      60_000,
    );
    server.setFaults('');
    await c.engine.invoke('jobs.wake', {});
    const done = await until(
      'the job to finish',
      async () => {
        const job = await c.engine.invoke('jobs.get', { id: started.id });
        return job.state === 'completed' && job;
      },
      60_000,
    );
    expect(done.counts).toMatchObject({ deleted: 1 });
  });

  it('exports the records a list matches as injection-safe CSV with a BOM, with the columns asked for', async () => {
    const c = await connect(server);
    await c.engine.invoke('resources.create', { kind: 'lti-keys', values: { name: '=HYPERLINK("http://x")' } });
    await c.engine.invoke('resources.create', { kind: 'lti-keys', values: { name: 'Größe, "quoted"' } });
    const file = await c.engine.invoke('resources.export', {
      kind: 'lti-keys',
      search: 'HYPERLINK',
      columns: ['name'],
    });
    expect(file.rows).toBe(1);
    expect(file.fileName).toMatch(/-lti-keys-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.csv).toBe('\uFEFFname\r\n"\'=HYPERLINK(""http://x"")"\r\n');
    const all = await c.engine.invoke('resources.export', { kind: 'lti-keys', search: 'Größe', bom: false });
    expect(all.csv.split('\r\n')[0]).toBe('name,id');
    expect(all.csv).toContain('"Größe, ""quoted""",');
    expect(await failure(c.engine, 'resources.export', { kind: 'lti-keys', columns: ['public_key'] })).toMatchObject({
      code: 'validation',
      message: expect.stringContaining('Not a column of LTI keys: public_key'),
    });
  });
});
