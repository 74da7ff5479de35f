/**
 * `mentor-admin train` and `mentor-admin jobs`, in-process and as real processes, against the real sandbox. The
 * kill test runs the installed entry point, SIGKILLs it mid-upload, resumes the job with `jobs resume` and checks
 * the exact counts and the platform's list: no document twice.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { createEngine, shellPreset } from '../../src/main/engine';
import { cli, cliProcess } from '../helpers/cli';
import { until } from '../helpers/engine';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { sandbox } from '../helpers/sandbox';
import { createMentor, duplicatesOf, serverDocuments, text, tree } from './setup';

async function cliSetup(options: { uploadLimitBytes?: number } = {}) {
  const server = await sandbox(options);
  const mentor = await createMentor(server, 'Calculus');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MENTOR_ADMIN_HOME: tempDir(),
    MENTOR_ADMIN_KEYCHAIN_SERVICE: uniqueService(),
    MENTOR_ADMIN_API_KEY: server.apiKey,
    MENTOR_ADMIN_SANDBOX: 'off',
  };
  const added = await cli(
    ['profile', 'add', 'Test tenant', '--url', server.url, '--org', server.org, '--user', server.user],
    { env },
  );
  expect(added.code, added.stderr).toBe(0);
  return { server, mentor, env };
}

function notes(count: number) {
  const files: Record<string, string> = { '.DS_Store': 'x', 'figure.png': 'png' };
  for (let i = 0; i < count; i++) files[`notes/n-${String(i).padStart(3, '0')}.md`] = text(`Note ${i}`);
  return tree(files);
}

const documentsOf = (server: Sandbox, mentor: string) => serverDocuments(server, mentor);

/** The `mentor-admin jobs resume JOB` processes that `train --no-wait` left running (Linux /proc). */
function backgroundProcesses(jobId: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`\0jobs\0resume\0${jobId}`);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * `mentor-admin train` as a real process (two uploads at a time), stopped with `signal` once its job has
 * `uploaded` documents on the server; answers the job's id, the exit code and all the process wrote to stderr.
 */
