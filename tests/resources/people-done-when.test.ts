/**
 * Issue 15's "Done when" from the CLI and the vendor SDK against a real sandbox: 5,000 people put into departments by
 * `mentor-admin import department-members FILE.csv` and read back by the vendor's SDK; who may do what changed by
 * `mentor-admin update rbac-policies` and its effect on a learner's key; the CLI's policy table saying the role and
 * whom it grants it to; a department's members counted by the engine (resources.counts) from its saved copy.
 */
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { connect, failure } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { cliTenant, csvFile } from '../invitations/setup';

const RBAC = '/api/core/rbac';
type Row = Record<string, unknown>;

let server: Sandbox;
let env: NodeJS.ProcessEnv;
const run = (args: string[]) => cli(args, { env });
const idOf = (username: string) =>
  server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
const department = async (name: string) =>
  ((await call(server, 'POST', '/api/core/departments/', { json: { name } })).body as { id: number }).id;

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  server.db.transaction(() => {
    for (let i = 0; i < 5_000; i++) insert.run(`done${i}`, `done${i}@example.edu`, server.org);
  })();
  ({ env } = await cliTenant(server));
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});

describe('5,000 people into departments from a CSV', () => {
  it('mentor-admin import department-members FILE.csv adds every row; the vendor SDK reads them back', async () => {
    const before = ((await CoreService.coreDepartmentsMembersRetrieve()) as { count: number }).count;
    await department('Harbour');
    await department('Hill');
    const file = csvFile(
      'five-thousand.csv',
      `Email,Department\n${Array.from({ length: 5_000 }, (_, i) => `done${i}@example.edu,${i % 2 ? 'Hill' : 'Harbour'}`).join('\n')}\n`,
    );
    const imported = await run(['import', 'department-members', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.lines.at(-1)).toMatchObject({ rows: 5_000, added: 5_000, unknown: 0, failed: 0 });
    // The vendor's SDK (its call names no tenant: the key's is answered) counts them in the tenant's departments.
    const read = (await CoreService.coreDepartmentsMembersRetrieve()) as { count: number; results: Row[] };
    expect(read.count).toBe(before + 5_000);
    expect(read.results[0]).toMatchObject({ department_name: expect.stringMatching(/^(Harbour|Hill)$/) });

    // The engine counts each department's members from the list it read (the departments list's Members column).
    const c = await connect(server, { key: 'env-only' });
    const departments = (await c.engine.invoke('resources.list', { kind: 'departments', refresh: true })).records;
    const ids = departments.map((d) => String(d.id));
    const { counts } = await c.engine.invoke('resources.counts', {
      kind: 'department-members',
      field: 'department_id',
      ids,
    });
    expect(Object.fromEntries(departments.map((d) => [d.name, counts[String(d.id)]]))).toMatchObject({
      Harbour: 2_500,
      Hill: 2_500,
    });
    // Only by a declared relation.
    expect(
      await failure(c.engine, 'resources.counts', { kind: 'department-members', field: 'email', ids }),
    ).toMatchObject({ code: 'validation' });
  }, 120_000);
});

describe('who may do what, changed from the CLI', () => {
  it('granting a learner a role over the roles lets their key read them; the vendor SDK reads the grant back', async () => {
    const rolesPath = `${RBAC}/roles/?platform_key=${server.org}`;
    const learner = { key: server.studentKey };
    expect((await call(server, 'GET', rolesPath, learner)).status).toBe(403);
    const role = await run([
      'create',
      'rbac-roles',
      '--set',
      'name=Role readers',
      '--set',
      'actions=["Ibl.Core/Roles/read"]',
      '--json',
    ]);
    expect(role.code, role.stderr).toBe(0);
    const group = await run(['create', 'rbac-groups', '--set', 'unique_id=readers', '--set', 'name=Readers', '--json']);
    expect(group.code, group.stderr).toBe(0);
    const platformId = server.db.prepare('SELECT rowid FROM orgs WHERE key = ?').pluck().get(server.org) as number;
    const policy = await run([
      'create',
      'rbac-policies',
      '--set',
      'name=Readers read roles',
      '--set',
      `role_id=${String(role.lines[0]!.id)}`,
      '--set',
      `resources=["/platforms/${platformId}/rbac/roles"]`,
      '--set',
      `groups_to_add=[${String(group.lines[0]!.id)}]`,
      '--json',
    ]);
    expect(policy.code, policy.stderr).toBe(0);
    const policyId = String(policy.lines[0]!.id);
    expect((await call(server, 'GET', rolesPath, learner)).status).toBe(403);

    const granted = await run([
      'update',
      'rbac-policies',
      policyId,
      '--set',
      `users_to_add=[${idOf(server.studentUser)}]`,
      '--json',
    ]);
    expect(granted.code, granted.stderr).toBe(0);
    expect((await call(server, 'GET', rolesPath, learner)).status).toBe(200);
    const read = await CoreService.coreRbacPoliciesRetrieve({ id: Number(policyId) });
    expect(read).toMatchObject({
      role: { name: 'Role readers' },
      users: [expect.objectContaining({ username: server.studentUser })],
      groups: [expect.objectContaining({ name: 'Readers' })],
    });

    // The CLI's table says the role and whom it grants it to, as the app's list does.
    const table = await run(['get', 'rbac-policies']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Readers read roles\s+Role readers · 1 person, 1 group/);

    const revoked = await run([
      'update',
      'rbac-policies',
      policyId,
      '--set',
      `users_to_remove=[${idOf(server.studentUser)}]`,
    ]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await call(server, 'GET', rolesPath, learner)).status).toBe(403);
  });
});
