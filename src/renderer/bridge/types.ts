import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../shared/contract';

/** A contract event as the renderer receives it: the name narrows the payload. */
export type BridgeEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];
export type BridgeEventListener = (event: BridgeEvent) => void;

/**
 * Where the link to the engine stands. Electron IPC is always `open`; the WebSocket of browser mode can drop
 * and come back, and the UI says so.
 */
export type ConnectionState =
  { status: 'connecting' } | { status: 'open' } | { status: 'reconnecting'; attempt: number; retryAt: number };

/** The renderer's only way to reach the engine; screens never know which transport is underneath. */
export interface Bridge {
  readonly kind: 'electron' | 'websocket';
  /** Resolves with the parsed output, or throws `BridgeCallError`. */
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** Returns an unsubscribe function. */
  onEvent(listener: BridgeEventListener): () => void;
  getConnectionState(): ConnectionState;
  /** Returns an unsubscribe function. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
}
