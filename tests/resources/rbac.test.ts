/**
 * The sandbox's RBAC roles, policies and groups, as the spec has them: created, read, changed and deleted by a tenant
 * admin's key; refused to a learner's key; another tenant's records never seen or touched; the spec's 400s and 404s.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';

let server: Sandbox;
const RBAC = '/api/core/rbac';
type Row = Record<string, unknown>;
let studentId: number;
let otherUserId: number;

beforeAll(async () => {
  server = await sandbox();
  studentId = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.studentUser) as number;
  otherUserId = server.db
    .prepare('SELECT id FROM users WHERE username = ?')
    .pluck()
    .get(server.otherOrg.user) as number;
});

const key = () => server.org;
const results = (body: unknown) => (body as { results: Row[] }).results;

describe('RBAC roles, policies and groups in the sandbox', () => {
  it('a role is created, listed, read, patched and deleted, with its platform and without its write-only key', async () => {
    const made = await call(server, 'POST', `${RBAC}/roles/`, {
      json: { name: 'Mentor editors', platform_key: key(), actions: ['Ibl.Mentor/Settings/read'] },
    });
    expect(made.status).toBe(201);
    const role = made.body as Row;
    expect(role).toMatchObject({
      name: 'Mentor editors',
      actions: ['Ibl.Mentor/Settings/read'],
      data_actions: [],
      is_internal: false,
      platform: { key: key() },
    });
    expect(role).not.toHaveProperty('platform_key');
    const listed = await call(server, 'GET', `${RBAC}/roles/?platform_key=${key()}&name=EDITOR`);
    expect(results(listed.body).map((r) => r.id)).toEqual([role.id]);
    const patched = await call(server, 'PATCH', `${RBAC}/roles/${role.id}/`, { json: { name: 'Editors' } });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Editors', actions: ['Ibl.Mentor/Settings/read'] } });
    expect((await call(server, 'GET', `${RBAC}/roles/${role.id}/`)).body).toMatchObject({ name: 'Editors' });
    expect((await call(server, 'DELETE', `${RBAC}/roles/${role.id}/?platform_key=${key()}`)).status).toBe(204);
    expect(await call(server, 'GET', `${RBAC}/roles/${role.id}/`)).toMatchObject({
      status: 404,
      body: { detail: 'Role not found' },
    });
  });

  it('refuses what the spec refuses: a missing name or platform_key, a delete without platform_key', async () => {
    const bad = await call(server, 'POST', `${RBAC}/roles/`, { json: { actions: 'all' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      name: ['This field is required.'],
      platform_key: ['This field is required.'],
      actions: ['Expected a list of items.'],
    });
    const role = (await call(server, 'POST', `${RBAC}/roles/`, { json: { name: 'R', platform_key: key() } }))
      .body as Row;
    expect(await call(server, 'DELETE', `${RBAC}/roles/${role.id}/`)).toMatchObject({
      status: 400,
      body: { platform_key: ['This field is required.'] },
    });
  });

  it('a policy grants a role to the tenant’s users and groups; a role’s delete removes the policies that use it', async () => {
    const role = (await call(server, 'POST', `${RBAC}/roles/`, { json: { name: 'Viewer', platform_key: key() } }))
      .body as Row;
    const group = (
      await call(server, 'POST', `${RBAC}/groups/`, {
        json: { unique_id: 'viewers', name: 'Viewers', platform_key: key(), users_to_add: [studentId] },
      })
    ).body as Row;
    expect(group).toMatchObject({
      unique_id: 'viewers',
      owner: { username: server.user },
      users: [{ id: studentId, username: server.studentUser }],
    });
    const made = await call(server, 'POST', `${RBAC}/policies/`, {
      json: {
        role_id: role.id,
        platform_key: key(),
        resources: ['/platforms/1/mentors'],
        users_to_add: [studentId],
        groups_to_add: [group.id],
      },
    });
    expect(made.status).toBe(201);
    const policy = made.body as Row;
    // "If not supplied, defaults to a UUID4"
    expect(policy.name).toMatch(/^[0-9a-f-]{36}$/);
    expect(policy).toMatchObject({
      role: { id: role.id, name: 'Viewer' },
      users: [{ id: studentId }],
      groups: [{ id: group.id, unique_id: 'viewers' }],
    });
    const removed = await call(server, 'PATCH', `${RBAC}/policies/${policy.id}/`, {
      json: { users_to_remove: [studentId] },
    });
    expect(removed.body).toMatchObject({ users: [], groups: [{ id: group.id }] });
    const byRole = await call(server, 'GET', `${RBAC}/policies/?platform_key=${key()}&role_id=${role.id}`);
    expect(results(byRole.body).map((p) => p.id)).toEqual([policy.id]);

    expect((await call(server, 'DELETE', `${RBAC}/roles/${role.id}/?platform_key=${key()}`)).status).toBe(204);
    expect(await call(server, 'GET', `${RBAC}/policies/${policy.id}/`)).toMatchObject({
      status: 404,
      body: { detail: 'Policy not found' },
    });
  });

  it('refuses users of another tenant, an unknown role and a duplicate group unique id', async () => {
    const stranger = await call(server, 'POST', `${RBAC}/groups/`, {
      json: { unique_id: 'strangers', platform_key: key(), users_to_add: [otherUserId] },
    });
    expect(stranger).toMatchObject({
      status: 400,
      body: { users_to_add: ['Users do not belong to the specified platform'] },
    });
    const noRole = await call(server, 'POST', `${RBAC}/policies/`, {
      json: { role_id: 999_999, platform_key: key(), resources: [] },
    });
    expect(noRole).toMatchObject({ status: 400, body: { role_id: ['Invalid pk "999999" - object does not exist.'] } });
    await call(server, 'POST', `${RBAC}/groups/`, { json: { unique_id: 'twice', platform_key: key() } });
    const twice = await call(server, 'POST', `${RBAC}/groups/`, { json: { unique_id: 'twice', platform_key: key() } });
    expect(twice).toMatchObject({
      status: 400,
      body: { unique_id: ['rbac group with this unique id already exists.'] },
    });
  });

  it('a learner’s key is refused every RBAC call; an admin’s is allowed', async () => {
    const learner = { key: server.studentKey };
    for (const kind of ['roles', 'policies', 'groups']) {
      expect((await call(server, 'GET', `${RBAC}/${kind}/?platform_key=${key()}`, learner)).status).toBe(403);
      expect((await call(server, 'GET', `${RBAC}/${kind}/?platform_key=${key()}`)).status).toBe(200);
    }
    const write = await call(server, 'POST', `${RBAC}/roles/`, {
      ...learner,
      json: { name: 'Me', platform_key: key() },
    });
    expect(write.status).toBe(403);
    expect(results((await call(server, 'GET', `${RBAC}/roles/?platform_key=${key()}&name=Me`)).body)).toEqual([]);
  });

  it('another tenant’s records never show, and cannot be read, changed or deleted by id', async () => {
    const other = { key: server.otherOrg.apiKey };
    const theirs = (
      await call(server, 'POST', `${RBAC}/roles/`, {
        ...other,
        json: { name: 'Their role', platform_key: server.otherOrg.org },
      })
    ).body as Row;
    const mine = await call(server, 'GET', `${RBAC}/roles/?platform_key=${key()}&page_size=1000`);
    expect(results(mine.body).some((r) => r.name === 'Their role')).toBe(false);
    expect((await call(server, 'GET', `${RBAC}/roles/${theirs.id}/`)).status).toBe(404);
    expect((await call(server, 'PATCH', `${RBAC}/roles/${theirs.id}/`, { json: { name: 'x' } })).status).toBe(404);
    expect((await call(server, 'DELETE', `${RBAC}/roles/${theirs.id}/?platform_key=${key()}`)).status).toBe(404);
    // Naming the other tenant's key is no way in either.
    const named = await call(server, 'GET', `${RBAC}/roles/?platform_key=${server.otherOrg.org}`);
    expect(named.status).toBe(404);
    expect((await call(server, 'GET', `${RBAC}/roles/${theirs.id}/`, other)).body).toMatchObject({
      name: 'Their role',
    });
  });

  it('internal records are the platform’s: never listed or read, and refused a change or a delete', async () => {
    const internal = { id: 900_001, name: 'Platform admins', is_internal: true, actions: [], data_actions: [] };
    server.db
      .prepare("INSERT INTO resource_store (org, kind, id, data) VALUES (?, 'rbac-roles', ?, ?)")
      .run(key(), String(internal.id), JSON.stringify({ ...internal, platform: { id: 1, key: key(), name: null } }));
    const listed = await call(server, 'GET', `${RBAC}/roles/?platform_key=${key()}&page_size=1000`);
    expect(results(listed.body).some((r) => r.id === internal.id)).toBe(false);
    expect((await call(server, 'GET', `${RBAC}/roles/${internal.id}/`)).status).toBe(404);
    expect((await call(server, 'PATCH', `${RBAC}/roles/${internal.id}/`, { json: { name: 'Mine' } })).status).toBe(403);
    expect((await call(server, 'DELETE', `${RBAC}/roles/${internal.id}/?platform_key=${key()}`)).status).toBe(403);
  });
});
