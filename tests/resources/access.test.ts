/**
 * The sandbox enforces the RBAC it stores, over HTTP with the real keys: a learner's key is refused an admin path
 * until a policy grants its action over the path (directly or through an access group), an admin's key needs none;
 * `rbac/permissions/check/` answers what the caller holds; a change that leaves no one administering the tenant's
 * access is refused with that reason; another tenant's key never reads or changes this tenant's grants.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { NO_ADMIN_LEFT } from '../../src/shared/access';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

const RBAC = '/api/core/rbac';
type Row = Record<string, unknown>;

let server: Sandbox;
let studentId: number;
let adminId: number;
let platformId: number;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox();
  const idOf = (username: string) =>
    server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
  studentId = idOf(server.studentUser);
  adminId = idOf(server.user);
  platformId = server.db.prepare('SELECT rowid FROM orgs WHERE key = ?').pluck().get(server.org) as number;
});

const learner = () => ({ key: server.studentKey });
const made = async (path: string, json: Row) => {
  const answer = await call(server, 'POST', path, { json: { platform_key: server.org, ...json } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Row;
};

describe('the sandbox enforces its RBAC policies', () => {
  it('a learner’s key is refused roles until a policy grants Ibl.Core/Roles/read over them; writing stays refused', async () => {
    const rolesPath = `${RBAC}/roles/?platform_key=${server.org}`;
    expect((await call(server, 'GET', rolesPath, learner())).status).toBe(403);
    const reader = await made(`${RBAC}/roles/`, { name: 'Role readers', actions: ['Ibl.Core/Roles/read'] });
    // Written the way the spec's example writes resources: under the platform's id.
    const policy = await made(`${RBAC}/policies/`, {
      name: 'Learner reads roles',
      role_id: reader.id,
      resources: [`/platforms/${platformId}/rbac/roles`],
      users_to_add: [studentId],
    });
    expect((await call(server, 'GET', rolesPath, learner())).status).toBe(200);
    expect((await call(server, 'GET', `${RBAC}/roles/${reader.id}/`, learner())).status).toBe(200);
    // Only what was granted: not writing roles, not reading policies.
    const write = await call(server, 'POST', `${RBAC}/roles/`, {
      ...learner(),
      json: { name: 'Mine', platform_key: server.org },
    });
    expect(write.status).toBe(403);
    expect((await call(server, 'GET', `${RBAC}/policies/?platform_key=${server.org}`, learner())).status).toBe(403);
    // The role as it is now decides: taking the action away refuses the key again.
    await call(server, 'PATCH', `${RBAC}/roles/${reader.id}/`, { json: { actions: [] } });
    expect((await call(server, 'GET', rolesPath, learner())).status).toBe(403);
    await call(server, 'DELETE', `${RBAC}/policies/${policy.id}/?platform_key=${server.org}`);
  });

  it('a policy granted to an access group allows its members; the admin’s key needs no policy', async () => {
    const path = `/api/core/departments/?platform_key=${server.org}`;
    expect((await call(server, 'GET', path, learner())).status).toBe(403);
    expect((await call(server, 'GET', path)).status).toBe(200);
    const role = await made(`${RBAC}/roles/`, {
      name: 'Department managers',
      actions: ['Ibl.Core/Departments/read', 'Ibl.Core/Departments/write'],
    });
    const group = await made(`${RBAC}/groups/`, { unique_id: 'dept-managers', users_to_add: [studentId] });
    const policy = await made(`${RBAC}/policies/`, {
      role_id: role.id,
      resources: ['/departments/'],
      groups_to_add: [group.id],
    });
    expect((await call(server, 'GET', path, learner())).status).toBe(200);
    const created = await call(server, 'POST', '/api/core/departments/', {
      ...learner(),
      json: { name: 'Made by a learner', platform_key: server.org },
    });
    expect(created.status).toBeLessThan(300);
    // Out of the group, out of the grant.
    await call(server, 'PATCH', `${RBAC}/groups/${group.id}/`, { json: { users_to_remove: [studentId] } });
    expect((await call(server, 'GET', path, learner())).status).toBe(403);
    await call(server, 'DELETE', `${RBAC}/policies/${policy.id}/?platform_key=${server.org}`);
  });

  it('another tenant’s admin key is refused this tenant’s permission check, and its policies grant nothing here', async () => {
    const other = { key: server.otherOrg.apiKey };
    const theirRole = (
      await call(server, 'POST', `${RBAC}/roles/`, {
        ...other,
        json: { name: 'Everything', platform_key: server.otherOrg.org, actions: ['Ibl.Core/Roles/read'] },
      })
    ).body as Row;
    // Naming this tenant's learner from the other tenant is the spec's 400.
    const naming = await call(server, 'POST', `${RBAC}/policies/`, {
      ...other,
      json: { role_id: theirRole.id, platform_key: server.otherOrg.org, resources: ['/'], users_to_add: [studentId] },
    });
    expect(naming).toMatchObject({
      status: 400,
      body: { users_to_add: ['Users do not belong to the specified platform'] },
    });
    expect((await call(server, 'GET', `${RBAC}/roles/?platform_key=${server.org}`, learner())).status).toBe(403);
    const check = await call(server, 'POST', `${RBAC}/permissions/check/`, {
      ...other,
      json: { platform_key: server.org, resources: ['/'] },
    });
    expect(check.status).toBe(403);
  });
});

describe('rbac/permissions/check/', () => {
  it('answers the actions the caller holds over each path it names', async () => {
    const role = await made(`${RBAC}/roles/`, { name: 'Policy readers', actions: ['Ibl.Core/Policies/read'] });
    const policy = await made(`${RBAC}/policies/`, {
      role_id: role.id,
      resources: ['/rbac/policies/'],
      users_to_add: [studentId],
    });
    const asked = await call(server, 'POST', `${RBAC}/permissions/check/`, {
      ...learner(),
      json: {
        platform_key: server.org,
        resources: ['/rbac/policies/', `/rbac/policies/${policy.id}/`, '/rbac/roles/'],
      },
    });
    expect(asked).toMatchObject({
      status: 200,
      body: {
        '/rbac/policies/': { actions: ['Ibl.Core/Policies/read'] },
        [`/rbac/policies/${policy.id}/`]: { actions: ['Ibl.Core/Policies/read'] },
        '/rbac/roles/': { actions: [] },
      },
    });
    const admin = await call(server, 'POST', `${RBAC}/permissions/check/`, {
      json: { platform_key: server.org, resources: ['/rbac/roles/'] },
    });
    expect(admin.body).toEqual({ '/rbac/roles/': { actions: ['Ibl.Core/Roles/read', 'Ibl.Core/Roles/write'] } });
    await call(server, 'DELETE', `${RBAC}/policies/${policy.id}/?platform_key=${server.org}`);
  });

  it('refuses what the spec refuses: missing fields, paths that do not start and end with /, no credentials', async () => {
    const missing = await call(server, 'POST', `${RBAC}/permissions/check/`, { json: {} });
    expect(missing).toMatchObject({
      status: 400,
      body: { platform_key: ['This field is required.'], resources: ['This field is required.'] },
    });
    const badPath = await call(server, 'POST', `${RBAC}/permissions/check/`, {
      json: { platform_key: server.org, resources: ['/mentors'] },
    });
    expect(badPath).toMatchObject({
      status: 400,
      body: { resources: ["Resource paths must start and end with '/'."] },
    });
    const anonymous = await call(server, 'POST', `${RBAC}/permissions/check/`, {
      key: null,
      json: { platform_key: server.org, resources: ['/'] },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('the last administrator of the tenant’s access', () => {
  it('a change that leaves no one holding the admin actions over / is refused with that reason, and changes nothing', async () => {
    const admins = await made(`${RBAC}/roles/`, {
      name: 'Access admins',
      actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
    });
    const policy = await made(`${RBAC}/policies/`, {
      name: 'Access admins everywhere',
      role_id: admins.id,
      resources: ['/'],
      users_to_add: [adminId],
    });
    const refused = { status: 400, body: { detail: NO_ADMIN_LEFT } };
    expect(
      await call(server, 'PATCH', `${RBAC}/roles/${admins.id}/`, { json: { actions: ['Ibl.Core/Roles/write'] } }),
    ).toMatchObject(refused);
    expect(
      await call(server, 'PATCH', `${RBAC}/policies/${policy.id}/`, { json: { users_to_remove: [adminId] } }),
    ).toMatchObject(refused);
    expect(
      await call(server, 'PATCH', `${RBAC}/policies/${policy.id}/`, { json: { resources: ['/rbac/'] } }),
    ).toMatchObject(refused);
    expect(await call(server, 'DELETE', `${RBAC}/policies/${policy.id}/?platform_key=${server.org}`)).toMatchObject(
      refused,
    );
    // The role's delete would take its policies with it.
    expect(await call(server, 'DELETE', `${RBAC}/roles/${admins.id}/?platform_key=${server.org}`)).toMatchObject(
      refused,
    );
    // Nothing changed.
    expect((await call(server, 'GET', `${RBAC}/policies/${policy.id}/`)).body).toMatchObject({
      resources: ['/'],
      users: [{ id: adminId }],
      role: { id: admins.id },
    });
    expect((await call(server, 'GET', `${RBAC}/roles/${admins.id}/`)).body).toMatchObject({
      actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
    });
    // With another administrator, the first may go.
    await call(server, 'PATCH', `${RBAC}/policies/${policy.id}/`, { json: { users_to_add: [studentId] } });
    const removed = await call(server, 'PATCH', `${RBAC}/policies/${policy.id}/`, {
      json: { users_to_remove: [adminId] },
    });
    expect(removed).toMatchObject({ status: 200, body: { users: [{ id: studentId }] } });
    // The learner, now an access administrator, is allowed to write roles.
    const write = await call(server, 'POST', `${RBAC}/roles/`, {
      ...learner(),
      json: { name: 'By the new admin', platform_key: server.org },
    });
    expect(write.status).toBe(201);
  });
});

describe('the engine answers who can do what from the cache', () => {
  it('a person’s effective permissions name the policy (and group) that grants each; who can do it names both', async () => {
    const role = await made(`${RBAC}/roles/`, { name: 'Group auditors', actions: ['Ibl.Core/Groups/read'] });
    const group = await made(`${RBAC}/groups/`, { unique_id: 'auditors', name: 'Auditors', users_to_add: [studentId] });
    const direct = await made(`${RBAC}/policies/`, {
      name: 'Audit groups directly',
      role_id: role.id,
      resources: ['/rbac/groups/'],
      users_to_add: [studentId],
    });
    const viaGroup = await made(`${RBAC}/policies/`, {
      name: 'Audit everything',
      role_id: role.id,
      resources: [`/platforms/${platformId}/`],
      groups_to_add: [group.id],
    });
    const c = await connect(server);
    for (const kind of ['rbac-roles', 'rbac-policies', 'rbac-groups'] as const) {
      await c.engine.invoke('resources.list', { kind, refresh: true });
    }
    const { grants } = await c.engine.invoke('access.effective', { userId: studentId });
    expect(grants).toEqual(
      expect.arrayContaining([
        {
          action: 'Ibl.Core/Groups/read',
          resource: '/rbac/groups/',
          policy: { id: direct.id, name: 'Audit groups directly' },
          role: { id: role.id, name: 'Group auditors' },
          group: null,
        },
        {
          action: 'Ibl.Core/Groups/read',
          // The policy names the whole platform; Groups/read is only ever asked for over /rbac/groups/.
          resource: '/rbac/groups/',
          policy: { id: viaGroup.id, name: 'Audit everything' },
          role: { id: role.id, name: 'Group auditors' },
          group: { id: group.id, name: 'Auditors' },
        },
      ]),
    );
    const who = await c.engine.invoke('access.whoCan', { action: 'Ibl.Core/Groups/read', resource: '/rbac/groups/7/' });
    expect(who.people.find((p) => p.id === studentId)).toMatchObject({
      username: server.studentUser,
      policies: ['Audit groups directly', 'Audit everything'],
      groups: ['Auditors'],
    });
    expect(who.groups).toEqual([{ id: group.id, name: 'Auditors', policies: ['Audit everything'] }]);
    // What the engine says, the sandbox does: the learner's key reads access groups.
    expect((await call(server, 'GET', `${RBAC}/groups/?platform_key=${server.org}`, learner())).status).toBe(200);
    const matrix = await c.engine.invoke('access.matrix', {});
    expect(matrix.roles.find((r) => r.id === role.id)?.actions).toEqual(['Ibl.Core/Groups/read']);
    expect(matrix.resources.map((r) => r.name).slice(0, 3)).toEqual([
      'Ibl.Core/Roles',
      'Ibl.Core/Policies',
      'Ibl.Core/Groups',
    ]);
    for (const id of [direct.id, viaGroup.id]) {
      await call(server, 'DELETE', `${RBAC}/policies/${id}/?platform_key=${server.org}`);
    }
  });

  it('exports the matrix as CSV with every cell injection-safe', async () => {
    const role = await made(`${RBAC}/roles/`, { name: '=HYPERLINK("http://x")', actions: ['Ibl.Core/Roles/read'] });
    const c = await connect(server);
    await c.engine.invoke('resources.list', { kind: 'rbac-roles', refresh: true });
    for (const kind of ['rbac-policies', 'rbac-groups'] as const) {
      await c.engine.invoke('resources.list', { kind, refresh: true });
    }
    const file = await c.engine.invoke('access.export', {});
    expect(file.fileName).toMatch(/-access-matrix-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = file.csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const column = header!.split(',').indexOf(`"'=HYPERLINK(""http://x"")"`);
    expect(column).toBeGreaterThan(1);
    expect(rows.find((row) => row.startsWith('Ibl.Core/Roles,read,'))!.split(',')[column]).toBe('yes');
    expect(file.rows).toBe(rows.length);
    await call(server, 'DELETE', `${RBAC}/roles/${role.id}/?platform_key=${server.org}`);
  });

  it('deleting a department or a role names the policies that refer to it', async () => {
    const department = (await call(server, 'POST', '/api/core/departments/', { json: { name: 'Radiology' } }))
      .body as Row;
    const role = await made(`${RBAC}/roles/`, { name: 'Radiology leads', actions: ['Ibl.Core/Departments/write'] });
    await made(`${RBAC}/policies/`, {
      name: 'Radiology leads manage it',
      role_id: role.id,
      resources: [`/platforms/${platformId}/departments/${department.id}/members/`],
    });
    const c = await connect(server);
    const named = await c.engine.invoke('resources.referrers', {
      kind: 'departments',
      ids: [String(department.id)],
      refresh: true,
    });
    expect(named.referrers).toEqual([
      expect.objectContaining({
        kind: 'rbac-policies',
        name: 'Radiology leads manage it',
        refersTo: String(department.id),
      }),
    ]);
    const byRole = await c.engine.invoke('resources.referrers', {
      kind: 'rbac-roles',
      ids: [String(role.id)],
      refresh: true,
    });
    expect(byRole.referrers.map((r) => r.name)).toEqual(['Radiology leads manage it']);
  });

  it('refuses, before sending, a change that leaves no access administrator', async () => {
    const solo = await sandbox();
    const adminOf = solo.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(solo.user) as number;
    const post = async (path: string, json: Row) =>
      (await call(solo, 'POST', path, { json: { platform_key: solo.org, ...json } })).body as Row;
    const role = await post(`${RBAC}/roles/`, {
      name: 'Access admins',
      actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
    });
    const policy = await post(`${RBAC}/policies/`, { role_id: role.id, resources: ['/'], users_to_add: [adminOf] });
    const c = await connect(solo);
    for (const kind of ['rbac-roles', 'rbac-policies', 'rbac-groups'] as const) {
      await c.engine.invoke('resources.list', { kind, refresh: true });
    }
    // The platform would answer 500s now: the refusals below are the engine's own, made before sending.
    solo.setFaults('error5xx=1');
    const refused = { code: 'validation', message: NO_ADMIN_LEFT };
    expect(
      await failure(c.engine, 'resources.update', {
        kind: 'rbac-roles',
        id: String(role.id),
        values: { actions: ['Ibl.Core/Roles/write'] },
      }),
    ).toMatchObject(refused);
    expect(
      await failure(c.engine, 'resources.update', {
        kind: 'rbac-policies',
        id: String(policy.id),
        values: { users_to_remove: [adminOf] },
      }),
    ).toMatchObject(refused);
    expect(await failure(c.engine, 'resources.delete', { kind: 'rbac-roles', id: String(role.id) })).toMatchObject(
      refused,
    );
    const plan = await c.engine.invoke('access.plan', { roles: [{ id: role.id as number, actions: [] }] });
    expect(plan).toEqual({
      changes: [
        {
          id: role.id,
          name: 'Access admins',
          added: [],
          removed: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
          actions: [],
        },
      ],
      refusal: NO_ADMIN_LEFT,
    });
    solo.setFaults('');
  });
});
