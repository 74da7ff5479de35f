/**
 * The sandbox's bulk membership calls and the department member check over HTTP: per-person answers in the order
 * given (added, already, not_found), DRF's 400 by field, admin only, and tenants kept apart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';

let server: Sandbox;
const DEPT_BULK = '/api/core/departments/members/bulk/';
const LINK_BULK = '/api/core/user_groups/link/bulk/';

const departmentOf = (username: string) =>
  server.db.prepare('SELECT department_id FROM users WHERE username = ?').pluck().get(username) as number | null;
const made = async (path: string, name: string) =>
  ((await call(server, 'POST', path, { json: { name } })).body as { id: number }).id;

beforeAll(async () => {
  server = await sandbox();
});

describe('POST /api/core/departments/members/bulk/', () => {
  it('adds people by username or email, says who was in already and who is not the tenant’s, in the order given', async () => {
    const dept = await made('/api/core/departments/', 'Radiology');
    const email = server.db.prepare('SELECT email FROM users WHERE username = ?').pluck().get(server.studentUser);
    const first = await call(server, 'POST', DEPT_BULK, {
      json: {
        department_id: dept,
        users: [{ email: String(email).toUpperCase() }, { username: 'nobody-here' }, { username: server.user }],
      },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      department_id: dept,
      results: [
        expect.objectContaining({ username: server.studentUser, status: 'added', user_id: expect.any(Number) }),
        expect.objectContaining({ username: 'nobody-here', status: 'not_found', user_id: null }),
        expect.objectContaining({ username: server.user, status: 'added' }),
      ],
    });
    expect(departmentOf(server.studentUser)).toBe(dept);
    const again = await call(server, 'POST', DEPT_BULK, {
      json: { department_id: dept, users: [{ username: server.studentUser }], platform_key: server.org },
    });
    expect((again.body as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(['already']);
    // The single list sees them.
    const listed = (await call(server, 'GET', `/api/core/departments/members/?department_id=${dept}`)).body as {
      results: { username: string }[];
    };
    expect(listed.results.map((m) => m.username).sort()).toEqual([server.user, server.studentUser].sort());
  });

  it('answers DRF’s 400 by field for a body it cannot take', async () => {
    const dept = await made('/api/core/departments/', 'Oncology');
    const cases: [unknown, Record<string, string[]>][] = [
      [{ users: [] }, { department_id: ['This field is required.'] }],
      [{ department_id: 'x', users: [] }, { department_id: ['A valid integer is required.'] }],
      [{ department_id: dept }, { users: ['This field is required.'] }],
      [{ department_id: dept, users: 'ann' }, { users: ['Expected a list of items but got type "string".'] }],
      [{ department_id: dept, users: [{ name: 'ann' }] }, { 'users[0]': ['Either username or email is required.'] }],
      [{ department_id: 987654, users: [] }, { department_id: ['Invalid pk "987654" - object does not exist.'] }],
      [[{ department_id: dept }], { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ];
    for (const [json, errors] of cases) {
      const answer = await call(server, 'POST', DEPT_BULK, { json });
      expect({ json, status: answer.status, body: answer.body }).toEqual({ json, status: 400, body: errors });
    }
  });

  it('is for the tenant’s admins, and never reaches another tenant’s people or departments', async () => {
    const dept = await made('/api/core/departments/', 'Cardiology');
    const json = { department_id: dept, users: [{ username: server.studentUser }] };
    expect((await call(server, 'POST', DEPT_BULK, { key: null, json })).status).toBe(401);
    expect((await call(server, 'POST', DEPT_BULK, { key: server.studentKey, json })).status).toBe(403);
    // The other tenant's admin: this tenant's department is not theirs.
    const theirs = await call(server, 'POST', DEPT_BULK, { key: server.otherOrg.apiKey, json });
    expect(theirs.status).toBe(400);
    expect(theirs.body).toEqual({ department_id: [`Invalid pk "${dept}" - object does not exist.`] });
    // Their people are not this tenant's: not found, and untouched.
    const before = departmentOf(server.otherOrg.user);
    const mine = await call(server, 'POST', DEPT_BULK, {
      json: { department_id: dept, users: [{ username: server.otherOrg.user }] },
    });
    expect((mine.body as { results: { status: string }[] }).results[0]!.status).toBe('not_found');
    expect(departmentOf(server.otherOrg.user)).toBe(before);
    // Naming the other tenant in platform_key is the platform's 404.
    const named = await call(server, 'POST', DEPT_BULK, { json: { ...json, platform_key: server.otherOrg.org } });
    expect(named.status).toBe(404);
  });
});

describe('POST /api/core/user_groups/link/bulk/', () => {
  it('links people once: added, then already; an unknown person is reported, the rest linked', async () => {
    const group = await made('/api/core/user_groups/', 'Cohort A');
    const json = { group_id: group, users: [{ username: server.studentUser }, { email: 'ghost@example.invalid' }] };
    const first = await call(server, 'POST', LINK_BULK, { json });
    expect(first.status).toBe(200);
    expect((first.body as { results: { status: string }[] }).results.map((r) => r.status)).toEqual([
      'added',
      'not_found',
    ]);
    const again = await call(server, 'POST', LINK_BULK, { json });
    expect((again.body as { results: { status: string }[] }).results.map((r) => r.status)).toEqual([
      'already',
      'not_found',
    ]);
    const links = server.db.prepare('SELECT count(*) FROM user_group_members WHERE group_id = ?').pluck().get(group);
    expect(links).toBe(1);
  });

  it('refuses what it cannot take, learners and other tenants', async () => {
    const group = await made('/api/core/user_groups/', 'Cohort B');
    expect((await call(server, 'POST', LINK_BULK, { json: { users: [] } })).body).toEqual({
      group_id: ['This field is required.'],
    });
    const json = { group_id: group, users: [{ username: server.studentUser }] };
    expect((await call(server, 'POST', LINK_BULK, { key: server.studentKey, json })).status).toBe(403);
    const theirs = await call(server, 'POST', LINK_BULK, { key: server.otherOrg.apiKey, json });
    expect(theirs.body).toEqual({ group_id: [`Invalid pk "${group}" - object does not exist.`] });
  });
});

describe('GET /api/core/departments/members/check/', () => {
  it('answers the requesting user’s own department and whether they administer the tenant', async () => {
    const dept = await made('/api/core/departments/', 'Check');
    await call(server, 'POST', DEPT_BULK, { json: { department_id: dept, users: [{ username: server.studentUser }] } });
    const learner = await call(server, 'GET', '/api/core/departments/members/check/', { key: server.studentKey });
    expect(learner.status).toBe(200);
    expect(learner.body).toMatchObject({
      username: server.studentUser,
      department_id: dept,
      department_name: 'Check',
      is_admin: false,
    });
    const other = await call(server, 'GET', '/api/core/departments/members/check/', { key: server.otherOrg.apiKey });
    expect(other.body).toMatchObject({ username: server.otherOrg.user, is_admin: true });
    expect((other.body as { department_id: unknown }).department_id).not.toBe(dept);
    expect((await call(server, 'GET', '/api/core/departments/members/check/', { key: null })).status).toBe(401);
  });
});
