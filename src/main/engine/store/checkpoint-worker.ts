/**
 * The WAL checkpointer's worker thread: copies the write-ahead log back into the database file every second on its
 * own connection, so the connection that serves the UI never stalls on a checkpoint (SQLite would otherwise run one,
 * with its fsync, inside whichever commit crosses 1,000 pages of log). PASSIVE: it never waits for, nor blocks,
 * readers and writers.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointWorkerInput {
  dbPath: string;
  everyMs: number;
  nativeBinding?: string;
}

export type CheckpointMessage =
  { type: 'ready' } | { type: 'checkpointed'; frames: number } | { type: 'error'; message: string };

const { dbPath, everyMs, nativeBinding } = workerData as CheckpointWorkerInput;
const post = (message: CheckpointMessage) => parentPort!.postMessage(message);

try {
  const db = new Database(dbPath, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  const timer = setInterval(() => {
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      if (result && result.checkpointed > 0) post({ type: 'checkpointed', frames: result.checkpointed });
    } catch (error) {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }, everyMs);
  parentPort!.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    clearInterval(timer);
    db.close();
    parentPort!.close();
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}
