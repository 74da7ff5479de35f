/**
 * `mentor-admin import badge-assertions FILE.csv --badge ID [--dry-run] [--report FILE]` and `get badges` /
 * `get badge-assertions` against a real demo sandbox: the dry run sends nothing and says per row what would happen, the
 * import issues once (a second run issues nobody twice), unknown people and empty rows are reported on their rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { cliTenant, csvFile } from '../invitations/setup';

const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;
let server: Sandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  ({ env } = await cliTenant(server));
}, 120_000);

describe('CLI: badges', () => {
  it('gets the badges, imports a CSV of people as a job (dry run first), idempotently, with a per-row report', async () => {
    const listed = await cli(['get', 'badges', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const badge = listed.lines.find((b) => String(b.name).startsWith('Algorithms'))!;
    expect(badge).toMatchObject({ issued: 0 });
    const id = String(badge.id);
    const holders = () =>
      server.db.prepare('SELECT count(*) FROM credential_assertions WHERE badge = ? AND revoked = 0').pluck().get(id);

    const file = csvFile(
      'people.csv',
      'Email,Note\nlearner0002@northbridge.example,x\nlearner0003,y\nnobody@northbridge.example,z\n,empty\nlearner0002,dup\n',
    );
    const dry = await cli(['import', 'badge-assertions', file, '--badge', id, '--dry-run', '--json'], { env });
    expect(dry.code).toBe(1);
    expect(last(dry.stdout)).toMatchObject({
      rows: 5,
      dryRun: true,
      wouldIssue: 2,
      already: 1,
      unknown: 1,
      invalid: 1,
    });
    expect(holders()).toBe(0);

    const report = join(tempDir(), 'report.csv');
    const first = await cli(['import', 'badge-assertions', file, '--badge', id, '--report', report, '--json'], { env });
    expect(last(first.stdout)).toMatchObject({ rows: 5, issued: 2, unknown: 1, invalid: 1, failed: 0 });
    expect(holders()).toBe(2);
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('row,person,result,message');
    expect(lines).toContain(
      '4,nobody@northbridge.example,unknown,"No person ""nobody@northbridge.example"" on this tenant"',
    );
    expect(lines).toContain('5,,invalid,No email or username');

    const again = await cli(['import', 'badge-assertions', file, '--badge', id], { env });
    expect(again.stdout).toContain('0 issued, 3 already held it, 1 unknown');
    expect(holders()).toBe(2);

    const held = await cli(['get', 'badge-assertions', '--badge', id, '--json'], { env });
    expect(held.lines.map((a) => a.username).sort()).toEqual(['learner0002', 'learner0003']);
    expect((await cli(['get', 'badge-assertions'], { env })).stderr).toContain('needs --badge ID');
  }, 120_000);

  it('gets the saved copy of the badges while the tenant is not answering, and says so on stderr', async () => {
    const fresh = await cli(['get', 'badges', '--json'], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toBe('');
    server.setFaults('error5xx=1');
    try {
      const offline = await cli(['get', 'badges', '--json'], { env });
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.lines.map((b) => b.name)).toEqual(fresh.lines.map((b) => b.name));
      expect(offline.stderr).toMatch(/not answering .*showing what was saved earlier/);
    } finally {
      server.setFaults('');
    }
  });
});
