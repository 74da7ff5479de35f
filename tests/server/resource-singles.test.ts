/**
 * Contract tests of the sandbox's LTI tools and single-record kinds (org metadata, site config, billing status,
 * branding images): every operation it serves, its success answer checked against the vendor spec, its errors in
 * DRF's shape.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const TOOLS = '/api/core/lti/1p3/provider/lti-tools/';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
/** The LTI key the tools below sign with (an LTI tool's tool_key must name one of the tenant's). */
let toolKey: number;
beforeAll(async () => {
  server = await sandbox();
  const key = await call(server, 'POST', '/api/core/lti/1p3/provider/lti-keys/', {
    json: { name: 'Tools signing', platform_key: server.org },
  });
  toolKey = (key.body as { id: number }).id;
});

const tool = (title: string) => ({
  title,
  issuer: 'https://lms.example.edu',
  client_id: 'client-1',
  auth_login_url: 'https://lms.example.edu/auth',
  auth_token_url: 'https://lms.example.edu/token',
  tool_key: toolKey,
  deployment_ids: ['1'],
  launch_gate: { allowed_keys: [], allowed_courses: [], allow_all_within_org: false },
  platform_key: server.org,
});

describe('sandbox resources: LTI tools', () => {
  it('creates, lists, reads, updates and deletes a tool, answers without its platform_key', async () => {
    const created = await call(server, 'POST', TOOLS, { json: tool('Canvas') });
    expect(created.status).toBe(201);
    expectSpecValid('post', TOOLS, 201, created.body);
    const id = (created.body as { id: number }).id;
    expect(created.body).not.toHaveProperty('platform_key');

    const listed = await call(server, 'GET', `${TOOLS}?platform_key=${server.org}`);
    expectSpecValid('get', TOOLS, 200, listed.body);
    expect((listed.body as { id: number }[]).map((t) => t.id)).toContain(id);
    const read = await call(server, 'GET', `${TOOLS}${id}/?platform_key=${server.org}`);
    expectSpecValid('get', `${TOOLS}{id}/`, 200, read.body);

    const updated = await call(server, 'PUT', `${TOOLS}${id}/`, { json: { ...tool('Canvas (prod)'), id: 999 } });
    expect(updated.status).toBe(200);
    expectSpecValid('put', `${TOOLS}{id}/`, 200, updated.body);
    expect(updated.body).toMatchObject({ id, title: 'Canvas (prod)' });

    expect((await call(server, 'DELETE', `${TOOLS}${id}/?platform_key=${server.org}`)).status).toBe(204);
    expect((await call(server, 'GET', `${TOOLS}${id}/?platform_key=${server.org}`)).status).toBe(404);
  });

  it("refuses what the spec refuses and a key that is not the tenant's, and keeps each tenant's tools to itself", async () => {
    const { title: _title, ...untitled } = tool('x');
    expect(await call(server, 'POST', TOOLS, { json: { ...untitled, issuer: 'not a url' } })).toMatchObject({
      status: 400,
      body: { title: ['This field is required.'], issuer: ['Enter a valid URL.'] },
    });
    expect(await call(server, 'POST', TOOLS, { json: { ...tool('x'), tool_key: 'one' } })).toMatchObject({
      status: 400,
      body: { tool_key: ['A valid integer is required.'] },
    });
    // tool_key is a reference (pylti1p3's foreign key to the key pair): DRF's answer when it names no key of the org.
    const otherKey = await call(server, 'POST', '/api/core/lti/1p3/provider/lti-keys/', {
      json: { name: 'Other signing', platform_key: server.otherOrg.org },
      key: server.otherOrg.apiKey,
    });
    const otherKeyId = (otherKey.body as { id: number }).id;
    for (const dangling of [987654, otherKeyId]) {
      expect(await call(server, 'POST', TOOLS, { json: { ...tool('x'), tool_key: dangling } })).toMatchObject({
        status: 400,
        body: { tool_key: [`Invalid pk "${dangling}" - object does not exist.`] },
      });
    }
    const created = await call(server, 'POST', TOOLS, { json: tool('Moodle') });
    const id = (created.body as { id: number }).id;
    expect(
      await call(server, 'PUT', `${TOOLS}${id}/`, { json: { ...tool('Moodle'), tool_key: otherKeyId } }),
    ).toMatchObject({
      status: 400,
      body: { tool_key: [`Invalid pk "${otherKeyId}" - object does not exist.`] },
    });
    const other = await call(server, 'GET', `${TOOLS}${id}/?platform_key=${server.otherOrg.org}`, {
      key: server.otherOrg.apiKey,
    });
    expect(other.status).toBe(404);
    expect((await call(server, 'GET', `${TOOLS}?platform_key=${server.org}`, { key: server.studentKey })).status).toBe(
      403,
    );
  });
});

