import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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
  /** How to run the server; defaults to the TypeScript sources through tsx (dev, browser mode, CLI). */
  command?: { file: string; args: string[]; env?: NodeJS.ProcessEnv };
  startTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RunningSandbox extends SandboxReady {
  stop(): Promise<void>;
  /** Resolves when the process ends (crash or stop). */
  exited: Promise<number | null>;
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export function defaultSandboxCommand(): NonNullable<SandboxLaunchOptions['command']> {
  const root = repoRoot();
  // tsx is resolved from here, not from the working directory, which is the sandbox's data folder.
  return {
    file: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), resolve(root, 'src/server/main.ts')],
  };
}

/**
 * Starts the local sandbox platform as its own process on a free loopback port: the engine never imports the
 * server, it talks to it over HTTP like any tenant.
 */
export function launchSandbox(options: SandboxLaunchOptions): Promise<RunningSandbox> {
  const command = options.command ?? defaultSandboxCommand();
  const args = [
    ...command.args,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--data',
    options.dataDir,
    '--seed',
    options.seed ?? 'demo',
  ];
  mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = spawn(command.file, args, {
    // A real folder: inside a packaged app the code's own folder is an asar archive.
    cwd: options.dataDir,
    env: { ...process.env, ...command.env, SANDBOX_FAULTS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = options.log ?? (() => {});
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(`sandbox: ${line}`);
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rejectReady(new Error(`The local sandbox did not start within ${options.startTimeoutMs ?? 120_000} ms`));
    }, options.startTimeoutMs ?? 120_000);
    const lines = createInterface({ input: child.stdout! });
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
        child.kill('SIGKILL');
        rejectReady(new Error(`The local sandbox printed an unexpected first line: ${line.slice(0, 200)}`));
        return;
      }
      resolveReady({
        ...parsed.data,
        exited,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(forced);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rejectReady(
        new Error(
          `The local sandbox exited (${code}) before it was ready: ${stderr.trim().split('\n').slice(-3).join(' ')}`,
        ),
      );
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      rejectReady(error);
    });
  });
}
