/** Where the shell finds its pieces. Pure (no `electron` import) so the rules are unit-tested. */
import { join } from 'node:path';
import { APP_ENTRY_URL } from './app-protocol';

/** The Electron-ABI build of better-sqlite3, kept apart from the Node build in node_modules. */
export const ELECTRON_NATIVE_BINDING = join('native', 'electron', 'better_sqlite3.node');

/**
 * In development `appPath` is the project folder. Packaged, it is `…/resources/app.asar`, and native files
 * live beside it in `app.asar.unpacked` (electron-builder's `asarUnpack`): a .node cannot be loaded from
 * inside an archive.
 */
export function electronNativeBindingPath(appPath: string): string {
  const root = appPath.endsWith('.asar') ? `${appPath}.unpacked` : appPath;
  return join(root, ELECTRON_NATIVE_BINDING);
}

/** The built renderer, served by the `app://` protocol from its folder; or the dev server in development. */
export type RendererEntry = { kind: 'app'; dir: string; url: string } | { kind: 'url'; url: string };

function isLoopbackHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * The electron-vite dev server (ELECTRON_RENDERER_URL) is honoured only in an unpackaged app and only on
 * loopback: otherwise an environment variable could point the window, and its preload API, at any site.
 */
export function rendererEntry(options: {
  isPackaged: boolean;
  devServerUrl?: string;
  rendererDir: string;
}): RendererEntry {
  const { isPackaged, devServerUrl, rendererDir } = options;
  if (!isPackaged && devServerUrl && isLoopbackHttp(devServerUrl)) {
    return { kind: 'url', url: new URL(devServerUrl).href };
  }
  return { kind: 'app', dir: rendererDir, url: APP_ENTRY_URL };
}
