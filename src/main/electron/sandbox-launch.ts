/**
 * How the Electron app runs the local sandbox platform: in a worker thread of the engine's utility process, from
 * `out/main/sandbox.js` beside the engine's bundle, with the Electron-ABI SQLite build handed over by path. Never as
 * `<app binary>` with ELECTRON_RUN_AS_NODE: the runAsNode fuse is off, so that no other program can run the signed
 * app as plain Node. Pure, so it is unit-tested.
 */
import type { SandboxLaunchOptions } from '../engine/sandbox';

export function electronSandboxLaunch(nativeBinding: string | undefined): Partial<SandboxLaunchOptions> {
  return {
    runner: { kind: 'worker' },
    ...(nativeBinding ? { env: { SANDBOX_NATIVE_BINDING: nativeBinding } } : {}),
  };
}
