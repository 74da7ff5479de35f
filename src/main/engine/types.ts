import type { BridgeResult, CallInput, CallName, CallOutput, EventName, EventPayload } from '../../shared/contract';

export type { Shell } from './config';

export type EngineEventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** The engine as every shell sees it: one object, one contract, no knowledge of the transport. */
export interface Engine {
  /** Untrusted entry point for transports: validates the name and input, never throws. */
  call(name: unknown, input: unknown): Promise<BridgeResult>;
  /** Typed entry point for in-process callers (CLI, tests); throws BridgeCallError on failure. */
  invoke<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  onEvent(listener: EngineEventListener): () => void;
  close(): Promise<void>;
}
