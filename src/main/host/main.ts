/**
 * `npm run web`: browser mode. Serves the built renderer and the contract on 127.0.0.1 and prints one URL
 * carrying the per-run token.
 */
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../engine/paths';
import { startHost } from './server';

function usage(message: string): never {
  process.stderr.write(`${message}\nUsage: npm run web -- [--port N] [--data-dir DIR]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { port?: string; 'data-dir'?: string };
  try {
    ({ values } = parseArgs({ options: { port: { type: 'string' }, 'data-dir': { type: 'string' } }, strict: true }));
  } catch (error) {
    usage((error as Error).message);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be a number from 0 to 65535`);
  const dataDir = values['data-dir'] ?? defaultDataDir(process.env);

  const host = await startHost({ dataDir, port });
  process.stdout.write(`Mentor Admin is running in browser mode: ${host.url}\n`);
  const stop = () => {
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Mentor Admin could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