async function interruptedTrain(
  run: { server: Sandbox; mentor: string; env: NodeJS.ProcessEnv; root: string },
  uploaded: number,
  signal: NodeJS.Signals,
) {
  const { server, mentor, env, root } = run;
  const child = spawn(
    process.execPath,
    ['bin/mentor-admin.mjs', '--json', 'train', root, '--mentor', mentor, '--concurrency', '2'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let jobId = '';
  for await (const line of createInterface({ input: child.stdout })) {
    const event = JSON.parse(line) as { event?: string; job?: string };
    if (event.event === 'started') jobId = event.job!;
    if (jobId && documentsOf(server, mentor).length >= uploaded) break;
  }
  child.kill(signal);
  const code = await exited;
  return { jobId, code, stderr };
}

describe('mentor-admin train', () => {
  beforeAll(requireKeychainSession);

  it('--dry-run prints the preview, one JSON line per file, and sends nothing', async () => {
    const { server, mentor, env } = await cliSetup();
    const root = notes(3);
    const result = await cli(
      ['train', root, '--mentor', 'Calculus', '--dry-run', '--json', '--profile', 'Test tenant'],
      {
        env,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const [preview, ...files] = result.lines;
    expect(preview).toMatchObject({
      event: 'preview',
      mentor: { uniqueId: mentor, name: 'Calculus' },
      classes: { new: 3, skipped: 1, unsupported: 1 },
      toSend: { files: 3 },
      totalFiles: 5,
    });
    expect(files).toHaveLength(5);
    expect(files.find((f) => f.relativePath === 'course/.DS_Store')).toMatchObject({
      event: 'file',
      class: 'skipped',
      reason: 'System file (.DS_Store)',
    });
    expect(documentsOf(server, mentor)).toEqual([]);

    const human = await cli(['train', root, '--mentor', mentor, '--dry-run'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Preview for mentor "Calculus": 5 files — 3 new, 1 unsupported, 1 skipped');
    expect(human.stdout).toContain('skipped     course/.DS_Store — System file (.DS_Store)');
    expect(human.stdout).toContain('Dry run: nothing was sent.');
  });

  it('trains a folder, printing JSON progress and the summary last; exit 0; again: nothing uploaded', async () => {
    const { server, mentor, env } = await cliSetup();
    const root = notes(6);
    const result = await cli(['--json', 'train', root, '--mentor', mentor, '--concurrency', '3'], { env });
    expect(result.code, result.stderr).toBe(0);
    const events = result.lines.map((line) => line.event);
    expect(events[0]).toBe('preview');
    expect(events).toContain('started');
    expect(events).toContain('progress');
    const jobId = result.lines.find((l) => l.event === 'started')!.job as string;
    expect(result.lines.at(-1)).toEqual({ job: jobId, total: 8, uploaded: 6, skipped: 2, trained: 6, failed: 0 });
    const docs = documentsOf(server, mentor);
    expect(docs).toHaveLength(6);
    expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);

    const again = await cli(['--json', 'train', root, '--mentor', mentor], { env });
    expect(again.code).toBe(0);
    expect(again.lines.at(-1)).toMatchObject({ total: 8, uploaded: 0, skipped: 8, trained: 0, failed: 0 });
    expect(documentsOf(server, mentor)).toHaveLength(6);

    const list = await cli(['jobs', 'list', '--json'], { env });
    expect(list.lines.map((job) => job.id)).toContain(jobId);
    const show = await cli(['jobs', 'show', jobId.slice(0, 8), '--items', '--json'], { env });
    expect(show.code).toBe(0);
    expect(show.lines[0]).toMatchObject({ event: 'job', id: jobId, state: 'completed' });
    expect(show.lines.filter((l) => l.event === 'item')).toHaveLength(8);
  });

  it('exits 1 and lists the failure when a file fails', async () => {
    const { env, mentor } = await cliSetup({ uploadLimitBytes: 2000 });
    const root = tree({ 'ok.md': text('OK'), 'big.txt': 'x'.repeat(5000) });
    const result = await cli(['train', root, '--mentor', mentor, '--max-size', '1', '--json'], { env });
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: 'failed', file: 'course/big.txt', error: 'File too large' }),
    );
    expect(lines.at(-1)).toMatchObject({ total: 2, uploaded: 1, trained: 1, failed: 1 });
  });

  it('gives clear errors for bad input', async () => {
    const { env, mentor } = await cliSetup();
    expect((await cli(['train', '--mentor', mentor], { env })).code).toBe(2);
    expect((await cli(['train', tempDir()], { env })).code).toBe(2);
    const missing = await cli(['train', '/no/such/folder', '--mentor', mentor], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file or folder: /no/such/folder');
    const badConcurrency = await cli(['train', tempDir(), '--mentor', mentor, '--concurrency', 'lots'], { env });
    expect(badConcurrency.code).toBe(2);
    expect((await cli(['jobs', 'show', 'nope'], { env })).stderr).toContain("No job 'nope'");
  });

  it('works with no account when the local sandbox is the active tenant (the CLI starts it itself)', async () => {
    const home = tempDir();
    const service = uniqueService();
    // The app ran once: it started the sandbox, which made itself the active tenant; a mentor was created there.
    const app = await createEngine({
      ...shellPreset('browser'),
      dataDir: home,
      sandbox: 'auto',
      sandboxLaunch: { seed: 'none' },
      keychainService: service,
      env: {},
    });
    try {
      for (let i = 0; !(await app.invoke('profiles.list', {})).some((p) => p.isSandbox && p.hasSecret); i++) {
        if (i > 600) throw new Error('the sandbox did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await app.invoke('mentors.create', { name: 'Sandbox Course' });
    } finally {
      await app.close();
    }
    const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_HOME: home, MENTOR_ADMIN_KEYCHAIN_SERVICE: service };
    delete env.MENTOR_ADMIN_API_KEY;
    delete env.MENTOR_ADMIN_SANDBOX;
    const result = await cli(['--json', 'train', notes(3), '--mentor', 'Sandbox Course'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.lines.at(-1)).toMatchObject({ total: 5, uploaded: 3, skipped: 2, trained: 3, failed: 0 });
  }, 90_000);

  it('--no-wait returns at once; a background process trains every file once, its output in the engine log', async () => {
    const { server, mentor, env } = await cliSetup();
    const root = notes(12);
    // Slow enough that the job outlasts the command.
    server.setFaults('latency=30-30ms');
    const run = await cliProcess(['--json', 'train', root, '--mentor', mentor, '--concurrency', '2', '--no-wait'], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const jobId = run.lines.at(-1)!.job as string;
    expect(run.lines.at(-1)).toEqual({ job: jobId, state: 'running' });
    try {
      expect(documentsOf(server, mentor).length).toBeLessThan(12);
      let shown = await cli(['jobs', 'show', jobId, '--json'], { env });
      for (let i = 0; shown.lines[0]?.state !== 'completed'; i++) {
        expect(i, JSON.stringify(shown.lines[0])).toBeLessThan(240);
        expect(shown.lines[0]?.state).toMatch(/^(queued|running)$/);
        await new Promise((resolve) => setTimeout(resolve, 250));
        shown = await cli(['jobs', 'show', jobId, '--json'], { env });
      }
      expect(shown.lines.at(-1)).toEqual({ job: jobId, total: 14, uploaded: 12, skipped: 2, trained: 12, failed: 0 });
      const docs = documentsOf(server, mentor);
      expect(docs).toHaveLength(12);
      expect(duplicatesOf(docs)).toEqual([]);
      // The background process ends with the job, its summary written to the engine log.
      const log = join(env.MENTOR_ADMIN_HOME!, 'logs', 'engine.log');
      await until('the summary in the engine log', () =>
        readFileSync(log, 'utf8').includes(`Job ${jobId.slice(0, 8)} completed: 14 files, 12 uploaded`),
      );
      await until('the background process to end', () => backgroundProcesses(jobId).length === 0);
    } finally {
      for (const pid of backgroundProcesses(jobId)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);

  it('Ctrl-C pauses the job cleanly (exit 130); jobs resume finishes it', async () => {
    const { server, mentor, env } = await cliSetup();
    const root = notes(20);
    server.setFaults('latency=30-30ms');
    const { jobId, code, stderr } = await interruptedTrain({ server, mentor, env, root }, 3, 'SIGINT');
    expect(code, stderr).toBe(130);
    expect(stderr).toContain(`Resume it with: mentor-admin jobs resume ${jobId.slice(0, 8)}`);
    server.setFaults('');
    const shown = await cli(['jobs', 'show', jobId, '--json'], { env });
    expect(shown.lines[0]).toMatchObject({ state: 'paused', reason: 'Paused' });
    const resumed = await cli(['jobs', 'resume', jobId.slice(0, 8), '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.lines.at(-1)).toEqual({ job: jobId, total: 22, uploaded: 20, skipped: 2, trained: 20, failed: 0 });
    expect(duplicatesOf(documentsOf(server, mentor))).toEqual([]);
  }, 60_000);

  it('survives SIGKILL mid-upload: jobs resume finishes with exact counts and no duplicate documents', async () => {
    const { server, mentor, env } = await cliSetup();
    const root = notes(40);
    server.setFaults('latency=30-30ms');
    const { jobId, stderr } = await interruptedTrain({ server, mentor, env, root }, 8, 'SIGKILL');
    expect(jobId, stderr).not.toBe('');
    const before = documentsOf(server, mentor).length;
    expect(before).toBeGreaterThanOrEqual(8);
    expect(before).toBeLessThan(40);
    server.setFaults('');

    const resumed = await cliProcess(['jobs', 'resume', jobId, '--json'], { env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.lines.at(-1)).toEqual({ job: jobId, total: 42, uploaded: 40, skipped: 2, trained: 40, failed: 0 });
    const docs = documentsOf(server, mentor);
    expect(duplicatesOf(docs)).toEqual([]);
    expect(docs).toHaveLength(40);
    expect(docs.every((doc) => doc.training_status === 'trained')).toBe(true);
  }, 90_000);
});
