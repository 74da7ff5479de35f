/**
 * Attaches the policies of `policies.ts` to Electron: the session (the app:// protocol, CSP header, permissions)
 * and every webContents ever created (guards.ts: navigation, new windows, webviews).
 */
import { app, protocol, shell, type Session } from 'electron';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, handleAppRequest } from './app-protocol';
import { guardWebContents } from './guards';
import { contentSecurityPolicy, isSafeExternalUrl, permissionDecision } from './policies';

function openExternally(url: string): void {
  // Checked again here so no caller can hand shell.openExternal anything but a plain http(s) link.
  if (!isSafeExternalUrl(url)) return;
  shell.openExternal(url).catch((error: unknown) => console.warn('Could not open the link in the browser:', error));
}

/** Before `ready`: the `app://` scheme the built renderer is served from, with only the privileges it needs. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

/** Serves the built renderer's folder on `app://renderer/`, every answer with the app's CSP header. */
export function serveRenderer(session: Session, rendererDir: string): void {
  const csp = contentSecurityPolicy({ dev: false });
  session.protocol.handle(APP_SCHEME, (request) => handleAppRequest(request, rendererDir, csp));
}

export function hardenSession(session: Session, options: { dev: boolean }): void {
  const csp = contentSecurityPolicy(options);
  // The dev server's http responses; `app://` answers carry the header themselves (serveRenderer), and the built
  // index.html has the same policy as a <meta> tag too.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(permissionDecision()));
  session.setPermissionCheckHandler(() => permissionDecision());
  session.setDevicePermissionHandler(() => permissionDecision());
}

/** Every webContents, including ones nobody planned for, gets the same guards. Call before any window opens. */
export function guardAllWebContents(appEntry: string): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, appEntry, openExternally));
}
