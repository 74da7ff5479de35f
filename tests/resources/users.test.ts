/**
 * The user directory: the sandbox's `platform/users/`, `users/search/` and `users/delete/` as the spec has them
 * (admin keys only, one tenant never sees or removes another's people); the kit's `users` kind read page by page
 * into the engine's cache, searched there and read by id; a person removed only once their name is typed, with what
 * went; `mentor-admin get users --where email=… -o json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { seedUsers } from '../../src/server/areas/core-users';
import { openDatabase } from '../../src/main/engine/store/database';
import { cli } from '../helpers/cli';
import { failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';
import { cliTenant, engineFor } from '../invitations/setup';
import { tempDir } from '../helpers/temp';

type Row = Record<string, unknown>;
type Page = { count: number; next_page: number; previous_page: number; results: Row[] };
const USERS = '/api/core/platform/users/';
const SEARCH = '/api/core/users/search/';
const DELETE = '/api/core/users/delete/';

let server: Sandbox;
const idOf = (username: string) =>
  server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;

beforeAll(async () => {
  server = await sandbox();
  seedUsers(server.db, server.org, 240);
  seedUsers(server.db, server.otherOrg.org, 5);
});

describe('people in the sandbox', () => {
  it('platform/users/ pages the tenant’s people with the spec’s fields and page numbers', async () => {
    const first = await call(server, 'GET', `${USERS}?platform_key=${server.org}&page=1&page_size=100`);
    expect(first.status).toBe(200);
    expectSpecValid('get', USERS, 200, first.body);
    const page = first.body as Page;
    // 240 seeded, the admin and the one learner of an empty sandbox.
    expect(page).toMatchObject({ count: 242, next_page: 2, previous_page: 0 });
    expect(page.results).toHaveLength(100);
    const last = (await call(server, 'GET', `${USERS}?page=3&page_size=100`)).body as Page;
    expect(last).toMatchObject({ next_page: 0, previous_page: 2 });
    expect(last.results).toHaveLength(42);
    const admin = (await call(server, 'GET', `${USERS}?query=${server.user}@`)).body as Page;
    expect(admin.results[0]).toMatchObject({
      username: server.user,
      name: 'Alex Morgan',
      email: 'admin@northbridge.example',
      is_admin: true,
      is_staff: true,
      active: true,
      platform_key: server.org,
      added_on: expect.any(String),
    });
  });

  it('query finds people by name, username or email, any case; sort orders them', async () => {
    const byEmail = (await call(server, 'GET', `${USERS}?query=NORTHBRIDGE-PERSON00007@`)).body as Page;
    expect(byEmail.results.map((u) => u.username)).toEqual(['northbridge-person00007']);
    const byName = (await call(server, 'GET', `${USERS}?query=alex%20morg`)).body as Page;
    expect(byName.results.map((u) => u.username)).toEqual([server.user]);
    // A LIKE wildcard typed by the admin is a character, not "anything".
    expect(((await call(server, 'GET', `${USERS}?query=%25`)).body as Page).count).toBe(0);
    const sorted = (await call(server, 'GET', `${USERS}?sort=-username&page_size=2`)).body as Page;
    expect(sorted.results.map((u) => u.username)).toEqual(['northbridge-person00240', 'northbridge-person00239']);
  });

  it('users/search/ answers the spec’s shape, for the caller’s tenant only', async () => {
    const found = await call(server, 'GET', `${SEARCH}?query=person0001&page_size=5`);
    expect(found.status).toBe(200);
    expectSpecValid('get', SEARCH, 200, found.body);
    const page = found.body as Page;
    expect(page.count).toBe(10);
    expect(page.results[0]).toMatchObject({ active: true, edx_data: { name: expect.any(String) } });
    const other = (await call(server, 'GET', `${SEARCH}?query=person`, { key: server.otherOrg.apiKey })).body as Page;
    expect(other.count).toBe(5);
    expect(other.results.every((u) => String(u.username).startsWith('riverside-'))).toBe(true);
  });

  it('a learner’s key is refused; another tenant’s key sees only its people and cannot name this tenant', async () => {
    for (const path of [USERS, SEARCH]) {
      expect(await call(server, 'GET', path, { key: server.studentKey })).toMatchObject({
        status: 403,
        body: { detail: 'You do not have permission to perform this action.' },
      });
      expect((await call(server, 'GET', path, { key: null })).status).toBe(401);
    }
    const theirs = (await call(server, 'GET', USERS, { key: server.otherOrg.apiKey })).body as Page;
    expect(theirs.count).toBe(6);
    expect(
      await call(server, 'GET', `${USERS}?platform_key=${server.org}`, { key: server.otherOrg.apiKey }),
    ).toMatchObject({ status: 404, body: { detail: 'Organization not found' } });
  });

  it('return_policies gives each person their RBAC policies and the tenant’s policy names', async () => {
    const learner = idOf(server.studentUser);
    const role = (
      await call(server, 'POST', '/api/core/rbac/roles/', { json: { name: 'Viewer', platform_key: server.org } })
    ).body as Row;
    await call(server, 'POST', '/api/core/rbac/policies/', {
      json: {
        name: 'Mentor viewers',
        role_id: role.id,
        platform_key: server.org,
        resources: [],
        users_to_add: [learner],
      },
    });
    const answer = await call(server, 'GET', `${USERS}?query=${server.studentUser}&return_policies=true`);
    expectSpecValid('get', USERS, 200, answer.body);
    expect(answer.body).toMatchObject({
      allowed_policies: ['Mentor viewers'],
      results: [{ username: server.studentUser, policies: ['Mentor viewers'] }],
    });
  });

  it('users/delete/ takes a person off the tenant: listed nowhere, memberships and keys gone', async () => {
    const fresh = await sandbox();
    const id = fresh.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(fresh.studentUser) as number;
    const dept = fresh.db.prepare("INSERT INTO departments (org, name) VALUES (?, 'Nursing')").run(fresh.org);
    fresh.db.prepare('UPDATE users SET department_id = ? WHERE id = ?').run(dept.lastInsertRowid, id);
    const group = fresh.db.prepare("SELECT id FROM user_groups WHERE name = 'Cohort 2026'").pluck().get() as number;
    fresh.db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(group, id);
    expect((await call(fresh, 'GET', USERS, { key: fresh.studentKey })).status).toBe(403);

    // A learner may not remove someone else; another tenant's admin does not find them.
    expect((await call(fresh, 'POST', DELETE, { key: fresh.studentKey, json: { username: fresh.user } })).status).toBe(
      403,
    );
    const elsewhere = await call(fresh, 'POST', DELETE, {
      key: fresh.otherOrg.apiKey,
      json: { username: fresh.studentUser },
    });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: `User ${fresh.studentUser} not found` } });
    expectSpecValid('post', DELETE, 400, elsewhere.body);

    const removed = await call(fresh, 'POST', DELETE, { json: { username: fresh.studentUser } });
    expect(removed).toMatchObject({
      status: 202,
      body: { message: `Account deletion initiated for ${fresh.studentUser}` },
    });
    expectSpecValid('post', DELETE, 202, removed.body);
    const listed = (await call(fresh, 'GET', `${USERS}?query=${fresh.studentUser}`)).body as Page;
    expect(listed.count).toBe(0);
    const members = (await call(fresh, 'GET', `/api/core/user_groups/link/?group_id=${group}`)).body as Page;
    expect(members.results.some((m) => m.user_id === id)).toBe(false);
    expect(fresh.db.prepare('SELECT department_id FROM users WHERE id = ?').pluck().get(id)).toBeNull();
    // Their own key stopped working.
    expect((await call(fresh, 'GET', '/api/core/departments/', { key: fresh.studentKey })).status).toBe(401);
    // Again: already gone.
    expect((await call(fresh, 'POST', DELETE, { json: { username: fresh.studentUser } })).status).toBe(400);
    expect((await call(fresh, 'POST', DELETE, { json: { username: 42 } })).status).toBe(400);
  });

  it('the vendor SDK reads the directory', async () => {
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const page = await CoreService.coreUsersSearchRetrieve({ query: 'person00012' });
    expect(page.results.map((u) => (u as Row).username)).toEqual(['northbridge-person00012']);
  });
});

describe('the users kind in the engine and the CLI', () => {
  it('reads every page into the cache, searches it by name, username or email, and reads a person by id', async () => {
    const { engine } = await engineFor(server);
    const first = await engine.invoke('resources.list', { kind: 'users', refresh: true, whole: true, pageSize: 25 });
    expect(first.total).toBe(242);
    const found = await engine.invoke('resources.list', { kind: 'users', search: 'PERSON00123@', pageSize: 25 });
    expect(found.records.map((u) => u.username)).toEqual(['northbridge-person00123']);
    const byName = await engine.invoke('resources.list', { kind: 'users', search: 'alex morgan' });
    expect(byName.records.map((u) => u.username)).toEqual([server.user]);
    const id = String(idOf('northbridge-person00123'));
    const { record } = await engine.invoke('resources.get', { kind: 'users', id });
    expect(record).toMatchObject({ username: 'northbridge-person00123', user_id: Number(id) });
    expect(await failure(engine, 'resources.get', { kind: 'users', id: '99999999' })).toMatchObject({
      code: 'not_found',
    });
  });

  it('a person on the list’s last page is read by id before anything is cached (the page of a link)', async () => {
    const { engine } = await engineFor(server);
    // The list is newest first: the admin, added first, is on its last page.
    const { record } = await engine.invoke('resources.get', { kind: 'users', id: String(idOf(server.user)) });
    expect(record).toMatchObject({ username: server.user, is_admin: true });
  });

  it('a cached person is answered from the cache at once, their directory not read again for it', async () => {
    const users: string[] = [];
    const counted = await sandbox({ onRequest: (_method, path) => path.startsWith(USERS) && users.push(path) });
    seedUsers(counted.db, counted.org, 250);
    const { engine } = await engineFor(counted);
    await engine.invoke('resources.list', { kind: 'users', refresh: true, whole: true });
    const id = counted.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(`${counted.org}-person00200`);
    users.length = 0;
    const { record } = await engine.invoke('resources.get', { kind: 'users', id: String(id) });
    expect(record).toMatchObject({ username: `${counted.org}-person00200` });
    // A person's page asks for them each time it opens: every page of a 50,000-person directory was read again.
    expect(users).toEqual([]);
  });

  it('a search of a cached list counts its matches from the index alone, never reading the records', () => {
    const db = openDatabase(`${tempDir()}/engine.db`);
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT count(*) FROM resource_records
         WHERE profile_id = 'p' AND kind = 'users' AND instr(search, 'ada') > 0`,
      )
      .all() as { detail: string }[];
    db.close();
    expect(plan.map((row) => row.detail).join(' | ')).toContain('COVERING INDEX resource_records_search');
  });

  it('people.remove wants the person’s username or email typed, and reports what went', async () => {
    const fresh = await sandbox();
    seedUsers(fresh.db, fresh.org, 3);
    const username = `${fresh.org}-person00002`;
    const id = fresh.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
    const group = fresh.db.prepare("SELECT id FROM user_groups WHERE name = 'Cohort 2026'").pluck().get() as number;
    fresh.db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(group, id);
    const { engine } = await engineFor(fresh);
    await engine.invoke('resources.list', { kind: 'users', refresh: true, whole: true });
    await engine.invoke('resources.list', { kind: 'user-group-members', refresh: true, whole: true });

    const wrong = await failure(engine, 'people.remove', { id: String(id), confirm: `${fresh.org}-person00003` });
    expect(wrong).toMatchObject({
      code: 'validation',
      issues: [
        { path: 'confirm', message: `Type ${username} or ${username}@${fresh.org}.example to remove this person` },
      ],
    });
    expect(((await call(fresh, 'GET', `${USERS}?query=${username}`)).body as Page).count).toBe(1);

    const report = await engine.invoke('people.remove', {
      id: String(id),
      confirm: ` ${username.toUpperCase()}@${fresh.org.toUpperCase()}.EXAMPLE `,
    });
    expect(report).toMatchObject({
      userId: String(id),
      username,
      message: `Account deletion initiated for ${username}`,
      groups: ['Cohort 2026'],
      departments: [],
    });
    expect(((await call(fresh, 'GET', `${USERS}?query=${username}`)).body as Page).count).toBe(0);

    // Someone the platform no longer has (removed elsewhere since the list was read): its refusal, in its words.
    const gone = `${fresh.org}-person00003`;
    const goneId = String(fresh.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(gone));
    expect((await call(fresh, 'POST', DELETE, { json: { username: gone } })).status).toBe(202);
    expect(await failure(engine, 'people.remove', { id: goneId, confirm: gone })).toMatchObject({
      code: 'api',
      message: `The platform did not remove ${gone}: User ${gone} not found`,
    });
    const cached = await engine.invoke('resources.list', { kind: 'users', search: username });
    expect(cached.total).toBe(0);
    const links = await engine.invoke('resources.list', { kind: 'user-group-members', where: { username } });
    expect(links.total).toBe(0);
  });

  it('mentor-admin get users --where email=… answers the one person, as JSON with -o json', async () => {
    const { dataDir, env } = await cliTenant(server);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    // Added early, so on the platform's last page (newest first): found only when the list is read to its end.
    const email = 'northbridge-person00005@northbridge.example';
    const json = await run(['get', 'users', '--where', `email=${email}`, '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(lines).toEqual([expect.objectContaining({ username: 'northbridge-person00005', email })]);
    const table = await run(['get', 'users', '--where', `email=${email}`]);
    expect(table.stdout).toContain('northbridge-person00005');
    expect(table.stdout).toContain('1 users');
    const bad = await run(['get', 'users', '-o', 'yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("-o takes json or text (got 'yaml')");
  });

  it('export --kind users writes the directory as CSV; export users stays the analytics dataset it always was', async () => {
    const { dataDir, env } = await cliTenant(server);
    const run = (args: string[]) => cli(['--data-dir', dataDir, ...args], { env });
    const file = join(tempDir(), 'people.csv');
    const email = 'northbridge-person00005@northbridge.example';
    const kind = await run(['export', '--kind', 'users', '--where', `email=${email}`, '--out', file, '--json']);
    expect(kind.code, kind.stderr).toBe(0);
    expect(kind.lines.at(-1)).toMatchObject({ kind: 'users', rows: 1 });
    expect(readFileSync(file, 'utf8')).toContain(email);
    const folder = tempDir();
    const dataset = await run(['export', 'users', '--range', '7d', '--out', folder, '--json']);
    expect(dataset.code, dataset.stderr).toBe(0);
    expect(dataset.lines.at(-1)).toMatchObject({ dataset: 'users' });
    expect((await run(['export', '--kind'])).stderr).toContain('--kind takes a resource KIND');
  });
});
