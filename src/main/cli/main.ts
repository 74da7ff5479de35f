/** The `mentor-admin` command line over the same engine as the app. */
import { backgroundIo, OUTPUT_TO_LOG_ENV } from './background';
import type { CliIo } from './io';
import { runCli } from './run';

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
