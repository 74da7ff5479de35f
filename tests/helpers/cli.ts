import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/main/cli/run';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines (with --json). */
  lines: Record<string, unknown>[];
}

const parseLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs the CLI in-process (fast); the same function `mentor-admin` runs. */
export async function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]);
  const code = await runCli(args, { stdout, stderr, stdin, env: options.env ?? { ...process.env } });
  return { code, stdout: out, stderr: err, lines: args.includes('--json') && code === 0 ? parseLines(out) : [] };
}

/** Runs the installed `mentor-admin` entry point as a separate process. */
export function cliProcess(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; keepStdinOpen?: boolean; timeoutMs?: number } = {},
): Promise<CliResult & { timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/mentor-admin.mjs', ...args], {
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else if (!options.keepStdinOpen) child.stdin.end();
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        timedOut,
        lines: code === 0 && args.includes('--json') ? parseLines(stdout) : [],
      });
    });
  });
}
