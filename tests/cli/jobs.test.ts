/**
 * `mentor-admin jobs show|resume|cancel` on jobs that are not training jobs: each ends with the summary line of the
 * command that started the job (invite, export) and its exit code rule. Invitations are interrupted for real: a
 * process SIGKILLed or Ctrl-C'd in the middle of sending, then `jobs resume`, against the sandbox.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { bulkProxy } from '../invitations/proxy';
import { cliTenant, csvFile, invitationsOf, sandboxWithInvitations } from '../invitations/setup';

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** `count` valid addresses, then the invalid lines given. */
const cohort = (count: number, prefix: string, invalid: string[] = []) =>
  `Email,First name\n${[
    ...Array.from({ length: count }, (_, i) => `${prefix}${i}@example.org,First${i}`),
    ...invalid.map((address) => `${address},Broken`),
  ].join('\n')}\n`;

/**
 * `mentor-admin invite` as a real process, sent `signal` once its third chunk has reached the platform (before it
 * reads the answer). Answers the job's id and how the process ended.
 */
async function interruptedInvite(server: Sandbox, file: string, signal: NodeJS.Signals, options: string[] = []) {
  let interrupt = () => {};
  let interrupted = false;
  const proxy = await bulkProxy(server.url, async ({ index }) => {
    if (index === 2 && !interrupted) {
      interrupted = true;
      return { afterForward: () => interrupt() };
    }
    return 'forward';
  });
  const { env } = await cliTenant(server, proxy.url);
  const child = spawn(process.execPath, ['bin/mentor-admin.mjs', 'invite', file, '--platform', '--json', ...options], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  interrupt = () => child.kill(signal);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
  expect(interrupted, stderr).toBe(true);
  const started = lines(stdout).find((line) => line.event === 'started');
  expect(started, stderr).toBeDefined();
  return { env, jobId: started!.job as string, code, stdout, stderr };
}

describe('mentor-admin jobs on invite and export jobs', () => {
  it('jobs resume after SIGKILL mid-send ends with the invite summary; --skip-invalid is kept with the job', async () => {
    const server = await sandboxWithInvitations();
    const file = csvFile('killed.csv', cohort(400, 'jk', ['not-an-address', 'also broken']));
    const killed = await interruptedInvite(server, file, 'SIGKILL', ['--skip-invalid']);
    expect(killed.code).toBeNull();

    const resumed = await cli(['jobs', 'resume', killed.jobId.slice(0, 8), '--json'], { env: killed.env });
    // Two rows are invalid, but the job was started with --skip-invalid: they do not fail it.
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.lines.at(-1)).toEqual({
      job: killed.jobId,
      rows: 402,
      invited: 400,
      already: 0,
      invalid: 2,
      duplicate: 0,
      failed: 0,
    });
    const sent = server.db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT lower(email)) AS d FROM catalog_invitations WHERE email LIKE 'jk%@example.org'`,
      )
      .get() as { n: number; d: number };
    expect(sent).toEqual({ n: 400, d: 400 });

    const shown = await cli(['jobs', 'show', killed.jobId, '--json'], { env: killed.env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.lines[0]).toMatchObject({ event: 'job', kind: 'invite', state: 'completed', skipInvalid: true });
    expect(shown.lines.at(-1)).toEqual(resumed.lines.at(-1));
    const again = await cli(['jobs', 'resume', killed.jobId, '--json'], { env: killed.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.lines.at(-1)).toEqual(resumed.lines.at(-1));
  }, 60_000);

  it('jobs resume after Ctrl-C exits 1 when the job has invalid rows and was started without --skip-invalid', async () => {
    const server = await sandboxWithInvitations();
    const file = csvFile('paused.csv', cohort(400, 'jp', ['nobody-at-all']));
    const paused = await interruptedInvite(server, file, 'SIGINT');
    expect(paused.code, paused.stderr).toBe(1);
    const shown = await cli(['jobs', 'show', paused.jobId, '--json'], { env: paused.env });
    expect(shown.lines[0]).toMatchObject({ state: 'paused', skipInvalid: false });

    const resumed = await cli(['jobs', 'resume', paused.jobId, '--json'], { env: paused.env });
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(lines(resumed.stdout).at(-1)).toEqual({
      job: paused.jobId,
      rows: 401,
      invited: 400,
      already: 0,
      invalid: 1,
      duplicate: 0,
      failed: 0,
    });
    expect(invitationsOf(server, 'jp399@example.org')).toBe(1);
    const cancelled = await cli(['jobs', 'cancel', paused.jobId, '--json'], { env: paused.env });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.lines.at(-1)).toEqual({ event: 'cancelled', ...lines(resumed.stdout).at(-1), state: 'completed' });
  }, 60_000);

  it('jobs show and jobs resume of an export job end with the export summary', async () => {
    const server = await sandbox({ seed: 'demo' });
    const { env } = await cliTenant(server);
    const out = join(tempDir(), 'topics.csv');
    const exported = await cli(
      ['export', 'topics', '--from', '2026-10-01', '--to', '2026-10-31', '--tz', 'UTC', '--out', out, '--json'],
      { env },
    );
    expect(exported.code, exported.stderr).toBe(0);
    const summary = exported.lines.at(-1)!;
    expect(summary).toEqual({ job: expect.any(String), dataset: 'topics', rows: expect.any(Number), file: out });

    const shown = await cli(['jobs', 'show', String(summary.job), '--json'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.lines[0]).toMatchObject({ event: 'job', kind: 'export', state: 'completed' });
    expect(shown.lines.at(-1)).toEqual(summary);
    const human = await cli(['jobs', 'show', String(summary.job)], { env });
    expect(human.stdout.trim().split('\n').at(-1)).toBe(`Wrote ${String(summary.rows)} rows to ${out}`);
    const resumed = await cli(['jobs', 'resume', String(summary.job), '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.lines.at(-1)).toEqual(summary);
  }, 60_000);

  it('a reader that goes away (jobs list | head) does not crash the command', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, ['bin/mentor-admin.mjs', '--data-dir', dataDir, 'jobs', 'list'], {
      env: { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader closes before the command prints its first line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code, stderr).toBe(0);
  }, 30_000);

  it('--wait-limit takes a duration from 1 minute to 7 days, and goes with train --no-wait only', async () => {
    const env = { ...process.env, MENTOR_ADMIN_HOME: tempDir(), MENTOR_ADMIN_SANDBOX: 'off' };
    for (const bad of ['0', '8d', 'soon', '1.5h']) {
      const result = await cli(['jobs', 'resume', 'abcd1234', '--wait-limit', bad], { env });
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain(
        '--wait-limit must be a duration from 1 minute to 7 days, like 90, 30m, 2h or 1d',
      );
    }
    const train = await cli(['train', tempDir(), '--mentor', 'Any', '--wait-limit', '2h'], { env });
    expect(train.code).toBe(2);
    expect(train.stderr).toContain('--wait-limit goes with --no-wait');
    // A good one gets as far as looking for the job.
    const good = await cli(['jobs', 'resume', 'abcd1234', '--wait-limit', '90'], { env });
    expect(good.stderr).toContain("No job 'abcd1234'");
  });
});
