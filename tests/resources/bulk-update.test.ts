/**
 * The last parts of the kit's bulk and relation work, on a real engine, CLI and sandbox: one set of values set on
 * many records as a 'resource-bulk' job (a record already holding them is unchanged and not sent; a refusal fails
 * its own record), and a delete of a record that others refer to says which (never refuses: the platform decides).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { connect, failure, until } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession, tempDir } from '../helpers/temp';

let server: Sandbox;
beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
});
afterEach(() => server.setFaults(''));

const KEYS = '/api/core/lti/1p3/provider/lti-keys/';
const TOOLS = '/api/core/lti/1p3/provider/lti-tools/';

async function platformKey(name: string): Promise<string> {
  const made = await call(server, 'POST', KEYS, { json: { name, platform_key: server.org } });
  return String((made.body as { id: number }).id);
}

async function platformTool(title: string, key: string): Promise<string> {
  const made = await call(server, 'POST', TOOLS, {
    json: {
      platform_key: server.org,
      title,
      issuer: 'https://lms.example.edu',
      client_id: `${title}-client`,
      auth_login_url: 'https://lms.example.edu/login',
      auth_token_url: 'https://lms.example.edu/token',
      tool_key: Number(key),
      deployment_ids: ['1'],
      launch_gate: {},
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return String((made.body as { id: number }).id);
}

const namesOnPlatform = async () =>
  Object.fromEntries(
    ((await call(server, 'GET', `${KEYS}?platform_key=${server.org}`)).body as { id: number; name: string }[]).map(
      (key) => [String(key.id), key.name],
    ),
  );

describe('bulk update as a job', () => {
  it('sets one field on many records: updated, unchanged when already so, a refusal fails its own record', async () => {
    const c = await connect(server);
    const a = await platformKey('Update A');
    const b = await platformKey('Update B');
    const same = await platformKey('Shared signing');
    await c.engine.invoke('resources.list', { kind: 'lti-keys', refresh: true });
    server.setFaults(`refusePath=${KEYS}${b}/:403:You do not have permission to perform this action.`);
    const started = await c.engine.invoke('resources.bulk', {
      kind: 'lti-keys',
      action: 'update',
      ids: [a, b, same],
      values: { name: 'Shared signing' },
    });
    expect(started.title).toMatch(/^Change 3 LTI keys on /);
    const job = await until('the bulk update', async () => {
      const now = await c.engine.invoke('jobs.get', { id: started.id });
      return now.state === 'completed' && now;
    });
    server.setFaults('');
    expect(job.counts).toMatchObject({ updated: 1, unchanged: 1 });
    const { items } = await c.engine.invoke('jobs.items', { id: job.id });
    expect(items.map((item) => [item.key, item.state, item.phase])).toEqual([
      [a, 'done', 'updated'],
      [b, 'failed', 'refused'],
      [same, 'done', 'unchanged'],
    ]);
    expect(items[1]!.error).toContain('You do not have permission to perform this action.');
    const names = await namesOnPlatform();
    expect([names[a], names[b], names[same]]).toEqual(['Shared signing', 'Update B', 'Shared signing']);
    // The cache has the change: the list shows it at once.
    const listed = await c.engine.invoke('resources.list', { kind: 'lti-keys', where: { name: 'Shared signing' } });
    expect(listed.records.map((r) => String(r.id)).sort()).toEqual([a, same].sort());

    // Run again: nothing left to change is sent.
    const again = await c.engine.invoke('resources.bulk', {
      kind: 'lti-keys',
      action: 'update',
      ids: [a, same],
      values: { name: 'Shared signing' },
    });
    const second = await until('the second run', async () => {
      const now = await c.engine.invoke('jobs.get', { id: again.id });
      return now.state === 'completed' && now;
    });
    expect(second.counts).toMatchObject({ unchanged: 2 });
    expect(second.counts.updated ?? 0).toBe(0);
  });

  it('checks the values by the spec before writing the job, and takes no secret', async () => {
    const c = await connect(server);
    const a = await platformKey('Checked');
    expect(await failure(c.engine, 'resources.bulk', { kind: 'lti-keys', action: 'update', ids: [a] })).toMatchObject({
      code: 'validation',
    });
    expect(
      await failure(c.engine, 'resources.bulk', {
        kind: 'lti-tools',
        action: 'update',
        ids: ['1'],
        values: { tool_key: 'three' },
      }),
    ).toMatchObject({ code: 'validation', message: expect.stringContaining('tool_key') });
    expect(
      await failure(c.engine, 'resources.bulk', {
        kind: 'credentials',
        action: 'update',
        ids: ['openai'],
        values: { value: { key: 'sk-secret' } },
      }),
    ).toMatchObject({ code: 'validation', message: expect.stringContaining('secret') });
    expect(
      await failure(c.engine, 'resources.bulk', {
        kind: 'api-tokens',
        action: 'update',
        ids: ['sandbox'],
        values: { name: 'x' },
      }),
    ).toMatchObject({ code: 'validation' });
  });
});

describe('deleting what others refer to', () => {
  it('names the records that refer to it from the cache, and says when that list is not fresh', async () => {
    const c = await connect(server);
    const key = await platformKey('Referred key');
    const alone = await platformKey('Lonely key');
    const tool = await platformTool('Canvas courses', key);
    // The tools were never read on this tenant: the engine cannot be sure, and says so.
    const unread = await c.engine.invoke('resources.referrers', { kind: 'lti-keys', ids: [key] });
    expect(unread.unsure).toEqual([
      { kind: 'lti-tools', asOf: null, reason: 'LTI tools of this tenant have not been read yet', error: null },
    ]);
    // Asked to be sure (the CLI), the tools are read first.
    const sure = await c.engine.invoke('resources.referrers', { kind: 'lti-keys', ids: [key, alone], refresh: true });
    expect(sure).toEqual({
      referrers: [{ kind: 'lti-tools', field: 'tool_key', id: tool, name: 'Canvas courses', refersTo: key }],
      unsure: [],
    });
    // Kinds nothing refers to: nothing to say.
    expect(await c.engine.invoke('resources.referrers', { kind: 'api-tokens', ids: ['sandbox'] })).toEqual({
      referrers: [],
      unsure: [],
    });
    // The tenant stops answering: the saved tools are named, with why the list may be old.
    server.setFaults('error5xx=1');
    await c.engine.invoke('resources.list', { kind: 'lti-tools', refresh: true });
    const offline = await c.engine.invoke('resources.referrers', { kind: 'lti-keys', ids: [key] });
    expect(offline.referrers.map((r) => r.name)).toEqual(['Canvas courses']);
    expect(offline.unsure[0]).toMatchObject({ kind: 'lti-tools', error: expect.stringMatching(/not answering/) });
  });

  it('the CLI warns, then deletes with --yes all the same (the platform is the authority)', async () => {
    const dataDir = tempDir('referrers-cli-');
    const env = { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' };
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const added = await run([
      'profile',
      'add',
      'Sandbox',
      '--url',
      server.url,
      '--org',
      server.org,
      '--user',
      server.user,
    ]);
    expect(added.code, added.stderr).toBe(0);
    await run(['profile', 'use', 'Sandbox']);
    const key = await platformKey('CLI referred');
    const tool = await platformTool('Moodle CLI', key);
    const deleted = await run(['delete', 'lti-keys', key, '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(
      `Warning: LTI tool "Moodle CLI" (${tool}) refers to LTI key ${key} through tool_key`,
    );
    expect(deleted.stdout).toContain(`Deleted LTI key "${key}".`);
    expect((await namesOnPlatform())[key]).toBeUndefined();

    // Several IDs through `update`: the same job as the screen's bulk change.
    const x = await platformKey('CLI X');
    const y = await platformKey('CLI Y');
    const updated = await run(['update', 'lti-keys', x, y, '--set', 'name=CLI Y', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.lines).toEqual([
      { kind: 'lti-keys', id: x, updated: true },
      { kind: 'lti-keys', id: y, updated: false, unchanged: true },
      { job: expect.any(String), updated: 1, unchanged: 1, failed: 0, state: 'completed' },
    ]);
    const names = await namesOnPlatform();
    expect([names[x], names[y]]).toEqual(['CLI Y', 'CLI Y']);
  });
});
