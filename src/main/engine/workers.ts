/**
 * Where a worker thread's code is. From TypeScript sources (tsx: dev, browser mode, CLI, tests) it is the worker's
 * .ts file, loaded through tsx (workers do not inherit the parent's loader hooks). From a build (`out/main/engine.js`,
 * packaged inside `app.asar`, which Electron's workers read) it is the worker's own electron-vite entry beside the
 * bundle, or one folder up when the calling code was split into `out/main/chunks/`. Null when there is none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Loads tsx in the worker, then the worker module itself. */
const TS_BOOT = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  const tsx = await import(workerData.tsxApi);
  tsx.register();
  await import(workerData.entry);
})().catch((error) => parentPort.postMessage({ type: 'error', message: String((error && error.stack) || error) }));`;

export type WorkerSource =
  | { kind: 'tsx'; source: string; eval: true; extra: { tsxApi: string; entry: string } }
  | { kind: 'built'; source: URL; eval: false; extra: Record<string, never> };

/** tsx's ESM register API (require.resolve would find its CommonJS build, which cannot register ESM hooks). */
function tsxEsmApi(from: string): string | null {
  try {
    const require = createRequire(from);
    const manifest = require.resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      exports?: Record<string, { import?: { default?: string } | string }>;
    };
    const entry = pkg.exports?.['./esm/api']?.import;
    const relative = typeof entry === 'string' ? entry : entry?.default;
    return relative ? pathToFileURL(join(dirname(manifest), relative)).href : null;
  } catch {
    return null;
  }
}

/**
 * @param moduleUrl the calling module's URL (`import.meta.url`)
 * @param tsEntry the worker's source file (.ts, or plain .mjs), relative to the calling module's source
 * @param builtFile the worker's file name in the build (its electron-vite entry name + `.js`)
 */
export function locateWorker(
  moduleUrl: string,
  tsEntry: string,
  builtFile: string,
  exists: (path: string) => boolean = existsSync,
): WorkerSource | null {
  if (/\.[cm]?ts$/.test(new URL(moduleUrl).pathname)) {
    // A worker written in plain JavaScript starts as it is; a TypeScript one through tsx.
    if (/\.[cm]?js$/.test(tsEntry))
      return { kind: 'built', source: new URL(tsEntry, moduleUrl), eval: false, extra: {} };
    const tsxApi = tsxEsmApi(moduleUrl);
    if (!tsxApi) return null;
    return { kind: 'tsx', source: TS_BOOT, eval: true, extra: { tsxApi, entry: new URL(tsEntry, moduleUrl).href } };
  }
  for (const candidate of [`./${builtFile}`, `../${builtFile}`]) {
    const built = new URL(candidate, moduleUrl);
    if (exists(fileURLToPath(built))) return { kind: 'built', source: built, eval: false, extra: {} };
  }
  return null;
}