describe('sandbox resources: org metadata', () => {
  const path = () => `/api/core/orgs/${server.org}/metadata/`;

  it("answers the tenant's metadata and patches it", async () => {
    const read = await call(server, 'GET', path());
    expect(read.status).toBe(200);
    expectSpecValid('get', '/api/core/orgs/{org}/metadata/', 200, read.body);
    expect(read.body).toMatchObject({ platform_key: server.org });

    const patched = await call(server, 'PATCH', path(), { json: { metadata: { support: 'help@example.edu' } } });
    expect(patched.status).toBe(200);
    expectSpecValid('patch', '/api/core/orgs/{org}/metadata/', 200, patched.body);
    expect((await call(server, 'GET', path())).body).toMatchObject({ metadata: { support: 'help@example.edu' } });
    // A patch without metadata changes nothing; platform_key is the platform's own.
    await call(server, 'PATCH', path(), { json: { platform_key: 'other' } });
    expect((await call(server, 'GET', path())).body).toMatchObject({
      platform_key: server.org,
      metadata: { support: 'help@example.edu' },
    });
  });

  it("is the caller's own org's, and a tenant admin's", async () => {
    expect((await call(server, 'GET', `/api/core/orgs/${server.otherOrg.org}/metadata/`)).status).toBe(404);
    expect((await call(server, 'PATCH', path(), { json: { metadata: {} }, key: server.studentKey })).status).toBe(403);
    expect((await call(server, 'GET', path(), { key: null })).status).toBe(401);
  });
});

describe('sandbox resources: site config', () => {
  const SITE = '/api/core/platform/config/site/';

  it('saves one setting a call (field_key and value) and answers them all', async () => {
    const saved = await call(server, 'POST', SITE, {
      json: { key: server.org, field_key: 'footer_text', value: 'Hello' },
    });
    expect(saved.status).toBe(200);
    expectSpecValid('post', SITE, 200, saved.body);
    await call(server, 'POST', SITE, { json: { key: server.org, field_key: 'max_mentors', value: 12 } });
    const read = await call(server, 'GET', `${SITE}?key=${server.org}`);
    expectSpecValid('get', SITE, 200, read.body);
    expect(read.body).toMatchObject({ footer_text: 'Hello', max_mentors: 12 });
  });

  it("needs the key of the caller's own org, a field_key and a value", async () => {
    expect(await call(server, 'GET', SITE)).toMatchObject({ status: 400, body: { key: ['This field is required.'] } });
    expect(await call(server, 'POST', SITE, { json: { key: server.org, value: 1 } })).toMatchObject({
      status: 400,
      body: { field_key: ['This field is required.'] },
    });
    expect(await call(server, 'POST', SITE, { json: { key: server.org, field_key: 'x' } })).toMatchObject({
      status: 400,
      body: { value: ['This field is required.'] },
    });
    expect(
      (await call(server, 'POST', SITE, { json: { key: server.otherOrg.org, field_key: 'x', value: 1 } })).status,
    ).toBe(404);
    expect((await call(server, 'GET', `${SITE}?key=${server.org}`, { key: server.studentKey })).status).toBe(403);
  });
});

describe('sandbox resources: billing status', () => {
  it("answers the tenant's subscriptions to a tenant admin only", async () => {
    const path = `/api/service/orgs/${server.org}/users/${server.user}/stripe/subscriptions/`;
    const read = await call(server, 'GET', path);
    expect(read).toMatchObject({ status: 200, body: { subscriptions: [] } });
    expect((await call(server, 'GET', path, { key: server.studentKey })).status).toBe(403);
    expect(
      (await call(server, 'GET', `/api/service/orgs/${server.otherOrg.org}/users/${server.user}/stripe/subscriptions/`))
        .status,
    ).toBe(404);
  });
});

describe('sandbox resources: branding images', () => {
  const form = (bytes: Uint8Array, name: string, type: string) => {
    const body = new FormData();
    body.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
    return body;
  };

  it.each(['logo', 'dark-mode-logo', 'favicon', 'thumbnail'])(
    'uploads a %s (multipart) and answers it to anyone',
    async (slug) => {
      const before = await call(server, 'GET', `/api/core/orgs/${server.otherOrg.org}/${slug}/`, { key: null });
      expect(before).toMatchObject({ status: 200, body: {} });
      const uploaded = await call(server, 'POST', `/api/core/orgs/${server.org}/${slug}/create/`, {
        form: form(PNG, 'logo.png', 'image/png'),
      });
      expect(uploaded.status).toBe(200);
      expectSpecValid('post', `/api/core/orgs/{org}/${slug}/create/`, 200, uploaded.body);
      const file = (uploaded.body as { file: string }).file;
      expect(file).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
      const read = await call(server, 'GET', `/api/core/orgs/${server.org}/${slug}/`, { key: null });
      expect(read).toMatchObject({ status: 200, body: { file } });
    },
  );

  it('refuses what is not an image, no file, a file sent as JSON, and a caller who is not a tenant admin', async () => {
    const logo = `/api/core/orgs/${server.org}/logo/create/`;
    expect(
      await call(server, 'POST', logo, { form: form(new TextEncoder().encode('%PDF-1.7'), 'a.png', 'image/png') }),
    ).toMatchObject({
      status: 400,
      body: { file: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'] },
    });
    expect(await call(server, 'POST', logo, { form: new FormData() })).toMatchObject({
      status: 400,
      body: { file: ['No file was submitted.'] },
    });
    expect(await call(server, 'POST', logo, { json: { file: 'https://example.edu/logo.png' } })).toMatchObject({
      status: 400,
      body: { file: ['The submitted data was not a file. Check the encoding type on the form.'] },
    });
    expect(
      (await call(server, 'POST', logo, { form: form(PNG, 'l.png', 'image/png'), key: server.studentKey })).status,
    ).toBe(403);
    expect((await call(server, 'POST', logo, { form: form(PNG, 'l.png', 'image/png'), key: null })).status).toBe(401);
  });
});
