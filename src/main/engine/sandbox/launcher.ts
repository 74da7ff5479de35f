import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { ensurePrivateDir } from '../private-files';
import { locateWorker } from '../workers';

/** The built server's file name: an entry of electron.vite.config.ts beside the engine's bundle. */
export const SANDBOX_WORKER_FILE = 'sandbox.js';
/** What a sandbox running as a worker thread is sent to close cleanly (a thread gets no signals). */
export const SANDBOX_STOP_MESSAGE = 'mentor-admin-sandbox-stop';

/** The line the sandbox prints when it listens. */
export const SandboxReady = z.object({
  url: z.string().url(),
  org: z.string(),
  user: z.string(),
  apiKey: z.string(),
  studentUser: z.string(),
  studentKey: z.string(),
});
export type SandboxReady = z.infer<typeof SandboxReady>;

export interface SandboxLaunchOptions {
  dataDir: string;
  seed?: 'demo' | 'large' | 'none';
  /**
   * How to run the server: a plain Node child (default: `sandbox.js` beside the build for the CLI and browser mode,
   * the TypeScript sources through tsx in development and tests) or a worker thread of this process (the Electron
   * app, whose binary must not run as plain Node).
   */
  runner?: SandboxRunner;
  /** The environment it starts from: only its allowlisted part is passed on (`sandboxEnvironment`). */
  parentEnv: NodeJS.ProcessEnv;
  /** Variables the server gets besides the allowlisted part of the parent environment. */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export type SandboxRunner = { kind: 'process'; file: string; args: string[] } | { kind: 'worker' };

export interface RunningSandbox extends SandboxReady {
  stop(): Promise<void>;
  /** Resolves when the process ends (crash or stop). */
  exited: Promise<number | null>;
}

/**
 * What the sandbox inherits of the environment: where temporary files go, the locale and time zone, and what
 * Windows needs to run a program at all. Nothing else: no keys (`MENTOR_ADMIN_API_KEY`), no `NODE_OPTIONS`.
 */
export const SANDBOX_ENV_ALLOWLIST = [
  'PATH',
  'HOME',
  'USERPROFILE',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'SYSTEMROOT',
  'WINDIR',
] as const;

export function sandboxEnvironment(
  parent: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
): Record<string, string> {
  const allowed = new Set<string>(SANDBOX_ENV_ALLOWLIST);
  const env: Record<string, string> = {};
  // Windows names are case-insensitive (`SystemRoot`): compare them upper-cased, keep them as spelled.
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && allowed.has(name.toUpperCase())) env[name] = value;
  }
  return { ...env, ...extra };
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const runningFromSources = (moduleUrl: string) => /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);

export function defaultSandboxRunner(moduleUrl: string = import.meta.url): SandboxRunner {
  if (runningFromSources(moduleUrl)) {
    // tsx is resolved from here, not from the working directory, which is the sandbox's data folder.
    return {
      kind: 'process',
      file: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), resolve(repoRoot(), 'src/server/main.ts')],
    };
  }
  const built = locateWorker(moduleUrl, '../../../server/main.ts', SANDBOX_WORKER_FILE);
  if (!built) throw new Error(`The local sandbox's code (${SANDBOX_WORKER_FILE}) is missing from this build`);
  return { kind: 'process', file: process.execPath, args: [fileURLToPath(built.source)] };
}

/** The running server, whichever way it runs. */
interface SandboxHandle {
  stdout: Readable;
  stderr: Readable;
  exited: Promise<number | null>;
  /** Rejects the start (spawn failure, a worker that could not load its code). */
  onFailure(listener: (error: Error) => void): void;
  /** Asks the server to close its database and exit. */
  stop(): void;
  kill(): void;
  running(): boolean;
}

