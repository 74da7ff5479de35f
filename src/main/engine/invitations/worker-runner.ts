/**
 * Runs import work (reading a file, writing a job's items) in a worker thread so it never blocks the thread that
 * serves the UI. From the TypeScript sources (dev, browser mode, CLI, tests) the worker loads them through tsx; the
 * build ships `invite-worker.js` beside the engine (an electron-vite entry) and uses that, opening SQLite with the
 * Electron-ABI build inside Electron. Without either (or when the worker cannot start, e.g. a native module built
 * for another runtime) the work runs in-process: in the Electron app the engine already runs in its own utility
 * process, away from the window.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Db } from '../store';
import { locateWorker, type WorkerSource } from '../workers';
import { createInviteJob } from './job-items';
import { readImport, type ReadImportResult } from './read-import';
import type { WorkerInput, WorkerMessage, WorkerTask } from './worker';

/** Rows stream through in chunks: a small heap keeps a million-row file within a bounded footprint. */
const WORKER_OLD_MB = 96;
const WORKER_YOUNG_MB = 16;

export interface TaskHandle<T> {
  done: Promise<T>;
  cancel(): void;
}

type ResultOf<T extends WorkerTask> = T extends { task: 'read' } ? ReadImportResult : { jobId: string };

/** The built parse worker's file name: an entry of electron.vite.config.ts beside the engine's bundle. */
export const INVITE_WORKER_FILE = 'invite-worker.js';

/**
 * Where the parse worker is for code running at `moduleUrl` (this module's own URL unless a test says otherwise):
 * worker.ts under tsx, `invite-worker.js` beside (or one folder above) a built bundle; null when there is none.
 */
export function workerSource(
  moduleUrl: string = import.meta.url,
  exists: (path: string) => boolean = existsSync,
): WorkerSource | null {
  return locateWorker(moduleUrl, './worker.ts', INVITE_WORKER_FILE, exists);
}

/** Import work on the engine's database, each task in a worker thread of its own when one can start. */
export interface ImportTasks {
  run<T extends WorkerTask>(job: T, onProgress?: (rows: number, bytes: number) => void): TaskHandle<ResultOf<T>>;
}

export function importTasks(db: Db, nativeBinding: string | undefined): ImportTasks {
  return { run: (job, onProgress) => runTask(db, job, onProgress, { nativeBinding }) };
}

export function runTask<T extends WorkerTask>(
  db: Db,
  job: T,
  onProgress: (rows: number, bytes: number) => void = () => {},
  options: {
    /** The Electron-ABI better-sqlite3 build the worker's own connection must use inside Electron. */
    nativeBinding?: string | undefined;
    inProcess?: boolean;
    /** Resolve the worker as code at this URL would (tests run the built worker this way). */
    moduleUrl?: string;
  } = {},
): TaskHandle<ResultOf<T>> {
  const source = options.inProcess ? null : workerSource(options.moduleUrl);
  if (!source) return runHere(db, job, onProgress);

  const data: WorkerInput & Record<string, unknown> = {
    ...source.extra,
    job,
    dbPath: db.name,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  };
  const worker = new Worker(source.source, {
    eval: source.eval,
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  let ready = false;
  let cancelled = false;
  let fallback: TaskHandle<ResultOf<T>> | null = null;
  const done = new Promise<ResultOf<T>>((resolve, reject) => {
    const runHereInstead = () => {
      fallback = runHere(db, job, onProgress);
      fallback.done.then(resolve, reject);
    };
    worker.on('message', (message: WorkerMessage) => {
      switch (message.type) {
        case 'ready':
          ready = true;
          break;
        case 'progress':
          onProgress(message.rows, message.bytes);
          break;
        case 'done':
          resolve(message.result as ResultOf<T>);
          void worker.terminate();
          break;
        case 'error':
          // A worker that could not even start (loader, native module) hands the work back to this thread.
          if (!ready && !cancelled) runHereInstead();
          else reject(new Error(message.message));
          void worker.terminate();
          break;
      }
    });
    worker.on('error', (error) => {
      if (!ready && !cancelled && !fallback) runHereInstead();
      else reject(error);
    });
    worker.on('exit', () => {
      if (cancelled) reject(new Error('Cancelled'));
    });
  });
  done.catch(() => {});
  return {
    done,
    cancel() {
      cancelled = true;
      (fallback as TaskHandle<ResultOf<T>> | null)?.cancel();
      void worker.terminate();
    },
  };
}

function runHere<T extends WorkerTask>(
  db: Db,
  job: T,
  onProgress: (rows: number, bytes: number) => void,
): TaskHandle<ResultOf<T>> {
  const controller = new AbortController();
  const done = (
    job.task === 'read'
      ? readImport(db, job.input, onProgress, controller.signal)
      : Promise.resolve().then(() => createInviteJob(db, job.input))
  ) as Promise<ResultOf<T>>;
  done.catch(() => {});
  return { done, cancel: () => controller.abort(new Error('Cancelled')) };
}
