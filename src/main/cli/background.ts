import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createFileLog, type Log } from '../engine/log';
import type { CliIo } from './io';

/**
 * What runs `mentor-admin` in a process of its own: from the build, its own bundle (`cli.js`, beside every chunk in
 * out/main); from the sources (development, tests), the installed command, which runs the build of them.
 */
export function cliEntry(moduleUrl: string = import.meta.url): string {
  const fromSources = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);
  return fileURLToPath(new URL(fromSources ? '../../../bin/mentor-admin.mjs' : './cli.js', moduleUrl));
}

/**
 * Set by `startDetached` for the process it starts: that process has no terminal, so what it prints goes to the engine
 * log of this data folder, each line redacted like every other line there (`backgroundIo`).
 */
export const OUTPUT_TO_LOG_ENV = 'MENTOR_ADMIN_OUTPUT_TO_LOG';

/**
 * Starts `mentor-admin ARGS` as a process of its own that outlives this one: detached and unref'd, on the same data
 * folder, profile and environment, its output in the engine log. Answers its pid once it runs.
 */
export async function startDetached(
  args: string[],
  context: { dataDir: string; profile?: string | undefined; env: NodeJS.ProcessEnv },
): Promise<number> {
  const child = spawn(
    process.execPath,
    [cliEntry(), '--data-dir', context.dataDir, ...(context.profile ? ['--profile', context.profile] : []), ...args],
    {
      cwd: context.dataDir,
      env: { ...context.env, [OUTPUT_TO_LOG_ENV]: context.dataDir },
      detached: true,
      // Not the log file itself: the raw bytes would skip redaction. The process logs its own output.
      stdio: 'ignore',
      windowsHide: true,
    },
  );
  await once(child, 'spawn');
  child.unref();
  return child.pid!;
}

/** Whole lines to the log, each with `prefix`; a last line without its newline is logged when the stream ends. */
class LogLines extends Writable {
  private rest = '';
  constructor(
    private readonly log: Log,
    private readonly prefix: string,
  ) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const lines = (this.rest + chunk.toString()).split('\n');
    this.rest = lines.pop()!;
    for (const line of lines) if (line.trim()) this.log(`${this.prefix}${line}`);
    done();
  }
  override _final(done: (error?: Error | null) => void): void {
    this.flushRest();
    done();
  }
  flushRest(): void {
    if (this.rest.trim()) this.log(`${this.prefix}${this.rest}`);
    this.rest = '';
  }
}

/**
 * The input and output of a process `startDetached` started: its stdout and stderr lines, and anything that would
 * have crashed it, go through the engine log's redaction into `<dataDir>/logs/engine.log`.
 */
export function backgroundIo(dataDir: string, env: NodeJS.ProcessEnv): CliIo {
  // Before the log exists: exit listeners run in order, and the log writes what is left in its own.
  process.once('exit', () => {
    stdout.flushRest();
    stderr.flushRest();
  });
  const log = createFileLog(dataDir, { echo: !!env.MENTOR_ADMIN_DEBUG });
  const prefix = `cli ${process.pid}: `;
  const stdout = new LogLines(log, prefix);
  const stderr = new LogLines(log, prefix);
  process.on('uncaughtException', (error) => {
    log(`${prefix}crashed: ${error.stack ?? String(error)}`);
    process.exit(1);
  });
  return { stdout, stderr, stdin: Readable.from([]), env };
}
