/**
 * Electron main process: lifecycle, one hardened window, the contract over IPC, the engine in a utility
 * process. Every rule lives in `policies.ts`; this file only connects Electron to it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, powerMonitor, session, shell } from 'electron';
import { APP_HREF } from '../../shared/contract';
import { IPC_EVENT_CHANNEL } from '../../shared/transport';
import { APP_DIR_NAME } from '../engine/paths';
import { HandleRegistry } from '../handles';
import { EngineClient } from './engine-client';
import { forkEngineProcess } from './engine-fork';
import { registerContractHandlers } from './ipc-bridge';
import { menuTemplate } from './menu';
import { showNotification } from './notifications';
import { registerPathGrants } from './path-grants';
import { withShowInFolder } from './reveal';
import { DesktopNotifier } from './notifier';
import { electronNativeBindingPath, rendererEntry, shellIcons } from './paths';
import { guardAllWebContents, hardenSession, registerAppScheme, serveRenderer } from './security';
import { createMainWindow } from './window';

/** Developer tools and reload: only when not packaged (`npm start`, `electron-vite dev`). */
const dev = !app.isPackaged;
const outDir = join(import.meta.dirname, '..'); // out/ (main/, preload/, renderer/)
const entry = rendererEntry({
  isPackaged: app.isPackaged,
  devServerUrl: process.env.ELECTRON_RENDERER_URL,
  rendererDir: join(outDir, 'renderer'),
});
const icons = shellIcons({
  isPackaged: app.isPackaged,
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
  platform: process.platform,
});

// Before ready: every renderer is sandboxed, whatever a future window's options say.
app.enableSandbox();
// Before ready too: the built renderer is served from app://renderer/, never from file://.
registerAppScheme();
// Windows shows toasts only for an app with an identity; the installer registers this one (electron-builder appId).
if (process.platform === 'win32') app.setAppUserModelId('org.mentoradmin.desktop');
// The folder browser mode and the CLI use too (engine/paths.ts); unpackaged, Electron would name it after
// package.json's "name". Set before the single-instance lock, which is keyed on it.
app.setPath('userData', join(app.getPath('appData'), APP_DIR_NAME));
const dataDir = process.env.MENTOR_ADMIN_HOME || app.getPath('userData');

if (app.requestSingleInstanceLock()) {
  startApp();
} else {
  // Another Mentor Admin owns the data folder; it is told to show itself (`second-instance`).
  app.quit();
}

function startApp(): void {
  let mainWindow: BrowserWindow | undefined;
  // The files and folders the admin chose or dropped, by the handles their window holds.
  const handles = new HandleRegistry();
  const nativeBinding = electronNativeBindingPath(app.getAppPath());
  if (!existsSync(nativeBinding)) {
    console.error(`No Electron build of better-sqlite3 at ${nativeBinding}; run \`npm run electron:native\`.`);
  }
  const engine = new EngineClient(() =>
    forkEngineProcess(join(import.meta.dirname, 'engine.js'), {
      dataDir,
      nativeBinding,
    }),
  );

  const notifier = new DesktopNotifier({
    call: (name, input) => engine.call(name, input),
    show: (note, onClick) => showNotification(note, onClick, icons.notification),
    looking: () =>
      !!mainWindow &&
      !mainWindow.isDestroyed() &&
      mainWindow.isVisible() &&
      !mainWindow.isMinimized() &&
      mainWindow.isFocused(),
    open: (href) => showAt(href),
    platform: process.platform,
    log: (line) => console.warn(line),
  });

  const openWindow = (href?: string): BrowserWindow => {
    const window = createMainWindow({
      preloadPath: join(outDir, 'preload', 'index.cjs'),
      entry,
      dev,
      ...(href ? { href } : {}),
      ...(icons.window && { icon: icons.window }),
    });
    const contentsId = window.webContents.id;
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = undefined;
      handles.revokeOwner(`window:${contentsId}`);
    });
    // The admin is looking again: what the desktop said is seen.
    window.on('focus', () => notifier.onLooking());
    return window;
  };

  /** Brings the window forward at a route of the app (a clicked notification), opening one if there is none. */
  const showAt = (href: string): void => {
    if (!APP_HREF.test(href)) return;
    if (!mainWindow || mainWindow.isDestroyed()) {
      mainWindow = openWindow(href);
      return;
    }
    const window = mainWindow;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    const navigate = () => {
      if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, 'app.navigate', { href });
    };
    if (window.webContents.isLoading()) window.webContents.once('did-finish-load', navigate);
    else navigate();
  };

  guardAllWebContents(entry.url);

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let engineClosed = false;
  app.on('will-quit', (event) => {
    if (engineClosed) return;
    // Let the engine finish its SQLite writes and close the journal before the process goes away.
    event.preventDefault();
    void engine.close().finally(() => {
      engineClosed = true;
      app.quit();
    });
  });

  void app.whenReady().then(() => {
    if (icons.dock) app.dock?.setIcon(icons.dock);
    // The relaxed development CSP only for the Vite dev server; `npm start` runs the built files under the strict one.
    hardenSession(session.defaultSession, { dev: entry.kind === 'url' });
    if (entry.kind === 'app') serveRenderer(session.defaultSession, entry.dir);
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({ isMac: process.platform === 'darwin', dev })));
    // "Show in folder" is the one call the shell finishes itself: it opens the exported file's folder.
    registerContractHandlers(
      ipcMain,
      withShowInFolder(engine, (path) => shell.showItemInFolder(path)),
      entry.url,
      handles,
    );
    registerPathGrants(ipcMain, {
      registry: handles,
      appEntry: entry.url,
      showOpenDialog: (event, options) => {
        const window = BrowserWindow.fromWebContents(event.sender);
        return window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options);
      },
    });
    engine.onEvent((name, payload) => {
      if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(IPC_EVENT_CHANNEL, name, payload);
      notifier.onEvent(name, payload);
    });
    engine.start();
    notifier.start();
    // After sleep a job waiting for the tenant may be a minute from its next try: it tries again now.
    powerMonitor.on('resume', () => void engine.call('jobs.wake', {}));
    mainWindow = openWindow();
    app.on('activate', () => {
      if (!mainWindow) mainWindow = openWindow();
    });
  });
}
