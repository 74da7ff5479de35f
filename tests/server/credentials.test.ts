/**
 * Contract tests of the sandbox's credentials, tenant LLMs and LLM access (default key, free trial): every operation
 * the app uses, success answers checked against the vendor spec, errors in DRF's shape.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid, responseValidator } from '../helpers/spec';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox();
});

const base = () => `/api/ai-account/orgs/${server.org}`;
const user = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;

/**
 * The credential GETs are described as "List of … credentials" (and their examples are lists) while their schema is
 * one credential: each item of the list is checked against that schema.
 */
function expectEachSpecValid(path: string, body: unknown) {
  expect(Array.isArray(body)).toBe(true);
  const validate = responseValidator('get', path, 200)!;
  for (const item of body as unknown[]) expect(validate(item), JSON.stringify(validate.errors)).toBe(true);
}

describe('sandbox: LLM provider credentials', () => {
  const SECRET = 'sk-live-7Hq2ZrT9kLm4Pw8X';

  it('creates a key (answered as given, status 200), lists it masked, changes and deletes it by name in the body', async () => {
    const created = await call(server, 'POST', `${base()}/credential/`, {
      json: { name: 'openai', value: { key: SECRET }, platform: server.org },
    });
    expect(created.status).toBe(200);
    expectSpecValid('post', '/api/ai-account/orgs/{org}/credential/', 200, created.body);
    expect(created.body).toMatchObject({ name: 'openai', value: { key: SECRET }, platform: server.org });
    expect(created.body).toMatchObject({ service_info: { name: 'openai', display_name: 'OpenAI' } });

    const masked = await call(server, 'GET', `${base()}/masked-llm-credential/`);
    expect(masked.status).toBe(200);
    expectEachSpecValid('/api/ai-account/orgs/{org}/masked-llm-credential/', masked.body);
    expect(JSON.stringify(masked.body)).not.toContain(SECRET);
    expect(masked.body).toEqual([expect.objectContaining({ name: 'openai', value: { key: '************Pw8X' } })]);
    // The plain read masks as well.
    const plain = await call(server, 'GET', `${base()}/credential/?name=openai`);
    expect(JSON.stringify(plain.body)).not.toContain(SECRET);

    const patched = await call(server, 'PATCH', `${base()}/credential/`, {
      json: { name: 'openai', value: { key: 'sk-new-0000aaaa' }, platform: server.org },
    });
    expect(patched.status).toBe(200);
    expectSpecValid('patch', '/api/ai-account/orgs/{org}/credential/', 200, patched.body);
    const one = await call(server, 'GET', `${base()}/masked-llm-credential/?name=openai`);
    expect(one.body).toEqual([expect.objectContaining({ value: { key: '***********aaaa' } })]);

    expect(await call(server, 'DELETE', `${base()}/credential/`, { json: { name: 'openai' } })).toMatchObject({
      status: 204,
      body: null,
    });
    expect((await call(server, 'GET', `${base()}/masked-llm-credential/`)).body).toEqual([]);
    expect(await call(server, 'DELETE', `${base()}/credential/`, { json: { name: 'openai' } })).toMatchObject({
      status: 404,
    });
  });

  it('answers DRF errors: a duplicate, an unknown provider, a missing value, no name to change or delete', async () => {
    const post = (json: unknown) => call(server, 'POST', `${base()}/credential/`, { json });
    expect((await post({ name: 'google', value: { key: 'g-123456789' }, platform: server.org })).status).toBe(200);
    expect(await post({ name: 'google', value: { key: 'g-2' }, platform: server.org })).toMatchObject({
      status: 400,
      body: { name: [expect.stringContaining('already exists')] },
    });
    expect(await post({ name: 'nosuch', value: { key: 'x' }, platform: server.org })).toMatchObject({
      status: 400,
      body: { name: ['Select a valid choice. nosuch is not one of the available choices.'] },
    });
    expect(await post({ name: 'anthropic', platform: server.org })).toMatchObject({
      status: 400,
      body: { value: ['This field is required.'] },
    });
    expect(await post({ name: 'anthropic', value: { key: 'a' }, platform: server.otherOrg.org })).toMatchObject({
      status: 404,
      body: { detail: 'Organization not found' },
    });
    expect(
      await call(server, 'PATCH', `${base()}/credential/`, { json: { value: { key: 'x' }, platform: server.org } }),
    ).toMatchObject({ status: 400, body: { name: ['This field is required.'] } });
    expect(await call(server, 'DELETE', `${base()}/credential/`)).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    expect(await call(server, 'GET', `${base()}/masked-llm-credential/?name=nosuch`)).toMatchObject({ status: 404 });
    expect((await call(server, 'GET', `${base()}/masked-llm-credential/`, { key: server.studentKey })).status).toBe(
      403,
    );
    expect(
      (await call(server, 'GET', `/api/ai-account/orgs/${server.otherOrg.org}/masked-llm-credential/`)).status,
    ).toBe(404);
  });

  it("describes each provider's fields in the credential schema view", async () => {
    const all = await call(server, 'GET', `${base()}/credential/schema/`);
    expect(all.status).toBe(200);
    expectEachSpecValid('/api/ai-account/orgs/{org}/credential/schema/', all.body);
    expect(all.body).toContainEqual(expect.objectContaining({ name: 'openai', schema: { key: 'string' } }));
    const one = await call(server, 'GET', `${base()}/credential/schema/?name=azure-openai`);
    expect(one.body).toEqual([
      expect.objectContaining({ schema: { key: 'string', endpoint: 'string', api_version: 'string' } }),
    ]);
    expect((await call(server, 'GET', `${base()}/credential/schema/?name=nosuch`)).status).toBe(404);
  });
});

