/** The one application window: hardened preferences, shown only once it has painted. */
import { BrowserWindow } from 'electron';
import type { RendererEntry } from './paths';
import { secureWebPreferences } from './policies';

export function createMainWindow(options: {
  preloadPath: string;
  entry: RendererEntry;
  dev: boolean;
  /** A route of the app to open at (`#/tickets/12`), e.g. from a desktop notification. */
  href?: string;
  /** The window's icon (Linux, Windows); see paths.ts `shellIcons`. */
  icon?: string;
}): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Mentor Admin',
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    show: false,
    ...(options.icon && { icon: options.icon }),
    webPreferences: secureWebPreferences(options.preloadPath, { devTools: options.dev }),
  });
  window.once('ready-to-show', () => window.show());
  let lastReload = 0;
  window.webContents.on('render-process-gone', (_event, details) => {
    console.error(`The window's renderer stopped (${details.reason}).`);
    // Reload after a crash, but not in a loop if the page crashes again right away.
    if (details.reason === 'clean-exit' || window.isDestroyed() || Date.now() - lastReload < 60_000) return;
    lastReload = Date.now();
    window.reload();
  });
  const hash = options.href?.replace(/^#/, '');
  const loading = window.loadURL(hash ? `${options.entry.url.replace(/#.*$/, '')}#${hash}` : options.entry.url);
  loading.catch((error: unknown) => console.error('The window could not load the app:', error));
  return window;
}
