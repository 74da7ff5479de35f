import type { CallInput, CallName, CallOutput, EventName, EventPayload } from '../../shared/contract';
import type { ChoosePurpose, GrantedPath } from '../../shared/transport';

/** A contract event as the renderer receives it: the name narrows the payload. */
export type BridgeEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];
export type BridgeEventListener = (event: BridgeEvent) => void;

/**
 * Where the link to the engine stands. Electron IPC is always `open`; the WebSocket of browser mode can drop
 * and come back, and the UI says so.
 */
export type ConnectionState =
  { status: 'connecting' } | { status: 'open' } | { status: 'reconnecting'; attempt: number; retryAt: number };

/** A file the page itself read (from a drop or its own file input). */
export interface PickedFile {
  file: File;
  /** Slash-separated, starting with the dropped or chosen folder's own name. */
  relativePath: string;
}

/** A file (or folder) the page could not hand to the host, with the reason shown to the admin. */
export interface NotCopied {
  relativePath: string;
  reason: string;
}

export interface StageProgress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

export interface Staged {
  stagingId: string;
  /** The staged top-level files and folders, as dropped. */
  entries: GrantedPath[];
  notCopied: NotCopied[];
}

/** Copies of files the page read, kept by the host until they are trained or imported (browser mode). */
export interface FileStaging {
  /** Copies the files and answers handles for them; files refused one by one are in `notCopied`. */
  stage(
    files: PickedFile[],
    options?: { onProgress?(progress: StageProgress): void; signal?: AbortSignal },
  ): Promise<Staged>;
  /** Forgets copies nobody used. */
  discard(stagingId: string): Promise<void>;
}

/**
 * What the host the page runs in can do besides the contract's calls. Each transport declares its own; the renderer
 * asks for a capability, never for the transport's name. Files reach the engine as handles either way: by path
 * (`pickFiles`, `dropPaths`) when the host can read the admin's disk itself, as copies (`staging`) otherwise.
 */
export interface HostCapabilities {
  /** The host shows desktop notifications itself (from the engine's events): the page shows none of its own. */
  readonly notifications: boolean;
  /** The host's own dialog: handles for the files or folder the admin chose for `purpose`; none when cancelled. */
  readonly pickFiles?: (purpose: ChoosePurpose) => Promise<GrantedPath[]>;
  /** Handles for files dropped on the page or chosen in its file inputs: the host reads their paths itself. */
  readonly dropPaths?: (files: File[]) => Promise<GrantedPath[]>;
  /** The page copies what it read to the host, which answers handles for the copies. */
  readonly staging?: FileStaging;
  /** "Show in folder": `analytics.reveal` opens a written file's folder in the system's file manager. */
  readonly revealFile: boolean;
  /** The host hands a finished export's file to the page, which saves it through the browser's downloads. */
  readonly downloadFile?: (exportId: string, fileName: string) => Promise<void>;
}

/** The renderer's only way to reach the engine; screens never know which transport is underneath. */
export interface Bridge {
  /** What the host can do besides the contract's calls. */
  readonly capabilities: HostCapabilities;
  /** Resolves with the parsed output, or throws `BridgeCallError`. */
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** Returns an unsubscribe function. */
  onEvent(listener: BridgeEventListener): () => void;
  getConnectionState(): ConnectionState;
  /** Returns an unsubscribe function. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
}