describe('sandbox: integration credentials', () => {
  it('creates, lists masked, describes and deletes a service credential', async () => {
    const value = {
      type: 'service_account',
      project_id: 'p-1',
      private_key: 'PRIVATE-KEY-1234',
      client_email: 'a@b.c',
    };
    const created = await call(server, 'POST', `${base()}/integration-credential/`, {
      json: { name: 'google-drive', value, platform: server.org },
    });
    expect(created.status).toBe(200);
    expectSpecValid('post', '/api/ai-account/orgs/{org}/integration-credential/', 200, created.body);
    const masked = await call(server, 'GET', `${base()}/masked-integration-credential/`);
    expectSpecValid('get', '/api/ai-account/orgs/{org}/masked-integration-credential/', 200, masked.body);
    expect(JSON.stringify(masked.body)).not.toContain('PRIVATE-KEY-1234');
    const schema = await call(server, 'GET', `${base()}/integration-credential/schema/?name=google-drive`);
    expectEachSpecValid('/api/ai-account/orgs/{org}/integration-credential/schema/', schema.body);
    expect(schema.body).toEqual([
      expect.objectContaining({ schema: expect.objectContaining({ private_key: 'string' }) }),
    ]);
    // The LLM keys are another list.
    expect(JSON.stringify((await call(server, 'GET', `${base()}/masked-llm-credential/`)).body)).not.toContain(
      'google-drive',
    );
    expect(
      (await call(server, 'DELETE', `${base()}/integration-credential/`, { json: { name: 'google-drive' } })).status,
    ).toBe(204);
  });
});

describe('sandbox: tenant LLMs and the LLMs mentors can use', () => {
  it('assigns a model to the tenant (201), answers the same record when posted again, and lists them', async () => {
    const path = `${user()}/settings/tenant-llm/`;
    const created = await call(server, 'POST', path, { json: { llm_provider: 'openai', llm_name: 'gpt-4o' } });
    expect(created.status).toBe(201);
    expectSpecValid('post', '/api/ai-mentor/orgs/{org}/users/{user_id}/settings/tenant-llm/', 201, created.body);
    const again = await call(server, 'POST', path, { json: { llm_provider: 'openai', llm_name: 'gpt-4o' } });
    expect((again.body as { id: number }).id).toBe((created.body as { id: number }).id);
    const listed = await call(server, 'GET', path);
    expectSpecValid('get', '/api/ai-mentor/orgs/{org}/users/{user_id}/settings/tenant-llm/', 200, listed.body);
    expect(listed.body).toHaveLength(1);
    expect(await call(server, 'POST', path, { json: { llm_provider: 'openai' } })).toMatchObject({
      status: 400,
      body: { llm_name: ['This field is required.'] },
    });
  });

  it('lists the providers and chat models mentors can use', async () => {
    const listed = await call(server, 'GET', `${user()}/mentor-llms/`);
    expect(listed.status).toBe(200);
    expectSpecValid('get', '/api/ai-mentor/orgs/{org}/users/{user_id}/mentor-llms/', 200, listed.body);
    expect((listed.body as { name: string }[]).map((llm) => llm.name)).toEqual(['openai', 'google', 'anthropic']);
  });
});

describe('sandbox: the default LLM key and the free trial', () => {
  it('switches the default key and the free trial on and off, and their reads follow', async () => {
    const usage = `${base()}/users/${server.user}/default-llm-key-usage`;
    const trial = `${base()}/users/${server.user}/free-trial`;
    // A tenant starts on neither (the demo seed turns both on).
    expect((await call(server, 'GET', usage)).body).toEqual({ use_main_credentials: false, usage: 0, limit: 10000 });
    expect((await call(server, 'GET', trial)).body).toEqual({ is_in_free_trial: false });
    expect((await call(server, 'POST', `${base()}/use-free-trial/`, { json: { enable: true } })).status).toBe(200);
    const on = await call(server, 'POST', `${base()}/use-default-llm-key/`, { json: { enable: true } });
    expect(on).toMatchObject({ status: 200, body: { message: 'Tenant is now using the main credentials' } });
    expect((await call(server, 'GET', usage)).body).toMatchObject({ use_main_credentials: true });
    const off = await call(server, 'POST', `${base()}/use-default-llm-key/`, { json: { disable: true } });
    expect(off).toMatchObject({ status: 200, body: { message: 'Tenant is not using the main credentials' } });
    expectSpecValid('post', '/api/ai-account/orgs/{org}/use-default-llm-key/', 200, off.body);
    expect((await call(server, 'GET', usage)).body).toMatchObject({ use_main_credentials: false });

    const read = await call(server, 'GET', trial);
    expectSpecValid('get', '/api/ai-account/orgs/{org}/users/{user_id}/free-trial', 200, read.body);
    expect(read.body).toEqual({ is_in_free_trial: true });
    expect((await call(server, 'POST', `${base()}/use-free-trial/`, { json: { disable: true } })).status).toBe(200);
    expect((await call(server, 'GET', trial)).body).toEqual({ is_in_free_trial: false });

    for (const path of ['use-default-llm-key/', 'use-free-trial/']) {
      expect(await call(server, 'POST', `${base()}/${path}`, { json: {} })).toMatchObject({
        status: 400,
        body: { non_field_errors: ['Either enable or disable must be true.'] },
      });
      expect(
        (await call(server, 'POST', `${base()}/${path}`, { json: { enable: true }, key: server.studentKey })).status,
      ).toBe(403);
    }
    // Another tenant's switches are its own.
    const theirs = await call(server, 'GET', `/api/ai-account/orgs/${server.otherOrg.org}/users/x/free-trial`, {
      key: server.otherOrg.apiKey,
    });
    expect(theirs.body).toEqual({ is_in_free_trial: false });
  });
});
