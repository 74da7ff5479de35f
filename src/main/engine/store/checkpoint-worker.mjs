/**
 * The WAL checkpointer's worker thread: copies the write-ahead log back into the database file every second on its
 * own connection, so the connection that serves the UI never stalls on a checkpoint (SQLite would otherwise run one,
 * with its fsync, inside whichever commit crosses 1,000 pages of log). PASSIVE: it never waits for, nor blocks,
 * readers and writers. Plain JavaScript, so that it starts in milliseconds without a TypeScript loader; its
 * messages are typed in checkpointer.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ dbPath: string; everyMs: number; nativeBinding?: string }} */
const { dbPath, everyMs, nativeBinding } = workerData;
const post = (message) => parentPort.postMessage(message);
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

try {
  const db = new Database(dbPath, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  const timer = setInterval(() => {
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      if (result && result.checkpointed > 0) post({ type: 'checkpointed', frames: result.checkpointed });
    } catch (error) {
      post({ type: 'error', message: messageOf(error) });
    }
  }, everyMs);
  parentPort.on('message', (message) => {
    if (message !== 'stop') return;
    clearInterval(timer);
    db.close();
    parentPort.close();
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'error', message: messageOf(error) });
}