function startProcess(
  runner: { file: string; args: string[] },
  args: string[],
  env: Record<string, string>,
  cwd: string,
): SandboxHandle {
  const child: ChildProcess = spawn(runner.file, [...runner.args, ...args], {
    // A real folder: inside a packaged app the code's own folder is an asar archive.
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return {
    stdout: child.stdout!,
    stderr: child.stderr!,
    exited: new Promise((done) => child.once('exit', (code) => done(code))),
    onFailure: (listener) => child.once('error', listener),
    stop: () => child.kill('SIGTERM'),
    kill: () => child.kill('SIGKILL'),
    running: () => child.exitCode === null && child.signalCode === null,
  };
}

/** The sandbox in a worker thread: from the TypeScript sources through tsx, or `sandbox.js` beside the build. */
function startWorker(args: string[], env: Record<string, string>): SandboxHandle {
  const source = locateWorker(import.meta.url, '../../../server/main.ts', SANDBOX_WORKER_FILE);
  if (!source) throw new Error(`The local sandbox's code (${SANDBOX_WORKER_FILE}) is missing from this build`);
  const worker = new Worker(source.source, {
    eval: source.eval,
    workerData: source.extra,
    argv: args,
    env,
    stdout: true,
    stderr: true,
  });
  let exitCode: number | null = null;
  const exited = new Promise<number | null>((done) =>
    worker.once('exit', (code) => {
      exitCode = code;
      done(code);
    }),
  );
  const failures: ((error: Error) => void)[] = [];
  const fail = (error: Error) => failures.forEach((listener) => listener(error));
  worker.on('error', fail);
  worker.on('message', (message: { type?: unknown; message?: unknown }) => {
    // The tsx boot says so when the server's code could not even load.
    if (message?.type === 'error') fail(new Error(String(message.message)));
  });
  return {
    stdout: worker.stdout,
    stderr: worker.stderr,
    exited,
    onFailure: (listener) => failures.push(listener),
    stop: () => worker.postMessage({ type: SANDBOX_STOP_MESSAGE }),
    kill: () => void worker.terminate(),
    running: () => exitCode === null,
  };
}

/**
 * Starts the local sandbox platform on a free loopback port, as its own process or worker thread: the engine never
 * imports the server, it talks to it over HTTP like any tenant.
 */
export function launchSandbox(options: SandboxLaunchOptions): Promise<RunningSandbox> {
  const dataDir = resolve(options.dataDir);
  const args = ['--port', '0', '--host', '127.0.0.1', '--data', dataDir, '--seed', options.seed ?? 'demo'];
  ensurePrivateDir(dataDir);
  const env = sandboxEnvironment(options.parentEnv, options.env);
  let handle: SandboxHandle;
  try {
    const runner = options.runner ?? defaultSandboxRunner();
    handle = runner.kind === 'worker' ? startWorker(args, env) : startProcess(runner, args, env, dataDir);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  const log = options.log ?? (() => {});
  let stderr = '';
  handle.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(`sandbox: ${line}`);
  });
  const { exited } = handle;

  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(() => {
      handle.kill();
      rejectReady(new Error(`The local sandbox did not start within ${options.startTimeoutMs ?? 120_000} ms`));
    }, options.startTimeoutMs ?? 120_000);
    const lines = createInterface({ input: handle.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const parsed = SandboxReady.safeParse(
        (() => {
          try {
            return JSON.parse(line) as unknown;
          } catch {
            return null;
          }
        })(),
      );
      if (!parsed.success) {
        handle.kill();
        rejectReady(new Error(`The local sandbox printed an unexpected first line: ${line.slice(0, 200)}`));
        return;
      }
      resolveReady({
        ...parsed.data,
        exited,
        async stop() {
          if (!handle.running()) return;
          handle.stop();
          const forced = setTimeout(() => handle.kill(), 10_000);
          await exited;
          clearTimeout(forced);
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      rejectReady(
        new Error(
          `The local sandbox exited (${code}) before it was ready: ${stderr.trim().split('\n').slice(-3).join(' ')}`,
        ),
      );
    });
    handle.onFailure((error) => {
      clearTimeout(timer);
      handle.kill();
      rejectReady(error);
    });
  });
}
