/** The `mentor-admin` command line over the same engine as the app. */
import { OUTPUT_TO_LOG_ENV } from './background';
import { runCli } from './run';

runCli(
  process.argv.slice(2),
  {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  },
  { outputToLog: process.env[OUTPUT_TO_LOG_ENV] === 'log' },
).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mentor-admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
