/**
 * Wires the contract to Electron IPC: one `ipcMain.handle` per contract call, on that call's own channel, each
 * refusing senders other than the app's own top frame, and turning the handles in path fields into the paths they
 * name for that window (path-grants.ts) — a path the page wrote itself never reaches the engine. Only types come
 * from `electron`, so tests can pass fakes.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { callNames, type BridgeResult, type CallName } from '../../shared/contract';
import { ipcChannelFor } from '../../shared/transport';
import { gatePagePaths, type HandleRegistry } from '../handles';
import { isTrustedSender } from './policies';

export interface CallTarget {
  call(name: CallName, input: unknown): Promise<BridgeResult>;
}

export const REFUSED_SENDER: BridgeResult = {
  ok: false,
  error: { code: 'validation', message: 'Refused: the call did not come from the Mentor Admin window' },
};

/** The sender must be a live top-level frame showing the app itself (not an iframe, not a navigated-away page). */
export function isTrustedFrame(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, appEntry: string): boolean {
  try {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isTrustedSender(frame.url, appEntry);
  } catch {
    // A disposed frame throws on access: it is not a sender to trust.
    return false;
  }
}

/** Who holds the handles a window receives (path-grants.ts): its webContents, so no other window can use them. */
export const ownerOf = (event: Pick<IpcMainInvokeEvent, 'sender'>): string => `window:${event.sender.id}`;

/** Registers the handlers and returns a function that removes them. */
export function registerContractHandlers(
  ipc: Pick<IpcMain, 'handle' | 'removeHandler'>,
  target: CallTarget,
  appEntry: string,
  handles: Pick<HandleRegistry, 'resolve'>,
): () => void {
  for (const name of callNames) {
    ipc.handle(ipcChannelFor(name), (event, input: unknown) => {
      if (!isTrustedFrame(event, appEntry)) {
        console.warn(`Refused IPC call ${name} from a frame that is not the app's top frame`);
        return Promise.resolve(REFUSED_SENDER);
      }
      const owner = ownerOf(event);
      const gated = gatePagePaths(name, input, (handle, access) => handles.resolve(handle, access, owner));
      return gated.ok ? target.call(name, gated.input) : Promise.resolve(gated.result);
    });
  }
  return () => callNames.forEach((name) => ipc.removeHandler(ipcChannelFor(name)));
}
