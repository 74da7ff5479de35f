/** Starts the engine in an Electron utility process (a Node process of its own, managed by Chromium). */
import { utilityProcess } from 'electron';
import type { EngineProcess } from './engine-client';
import { engineOptionsArg, type EngineProcessOptions } from './engine-protocol';

export function forkEngineProcess(entryPath: string, options: EngineProcessOptions): EngineProcess {
  const child = utilityProcess.fork(entryPath, [engineOptionsArg(options)], {
    serviceName: 'Mentor Admin engine',
    stdio: 'inherit',
  });
  return {
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.on('exit', listener),
    kill: () => void child.kill(),
  };
}
