/** The `mentor-admin` command line over the same engine as the app. */
import { backgroundIo, OUTPUT_TO_LOG_ENV } from './background';
import type { CliIo } from './io';
import { runCli } from './run';

// `mentor-admin jobs list | head -1`: once the reader has gone, what is left to print has nowhere to go. The command
// still finishes its work (a job it runs is not cut off) and exits as it would have, instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

// A background process (`train --no-wait`) has no terminal: its output goes, redacted, to the engine log.
const logDir = process.env[OUTPUT_TO_LOG_ENV];
const io: CliIo = logDir
  ? backgroundIo(logDir, process.env)
  : { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    io.stderr.write(`mentor-admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
