/**
 * Contract tests of the sandbox's spec-driven store for the declared resources: every operation it serves, with its
 * success answer checked against the vendor spec, and its errors in DRF's shape.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const TOKENS = '/api/core/platform/api-tokens/';
const WHITELIST = '/api/core/domains/whitelist/';
const LTI_KEYS = '/api/core/lti/1p3/provider/lti-keys/';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox();
});

describe('sandbox resources: platform API tokens', () => {
  it('creates a token whose key works at once, lists it with the key masked, and revokes it', async () => {
    const created = await call(server, 'POST', TOKENS, { json: { name: 'ci-deploy', platform_key: server.org } });
    expect(created.status).toBe(201);
    expectSpecValid('post', TOKENS, 201, created.body);
    const { key, username } = created.body as { key: string; username: string };
    expect(username).toBe(server.user);
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(200);

    const listed = await call(server, 'GET', `${TOKENS}?platform_key=${server.org}`);
    expect(listed.status).toBe(200);
    expectSpecValid('get', TOKENS, 200, listed.body);
    const row = (listed.body as { name: string; key: string }[]).find((t) => t.name === 'ci-deploy')!;
    expect(row.key).not.toBe(key);
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const revoked = await call(server, 'DELETE', `${TOKENS}ci-deploy?platform_key=${server.org}`);
    expect(revoked).toMatchObject({ status: 204, body: null });
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(401);
    expect(await call(server, 'DELETE', `${TOKENS}ci-deploy?platform_key=${server.org}`)).toMatchObject({
      status: 404,
      body: { detail: 'API key not found' },
    });
  });

  it('sets an expiry from expires_in, in DRF duration format', async () => {
    const created = await call(server, 'POST', TOKENS, {
      json: { name: 'short-lived', platform_key: server.org, expires_in: '1 00:00:00' },
    });
    expect(created.status).toBe(201);
    expectSpecValid('post', TOKENS, 201, created.body);
    const expires = Date.parse((created.body as { expires: string }).expires);
    expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect(
      await call(server, 'POST', TOKENS, {
        json: { name: 'bad-expiry', platform_key: server.org, expires_in: 'soon' },
      }),
    ).toMatchObject({
      status: 400,
      body: {
        expires_in: ['Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].'],
      },
    });
  });

  it('answers DRF field errors for a body the spec refuses, and for a duplicate name', async () => {
    const post = (json: unknown) => call(server, 'POST', TOKENS, { json });
    expect(await post({ name: 'has space', platform_key: server.org })).toMatchObject({
      status: 400,
      body: { name: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'] },
    });
    expect(await post({ name: 'x'.repeat(256), platform_key: server.org })).toMatchObject({
      status: 400,
      body: { name: ['Ensure this field has no more than 255 characters.'] },
    });
    expect(await post({ platform_key: server.org })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    expect(await post({ name: 'no-tenant' })).toMatchObject({
      status: 400,
      body: { platform_key: ['This field is required.'] },
    });
    expect(await post({ name: 42, platform_key: server.org })).toMatchObject({
      status: 400,
      body: { name: ['Not a valid string.'] },
    });
    expect(await post(['a list'])).toMatchObject({
      status: 400,
      body: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    });
    expect((await post({ name: 'twice', platform_key: server.org })).status).toBe(201);
    expect(await post({ name: 'twice', platform_key: server.org })).toMatchObject({
      status: 400,
      body: { name: ['platform api key with this name already exists.'] },
    });
  });

  it("needs the platform_key of the caller's own tenant, and a tenant admin", async () => {
    expect(await call(server, 'GET', TOKENS)).toMatchObject({
      status: 400,
      body: { platform_key: ['This field is required.'] },
    });
    expect(await call(server, 'GET', `${TOKENS}?platform_key=${server.otherOrg.org}`)).toMatchObject({
      status: 404,
      body: { detail: 'Organization not found' },
    });
    expect(
      await call(server, 'POST', TOKENS, { json: { name: 'elsewhere', platform_key: server.otherOrg.org } }),
    ).toMatchObject({ status: 404, body: { detail: 'Organization not found' } });
    expect((await call(server, 'GET', `${TOKENS}?platform_key=${server.org}`, { key: server.studentKey })).status).toBe(
      403,
    );
    expect((await call(server, 'GET', `${TOKENS}?platform_key=${server.org}`, { key: null })).status).toBe(401);
    // The other tenant's tokens are its own.
    const theirs = await call(server, 'GET', `${TOKENS}?platform_key=${server.otherOrg.org}`, {
      key: server.otherOrg.apiKey,
    });
    expect((theirs.body as { name: string }[]).map((t) => t.name)).toEqual(['sandbox']);
  });
});

describe('sandbox resources: the domain whitelist', () => {
  it('adds a domain (active unless said otherwise) and answers the check for it', async () => {
    const added = await call(server, 'POST', WHITELIST, { json: { url: 'learn.northbridge.example' } });
    expect(added).toMatchObject({ status: 201, body: { url: 'learn.northbridge.example', is_active: true } });
    expectSpecValid('post', WHITELIST, 201, added.body);
    const inactive = await call(server, 'POST', WHITELIST, {
      json: { url: 'old.northbridge.example', is_active: false },
    });
    expect(inactive).toMatchObject({ status: 201, body: { url: 'old.northbridge.example', is_active: false } });

    expect(await call(server, 'GET', `${WHITELIST}?url=learn.northbridge.example`)).toMatchObject({
      status: 200,
      body: { url: 'learn.northbridge.example', is_active: true },
    });
    expect((await call(server, 'GET', `${WHITELIST}?url=learn.northbridge.example&is_active=true`)).status).toBe(200);
    expect((await call(server, 'GET', `${WHITELIST}?url=learn.northbridge.example&is_active=false`)).status).toBe(404);
    expect((await call(server, 'GET', `${WHITELIST}?url=old.northbridge.example&is_active=false`)).status).toBe(200);
    expect(await call(server, 'GET', `${WHITELIST}?url=never.example`)).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
    // The spec leaves the check open to callers without credentials.
    expect((await call(server, 'GET', `${WHITELIST}?url=learn.northbridge.example`, { key: null })).status).toBe(200);
  });

  it('answers DRF field errors: a duplicate, a missing url, a value of the wrong type', async () => {
    expect((await call(server, 'POST', WHITELIST, { json: { url: 'twice.example' } })).status).toBe(201);
    expect(await call(server, 'POST', WHITELIST, { json: { url: 'twice.example' } })).toMatchObject({
      status: 400,
      body: { url: ['whitelisted domain with this url already exists.'] },
    });
    expect(await call(server, 'POST', WHITELIST, { json: { is_active: true } })).toMatchObject({
      status: 400,
      body: { url: ['This field is required.'] },
    });
    expect(await call(server, 'POST', WHITELIST, { json: { url: 'typed.example', is_active: 'yes' } })).toMatchObject({
      status: 400,
      body: { is_active: ['Must be a valid boolean.'] },
    });
    expect(await call(server, 'GET', WHITELIST)).toMatchObject({
      status: 400,
      body: { url: ['This field is required.'] },
    });
    expect(await call(server, 'GET', `${WHITELIST}?url=twice.example&is_active=maybe`)).toMatchObject({
      status: 400,
      body: { is_active: ['Must be a valid boolean.'] },
    });
  });

  it("keeps each tenant's whitelist apart, and lets only a tenant admin add to it", async () => {
    expect((await call(server, 'POST', WHITELIST, { json: { url: 'mine.example' } })).status).toBe(201);
    expect((await call(server, 'GET', `${WHITELIST}?url=mine.example`, { key: server.otherOrg.apiKey })).status).toBe(
      404,
    );
    expect(
      (await call(server, 'POST', WHITELIST, { json: { url: 'mine.example' }, key: server.otherOrg.apiKey })).status,
    ).toBe(201);
    expect((await call(server, 'POST', WHITELIST, { json: { url: 'x.example' }, key: server.studentKey })).status).toBe(
      403,
    );
    expect((await call(server, 'POST', WHITELIST, { json: { url: 'x.example' }, key: null })).status).toBe(401);
  });
});

describe('sandbox resources: LTI keys', () => {
  it('creates a key with its RSA public half (PEM and JWK), lists, reads, renames and deletes it', async () => {
    const created = await call(server, 'POST', LTI_KEYS, { json: { name: 'Canvas', platform_key: server.org } });
    expect(created.status).toBe(201);
    expectSpecValid('post', LTI_KEYS, 201, created.body);
    const key = created.body as {
      id: number;
      name: string;
      public_key: string;
      public_jwk: { kty: string; n: string };
    };
    expect(key.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(key.public_jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect('platform_key' in key).toBe(false);

    const listed = await call(server, 'GET', `${LTI_KEYS}?platform_key=${server.org}`);
    expectSpecValid('get', LTI_KEYS, 200, listed.body);
    expect((listed.body as { id: number }[]).map((k) => k.id)).toContain(key.id);
    const one = await call(server, 'GET', `${LTI_KEYS}${key.id}/?platform_key=${server.org}`);
    expect(one.status).toBe(200);
    expectSpecValid('get', `${LTI_KEYS}{id}/`, 200, one.body);

    const renamed = await call(server, 'PUT', `${LTI_KEYS}${key.id}/`, {
      json: { name: 'Canvas production', platform_key: server.org },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { id: key.id, name: 'Canvas production', public_key: key.public_key },
    });
    expectSpecValid('put', `${LTI_KEYS}{id}/`, 200, renamed.body);

    expect((await call(server, 'DELETE', `${LTI_KEYS}${key.id}/?platform_key=${server.org}`)).status).toBe(204);
    expect(await call(server, 'GET', `${LTI_KEYS}${key.id}/?platform_key=${server.org}`)).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
  });

  it("refuses what the spec refuses, and keeps each tenant's keys to itself", async () => {
    expect(await call(server, 'POST', LTI_KEYS, { json: { platform_key: server.org } })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    const created = await call(server, 'POST', LTI_KEYS, { json: { name: 'Moodle', platform_key: server.org } });
    const id = (created.body as { id: number }).id;
    expect(await call(server, 'PUT', `${LTI_KEYS}${id}/`, { json: { platform_key: server.org } })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    expect(await call(server, 'GET', `${LTI_KEYS}${id}/`)).toMatchObject({
      status: 400,
      body: { platform_key: ['This field is required.'] },
    });
    expect(
      (
        await call(server, 'GET', `${LTI_KEYS}${id}/?platform_key=${server.otherOrg.org}`, {
          key: server.otherOrg.apiKey,
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(server, 'GET', `${LTI_KEYS}?platform_key=${server.org}`, { key: server.studentKey })).status,
    ).toBe(403);
    expect((await call(server, 'DELETE', `${LTI_KEYS}9999/?platform_key=${server.org}`)).status).toBe(404);
  });
});
