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

/** Electron IPC: files the admin dropped (their paths, read by the preload) become handles in the main process. */
export const IPC_GRANT_FILES_CHANNEL = 'mentor-admin:paths:grant-files';
/** Electron IPC: the main process shows a dialog and answers handles for what the admin chose. */
export const IPC_CHOOSE_PATHS_CHANNEL = 'mentor-admin:paths:choose';

/** What a dialog is for; the main process picks the dialog, its filters and the handles' access from it. */
export const ChoosePurpose = z.enum(['train-folder', 'train-files', 'import-csv', 'export-folder', 'audio-files']);
export type ChoosePurpose = z.infer<typeof ChoosePurpose>;

/** A file or folder the admin chose or dropped, as the page holds it. */
export const GrantedPath = z.object({
  /** Opaque: what the page passes in a contract call's path field (see `localPaths` in contract/kit.ts). */
  handle: z.string(),
  /** The file or folder name, to show. */
  name: z.string(),
  /** The full path, only to show (where exports go); the shells refuse it in a call. */
  path: z.string(),
});
export type GrantedPath = z.infer<typeof GrantedPath>;

/** Browser mode's staging answers this once every file of a drop is uploaded (src/main/host/stage.ts). */
export const StagedDrop = z.object({
  /** The staged top-level files and folders, as dropped. */
  entries: z.array(GrantedPath),
  files: z.number().int(),
  bytes: z.number(),
});
export type StagedDrop = z.infer<typeof StagedDrop>;

/** The object the preload exposes as `window.api` (one function per contract call, plus events). */
export type PreloadApi = {
  calls: { [N in CallName]: (input: CallInput<N>) => Promise<BridgeResult> };
  onEvent: (listener: (name: EventName, payload: EventPayload<EventName>) => void) => () => void;
  /** Electron only: handles (read access) for files and folders dropped on the page or picked by a file input. */
  grantFiles: (files: File[]) => Promise<GrantedPath[]>;
  /** Electron only: the main process shows the dialog for `purpose`; none when the admin cancels. */
  choosePaths: (purpose: ChoosePurpose) => Promise<GrantedPath[]>;
};

/** Query parameter of the printed browser-mode address: the per-run token, exchanged for a session cookie. */
export const TOKEN_PARAM = 'token';
/** Browser mode: answers 204 to a page holding this run's session cookie, 401 to any other. */
export const SESSION_PATH = '/session';
/** Path of the WebSocket endpoint in browser mode. */
export const BRIDGE_PATH = '/bridge';
