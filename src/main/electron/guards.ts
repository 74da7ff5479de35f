/**
 * The guards every webContents gets, written against the few methods they use (only types come from `electron`), so
 * tests drive them with a fake. security.ts attaches them to every webContents ever created.
 */
import type { WebContents } from 'electron';
import { isAllowedNavigation, isSafeExternalUrl, windowOpenDecision } from './policies';

/** The part of a WebContents the guards use (tests pass a fake). */
export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Navigation (the page's own, its frames' and redirects) stays on the app; new windows and webviews are never made;
 * links go to the system browser only when they are plain http(s). `open` is `shell.openExternal` behind its check.
 */
export function guardWebContents(contents: GuardedContents, appEntry: string, open: (url: string) => void): void {
  contents.on('will-navigate', (event) => {
    if (isAllowedNavigation(event.url, appEntry)) return;
    event.preventDefault();
    // A plain link clicked inside the app belongs in the browser, not in the app window.
    if (isSafeExternalUrl(event.url)) open(event.url);
  });
  // Frames too (will-navigate is the main frame's only): the CSP already refuses every frame, this is the second lock.
  contents.on('will-frame-navigate', (event) => {
    if (!isAllowedNavigation(event.url, appEntry)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, appEntry)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternally) open(url);
    return { action: decision.action };
  });
}
