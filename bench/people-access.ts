/**
 * The access matrix of a tenant with 50 roles over 40 action resources (2 verbs each), 100 policies and 20 access
 * groups, read once into the engine's cache from the sandbox:
 *   people.matrix_open_ms   access.matrix answered from the cache (the three lists read from SQLite, the rows of
 *                           the 40 resources and the 5 guarded ones laid out) and the grid's 4,500 cells made ready
 *                           to draw (each role's actions as a set, a checked flag per cell, as the screen does);
 *                           median of 20 after 3 warm-ups
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/main/engine';
import { startSandbox } from '../src/server/app';
import { rbacGroupBackend, rbacPolicyBackend, rbacRoleBackend } from '../src/server/areas/resources/rbac';
import { percentile, type BenchResult, type Log } from './lib/suite';
import { noKeychain } from './lib/keychain';

export const metrics = ['people.matrix_open_ms'];

const ROLES = 50;
const RESOURCES = 40;

export async function run(log: Log): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-access-'));
  const server = await startSandbox({ dataDir: join(dir, 'sandbox'), seed: 'none', log: () => {} });
  try {
    const admin = server.db.prepare('SELECT id, username, email FROM users WHERE username = ?').get(server.user) as {
      id: number;
      username: string;
      email: string;
    };
    const caller = {
      userId: admin.id,
      username: admin.username,
      email: admin.email,
      org: server.org,
      role: 'admin',
      via: 'api-key',
    } as const;
    const users = server.db.prepare('SELECT id FROM users WHERE org = ?').pluck().all(server.org) as number[];
    server.db.transaction(() => {
      const roles = rbacRoleBackend(server.db);
      const roleIds = Array.from(
        { length: ROLES },
        (_, r) =>
          roles.create!(server.org, caller, {
            name: `Role ${String(r).padStart(2, '0')}`,
            actions: Array.from(
              { length: RESOURCES },
              (_, i) => `Ibl.Bench/Resource${i}/${(i + r) % 3 ? 'read' : 'write'}`,
            ),
          }).id,
      );
      const groupIds = Array.from(
        { length: 20 },
        (_, g) =>
          rbacGroupBackend(server.db).create!(server.org, caller, {
            unique_id: `group-${g}`,
            name: `Group ${g}`,
            users_to_add: users.filter((_, u) => u % 20 === g),
          }).id,
      );
      const policies = rbacPolicyBackend(server.db);
      for (let p = 0; p < 100; p++) {
        policies.create!(server.org, caller, {
          name: `Policy ${p}`,
          role_id: roleIds[p % ROLES],
          resources: [`/bench/${p % RESOURCES}/`],
          users_to_add: users.filter((_, u) => u % 50 === p % 50),
          groups_to_add: [groupIds[p % 20]],
        });
      }
    })();

    const engine = await createEngine({
      dataDir: join(dir, 'engine'),
      shell: 'test',
      secrets: noKeychain,
      env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
    });
    try {
      await engine.invoke('profiles.add', {
        name: 'Bench',
        baseUrl: server.url,
        org: server.org,
        username: server.user,
        makeActive: true,
      });
      for (const kind of ['rbac-roles', 'rbac-policies', 'rbac-groups'] as const) {
        await engine.invoke('resources.list', { kind, refresh: true });
      }
      const times: number[] = [];
      let cells = 0;
      for (let i = 0; i < 23; i++) {
        const at = performance.now();
        const matrix = await engine.invoke('access.matrix', {});
        const held = matrix.roles.map((role) => new Set(role.actions));
        const grid = matrix.resources.flatMap((resource) =>
          resource.verbs.map((verb) => held.map((actions) => actions.has(`${resource.name}/${verb}`))),
        );
        cells = grid.length * (grid[0]?.length ?? 0);
        if (i >= 3) times.push(performance.now() - at);
      }
      const median = percentile(times, 50);
      log(`matrix of ${cells} cells: median ${median.toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`);
      return [{ name: 'people.matrix_open_ms', value: Math.round(median * 10) / 10, unit: 'ms', goal: '<= 300' }];
    } finally {
      await engine.close();
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
