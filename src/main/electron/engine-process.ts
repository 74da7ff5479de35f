/**
 * Entry of the utility process that hosts the engine, so SQLite, hashing and parsing never block the main
 * process that serves the window. Built as `out/main/engine.js` (second input of the main build, so the
 * engine's `migrations/` folder sits beside it).
 */
import type {} from 'electron'; // types only: declares `process.parentPort`
import { createEngine, shellPreset } from '../engine/index';
import { engineOptionsFromArgv } from './engine-protocol';
import { serveEngine } from './engine-service';
import { electronSandboxLaunch } from './sandbox-launch';

const port = process.parentPort;
if (!port) {
  console.error('engine-process must be started with utilityProcess.fork');
  process.exit(1);
}

const engineReady = (async () => {
  const options = engineOptionsFromArgv(process.argv);
  return createEngine({
    ...shellPreset('electron'),
    ...options,
    sandboxLaunch: electronSandboxLaunch(options.nativeBinding),
  });
})();
serveEngine(port, engineReady, (code) => process.exit(code));
