/**
 * Single-record kinds (org metadata, branding, site config, billing status) and LTI tools over a real engine and a
 * real sandbox: read and cached per tenant with their as-of time, read offline, written through the spec's calls
 * (an image uploaded as a file, after its bytes are checked), read-only where the platform has no write.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { toDataUrl } from '../../src/shared/resources';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});
afterEach(() => server.setFaults(''));

describe('resources: single-record kinds', () => {
  it('reads org metadata from the platform, then from the cache with its as-of time, and offline', async () => {
    const c = await connect(server);
    const first = await c.engine.invoke('resources.getSingle', { kind: 'org-metadata' });
    expect(first.freshness).toMatchObject({ source: 'api', offline: null });
    expect(first.record).toMatchObject({ platform_key: server.org });
    const again = await c.engine.invoke('resources.getSingle', { kind: 'org-metadata' });
    expect(again.freshness).toMatchObject({ source: 'cache', asOf: first.freshness.asOf });

    server.setFaults('error5xx=1');
    const offline = await c.engine.invoke('resources.getSingle', { kind: 'org-metadata', refresh: true });
    expect(offline.freshness).toMatchObject({ source: 'cache', asOf: first.freshness.asOf });
    expect(offline.freshness.offline).toMatch(/not answering/);
    expect(offline.record).toEqual(first.record);
    // A write while the tenant is down is refused, and the saved record is as it was.
    const refused = await failure(c.engine, 'resources.updateSingle', {
      kind: 'org-metadata',
      values: { metadata: { lost: false } },
    });
    expect(refused).toMatchObject({
      code: 'unreachable',
      message: expect.stringMatching(/^Sandbox is not answering \(.+\): nothing was saved\. What you entered is kept/),
    });
    server.setFaults('');

    // Kept per tenant: one row under the single record's id, with the connection's tenant.
    const db = new Database(join(c.dataDir, 'mentor-admin.sqlite'), { readonly: true });
    const rows = db.prepare("SELECT id FROM resource_records WHERE kind = 'org-metadata'").all();
    db.close();
    expect(rows).toEqual([{ id: '@tenant' }]);
  });

  it("keeps each tenant's record apart, in the cache too", async () => {
    const c = await connect(server);
    const other = await c.engine.invoke('profiles.add', {
      name: 'Other',
      baseUrl: server.url,
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
    });
    await c.engine.invoke('resources.updateSingle', { kind: 'org-metadata', values: { metadata: { ours: 1 } } });
    const theirs = await c.engine.invoke('resources.getSingle', { profileId: other.id, kind: 'org-metadata' });
    expect(theirs.record).toMatchObject({ platform_key: server.otherOrg.org });
    expect(theirs.record.metadata).not.toEqual({ ours: 1 });
    server.setFaults('error5xx=1');
    const cachedOurs = await c.engine.invoke('resources.getSingle', { kind: 'org-metadata' });
    const cachedTheirs = await c.engine.invoke('resources.getSingle', { profileId: other.id, kind: 'org-metadata' });
    expect(cachedOurs.record).toMatchObject({ platform_key: server.org, metadata: { ours: 1 } });
    expect(cachedTheirs.record).toMatchObject({ platform_key: server.otherOrg.org });
  });

  it('updates org metadata with a PATCH of the metadata alone, announces it, and reads it back', async () => {
    const c = await connect(server);
    const { record } = await c.engine.invoke('resources.updateSingle', {
      kind: 'org-metadata',
      values: { metadata: { support_email: 'help@example.edu', tiers: [1, 2] } },
    });
    expect(record).toMatchObject({ metadata: { support_email: 'help@example.edu', tiers: [1, 2] } });
    expect(c.events.map((e) => e.name)).toContain('resources.changed');
    const platform = await call(server, 'GET', `/api/core/orgs/${server.org}/metadata/`);
    expect(platform.body).toMatchObject({ metadata: { support_email: 'help@example.edu' } });
    const cached = await c.engine.invoke('resources.getSingle', { kind: 'org-metadata' });
    expect(cached).toMatchObject({ record: { metadata: { tiers: [1, 2] } }, freshness: { source: 'cache' } });
    // Not a field of the patch: refused at that field before anything is sent.
    const wrong = await failure(c.engine, 'resources.updateSingle', {
      kind: 'org-metadata',
      values: { platform_name: 'x' },
    });
    expect(wrong.issues?.[0]).toMatchObject({ path: 'platform_name' });
  });

  it('uploads a branding image as a file, and refuses one that is not an image before sending it', async () => {
    const c = await connect(server);
    const logo = toDataUrl('image/png', PNG);
    const { record } = await c.engine.invoke('resources.updateSingle', { kind: 'branding', values: { logo } });
    expect(record).toMatchObject({ logo, dark_mode_logo: null });
    expect((await call(server, 'GET', `/api/core/orgs/${server.org}/logo/`, { key: null })).body).toEqual({
      file: logo,
    });

    const fake = toDataUrl('image/png', new TextEncoder().encode('<html>not an image</html>'));
    const refused = await failure(c.engine, 'resources.updateSingle', { kind: 'branding', values: { favicon: fake } });
    expect(refused.code).toBe('validation');
    expect(refused.issues).toEqual([{ path: 'favicon', message: expect.stringMatching(/^Not an image/) }]);
    expect((await call(server, 'GET', `/api/core/orgs/${server.org}/favicon/`, { key: null })).body).toEqual({});
    const read = await c.engine.invoke('resources.getSingle', { kind: 'branding', refresh: true });
    expect(read.record).toMatchObject({ logo, favicon: null });
  });

  it('saves a site setting (field_key and value) and reads all of them', async () => {
    const c = await connect(server);
    const { record } = await c.engine.invoke('resources.updateSingle', {
      kind: 'site-config',
      values: { field_key: 'welcome_banner', value: { text: 'Hi', show: true } },
    });
    expect(record).toMatchObject({ welcome_banner: { text: 'Hi', show: true } });
    const refused = await failure(c.engine, 'resources.updateSingle', { kind: 'site-config', values: { value: 1 } });
    expect(refused.issues).toEqual([{ path: 'field_key', message: 'This field is required.' }]);
  });

  it('reads billing status, and refuses to change it (the platform has no write)', async () => {
    const c = await connect(server);
    const { record } = await c.engine.invoke('resources.getSingle', { kind: 'billing' });
    expect(record).toEqual({ subscriptions: [] });
    const refused = await failure(c.engine, 'resources.updateSingle', { kind: 'billing', values: { plan: 'pro' } });
    expect(refused.message).toMatch(/read-only/);
    const many = await failure(c.engine, 'resources.getSingle', { kind: 'lti-tools' });
    expect(many.message).toMatch(/many records/);
    // And the other way round: the list verbs do not take a single-record kind.
    const one = await failure(c.engine, 'resources.list', { kind: 'org-metadata' });
    expect(one.message).toMatch(/one record per tenant: read it with resources.getSingle/);
    expect((await failure(c.engine, 'resources.update', { kind: 'org-metadata', id: 'x', values: {} })).code).toBe(
      'validation',
    );
  });
});

describe('resources: LTI tools', () => {
  it('creates, lists, edits (a PUT of the whole tool) and deletes a tool; its LTI key must exist', async () => {
    const c = await connect(server);
    const key = await call(server, 'POST', '/api/core/lti/1p3/provider/lti-keys/', {
      json: { name: 'Canvas signing', platform_key: server.org },
    });
    const values = {
      title: 'Canvas',
      issuer: 'https://canvas.example.edu',
      client_id: '10000000000001',
      auth_login_url: 'https://canvas.example.edu/api/lti/authorize_redirect',
      auth_token_url: 'https://canvas.example.edu/login/oauth2/token',
      tool_key: (key.body as { id: number }).id,
      deployment_ids: ['1:abc'],
      launch_gate: { allowed_keys: [], allowed_courses: [], allow_all_within_org: true },
    };
    const { record } = await c.engine.invoke('resources.create', { kind: 'lti-tools', values });
    const id = String(record.id);
    const list = await c.engine.invoke('resources.list', { kind: 'lti-tools', search: 'canvas' });
    expect(list.records.map((r) => String(r.id))).toContain(id);
    const edited = await c.engine.invoke('resources.update', {
      kind: 'lti-tools',
      id,
      values: { title: 'Canvas (prod)' },
    });
    expect(edited.record).toMatchObject({
      title: 'Canvas (prod)',
      client_id: '10000000000001',
      deployment_ids: ['1:abc'],
    });
    const bad = await failure(c.engine, 'resources.create', {
      kind: 'lti-tools',
      values: { ...values, tool_key: 'x' },
    });
    expect(bad.issues).toEqual([{ path: 'tool_key', message: 'A valid integer is required.' }]);
    // A key that is not the tenant's: the platform's answer, at the field.
    const dangling = await failure(c.engine, 'resources.create', {
      kind: 'lti-tools',
      values: { ...values, tool_key: 987654 },
    });
    expect(dangling.issues).toEqual([{ path: 'tool_key', message: 'Invalid pk "987654" - object does not exist.' }]);
    await c.engine.invoke('resources.delete', { kind: 'lti-tools', id });
  });
});
