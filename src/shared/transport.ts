/**
 * Wire shapes shared by the transports. The contract says *what* is called; this says how a call and an event
 * travel over a message-based channel (the WebSocket of browser mode, and the event channel of Electron IPC).
 */
import { z } from 'zod';
import {
  BridgeError,
  type BridgeResult,
  type CallName,
  type CallInput,
  type EventName,
  type EventPayload,
} from './contract';

/** Client → host over the WebSocket. */
export const WireRequest = z.object({
  id: z.number().int().nonnegative(),
  name: z.string(),
  input: z.unknown().optional(),
});
export type WireRequest = z.infer<typeof WireRequest>;

/** Host → client: the answer to one request, or an event pushed by the engine. */
export const WireMessage = z.union([
  z.object({ kind: z.literal('result'), id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ kind: z.literal('result'), id: z.number().int(), ok: z.literal(false), error: BridgeError }),
  z.object({ kind: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type WireMessage = z.infer<typeof WireMessage>;

/** Electron IPC: every call goes on its own channel named after the contract entry; events on one channel. */
export const IPC_CALL_PREFIX = 'mentor-admin:call:';
export const IPC_EVENT_CHANNEL = 'mentor-admin:event';
export function ipcChannelFor(name: CallName): string {
  return IPC_CALL_PREFIX + name;
}

/** The object the preload exposes as `window.api` (one function per contract call, plus events). */
export type PreloadApi = {
  calls: { [N in CallName]: (input: CallInput<N>) => Promise<BridgeResult> };
  onEvent: (listener: (name: EventName, payload: EventPayload<EventName>) => void) => () => void;
  /** Electron only: the real path of a dropped File (webUtils.getPathForFile). */
  pathForFile: (file: File) => string;
};

/** Query parameter of the printed browser-mode address: the per-run token, exchanged for a session cookie. */
export const TOKEN_PARAM = 'token';
/** Browser mode: answers 204 to a page holding this run's session cookie, 401 to any other. */
export const SESSION_PATH = '/session';
/** Path of the WebSocket endpoint in browser mode. */
export const BRIDGE_PATH = '/bridge';
