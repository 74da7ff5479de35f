/**
 * The sandboxed preload: exposes `window.api`, one function per contract call bound to that call's own IPC
 * channel. No raw ipcRenderer and no function taking a channel name ever reaches the page.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { callNames, isEventName, type BridgeResult, type CallName } from '../shared/contract';
import { IPC_EVENT_CHANNEL, ipcChannelFor, type PreloadApi } from '../shared/transport';

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

const api: PreloadApi = {
  calls,
  onEvent,
  pathForFile: (file) => webUtils.getPathForFile(file),
};

contextBridge.exposeInMainWorld('api', api);
