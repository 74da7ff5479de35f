import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';
import { tempDir } from '../helpers/temp';

describe('sandbox: tenancy and auth', () => {
  it('accepts the four Authorization forms and refuses missing or bad credentials with 401', async () => {
    const server = await sandbox();
    const users = '/api/core/platform/users/?page_size=5';
    expect((await call(server, 'GET', users)).status).toBe(200);
    expect((await call(server, 'GET', users, { scheme: 'Api-Token' })).status).toBe(200);
    const minted = await call(server, 'POST', '/api/core/consolidated-token/proxy/', {
      json: { username: server.user, platform_key: server.org },
    });
    expect(minted.status).toBe(200);
    expectSpecValid('post', '/api/core/consolidated-token/proxy/', 200, minted.body);
    const { dm_token } = (minted.body as { data: { dm_token: { token: string } } }).data;
    expect((await call(server, 'GET', users, { scheme: 'Token', key: dm_token.token })).status).toBe(200);
    expect((await call(server, 'GET', users, { scheme: 'Bearer', key: dm_token.token })).status).toBe(200);
    expect(await call(server, 'GET', users, { key: null })).toMatchObject({
      status: 401,
      body: { detail: 'Authentication credentials were not provided.' },
    });
    expect((await call(server, 'GET', users, { key: 'wrong' })).status).toBe(401);
    expect((await call(server, 'GET', users, { scheme: 'Basic', key: 'x' })).status).toBe(401);
  });

  it('answers 404 Organization not found for another tenant, and 403 to a student on an admin endpoint', async () => {
    const server = await sandbox();
    const other = `/api/ai-account/orgs/${server.otherOrg.org}/credential/?name=llm`;
    expect(await call(server, 'GET', other)).toMatchObject({ status: 404, body: { detail: 'Organization not found' } });
    expect((await call(server, 'GET', '/api/core/platform/users/', { key: server.studentKey })).status).toBe(403);
  });

  it('creates, lists and deletes platform API keys, and a deleted key stops working', async () => {
    const server = await sandbox();
    const created = await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: 'ci-key', platform_key: server.org },
    });
    expect(created.status).toBe(201);
    expectSpecValid('post', '/api/core/platform/api-tokens/', 201, created.body);
    const key = (created.body as { key: string }).key;
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(200);
    const listed = await call(server, 'GET', `/api/core/platform/api-tokens/?platform_key=${server.org}`);
    expectSpecValid('get', '/api/core/platform/api-tokens/', 200, listed.body);
    expect((listed.body as { name: string }[]).map((k) => k.name)).toContain('ci-key');
    expect(
      (await call(server, 'DELETE', `/api/core/platform/api-tokens/ci-key?platform_key=${server.org}`)).status,
    ).toBe(204);
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(401);
  });

  it('pages platform users and masks credential values on read', async () => {
    const server = await sandbox();
    const page = await call(server, 'GET', '/api/core/platform/users/?page=1&page_size=1');
    expectSpecValid('get', '/api/core/platform/users/', 200, page.body);
    expect(page.body).toMatchObject({ count: 2, next_page: 2 });
    const path = `/api/ai-account/orgs/${server.org}/credential/`;
    expect(
      (
        await call(server, 'POST', path, {
          json: { name: 'openai', value: { key: 'sk-secret-123456' }, platform: server.org },
        })
      ).status,
    ).toBe(200);
    const read = await call(server, 'GET', `${path}?name=openai`);
    expect(JSON.stringify(read.body)).not.toContain('sk-secret-123456');
    expect(JSON.stringify(read.body)).toContain('3456');
  });
});

describe('npm run server', () => {
  it('prints one JSON line, keeps data across restarts and exits 0 on SIGTERM', async () => {
    const data = tempDir();
    const start = () =>
      new Promise<{ line: Record<string, string>; stop: () => Promise<number | null> }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          // What `npm run server` runs: the build, with plain Node.
          ['out/main/sandbox.js', '--port', '0', '--seed', 'none', '--data', data],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('\n')) {
            resolve({
              line: JSON.parse(out.split('\n')[0]!) as Record<string, string>,
              stop: () =>
                new Promise((done) => {
                  child.once('exit', (code) => done(code));
                  child.kill('SIGTERM');
                }),
            });
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
    const first = await start();
    expect(Object.keys(first.line)).toEqual(['url', 'org', 'user', 'apiKey', 'studentUser', 'studentKey']);
    expect(first.line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await first.stop()).toBe(0);
    const second = await start();
    expect(second.line.apiKey).toBe(first.line.apiKey);
    expect(await second.stop()).toBe(0);
  });
});
