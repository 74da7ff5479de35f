import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { engineLogFile } from '../engine/log';

/** The `mentor-admin` entry point: the command line always runs from its sources (through tsx). */
const ENTRY = fileURLToPath(new URL('../../../bin/mentor-admin.mjs', import.meta.url));

/**
 * Starts `mentor-admin ARGS` as a process of its own that outlives this one: detached and unref'd, on the same data
 * folder, profile and environment, its output appended to the engine log. Answers its pid once it runs.
 */
export async function startDetached(
  args: string[],
  context: { dataDir: string; profile?: string | undefined; env: NodeJS.ProcessEnv },
): Promise<number> {
  const log = openSync(engineLogFile(context.dataDir), 'a');
  try {
    const child = spawn(
      process.execPath,
      [ENTRY, '--data-dir', context.dataDir, ...(context.profile ? ['--profile', context.profile] : []), ...args],
      { cwd: context.dataDir, env: context.env, detached: true, stdio: ['ignore', log, log], windowsHide: true },
    );
    await once(child, 'spawn');
    child.unref();
    return child.pid!;
  } finally {
    // The child has its own copy of the descriptor.
    closeSync(log);
  }
}
