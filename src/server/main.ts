/**
 * `npm run server -- [--port N] [--host 127.0.0.1] [--data DIR] [--seed demo|large|none] [--faults SPEC] [--simulate RATE]`
 * Prints exactly one JSON line when listening: {"url","org","user","apiKey","studentUser","studentKey"}.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { startSandbox } from './app';
import type { SeedSize } from './area';
import { parseFaults } from './faults';

function fail(message: string, code = 2): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      // Explicit: as a worker thread the runtime's own flags (execArgv) must not change where the arguments start.
      args: process.argv.slice(2),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'string' },
        faults: { type: 'string' },
        simulate: { type: 'string' },
        'upload-limit-mb': { type: 'string' },
        anchor: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a number from 0 to 65535');
  const seed = (values.seed ?? 'demo') as SeedSize;
  if (!['demo', 'large', 'none'].includes(seed)) fail('--seed must be demo, large or none');
  const faultSpec = values.faults ?? process.env.SANDBOX_FAULTS;
  try {
    parseFaults(faultSpec);
  } catch (error) {
    fail((error as Error).message);
  }
  const simulateRate = values.simulate === undefined ? 0 : Number(values.simulate);
  if (!Number.isFinite(simulateRate) || simulateRate < 0) fail('--simulate must be a rate per minute, 0 or more');
  const uploadLimitMb = values['upload-limit-mb'] === undefined ? 25 : Number(values['upload-limit-mb']);
  if (!Number.isFinite(uploadLimitMb) || uploadLimitMb <= 0) fail('--upload-limit-mb must be a positive number');

  // Demo data ends now so date-range defaults show it; --anchor pins it for reproducible runs.
  const today = new Date();
  today.setUTCSeconds(0, 0);
  const seedAnchor = values.anchor ? new Date(values.anchor) : today;
  if (Number.isNaN(seedAnchor.getTime())) fail('--anchor must be a date, e.g. 2026-11-01');
  const sandbox = await startSandbox({
    seedAnchor,
    dataDir: values.data ?? mkdtempSync(join(tmpdir(), 'mentor-admin-sandbox-')),
    port,
    host: values.host ?? '127.0.0.1',
    seed,
    faults: faultSpec,
    simulateRate,
    uploadLimitBytes: Math.round(uploadLimitMb * 1024 * 1024),
  });
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`could not close cleanly: ${String(error)}`, 1),
    );
  };
  // Handlers go in before the line is printed: a supervisor may signal as soon as it reads it.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Run as a worker thread (inside the Electron app) it gets no signals: the engine asks with this message instead.
  parentPort?.on('message', (message: { type?: unknown } | null) => {
    if (message?.type === 'mentor-admin-sandbox-stop') stop();
  });
  const { url, org, user, apiKey, studentUser, studentKey } = sandbox;
  process.stdout.write(`${JSON.stringify({ url, org, user, apiKey, studentUser, studentKey })}\n`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1));
