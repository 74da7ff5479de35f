/**
 * The sandboxed preload: exposes `window.api`, one function per contract call bound to that call's own IPC
 * channel, and the two ways files reach the engine (as handles: src/main/electron/path-grants.ts). No raw
 * ipcRenderer, no function taking a channel name and no file's path ever reaches the page.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { z } from 'zod';
import { callNames, isEventName, type BridgeResult, type CallName } from '../shared/contract';
import {
  GrantedPath,
  IPC_CHOOSE_PATHS_CHANNEL,
  IPC_EVENT_CHANNEL,
  IPC_GRANT_FILES_CHANNEL,
  ipcChannelFor,
  type PreloadApi,
} from '../shared/transport';

function invokerFor(name: CallName): (input: unknown) => Promise<BridgeResult> {
  const channel = ipcChannelFor(name);
  return async (input) => {
    try {
      return (await ipcRenderer.invoke(channel, input)) as BridgeResult;
    } catch (error) {
      // The main process is gone or the input could not be cloned: answer in the contract's terms.
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'internal', message } };
    }
  };
}

const calls = Object.fromEntries(callNames.map((name) => [name, invokerFor(name)])) as PreloadApi['calls'];

const onEvent: PreloadApi['onEvent'] = (listener) => {
  const handler = (_event: Electron.IpcRendererEvent, name: unknown, payload: unknown): void => {
    if (!isEventName(name)) return;
    listener(name, payload as Parameters<typeof listener>[1]);
  };
  ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  };
};

const Granted = z.array(GrantedPath);

/** The main process answers handles; the paths stay between this preload and the main process. */
const grantFiles: PreloadApi['grantFiles'] = async (files) => {
  // A path only for a File backed by a real file the admin dropped or picked; anything else is left out.
  const paths = Array.from(files, (file) => {
    try {
      return webUtils.getPathForFile(file);
    } catch {
      return '';
    }
  }).filter(Boolean);
  if (!paths.length) return [];
  return Granted.parse(await ipcRenderer.invoke(IPC_GRANT_FILES_CHANNEL, paths));
};

const choosePaths: PreloadApi['choosePaths'] = async (purpose) =>
  Granted.parse(await ipcRenderer.invoke(IPC_CHOOSE_PATHS_CHANNEL, purpose));

const api: PreloadApi = { calls, onEvent, grantFiles, choosePaths };

contextBridge.exposeInMainWorld('api', api);
