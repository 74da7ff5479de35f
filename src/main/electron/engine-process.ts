/**
 * Entry of the utility process that hosts the engine, so SQLite, hashing and parsing never block the main
 * process that serves the window. Built as `out/main/engine.js` (second input of the main build, so the
 * engine's `migrations/` folder sits beside it).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {} from 'electron'; // types only: declares `process.parentPort`
import { createEngine } from '../engine/index';
import { engineOptionsFromArgv } from './engine-protocol';
import { serveEngine } from './engine-service';

const port = process.parentPort;
if (!port) {
  console.error('engine-process must be started with utilityProcess.fork');
  process.exit(1);
}

/**
 * The sandbox server runs as a plain Node program on Electron's own runtime (ELECTRON_RUN_AS_NODE), bundled as
 * out/main/sandbox.js beside this file, with the Electron-ABI SQLite build handed over by path.
 */
function electronSandboxLaunch(nativeBinding: string | undefined) {
  return {
    command: {
      file: process.execPath,
      args: [join(dirname(fileURLToPath(import.meta.url)), 'sandbox.js')],
      env: { ELECTRON_RUN_AS_NODE: '1', ...(nativeBinding ? { SANDBOX_NATIVE_BINDING: nativeBinding } : {}) },
    },
  };
}

const engineReady = (async () => {
  const options = engineOptionsFromArgv(process.argv);
  return createEngine({ ...options, sandboxLaunch: electronSandboxLaunch(options.nativeBinding) });
})();
serveEngine(port, engineReady, (code) => process.exit(code));
