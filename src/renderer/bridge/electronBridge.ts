import { BridgeCallError, BridgeResult } from '../../shared/contract';
import type { PreloadApi } from '../../shared/transport';
import { ListenerSet } from './listeners';
import { checkInput, parseEvent, parseOutput } from './parse';
import type { Bridge, BridgeEvent, ConnectionState } from './types';

const ALWAYS_OPEN: ConnectionState = { status: 'open' };

/** Electron: every call is one `window.api.calls[name]` IPC round trip that answers with a `BridgeResult`. */
export function createElectronBridge(api: PreloadApi): Bridge {
  const eventListeners = new ListenerSet<BridgeEvent>();
  api.onEvent((name, payload) => {
    const event = parseEvent(name, payload);
    if (event) eventListeners.emit(event);
  });

  return {
    // The shell shows notifications and reveals files; its main process reads dropped files' paths and has dialogs.
    capabilities: {
      notifications: true,
      revealFile: true,
      pickFiles: (purpose) => api.choosePaths(purpose),
      dropPaths: (files) => api.grantFiles(files),
    },
    async call(name, input) {
      checkInput(name, input);
      // Indexing the mapped type by a generic name yields a union of functions; they all take the checked input.
      const invoke = api.calls[name] as (input: unknown) => Promise<unknown>;
      const envelope = BridgeResult.safeParse(await invoke(input));
      if (!envelope.success) {
        throw new BridgeCallError({ code: 'internal', message: `The engine sent a malformed answer to ${name}` });
      }
      if (!envelope.data.ok) throw new BridgeCallError(envelope.data.error);
      return parseOutput(name, envelope.data.value);
    },
    onEvent: (listener) => eventListeners.add(listener),
    getConnectionState: () => ALWAYS_OPEN,
    onConnectionChange: () => () => undefined,
  };
}
