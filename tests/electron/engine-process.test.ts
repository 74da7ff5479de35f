/**
 * The utility-process entry run from source under Node (Electron cannot run here): it must create the engine
 * from its argv options, answer calls, forward events and close cleanly. Node's own better-sqlite3 build is
 * used, so no `nativeBinding` is passed except to check that a bad one is reported, not fatal.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { engineOptionsArg, type EngineProcessOptions, type FromEngine } from '../../src/main/electron/engine-protocol';

const shim = fileURLToPath(new URL('./fixtures/parent-port-shim.mjs', import.meta.url));
const entry = fileURLToPath(new URL('../../src/main/electron/engine-process.ts', import.meta.url));
const cleanups: (() => void)[] = [];

afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function startEngine(
  options: Partial<EngineProcessOptions> = {},
  env: NodeJS.ProcessEnv = { MENTOR_ADMIN_SANDBOX: 'off' },
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mentor-admin-engine-'));
  const child: ChildProcess = fork(shim, [engineOptionsArg({ dataDir, ...options })], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      ENGINE_ENTRY: entry,
      MENTOR_ADMIN_KEYCHAIN_SERVICE: 'mentor-admin-test-electron-shell',
      // The engine would start the local sandbox platform for the 'electron' shell; most tests do not need it.
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  cleanups.push(() => {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const messages: FromEngine[] = [];
  const waiters: (() => void)[] = [];
  child.on('message', (message) => {
    messages.push(message as FromEngine);
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = (predicate: (message: FromEngine) => boolean): Promise<FromEngine> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message; stderr: ${stderr}`)), 20_000);
      const check = () => {
        const found = messages.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(check);
      };
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, dataDir, next, exited };
}

describe('engine-process (utility entry)', () => {
  it('answers calls, forwards events and closes cleanly', async () => {
    const { child, dataDir, next, exited } = startEngine();
    child.send({ kind: 'call', id: 1, name: 'app.info', input: undefined });
    const info = await next((m) => m.kind === 'result' && m.id === 1);
    expect(info).toMatchObject({ kind: 'result', id: 1, result: { ok: true, value: { shell: 'electron', dataDir } } });

    child.send({ kind: 'call', id: 2, name: 'settings.set', input: { theme: 'dark' } });
    await expect(next((m) => m.kind === 'event')).resolves.toEqual({
      kind: 'event',
      name: 'settings.changed',
      payload: {
        theme: 'dark',
        notifyNewTickets: false,
        notifyJobEnds: true,
        navigation: 'auto',
        formatLocale: 'system',
        jobWaitLimitMinutes: 60,
      },
    });
    await expect(next((m) => m.kind === 'result' && m.id === 2)).resolves.toMatchObject({ result: { ok: true } });

    child.send({ kind: 'call', id: 3, name: 'no.such.call', input: {} });
    await expect(next((m) => m.kind === 'result' && m.id === 3)).resolves.toMatchObject({
      result: { ok: false, error: { code: 'validation' } },
    });

    child.send({ kind: 'close' });
    await expect(exited).resolves.toBe(0);
  });

  it('reports an engine that cannot start on every call instead of dying', async () => {
    const { child, next } = startEngine({ nativeBinding: '/nonexistent/better_sqlite3.node' });
    await expect(next((m) => m.kind === 'fatal')).resolves.toMatchObject({
      message: expect.stringContaining('could not start'),
    });
    child.send({ kind: 'call', id: 7, name: 'app.info', input: undefined });
    const answer = await next((m) => m.kind === 'result' && m.id === 7);
    expect(answer).toMatchObject({ result: { ok: false, error: { code: 'internal' } } });
  });

  it('runs the local sandbox in a worker thread of its own process, never as a child running the app binary', async () => {
    const { child, next, exited } = startEngine({}, { MENTOR_ADMIN_SANDBOX: 'on' });
    let sandbox: { state: string; url?: string } = { state: 'starting' };
    for (let id = 100; sandbox.state === 'starting' || sandbox.state === 'off'; id++) {
      expect(id, 'the sandbox never started').toBeLessThan(400);
      await new Promise((resolve) => setTimeout(resolve, 100));
      child.send({ kind: 'call', id, name: 'app.info', input: undefined });
      const info = await next((m) => m.kind === 'result' && m.id === id);
      sandbox = (info as { result: { value: { sandbox: typeof sandbox } } }).result.value.sandbox;
    }
    expect(sandbox).toMatchObject({ state: 'running', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect((await fetch(`${sandbox.url}/_sandbox/health`)).status).toBe(200);
    // No process of its own: the engine's process has no children (Linux /proc).
    const children = readdirSync(`/proc/${child.pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${child.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    );
    expect(children).toEqual([]);
    child.send({ kind: 'close' });
    await expect(exited).resolves.toBe(0);
    await expect(fetch(`${sandbox.url}/_sandbox/health`)).rejects.toThrow();
  }, 60_000);
});
