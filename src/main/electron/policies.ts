/**
 * Security policies of the Electron shell, as pure functions (no `electron` import) so that they are unit-tested
 * here even though the Electron binary cannot run. `main.ts` and `security.ts` only wire them to Electron events.
 *
 * "App entry" below is the URL the main window loads: `app://renderer/index.html` in a build (see app-protocol.ts),
 * or the electron-vite dev server (`http://localhost:5173/`) in development.
 */
import { posix, win32 } from 'node:path';
import { contentSecurityPolicy as sharedContentSecurityPolicy } from '../../shared/csp';
import { APP_SCHEME } from './app-protocol';

/** The `webPreferences` every window gets. Structurally checked against Electron's type where it is used. */
export interface HardenedWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  safeDialogs: true;
  spellcheck: false;
  disableBlinkFeatures: 'Auxclick';
  devTools: boolean;
}

export function secureWebPreferences(
  preloadPath: string,
  options: { devTools?: boolean } = {},
): HardenedWebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // Dropping a file on the window must reach the renderer's drop handler, never navigate to file://.
    navigateOnDragDrop: false,
    safeDialogs: true,
    // Chromium's spellchecker downloads dictionaries from a Google CDN; the forms here hold URLs, keys and
    // names, so it would be noise and a network call the admin did not ask for.
    spellcheck: false,
    // A middle click never even tries to open a window (every window is refused anyway: windowOpenDecision).
    disableBlinkFeatures: 'Auxclick',
    devTools: options.devTools ?? false,
  };
}

/** The window's CSP: the shared policy (src/shared/csp.ts), the dev server's additions only in development. */
export function contentSecurityPolicy({ dev }: { dev: boolean }): string {
  return sharedContentSecurityPolicy({ dev });
}

function parseUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether `url` is the app itself: the very same index.html for the `app://` entry (query and hash may differ, so
 * hash routing works), or the same origin for a dev-server entry. URLs carrying credentials never are, and no
 * `file://` URL is: the app is never loaded from one.
 */
export function isAppUrl(url: unknown, appEntry: string): boolean {
  const target = parseUrl(url);
  const entry = parseUrl(appEntry);
  if (!target || !entry) return false;
  if (target.username || target.password) return false;
  if (entry.protocol === `${APP_SCHEME}:`) {
    return target.protocol === entry.protocol && target.host === entry.host && target.pathname === entry.pathname;
  }
  if (entry.protocol === 'http:' || entry.protocol === 'https:') {
    return target.origin === entry.origin;
  }
  return false;
}

/** `will-navigate` / `will-redirect`: the window may only ever show the app. */
export function isAllowedNavigation(url: unknown, appEntry: string): boolean {
  return isAppUrl(url, appEntry);
}

/** Links the user may open in the system browser: plain http(s), a host, no credentials. */
export function isSafeExternalUrl(url: unknown): boolean {
  const target = parseUrl(url);
  if (!target) return false;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.username || target.password) return false;
  return target.hostname.length > 0;
}

export interface WindowOpenDecision {
  /** Electron's answer to `setWindowOpenHandler`: the app never opens a second window. */
  action: 'deny';
  /** Hand the link to the system browser instead. */
  openExternally: boolean;
}

export function windowOpenDecision(url: unknown): WindowOpenDecision {
  return { action: 'deny', openExternally: isSafeExternalUrl(url) };
}

/** Camera, microphone, geolocation, notifications from the page, clipboard read, …: the app needs none. */
export function permissionDecision(): false {
  return false;
}

/**
 * IPC sender check: a call is served only if it comes from the app's own top frame. `frameUrl` is
 * `event.senderFrame.url`; a missing frame (already navigated away or destroyed) is refused by the caller.
 */
export function isTrustedSender(frameUrl: unknown, appEntry: string): boolean {
  return isAppUrl(frameUrl, appEntry);
}

/**
 * "Show in folder" may open only a file the app itself exported: the export job the page named (by id, never by
 * path) has finished, recorded this very path, and the file is there; the path is a plain absolute local one.
 * `answer` is the engine's `analytics.reveal` for that id and `recorded` its `analytics.export`: both come from the
 * engine, nothing from the page but the id.
 */
export type RevealDecision = { show: true; path: string } | { show: false; reason: string };

export function revealDecision(facts: {
  id: unknown;
  answer: unknown;
  recorded: unknown;
  platform: string;
}): RevealDecision {
  const refuse = (reason: string): RevealDecision => ({ show: false, reason });
  const answer = facts.answer as { path?: unknown; exists?: unknown } | null | undefined;
  const recorded = facts.recorded as { id?: unknown; state?: unknown; path?: unknown } | null | undefined;
  if (typeof facts.id !== 'string' || !facts.id) return refuse('no export named');
  if (!recorded || recorded.id !== facts.id || typeof recorded.path !== 'string')
    return refuse('not an export this app made');
  if (recorded.state !== 'completed') return refuse('the export has not finished');
  if (!answer || answer.path !== recorded.path) return refuse('not the file the export wrote');
  if (answer.exists !== true) return refuse('the file is not there any more');
  if (!isPlainLocalPath(recorded.path, facts.platform)) return refuse('not a plain local file path');
  return { show: true, path: recorded.path };
}

/**
 * An absolute, already normal path (no `.`/`..` segments, no doubled separators) without NUL. On Windows only a
 * drive path (`C:\…`): never a network share (`\\server\share`, which Explorer would connect to) nor a device
 * (`\\?\`, `\\.\`) path.
 */
export function isPlainLocalPath(path: string, platform: string): boolean {
  if (!path || path.includes('\0')) return false;
  if (platform === 'win32') return /^[A-Za-z]:\\/.test(path) && win32.normalize(path) === path;
  return path.startsWith('/') && !path.startsWith('//') && posix.normalize(path) === path;
}
