import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AreaDeps } from '../../area';
import { chunkText, estimateTokens } from './chunk';
import { ExtractionError, extractText } from './extract';
import { deleteChunks, insertChunks } from './fts';
import { completeTraining, failTraining, queueTraining } from './lifecycle';
import type { DocumentRow } from './schema';
import { loadSource, sha256 } from './source';

/** Chunks written per transaction: SQLite is synchronous, so each write stays short and requests interleave. */
const CHUNKS_PER_TRANSACTION = 32;
const POLL_MS = 1000;
/** While uploads keep arriving (one within BURST_MS), training steps back: one document at a time, with pauses. */
const BURST_MS = 100;
const BURST_PAUSE_MS = 5;
const RETRAIN_CHECK_MS = 60_000;

export interface TrainingWorker {
  /** New work arrived (an upload, a retrain): look for pending documents now instead of at the next poll. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Moves documents `pending → trained | failed`, `concurrency` at a time: load the bytes, extract text, chunk it,
 * index the chunks in FTS5, then mark the document trained — unless it was changed meanwhile (generation check).
 * Also re-queues trained documents whose `retrain_interval_days` has passed.
 */
export function startTrainingWorker(deps: AreaDeps, concurrency = 2): TrainingWorker {
  const { db, config } = deps;
  const busy = new Map<number, Promise<void>>();
  let running = true;
  let scheduled = false;
  let lastRetrainCheck = 0;
  let lastArrival = 0;
  const inBurst = () => Date.now() - lastArrival < BURST_MS;
  const nextPending = db.prepare(
    `SELECT * FROM documents WHERE training_status = 'pending' AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1`,
  );
  const generationOf = db.prepare('SELECT generation, training_status FROM documents WHERE id = ?');

  const isCurrent = (row: DocumentRow) => {
    if (!running) return false;
    const now = generationOf.get(row.id) as { generation: number; training_status: string } | undefined;
    return now?.generation === row.generation && now.training_status === 'pending';
  };

  async function train(row: DocumentRow): Promise<void> {
    try {
      const { bytes, type } = await loadSource(row, config.dataDir, config.uploadLimitBytes);
      if (!isCurrent(row)) return;
      const text = await extractText(type, bytes);
      if (!isCurrent(row)) return;
      const chunks = chunkText(text);
      await yieldToEventLoop();
      // Leftovers of an earlier, interrupted run of this document.
      if (row.indexed_chunks) db.transaction(() => deleteChunks(db, row.id))();
      const fetched = row.source_kind === 'url';
      const result = {
        tokens: estimateTokens(text),
        chunks: chunks.length,
        contentHash: fetched ? sha256(bytes) : null,
        fileSize: fetched ? bytes.byteLength : null,
      };
      for (let from = 0; ; from += CHUNKS_PER_TRANSACTION) {
        if (!isCurrent(row)) {
          db.transaction(() => deleteChunks(db, row.id))();
          return;
        }
        const batch = chunks.slice(from, from + CHUNKS_PER_TRANSACTION);
        if (from + CHUNKS_PER_TRANSACTION < chunks.length) {
          db.transaction(() => insertChunks(db, row.id, batch, from))();
          await yieldToEventLoop();
          continue;
        }
        // The last batch and the status change commit together: a document is never `trained` with missing chunks.
        db.transaction(() => {
          insertChunks(db, row.id, batch, from);
          if (!completeTraining(db, row, result, new Date().toISOString())) deleteChunks(db, row.id);
        })();
        return;
      }
    } catch (error) {
      if (!running) return;
      const reason = error instanceof ExtractionError ? error.message : `Training failed: ${(error as Error).message}`;
      failTraining(db, row, reason, new Date().toISOString());
    }
  }

  function requeueDueRetrains(): void {
    const due = db
      .prepare(
        `SELECT id FROM documents WHERE retrain_interval_days IS NOT NULL AND training_status = 'trained'
           AND julianday(last_trained_at) + retrain_interval_days <= julianday('now') LIMIT 100`,
      )
      .all() as { id: number }[];
    const now = new Date().toISOString();
    for (const { id } of due) queueTraining(db, id, now);
  }

  function pump(): void {
    scheduled = false;
    if (!running) return;
    if (Date.now() - lastRetrainCheck > RETRAIN_CHECK_MS) {
      lastRetrainCheck = Date.now();
      requeueDueRetrains();
    }
    // Requests come first: during an upload burst the worker trains one document at a time.
    const limit = inBurst() ? 1 : concurrency;
    while (busy.size < limit) {
      const row = nextPending.get(JSON.stringify([...busy.keys()])) as DocumentRow | undefined;
      if (!row) break;
      const job = train(row).finally(() => {
        busy.delete(row.id);
        schedule();
      });
      busy.set(row.id, job);
    }
  }

  function schedule(): void {
    if (scheduled || !running) return;
    scheduled = true;
    if (inBurst()) setTimeout(pump, BURST_PAUSE_MS);
    else setImmediate(pump);
  }

  const timer = setInterval(schedule, POLL_MS);
  timer.unref();
  schedule();

  return {
    wake() {
      lastArrival = Date.now();
      schedule();
    },
    async stop() {
      running = false;
      clearInterval(timer);
      await Promise.allSettled([...busy.values()]);
    },
  };
}
