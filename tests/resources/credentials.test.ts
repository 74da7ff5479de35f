/**
 * Credentials and the LLM settings over a real engine and a real sandbox: the form's fields from the platform's
 * credential schema (read once per tenant), a pasted secret trimmed and said so, values masked on every read, and a
 * known secret found in no file of the data folder (the cache database, the log) and in no answer or event the
 * bridge carries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRIMMED_NOTE } from '../../src/shared/resources';
import type { Sandbox } from '../../src/server/app';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});
afterEach(() => server.setFaults(''));

const SECRET = 'sk-proj-Zq81LmXv0pKe55Tn';

describe('resources: LLM provider keys', () => {
  it('builds the form from the credential schema, trims a padded key and says so, and keeps it out of every file and answer', async () => {
    const c = await connect(server);
    // Every answer and event the bridge would carry, as it would carry it.
    const carried: string[] = [];
    const invoke = async <T>(answer: Promise<T>) => {
      const value = await answer;
      carried.push(JSON.stringify(value));
      return value;
    };

    const described = await invoke(c.engine.invoke('resources.describe', { kind: 'credentials' }));
    expect(described.choices.map((choice) => choice.name)).toEqual(['anthropic', 'azure-openai', 'google', 'openai']);
    expect(described.choices.find((choice) => choice.name === 'azure-openai')).toEqual({
      name: 'azure-openai',
      label: 'Azure OpenAI',
      fields: [
        { name: 'key', type: 'string' },
        { name: 'endpoint', type: 'string' },
        { name: 'api_version', type: 'string' },
      ],
    });
    // Kept per tenant: read again while the platform fails, it is the same description.
    server.setFaults('error5xx=1');
    expect(await c.engine.invoke('resources.describe', { kind: 'credentials' })).toEqual(described);
    server.setFaults('');

    const created = await invoke(
      c.engine.invoke('resources.create', {
        kind: 'credentials',
        values: { name: 'openai', value: { key: `  ${SECRET}\n` } },
      }),
    );
    expect(created.notes).toEqual([{ path: 'value.key', message: TRIMMED_NOTE }]);
    // The sandbox echoed the key in full; what the engine answers and keeps is the masked view of it.
    expect(created.record).toMatchObject({ name: 'openai', value: { key: '************55Tn' } });
    const listed = await invoke(c.engine.invoke('resources.list', { kind: 'credentials' }));
    expect(listed.records).toEqual([expect.objectContaining({ name: 'openai', value: { key: '************55Tn' } })]);
    // Stored trimmed: the platform's own read ends with the key's last characters, not with the padding.
    const platform = await call(server, 'GET', `/api/ai-account/orgs/${server.org}/masked-llm-credential/?name=openai`);
    expect(platform.body).toEqual([expect.objectContaining({ value: { key: '************55Tn' } })]);

    // Replaced, never shown: a new key goes in, the answer is masked again.
    const replaced = await invoke(
      c.engine.invoke('resources.update', {
        kind: 'credentials',
        id: 'openai',
        values: { value: { key: `${SECRET}-v2 ` } },
      }),
    );
    expect(replaced.notes).toEqual([{ path: 'value.key', message: TRIMMED_NOTE }]);
    expect(replaced.record).toMatchObject({ value: { key: '************n-v2' } });
    await invoke(c.engine.invoke('resources.get', { kind: 'credentials', id: 'openai' }));
    const events = c.events.map((event) => JSON.stringify(event));
    expect(c.events.some((event) => event.name === 'resources.changed')).toBe(true);

    const dataDir = c.dataDir;
    const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
    expect(db.prepare("SELECT count(*) FROM resource_records WHERE kind = 'credentials'").pluck().get()).toBe(1);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    await c.engine.close();
    // The log is real and holds the calls made, but not the key.
    const log = readFileSync(join(dataDir, 'logs', 'engine.log'), 'utf8');
    expect(log).toContain('/credential/');
    for (const secret of [SECRET, `${SECRET}-v2`]) {
      expect(filesContaining(dataDir, secret)).toEqual([]);
      expect([...carried, ...events].filter((text) => text.includes(secret))).toEqual([]);
    }
  });

  it('does not read keys from a CSV file: secrets stay out of files, and nothing is sent', async () => {
    const c = await connect(server);
    const text = `name,value\nanthropic,"{""key"":""sk-ant-0nce""}"\n`;
    for (const kind of ['credentials', 'integration-credentials'] as const) {
      const refused = await failure(c.engine, 'resources.import', { kind, text, name: 'keys.csv', start: true });
      expect(refused.message).toMatch(/cannot be imported: their values are secrets, and a secret belongs in no file/);
    }
    const platform = await call(
      server,
      'GET',
      `/api/ai-account/orgs/${server.org}/masked-llm-credential/?name=anthropic`,
    );
    expect(platform).toMatchObject({ status: 404, body: { detail: 'Not found.' } });
  });

  it('puts the platform’s refusal at its field, and deletes a key by its name', async () => {
    const c = await connect(server);
    expect(
      await failure(c.engine, 'resources.create', {
        kind: 'credentials',
        values: { name: 'nosuch', value: { key: 'x' } },
      }),
    ).toMatchObject({
      code: 'validation',
      issues: [{ path: 'name', message: 'Select a valid choice. nosuch is not one of the available choices.' }],
    });
    expect(
      await failure(c.engine, 'resources.create', { kind: 'credentials', values: { name: 'google', value: 'text' } }),
    ).toMatchObject({ code: 'validation', issues: [{ path: 'value', message: 'Expected a dictionary of items.' }] });
    await c.engine.invoke('resources.create', {
      kind: 'credentials',
      values: { name: 'google', value: { key: 'g-key-0001' } },
    });
    await c.engine.invoke('resources.delete', { kind: 'credentials', id: 'google' });
    const listed = await c.engine.invoke('resources.list', { kind: 'credentials', refresh: true });
    expect(listed.records.map((record) => record.name)).not.toContain('google');
  });

  it('integration keys: every field of a service account trimmed and masked', async () => {
    const c = await connect(server);
    const described = await c.engine.invoke('resources.describe', { kind: 'integration-credentials' });
    expect(described.choices.find((choice) => choice.name === 'google-drive')?.fields.map((f) => f.name)).toEqual([
      'type',
      'project_id',
      'private_key',
      'client_email',
    ]);
    const created = await c.engine.invoke('resources.create', {
      kind: 'integration-credentials',
      values: {
        name: 'google-drive',
        value: {
          type: 'service_account',
          project_id: 'p-1',
          private_key: ' PRIVATE-9f8e7d6c5b4a ',
          client_email: 'a@b.c',
        },
      },
    });
    expect(created.notes).toEqual([{ path: 'value.private_key', message: TRIMMED_NOTE }]);
    expect(JSON.stringify(created)).not.toContain('PRIVATE-9f8e7d6c5b4a');
    expect(created.record).toMatchObject({ value: { private_key: '************5b4a' } });
    expect(await failure(c.engine, 'resources.describe', { kind: 'api-tokens' })).toMatchObject({ code: 'validation' });
  });
});

describe('resources: models and the default key', () => {
  it('lists the LLMs mentors can use and assigns a model to the tenant', async () => {
    const c = await connect(server);
    const llms = await c.engine.invoke('resources.list', { kind: 'mentor-llms' });
    expect(llms.records.map((record) => record.name)).toEqual(['openai', 'google', 'anthropic']);
    const created = await c.engine.invoke('resources.create', {
      kind: 'tenant-llms',
      values: { llm_provider: 'openai', llm_name: 'gpt-4o' },
    });
    expect(created.record).toMatchObject({ llm_provider: 'openai', llm_name: 'gpt-4o' });
    const listed = await c.engine.invoke('resources.list', { kind: 'tenant-llms', refresh: true });
    expect(listed.records).toEqual([expect.objectContaining({ llm_name: 'gpt-4o' })]);
  });

  it('switches the default key and the free trial, reads them back and announces the change', async () => {
    const c = await connect(server);
    expect(await c.engine.invoke('llmAccess.get', {})).toMatchObject({
      defaultKey: false,
      freeTrial: false,
      usage: { use_main_credentials: false, usage: 0, limit: 10000 },
    });
    expect(await c.engine.invoke('llmAccess.set', { defaultKey: true, freeTrial: true })).toEqual({
      messages: ['Tenant is now using the main credentials', 'Free trial on'],
    });
    expect(c.events.filter((event) => event.name === 'llmAccess.changed')).toHaveLength(1);
    expect(await c.engine.invoke('llmAccess.get', {})).toMatchObject({ defaultKey: true, freeTrial: true });
    await c.engine.invoke('llmAccess.set', { freeTrial: false });
    expect(await c.engine.invoke('llmAccess.get', {})).toMatchObject({ defaultKey: true, freeTrial: false });
    expect(await failure(c.engine, 'llmAccess.set', {})).toMatchObject({ code: 'validation' });
    // The tenant down: the last answer of this session, said to be so.
    server.setFaults('error5xx=1');
    const offline = await c.engine.invoke('llmAccess.get', {});
    expect(offline).toMatchObject({ defaultKey: true, freeTrial: false });
    expect(offline.offline).toMatch(/not answering .*showing what was saved earlier/);
  });

  it("keeps the last answer in the engine's cache: an engine restarted with the tenant down still shows it, said to be old", async () => {
    const first = await connect(server, { key: 'env', keep: true });
    await first.engine.invoke('llmAccess.set', { defaultKey: true, freeTrial: false });
    const fresh = await first.engine.invoke('llmAccess.get', {});
    expect(fresh).toMatchObject({ defaultKey: true, freeTrial: false, offline: null });
    await first.engine.close();

    server.setFaults('error5xx=1');
    const again = await connect(server, { key: 'env', dataDir: first.dataDir });
    const offline = await again.engine.invoke('llmAccess.get', {});
    expect(offline).toMatchObject({ defaultKey: true, freeTrial: false, usage: fresh.usage, asOf: fresh.asOf });
    expect(offline.offline).toMatch(/not answering .*showing what was saved earlier/);
    // The same profile pointed at another user of the tenant: the first one's copy is not its answer.
    await again.engine.invoke('profiles.update', { id: again.profileId, username: 'someone-else' });
    expect(await failure(again.engine, 'llmAccess.get', {})).toMatchObject({ code: 'api' });
  });
});
