/**
 * Moves SQLite's WAL checkpoints off the engine's thread: a worker thread checkpoints every second and the engine's
 * own connection stops checkpointing inside its commits (measured: half the cost per commit, and no more 40 ms
 * stalls in the middle of a job). If the worker cannot run, or stops, the connection checkpoints by itself again.
 */
import { Worker } from 'node:worker_threads';
import type { Log } from '../log';
import { locateWorker } from '../workers';
import type { Db } from './database';

/** What checkpoint-worker.mjs is given. */
interface CheckpointWorkerInput {
  dbPath: string;
  everyMs: number;
  nativeBinding?: string;
}

/** What checkpoint-worker.mjs says. */
type CheckpointMessage =
  { type: 'ready' } | { type: 'checkpointed'; frames: number } | { type: 'error'; message: string };

/** The built worker's file name: an entry of electron.vite.config.ts beside the engine's bundle. */
export const CHECKPOINT_WORKER_FILE = 'checkpoint-worker.js';
const CHECKPOINT_EVERY_MS = 1_000;
/** SQLite's default: pages of log after which a commit checkpoints by itself. */
const SQLITE_AUTOCHECKPOINT = 1000;
const STOP_WAIT_MS = 2_000;

export interface Checkpointer {
  /** The worker is checkpointing (the engine's connection is not). */
  readonly running: boolean;
  /** Log frames the worker has copied into the database file so far. */
  readonly framesCheckpointed: number;
  stop(): Promise<void>;
}

export function startCheckpointer(
  db: Db,
  options: { nativeBinding?: string | undefined; log?: Log; moduleUrl?: string; everyMs?: number } = {},
): Checkpointer {
  const source = locateWorker(options.moduleUrl ?? import.meta.url, './checkpoint-worker.mjs', CHECKPOINT_WORKER_FILE);
  const state = { running: false, framesCheckpointed: 0, stopping: false };
  const selfCheckpointing = () => {
    state.running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
  };
  if (!source) {
    return { running: false, framesCheckpointed: 0, stop: async () => {} };
  }
  const input: CheckpointWorkerInput & Record<string, unknown> = {
    ...source.extra,
    dbPath: db.name,
    everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  };
  const worker = new Worker(source.source, { eval: source.eval, workerData: input });
  // It never keeps a process (the CLI) alive by itself.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: CheckpointMessage) => {
    if (message.type === 'ready' && !state.stopping && db.open) {
      db.pragma('wal_autocheckpoint = 0');
      state.running = true;
    } else if (message.type === 'checkpointed') {
      state.framesCheckpointed += message.frames;
    } else if (message.type === 'error') {
      options.log?.(`the checkpoint worker failed (${message.message}); SQLite checkpoints in the engine again`);
      selfCheckpointing();
      void worker.terminate();
    }
  });
  worker.on('error', (error) => {
    options.log?.(`the checkpoint worker failed (${error.message}); SQLite checkpoints in the engine again`);
    selfCheckpointing();
  });
  worker.on('exit', () => {
    if (state.running) selfCheckpointing();
  });
  return {
    get running() {
      return state.running;
    },
    get framesCheckpointed() {
      return state.framesCheckpointed;
    },
    async stop() {
      if (state.stopping) return exited;
      state.stopping = true;
      selfCheckpointing();
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
