/**
 * `mentor-admin invite` against the real sandbox: in-process for the options and exit codes, and as a real process
 * killed with SIGKILL in the middle of sending, then run again.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/engine/store/database';
import { cli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { bulkProxy } from './proxy';
import { cliTenant, csvFile, invitationsOf, sandboxWithInvitations } from './setup';

const cohort = (n: number, prefix: string) =>
  `Email,First name,Last name\n${Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org,First${i},Last${i}`).join('\n')}\n`;

const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;

describe('mentor-admin invite', () => {
  it('invites a file, writes the report, and invites nobody when run again', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const file = csvFile('cohort.csv', cohort(120, 'cli'));
    const report = join(tempDir(), 'report.csv');

    const run = await cli(['invite', file, '--platform', '--json', '--report', report], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(last(run.stdout)).toEqual({
      job: expect.any(String),
      rows: 120,
      invited: 120,
      already: 0,
      invalid: 0,
      duplicate: 0,
      failed: 0,
    });
    expect(invitationsOf(server, 'cli7@example.org')).toBe(1);
    const lines = readFileSync(report, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(121);
    expect(lines[1]).toBe('2,cli0@example.org,First0,Last0,invited,');

    const again = await cli(['invite', file, '--platform', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(last(again.stdout)).toMatchObject({ rows: 120, invited: 0, already: 120, failed: 0 });
    expect(invitationsOf(server, 'cli7@example.org')).toBe(1);
  });

  it('counts invalid rows as failed unless --skip-invalid; a duplicate is its own count, not a failure', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const file = csvFile('mixed.csv', 'email\nok1@example.org\nnot-an-address\nok2@example.org\nOK1@example.org\n');
    const strict = await cli(['invite', file, '--platform', '--json'], { env });
    expect(strict.code).toBe(1);
    expect(last(strict.stdout)).toMatchObject({ rows: 4, invited: 2, invalid: 1, duplicate: 1, failed: 0 });
    expect(strict.stdout).toContain('"event":"invalid","line":3,"email":"not-an-address"');

    const lenient = await cli(
      ['invite', csvFile('mixed2.csv', 'email\nok3@example.org\nbroken\n'), '--platform', '--skip-invalid'],
      { env },
    );
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.stdout).toContain('line 3: broken — Not a valid email address (no @)');
    expect(lenient.stdout).toMatch(/Job \w+ completed: 2 rows, 1 invited/);
  });

  it('--dry-run validates and reports but sends nothing', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const report = join(tempDir(), 'plan.csv');
    const file = csvFile('dry.csv', 'Email\ndry1@example.org\nlearner0004@northbridge.example\nbad\n');
    const run = await cli(['invite', file, '--platform', '--dry-run', '--skip-invalid', '--json', '--report', report], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(last(run.stdout)).toMatchObject({
      job: null,
      rows: 3,
      invited: 0,
      already: 1,
      invalid: 1,
      willEmail: 1,
      dryRun: true,
    });
    expect(invitationsOf(server, 'dry1@example.org')).toBe(0);
    expect(readFileSync(report, 'utf8')).toContain('2,dry1@example.org,,,would invite,');
  });

  it('finds an unnamed email column by its values; --map names columns or ignores them', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const file = csvFile('odd.csv', 'Work address,Known as\nmap1@example.org,Mo\n');
    const ignored = await cli(['invite', file, '--platform', '--map', 'Work address=ignore'], { env });
    expect(ignored.code).toBe(1);
    expect(ignored.stderr).toContain(
      'No column holds email addresses (columns: Work address, Known as). Name it with --map "Header=email".',
    );

    const mapped = await cli(['invite', file, '--platform', '--map', 'known as=first_name', '--json'], { env });
    expect(mapped.code, mapped.stderr).toBe(0);
    const row = server.db
      .prepare(`SELECT metadata FROM catalog_invitations WHERE email = 'map1@example.org'`)
      .get() as {
      metadata: string;
    };
    expect(JSON.parse(row.metadata)).toMatchObject({ first_name: 'Mo' });
  });

  it('sends to a program, refuses an unknown course, and explains wrong command lines', async () => {
    const server = await sandboxWithInvitations();
    const { env } = await cliTenant(server);
    const file = csvFile('p.csv', 'email\nprog1@example.org\n');
    const program = (
      server.db.prepare(`SELECT program_key FROM programs WHERE org = ? LIMIT 1`).get(server.org) as {
        program_key: string;
      }
    ).program_key;
    const ok = await cli(['invite', file, '--program', program, '--json'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(invitationsOf(server, 'prog1@example.org', 'program')).toBe(1);

    const unknown = await cli(['invite', file, '--course', 'course-v1:nope+1+2'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("There is no course 'course-v1:nope+1+2' on this tenant");

    expect((await cli(['invite', file], { env })).code).toBe(2);
    expect((await cli(['invite', file, '--platform', '--course', 'x'], { env })).code).toBe(2);
    const badMap = await cli(['invite', file, '--platform', '--map', 'email=phone'], { env });
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toContain('the field must be one of email, first_name');
    const empty = await cli(['invite', csvFile('empty.csv', ''), '--platform'], { env });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('The file is empty');
  });

  it('killed with SIGKILL mid-send, then run again: resumes and invites each person exactly once', async () => {
    const server = await sandboxWithInvitations();
    let kill: () => void = () => {};
    let killed = false;
    const proxy = await bulkProxy(server.url, async ({ index }) => {
      // The third chunk reaches the platform, and the process dies before it reads the answer.
      if (index === 2 && !killed) {
        killed = true;
        return { afterForward: () => kill() };
      }
      return 'forward';
    });
    const { env, dataDir } = await cliTenant(server, proxy.url);
    const file = csvFile('kill.csv', cohort(500, 'k'));
    const run = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/mentor-admin.mjs', 'invite', file, '--platform', '--json'], {
          env,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        kill = () => child.kill('SIGKILL');
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
      });

    const first = await run();
    expect(first.signal).toBe('SIGKILL');
    expect(killed).toBe(true);
    // At least three chunks reached the platform (two fly at once, and they grow while answers come fast); the
    // answer of the third was never read, so the journal holds a chunk whose fate is unknown.
    const sentBefore = server.db
      .prepare(`SELECT count(*) AS n FROM catalog_invitations WHERE email LIKE 'k%@example.org'`)
      .get() as { n: number };
    expect(sentBefore.n).toBeGreaterThanOrEqual(300);
    const journal = openDatabase(join(dataDir, 'mentor-admin.sqlite'));
    try {
      expect((journal.prepare('SELECT count(*) AS n FROM invite_inflight').get() as { n: number }).n).toBeGreaterThan(
        0,
      );
    } finally {
      journal.close();
    }

    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('"resumed":true');
    expect(last(second.stdout)).toMatchObject({ rows: 500, invited: 500, already: 0, failed: 0 });
    const counts = server.db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT lower(email)) AS d FROM catalog_invitations WHERE email LIKE 'k%@example.org'`,
      )
      .get() as { n: number; d: number };
    expect(counts).toEqual({ n: 500, d: 500 });
  }, 60_000);
});
