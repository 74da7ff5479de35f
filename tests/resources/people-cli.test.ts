/**
 * People and access from the CLI against a real sandbox: `mentor-admin get|create|update|delete` on RBAC roles,
 * policies and groups (DRF-paged lists), the vendor's own SDK reading back what they wrote, a learner's key refused.
 */
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

/** The links of a user-group link answer, paged by DRF or not (the spec says "paginated" and gives no shape). */
const linkList = (answer: unknown): Record<string, unknown>[] =>
  (Array.isArray(answer) ? answer : (answer as { results: Record<string, unknown>[] }).results) as Record<
    string,
    unknown
  >[];

let server: Sandbox;
let dataDir: string;
const runIn = (dir: string, key: string, args: string[]) =>
  cli(['--data-dir', dir, ...args], {
    env: { ...process.env, MENTOR_ADMIN_API_KEY: key, MENTOR_ADMIN_SANDBOX: 'off' },
  });
const run = (args: string[]) => runIn(dataDir, server.apiKey, args);

beforeAll(async () => {
  server = await sandbox();
  dataDir = tempDir('people-cli-');
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
  if (added.code !== 0) throw new Error(added.stderr);
  await run(['profile', 'use', 'Sandbox']);
});

describe('mentor-admin on people and access', () => {
  it('departments: get lists the tenant’s, create, rename and delete by id', async () => {
    const made = await run(['create', 'departments', '--set', 'name=School of Nursing', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const id = String(made.lines[0]!.id);
    expect(made.lines[0]).toMatchObject({ name: 'School of Nursing', is_active: true });
    const listed = await run(['get', 'departments', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines.filter((d) => String(d.id) === id)).toEqual([made.lines[0]]);
    const table = await run(['get', 'departments']);
    expect(table.stdout).toContain('School of Nursing');
    const renamed = await run(['update', 'departments', id, '--set', 'name=Nursing', '--json']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.lines[0]).toMatchObject({ id: Number(id), name: 'Nursing' });
    expect((await run(['create', 'departments', '--set', 'name='])).stderr).toContain(
      'name: This field may not be blank.',
    );
    expect((await run(['delete', 'departments', id, '--yes'])).code).toBe(0);
    const after = await run(['get', 'departments', '--json']);
    expect(after.lines.some((d) => String(d.id) === id)).toBe(false);
  });

  it('department members: added by email, listed, an unknown email refused at its field', async () => {
    const made = await run(['create', 'departments', '--set', 'name=Pharmacy', '--json']);
    const id = String(made.lines[0]!.id);
    const email = server.db.prepare('SELECT email FROM users WHERE username = ?').pluck().get(server.studentUser);
    const added = await run([
      'create',
      'department-members',
      '--set',
      `department_id=${id}`,
      '--set',
      `email=${String(email)}`,
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.lines[0]).toMatchObject({ username: server.studentUser, department_name: 'Pharmacy' });
    const listed = await run(['get', 'department-members', '--where', 'department_name=Pharmacy', '--json']);
    expect(listed.lines.map((m) => m.username)).toEqual([server.studentUser]);
    // The vendor's SDK reads the membership the CLI wrote (its call names no tenant: the key's is answered).
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const members = JSON.stringify(await CoreService.coreDepartmentsMembersRetrieve());
    expect(members).toContain(server.studentUser);
    expect(members).toContain('Pharmacy');
    const unknown = await run([
      'create',
      'department-members',
      '--set',
      `department_id=${id}`,
      '--set',
      'email=nobody@example.edu',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('email: User not found on this platform.');
  });

  it('user groups: create with an owner, then find it with --where', async () => {
    const made = await run([
      'create',
      'user-groups',
      '--set',
      'name=Cohort A',
      '--set',
      'owner_email=lead@example.edu',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const found = await run(['get', 'user-groups', '--where', 'name=Cohort A', '--json']);
    expect(found.lines).toEqual([expect.objectContaining({ name: 'Cohort A', owner_email: 'lead@example.edu' })]);
    const group = String(found.lines[0]!.id);
    const member = await run([
      'create',
      'user-group-members',
      '--set',
      `group_id=${group}`,
      '--set',
      `username=${server.studentUser}`,
      '--json',
    ]);
    expect(member.code, member.stderr).toBe(0);
    const members = await run(['get', 'user-group-members', '--where', `group_id=${group}`, '--json']);
    expect(members.lines.map((m) => m.username)).toEqual([server.studentUser]);
    // The vendor's SDK reads the link the CLI wrote, and no longer once it is deleted (its call names no group: the
    // tenant's links are answered).
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const linksOfGroup = async () =>
      linkList(await CoreService.coreUserGroupsLinkRetrieve()).filter((link) => String(link.group_id) === group);
    expect(await linksOfGroup()).toEqual([
      expect.objectContaining({
        id: member.lines[0]!.id,
        group_name: 'Cohort A',
        username: server.studentUser,
      }),
    ]);
    expect((await run(['delete', 'user-group-members', String(member.lines[0]!.id), '--yes'])).code).toBe(0);
    expect(await linksOfGroup()).toEqual([]);
  });

  it('creates, lists, changes and deletes a role; the vendor SDK reads what it wrote', async () => {
    const created = await run([
      'create',
      'rbac-roles',
      '--set',
      'name=Mentor editors',
      '--set',
      'actions=["Ibl.Mentor/Settings/read"]',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const role = created.lines[0]!;
    expect(role).toMatchObject({ name: 'Mentor editors', actions: ['Ibl.Mentor/Settings/read'] });

    const listed = await run(['get', 'rbac-roles', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines.map((r) => r.name)).toContain('Mentor editors');

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await CoreService.coreRbacRolesRetrieve({ id: Number(role.id) });
    expect(read).toMatchObject({ name: 'Mentor editors' });

    const updated = await run(['update', 'rbac-roles', String(role.id), '--set', 'name=Editors', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.lines[0]).toMatchObject({ id: role.id, name: 'Editors', actions: ['Ibl.Mentor/Settings/read'] });

    const policy = await run([
      'create',
      'rbac-policies',
      '--set',
      `role_id=${String(role.id)}`,
      '--set',
      'resources=["/platforms/1/mentors"]',
      '--json',
    ]);
    expect(policy.code, policy.stderr).toBe(0);
    expect(policy.lines[0]).toMatchObject({
      role: { id: role.id, name: 'Editors' },
      resources: ['/platforms/1/mentors'],
    });

    const deleted = await run(['delete', 'rbac-roles', String(role.id), '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    // The platform removes the policies that granted the role.
    const policies = await run(['get', 'rbac-policies', '--json']);
    expect(policies.lines.some((p) => p.id === policy.lines[0]!.id)).toBe(false);
  });

  it('says the platform’s words for a bad field, and a learner’s key is refused', async () => {
    const bad = await run(['create', 'rbac-groups', '--set', 'name=No unique id']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unique_id: This field is required.');
    const group = await run(['create', 'rbac-groups', '--set', 'unique_id=editors', '--json']);
    expect(group.code, group.stderr).toBe(0);
    expect(group.lines[0]).toMatchObject({ unique_id: 'editors', owner: { username: server.user } });

    // The same tenant through a learner's key (a profile of its own).
    const learnerDir = tempDir('people-cli-learner-');
    const profile = [
      'profile',
      'add',
      'Learner',
      '--url',
      server.url,
      '--org',
      server.org,
      '--user',
      server.studentUser,
    ];
    expect((await runIn(learnerDir, server.studentKey, profile)).code).toBe(0);
    await runIn(learnerDir, server.studentKey, ['profile', 'use', 'Learner']);
    const learner = await runIn(learnerDir, server.studentKey, ['get', 'rbac-roles']);
    expect(learner.code).not.toBe(0);
    expect(learner.stderr).toMatch(/permission/i);
  });
});
