import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createFileLog, engineLogFile } from '../engine/log';

/** The `mentor-admin` entry point: the command line always runs from its sources (through tsx). */
const ENTRY = fileURLToPath(new URL('../../../bin/mentor-admin.mjs', import.meta.url));

/** Set for a background process: its output goes to the engine log, line by line (see `outputToLog`). */
export const OUTPUT_TO_LOG_ENV = 'MENTOR_ADMIN_OUTPUT';

/**
 * Starts `mentor-admin ARGS` as a process of its own that outlives this one: detached and unref'd, on the same data
 * folder, profile and environment, its output written to the engine log. Answers its pid once it runs.
 */
export async function startDetached(
  args: string[],
  context: { dataDir: string; profile?: string | undefined; env: NodeJS.ProcessEnv },
): Promise<number> {
  // What it prints goes through the engine log (redacted, batched, rotated); only a crash before the CLI has started
  // lands in the file through these descriptors.
  const log = openSync(engineLogFile(context.dataDir), 'a');
  try {
    const child = spawn(
      process.execPath,
      [ENTRY, '--data-dir', context.dataDir, ...(context.profile ? ['--profile', context.profile] : []), ...args],
      {
        cwd: context.dataDir,
        env: { ...context.env, [OUTPUT_TO_LOG_ENV]: 'log' },
        detached: true,
        stdio: ['ignore', log, log],
        windowsHide: true,
      },
    );
    await once(child, 'spawn');
    child.unref();
    return child.pid!;
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(log);
  }
}

/** A background process's stdout and stderr as lines of the engine log, marked with its pid. */
export function outputToLog(dataDir: string, env: NodeJS.ProcessEnv): { stdout: Writable; stderr: Writable } {
  const log = createFileLog(dataDir, env);
  const lines = (stream: string) => {
    let partial = '';
    return new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        const text = partial + String(chunk);
        const parts = text.split(/\r?\n|\r/);
        partial = parts.pop() ?? '';
        for (const part of parts) if (part.trim()) log(`[background ${process.pid} ${stream}] ${part}`);
        done();
      },
      final(done) {
        if (partial.trim()) log(`[background ${process.pid} ${stream}] ${partial}`);
        done();
      },
    });
  };
  return { stdout: lines('out'), stderr: lines('err') };
}
