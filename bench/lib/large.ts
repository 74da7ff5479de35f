/**
 * The sandbox's `large` data set for benchmarks: generated once into `.bench-data/large` and reused while the
 * server's sources are unchanged. The server's code is imported only when a sandbox is started, so a suite that
 * imports this and runs itself as a child process for a measurement does not load it there.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../src/server/app';
import type { Log } from './suite';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const BENCH_DATA = join(ROOT, '.bench-data');
export const LARGE_DATA_DIR = join(BENCH_DATA, 'large');
const MARKER = join(LARGE_DATA_DIR, 'generated.json');

/** A fingerprint of everything that shapes the generated data: reuse the folder only while it is unchanged. */
function sourceFingerprint(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) hash.update(path.slice(ROOT.length)).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'src', 'server'));
  return hash.digest('hex');
}

/** Generates the `large` data set into an emptied `dataDir`; answers how long it took, in seconds (one decimal). */
export async function generateLarge(dataDir: string, log: Log): Promise<number> {
  const { startSandbox } = await import('../../src/server/app');
  if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`generating the large data set into ${relative(ROOT, dataDir)} (once)…`);
  const started = performance.now();
  const server = await startSandbox({ dataDir, seed: 'large', log: () => {} });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await server.close();
  log(`generated in ${seconds} s`);
  return seconds;
}

/** Starts a sandbox on the shared large data, generating it first (timed) when missing or stale. */
export async function largeSandbox(log: Log): Promise<{ server: Sandbox; seedSeconds: number }> {
  const { startSandbox } = await import('../../src/server/app');
  const fingerprint = sourceFingerprint();
  let marker: { fingerprint: string; seconds: number } | null = null;
  try {
    marker = JSON.parse(readFileSync(MARKER, 'utf8')) as { fingerprint: string; seconds: number };
  } catch {
    marker = null;
  }
  if (!marker || marker.fingerprint !== fingerprint) {
    marker = { fingerprint, seconds: await generateLarge(LARGE_DATA_DIR, log) };
    writeFileSync(MARKER, JSON.stringify(marker));
  }
  return { server: await startSandbox({ dataDir: LARGE_DATA_DIR, log: () => {} }), seedSeconds: marker.seconds };
}
