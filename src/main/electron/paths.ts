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

/** The shell's own icons: resources/shell in the project, copied to `<resources>/shell` by electron-builder. */
export const SHELL_ICONS_DIR = join('resources', 'shell');

export interface ShellIcons {
  /** The window's icon (Linux and Windows; macOS takes the app bundle's). */
  window: string | undefined;
  /** The desktop notifications' icon (Linux and Windows; macOS shows the app's). */
  notification: string | undefined;
  /** macOS, unpackaged: the Dock would show Electron's own icon (a packaged app has the bundle's). */
  dock: string | undefined;
}

/**
 * Packaged, `extraResources` puts the icons in `resourcesPath/shell`; unpackaged, `appPath` is the project folder.
 * Windows draws window icons best from an .ico (several sizes), Linux from a PNG.
 */
export function shellIcons(options: {
  isPackaged: boolean;
  appPath: string;
  resourcesPath: string;
  platform: NodeJS.Platform;
}): ShellIcons {
  const dir = options.isPackaged ? join(options.resourcesPath, 'shell') : join(options.appPath, SHELL_ICONS_DIR);
  if (options.platform === 'darwin') {
    return {
      window: undefined,
      notification: undefined,
      dock: options.isPackaged ? undefined : join(dir, 'window.png'),
    };
  }
  return {
    window: join(dir, options.platform === 'win32' ? 'window.ico' : 'window.png'),
    notification: join(dir, 'notification.png'),
    dock: undefined,
  };
}
