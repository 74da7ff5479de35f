/**
 * The job journal is the one authority over a job, whichever process runs it: a `mentor-admin jobs resume` process
 * (as `train --no-wait` starts one) obeys a pause or cancel the app writes, lets the app take over a job it only waits
 * on, and waits for an unreachable tenant no longer than the job's limit. Two real processes on one data folder: the
 * CLI as a child process, the app's engine in the test, a real sandbox behind a loopback proxy that can go down.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine, shellPreset } from '../../src/main/engine';
import { GAVE_UP_WAITING } from '../../src/shared/contract';
import { connect, noKeychain, until, waitForJob } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy } from '../helpers/switchable-proxy';
import { createMentor, duplicatesOf, serverDocuments, text, tree } from '../train/setup';

interface Child {
  pid: number;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill(): void;
}

const children: Child[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill();
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** `mentor-admin ARGS` as a process of its own. */
function cliChild(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['bin/mentor-admin.mjs', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const handle = { pid: child.pid!, exited, kill: () => child.kill('SIGKILL') };
  children.push(handle);
  return handle;
}

/**
 * A training job of `files` files journalled (not started) on a fresh data folder whose tenant is `server` behind a
 * switchable proxy; the environment a CLI process needs there; and engines on the same folder.
 */
async function journalledJob(files: number) {
  const server = await sandbox();
  const mentor = await createMentor(server, 'Calculus');
  const proxy = await switchableProxy(server);
  const { engine: writer, dataDir } = await connect(server, { key: 'env-only', baseUrl: proxy.url, keep: true });
  const notes: Record<string, string> = {};
  for (let i = 0; i < files; i++) notes[`n-${i}.md`] = text(`Note ${i}`);
  const preview = await writer.invoke('train.preview', { mentor, paths: [tree(notes)] });
  const { jobId } = await writer.invoke('train.start', { previewId: preview.id, concurrency: 2, queue: true });
  await writer.close();
  const env = { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' };
  /** The app (browser mode: it resumes unfinished jobs at start) or an engine that only looks (it runs nothing). */
  const open = async (shell: 'browser' | 'test') => {
    const engine = await createEngine({
      ...shellPreset(shell),
      dataDir,
      resumeJobs: shell === 'browser',
      sandbox: 'off',
      secrets: noKeychain,
      env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SCHEDULER: 'off' },
    });
    engines.push(engine);
    return engine;
  };
  return { server, mentor, proxy, dataDir, jobId, env, open, reader: await open('test') };
}

describe('the journal is the one authority over a job run by another process', () => {
  it('the app leaves a job the CLI runs to it; Pause then Resume in the app hands it over cleanly, every file once', async () => {
    const { server, mentor, dataDir, jobId, env, open } = await journalledJob(40);
    server.setFaults('latency=400-400ms');
    const child = cliChild(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json'], env);
    await until('the CLI to upload a few files', () => serverDocuments(server, mentor).length >= 3, 30_000);
    // The app opens meanwhile: it resumes unfinished jobs at start, but not one a live process runs.
    const app = await open('browser');
    const held = await app.invoke('jobs.get', { id: jobId });
    expect(held).toMatchObject({ state: 'running', runner: { pid: child.pid, here: false } });
    await expect(app.invoke('jobs.resume', { id: jobId })).rejects.toThrow(
      `This job runs in another Mentor Admin process (pid ${child.pid}); it goes on there`,
    );

    // Resume right after Pause: the app waits for the CLI to stop its uploads and let go, then runs the job itself.
    expect((await app.invoke('jobs.pause', { id: jobId })).state).toBe('paused');
    server.setFaults('');
    const resumed = await app.invoke('jobs.resume', { id: jobId });
    expect(resumed).toMatchObject({ state: 'running', runner: { here: true } });
    const exit = await child.exited;
    // The CLI saw the pause (exit 1), or already the app running the job (exit 0): it stopped either way.
    expect(exit.stderr).toMatch(/The job is paused: Paused|The job now runs in another Mentor Admin process/);
    const done = await waitForJob(app, jobId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(done).toMatchObject({ state: 'completed', counts: { uploaded: 40, failed: 0 } });
    const docs = serverDocuments(server, mentor);
    expect(docs).toHaveLength(40);
    expect(duplicatesOf(docs)).toEqual([]);
  }, 120_000);

  it('`mentor-admin jobs pause` stops the job the app runs; `jobs resume` then finishes it in the CLI, every file once', async () => {
    const { server, mentor, dataDir, jobId, env, open } = await journalledJob(40);
    server.setFaults('latency=400-400ms');
    // The app picks the journalled job up at start, as it does after a quit.
    const app = await open('browser');
    await until('the app to upload a few files', () => serverDocuments(server, mentor).length >= 2, 30_000);

    const pause = await cliChild(['--data-dir', dataDir, 'jobs', 'pause', jobId.slice(0, 8), '--json'], env).exited;
    expect(pause.code, pause.stderr).toBe(0);
    expect(JSON.parse(pause.stdout.trim().split('\n').at(-1)!)).toMatchObject({ event: 'paused', state: 'paused' });
    // The app's runner obeys the journal: its run stops and it lets the job go.
    const stopped = await until('the app to let the job go', async () => {
      const job = await app.invoke('jobs.get', { id: jobId });
      return job.runner === null && job;
    });
    expect(stopped).toMatchObject({ state: 'paused', reason: 'Paused', progress: { active: 0 } });
    const sentByThen = serverDocuments(server, mentor).length;
    expect(sentByThen).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(serverDocuments(server, mentor)).toHaveLength(sentByThen);
    expect((await app.invoke('jobs.get', { id: jobId })).state).toBe('paused');

    server.setFaults('');
    const resumed = await cliChild(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json'], env).exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout.trim().split('\n').at(-1)!)).toMatchObject({ uploaded: 40, failed: 0 });
    const docs = serverDocuments(server, mentor);
    expect(docs).toHaveLength(40);
    expect(duplicatesOf(docs)).toEqual([]);
  }, 120_000);

  it('`mentor-admin jobs cancel` stops the job the app runs for good: nothing more is sent', async () => {
    const { server, mentor, dataDir, jobId, env, open } = await journalledJob(30);
    server.setFaults('latency=400-400ms');
    const app = await open('browser');
    await until('the app to upload a few files', () => serverDocuments(server, mentor).length >= 2, 30_000);
    const cancel = await cliChild(['--data-dir', dataDir, 'jobs', 'cancel', jobId, '--json'], env).exited;
    expect(cancel.code, cancel.stderr).toBe(0);
    const stopped = await until('the app to let the job go', async () => {
      const job = await app.invoke('jobs.get', { id: jobId });
      return job.runner === null && job;
    });
    expect(stopped).toMatchObject({ state: 'cancelled', progress: { active: 0 } });
    const sentByThen = serverDocuments(server, mentor).length;
    expect(sentByThen).toBeLessThan(30);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(serverDocuments(server, mentor)).toHaveLength(sentByThen);
    expect((await app.invoke('jobs.get', { id: jobId })).state).toBe('cancelled');
  }, 120_000);

  it('a job waiting in the CLI shows when it gives up; the app resuming it takes it over and the CLI lets go', async () => {
    const { proxy, dataDir, jobId, env, open, reader } = await journalledJob(3);
    proxy.down();
    const child = cliChild(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json', '--wait-limit', '2h'], env);
    const waiting = await until(
      'the CLI to wait for the tenant',
      async () => {
        const job = await reader.invoke('jobs.get', { id: jobId });
        return job.state === 'waiting' && job;
      },
      // Training retries each upload by itself for a while before the job waits.
      90_000,
    );
    expect(waiting).toMatchObject({ waitLimitMinutes: 120, runner: { pid: child.pid, here: false } });
    expect(waiting.reason).toMatch(/unreachable/);
    // Two hours from when the waiting began (within the moments it took to get here).
    const givesUpIn = Date.parse(waiting.givesUpAt!) - Date.parse(waiting.updatedAt);
    expect(givesUpIn).toBeGreaterThan(119 * 60_000);
    expect(givesUpIn).toBeLessThanOrEqual(120 * 60_000);
    expect(Date.parse(waiting.retryAt!)).toBeGreaterThan(Date.parse(waiting.updatedAt));

    const app = await open('browser');
    proxy.up();
    await app.invoke('jobs.resume', { id: jobId });
    const exit = await child.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stderr).toContain('The job now runs in another Mentor Admin process');
    const done = await waitForJob(app, jobId, ['completed', 'failed', 'cancelled'], 60_000);
    expect(done).toMatchObject({ state: 'completed', counts: { uploaded: 3, failed: 0 } });
  }, 180_000);

  it('a background process waiting for an unreachable tenant gives up at its limit: paused, saying so, resumable', async () => {
    const { server, mentor, proxy, dataDir, jobId, env, reader } = await journalledJob(3);
    proxy.down();
    const child = cliChild(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json', '--wait-limit', '1'], env);
    const exit = await child.exited;
    expect(exit.code, exit.stderr).toBe(1);
    expect(exit.stderr).toContain(`The job is paused: ${GAVE_UP_WAITING} after 1 min`);
    expect(exit.stderr).toContain(`Resume it with: mentor-admin jobs resume ${jobId.slice(0, 8)}`);
    const paused = await reader.invoke('jobs.get', { id: jobId });
    expect(paused).toMatchObject({ state: 'paused', runner: null, givesUpAt: null });
    expect(paused.reason).toMatch(new RegExp(`^${GAVE_UP_WAITING} after 1 min \\(.+\\)\\. Resume the job`));

    proxy.up();
    const resumed = cliChild(['--data-dir', dataDir, 'jobs', 'resume', jobId, '--json'], env);
    expect((await resumed.exited).code).toBe(0);
    expect(await reader.invoke('jobs.get', { id: jobId })).toMatchObject({ state: 'completed' });
    expect(serverDocuments(server, mentor)).toHaveLength(3);
  }, 240_000);
});
