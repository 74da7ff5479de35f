import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Engine } from '../../src/main/engine';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { connect } from '../helpers/engine';
import { tempDir } from '../helpers/temp';

const RENDERER_DIR = resolve('out/renderer');

/** The ticket e2e tests serve the built renderer: say how to build it rather than fail on a blank page. */
export function requireBuiltRenderer(): void {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
}

/**
 * An engine on a fresh data folder (named with `dataDirPrefix`) with a profile on `server` (key from the
 * environment; at `baseUrl` when a proxy stands in front of it), its tickets synced, and the host serving the built
 * renderer. The caller closes both.
 */
export async function ticketsHost(
  server: Sandbox,
  dataDirPrefix: string,
  baseUrl?: string,
): Promise<{ engine: Engine; host: Host }> {
  const dataDir = tempDir(dataDirPrefix);
  const { engine } = await connect(server, { key: 'env', dataDir, keep: true, ...(baseUrl ? { baseUrl } : {}) });
  try {
    await engine.invoke('tickets.sync', { wait: true });
    const host = await startHost({ dataDir, rendererDir: RENDERER_DIR, engine });
    return { engine, host };
  } catch (error) {
    // The caller never gets the engine to close: close it here.
    await engine.close();
    throw error;
  }
}
