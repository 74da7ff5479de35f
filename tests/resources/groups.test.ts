/**
 * The sandbox's departments and user groups (core calls the spec declares without shapes; see
 * src/shared/resources/groups.ts): one POST creates or updates, the list shows the active ones, a delete names the
 * id in the query; admin keys only; one tenant never sees another's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { RESOURCE_SPEC } from '../../src/shared/resources';
import { call, sandbox } from '../helpers/sandbox';

let server: Sandbox;
type Row = Record<string, unknown>;

beforeAll(async () => {
  server = await sandbox();
});

describe('departments and user groups in the sandbox', () => {
  it('the generated slice says which shapes were inferred, and nothing the spec declares is replaced', () => {
    expect(RESOURCE_SPEC.operations['POST /api/core/departments/']?.inferred).toEqual(['body', 'response']);
    expect(RESOURCE_SPEC.operations['DELETE /api/core/user_groups/']?.inferred).toEqual(['parameters']);
    expect(RESOURCE_SPEC.operations['GET /api/core/rbac/roles/']?.inferred).toBeUndefined();
  });

  it('a department is created, renamed and deleted; deleted ones leave the list', async () => {
    const made = await call(server, 'POST', '/api/core/departments/', { json: { name: 'Nursing' } });
    expect(made).toMatchObject({ status: 200, body: { name: 'Nursing', is_active: true } });
    const id = (made.body as Row).id as number;
    const renamed = await call(server, 'POST', '/api/core/departments/', {
      json: { department_id: id, name: 'School of Nursing', platform_key: server.org },
    });
    expect(renamed.body).toEqual({ id, name: 'School of Nursing', is_active: true });
    const listed = (await call(server, 'GET', `/api/core/departments/?platform_key=${server.org}`)).body as Row[];
    expect(listed.filter((d) => d.id === id)).toEqual([{ id, name: 'School of Nursing', is_active: true }]);
    expect((await call(server, 'DELETE', `/api/core/departments/?department_id=${id}`)).status).toBe(204);
    const after = (await call(server, 'GET', '/api/core/departments/')).body as Row[];
    expect(after.some((d) => d.id === id)).toBe(false);
    expect(await call(server, 'DELETE', `/api/core/departments/?department_id=${id}`)).toMatchObject({
      status: 404,
      body: { detail: 'Not found.' },
    });
  });

  it('refuses a department without a name, an unknown id, and a delete without its id', async () => {
    expect(await call(server, 'POST', '/api/core/departments/', { json: {} })).toMatchObject({
      status: 400,
      body: { name: ['This field is required.'] },
    });
    expect(await call(server, 'POST', '/api/core/departments/', { json: { name: '' } })).toMatchObject({
      status: 400,
      body: { name: ['This field may not be blank.'] },
    });
    expect(
      (await call(server, 'POST', '/api/core/departments/', { json: { department_id: 999_999, name: 'X' } })).status,
    ).toBe(404);
    expect(await call(server, 'DELETE', '/api/core/departments/')).toMatchObject({
      status: 400,
      body: { department_id: ['This field is required.'] },
    });
  });

  it('a user group is created with its owner, renamed, refused a taken name, and deleted', async () => {
    const made = await call(server, 'POST', '/api/core/user_groups/', {
      json: { name: 'Cohort A', owner_email: 'lead@example.edu' },
    });
    expect(made).toMatchObject({
      status: 200,
      body: { name: 'Cohort A', owner_email: 'lead@example.edu', members: 0 },
    });
    const id = (made.body as Row).id as number;
    await call(server, 'POST', '/api/core/user_groups/', { json: { name: 'Cohort B' } });
    expect(
      await call(server, 'POST', '/api/core/user_groups/', { json: { group_id: id, name: 'Cohort B' } }),
    ).toMatchObject({ status: 400, body: { name: ['user group with this name already exists.'] } });
    expect(
      await call(server, 'POST', '/api/core/user_groups/', { json: { name: 'Cohort C', owner_email: 'nope' } }),
    ).toMatchObject({ status: 400, body: { owner_email: ['Enter a valid email address.'] } });
    const renamed = await call(server, 'POST', '/api/core/user_groups/', { json: { group_id: id, name: 'Cohort 1' } });
    expect(renamed.body).toMatchObject({ id, name: 'Cohort 1', owner_email: 'lead@example.edu' });
    expect((await call(server, 'DELETE', `/api/core/user_groups/?group_id=${id}`)).status).toBe(204);
    const listed = (await call(server, 'GET', '/api/core/user_groups/')).body as Row[];
    expect(listed.some((g) => g.id === id)).toBe(false);
  });

  it('a learner’s key is refused; another tenant’s departments and groups never show and cannot be touched', async () => {
    for (const path of ['/api/core/departments/', '/api/core/user_groups/']) {
      expect((await call(server, 'GET', path, { key: server.studentKey })).status).toBe(403);
      expect((await call(server, 'POST', path, { key: server.studentKey, json: { name: 'Mine' } })).status).toBe(403);
    }
    const other = { key: server.otherOrg.apiKey };
    const theirs = (await call(server, 'POST', '/api/core/departments/', { ...other, json: { name: 'Theirs' } }))
      .body as Row;
    const group = (await call(server, 'POST', '/api/core/user_groups/', { ...other, json: { name: 'Their group' } }))
      .body as Row;
    const mine = (await call(server, 'GET', '/api/core/departments/')).body as Row[];
    expect(mine.some((d) => d.id === theirs.id || d.name === 'Theirs')).toBe(false);
    const myGroups = (await call(server, 'GET', '/api/core/user_groups/')).body as Row[];
    expect(myGroups.some((g) => g.id === group.id)).toBe(false);
    expect(
      (await call(server, 'POST', '/api/core/departments/', { json: { department_id: theirs.id, name: 'Taken' } }))
        .status,
    ).toBe(404);
    expect((await call(server, 'DELETE', `/api/core/departments/?department_id=${String(theirs.id)}`)).status).toBe(
      404,
    );
    expect((await call(server, 'DELETE', `/api/core/user_groups/?group_id=${String(group.id)}`)).status).toBe(404);
    expect((await call(server, 'GET', `/api/core/departments/?platform_key=${server.otherOrg.org}`)).status).toBe(404);
    expect((await call(server, 'GET', '/api/core/departments/', other)).body).toEqual([
      { id: theirs.id, name: 'Theirs', is_active: true },
    ]);
  });

  it('department members: added by username or email, listed by department, "already" a member is no error, removed', async () => {
    const learner = server.db.prepare('SELECT id, email FROM users WHERE username = ?').get(server.studentUser) as {
      id: number;
      email: string;
    };
    const dept = (await call(server, 'POST', '/api/core/departments/', { json: { name: 'Pharmacy' } })).body as Row;
    const added = await call(server, 'POST', '/api/core/departments/members/', {
      json: { department_id: dept.id, username: server.studentUser },
    });
    expect(added).toMatchObject({
      status: 200,
      body: { user_id: learner.id, username: server.studentUser, department_id: dept.id, department_name: 'Pharmacy' },
    });
    const again = await call(server, 'POST', '/api/core/departments/members/', {
      json: { department_id: dept.id, email: learner.email.toUpperCase() },
    });
    expect(again).toMatchObject({ status: 200, body: { user_id: learner.id, department_id: dept.id } });
    const page = (await call(server, 'GET', `/api/core/departments/members/?department_id=${String(dept.id)}&page=1`))
      .body as { count: number; results: Row[] };
    expect(page).toMatchObject({ count: 1, results: [{ user_id: learner.id }] });

    expect(
      await call(server, 'POST', '/api/core/departments/members/', {
        json: { department_id: dept.id, email: 'nobody@example.edu' },
      }),
    ).toMatchObject({ status: 400, body: { email: ['User not found on this platform.'] } });
    // A person of another tenant is no one here.
    expect(
      (
        await call(server, 'POST', '/api/core/departments/members/', {
          json: { department_id: dept.id, username: server.otherOrg.user },
        })
      ).status,
    ).toBe(400);
    expect(
      await call(server, 'POST', '/api/core/departments/members/', { json: { department_id: 999_999, username: 'x' } }),
    ).toMatchObject({ status: 400, body: { department_id: ['Invalid pk "999999" - object does not exist.'] } });
    expect((await call(server, 'GET', '/api/core/departments/members/', { key: server.studentKey })).status).toBe(403);
    const otherList = (await call(server, 'GET', '/api/core/departments/members/', { key: server.otherOrg.apiKey }))
      .body as { results: Row[] };
    expect(otherList.results.some((m) => m.user_id === learner.id)).toBe(false);

    expect((await call(server, 'DELETE', `/api/core/departments/members/?user_id=${learner.id}`)).status).toBe(204);
    const after = (await call(server, 'GET', `/api/core/departments/members/?department_id=${String(dept.id)}`))
      .body as { count: number };
    expect(after.count).toBe(0);
  });

  it('user group members: one link each, "already" answers the same link, listed by group, removed by link id', async () => {
    const learner = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.studentUser);
    const group = (await call(server, 'POST', '/api/core/user_groups/', { json: { name: 'Cohort M' } })).body as Row;
    const added = await call(server, 'POST', '/api/core/user_groups/link/', {
      json: { group_id: group.id, username: server.studentUser },
    });
    expect(added).toMatchObject({
      status: 200,
      body: { group_id: group.id, group_name: 'Cohort M', user_id: learner, username: server.studentUser },
    });
    const again = await call(server, 'POST', '/api/core/user_groups/link/', {
      json: { group_id: group.id, username: server.studentUser },
    });
    expect((again.body as Row).id).toBe((added.body as Row).id);
    const page = (await call(server, 'GET', `/api/core/user_groups/link/?group_id=${String(group.id)}`)).body as {
      count: number;
    };
    expect(page.count).toBe(1);
    expect((await call(server, 'GET', '/api/core/user_groups/', {})).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: group.id, members: 1 })]),
    );
    expect(await call(server, 'POST', '/api/core/user_groups/link/', { json: { group_id: group.id } })).toMatchObject({
      status: 400,
      body: { username: ['Either username or email is required.'] },
    });
    // Another tenant can neither see nor remove the link.
    const theirs = (await call(server, 'GET', '/api/core/user_groups/link/', { key: server.otherOrg.apiKey })).body as {
      count: number;
    };
    expect(theirs.count).toBe(0);
    const linkId = String((added.body as Row).id);
    expect(
      (await call(server, 'DELETE', `/api/core/user_groups/link/?link_id=${linkId}`, { key: server.otherOrg.apiKey }))
        .status,
    ).toBe(404);
    expect((await call(server, 'DELETE', `/api/core/user_groups/link/?link_id=${linkId}`)).status).toBe(204);
    expect(
      (
        (await call(server, 'GET', `/api/core/user_groups/link/?group_id=${String(group.id)}`)).body as {
          count: number;
        }
      ).count,
    ).toBe(0);
  });
});
