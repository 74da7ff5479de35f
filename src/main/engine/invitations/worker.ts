/**
 * The worker thread of imports: reading a file into rows, and writing a job's items. papaparse, validation and the
 * SQLite writes happen here, never on the thread that serves the UI. It opens its own connection to the app's
 * database (WAL lets both sides work at once).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { createInviteJob, type CreateJobInput } from './job-items';
import { readImport, type ReadImportInput } from './read-import';

export type WorkerTask = { task: 'read'; input: ReadImportInput } | { task: 'createJob'; input: CreateJobInput };

export interface WorkerInput {
  job: WorkerTask;
  dbPath: string;
  nativeBinding?: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; rows: number; bytes: number }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string };

const { job, dbPath, nativeBinding } = workerData as WorkerInput;
const post = (message: WorkerMessage) => parentPort!.postMessage(message);

async function main(): Promise<void> {
  const db = new Database(dbPath, { timeout: 30_000, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('busy_timeout = 30000');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    post({ type: 'ready' });
    if (job.task === 'createJob') {
      post({ type: 'done', result: createInviteJob(db, job.input) });
      return;
    }
    let last = 0;
    const result = await readImport(db, job.input, (rows, bytes) => {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      post({ type: 'progress', rows, bytes });
    });
    post({ type: 'done', result });
  } finally {
    db.close();
  }
}

main().catch((error: unknown) =>
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
);
