import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../db';
import { deleteChunks, insertChunks } from './fts';
import type { DocumentRow } from './schema';
import { filesDir } from './source';
import { stmt } from '../mentors/sql';

/**
 * State changes of a document: `pending → trained | failed` belongs to the worker; queueing, untraining and deleting
 * live here. Every change bumps `generation`, so a worker still busy with an older request discards its result.
 */

export const TASK_PENDING_MESSAGE = 'Training document pending';

export interface NewDocument {
  org: string;
  pathway: string;
  mentorId: number;
  username: string;
  name: string;
  type: string;
  sourceKind: DocumentRow['source_kind'];
  url: string | null;
  filePath: string | null;
  fileSize: number | null;
  contentHash: string | null;
  access: DocumentRow['access'];
  customMetadata: Record<string, unknown> | null;
}

/** The columns a document row takes from its NewDocument, filled by `newDocumentValues` in this order. */
const NEW_DOCUMENT_COLUMNS = `org, pathway, mentor_id, username, document_name, document_type, source_kind, url, file_path,
  file_size, content_hash, access, custom_metadata`;
const NEW_DOCUMENT_PLACEHOLDERS = NEW_DOCUMENT_COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

function newDocumentValues(doc: NewDocument) {
  return [
    doc.org,
    doc.pathway,
    doc.mentorId,
    doc.username,
    doc.name,
    doc.type,
    doc.sourceKind,
    doc.url,
    doc.filePath,
    doc.fileSize,
    doc.contentHash,
    doc.access,
    doc.customMetadata ? JSON.stringify(doc.customMetadata) : null,
  ];
}

function finishPendingTasks(
  db: Db,
  documentId: number,
  status: 'completed' | 'failed',
  message: string,
  now: string,
): void {
  stmt(
    db,
    `UPDATE document_tasks SET status = ?, message = ?, finished_at = ? WHERE document_id = ? AND status = 'pending'`,
  ).run(status, message, now, documentId);
}

function insertTask(
  db: Db,
  org: string,
  documentId: number,
  generation: number,
  now: string,
  taskId = randomUUID(),
): string {
  stmt(
    db,
    `INSERT INTO document_tasks (task_id, org, document_id, generation, status, message, created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(taskId, org, documentId, generation, TASK_PENDING_MESSAGE, now);
  return taskId;
}

/** A new document waiting for the worker, with its first training task. */
export function insertPendingDocument(db: Db, doc: NewDocument, now: string): { id: number; taskId: string } {
  return db.transaction(() => {
    const taskId = randomUUID();
    const id = Number(
      stmt(
        db,
        `INSERT INTO documents (${NEW_DOCUMENT_COLUMNS}, training_status, generation, task_id, created_at, updated_at)
           VALUES (${NEW_DOCUMENT_PLACEHOLDERS}, 'pending', 1, ?, ?, ?)`,
      ).run(...newDocumentValues(doc), taskId, now, now).lastInsertRowid,
    );
    insertTask(db, doc.org, id, 1, now, taskId);
    return { id, taskId };
  })();
}

/** (Re)trains a document: back to `pending` under a new task; a task still pending for it is superseded. */
export function queueTraining(db: Db, documentId: number, now: string): string {
  return db.transaction(() => {
    finishPendingTasks(db, documentId, 'failed', 'Superseded by a newer training request', now);
    const taskId = randomUUID();
    const { generation, org } = stmt(
      db,
      `UPDATE documents SET training_status = 'pending', generation = generation + 1, failure_reason = NULL, task_id = ?, updated_at = ?
         WHERE id = ? RETURNING generation, org`,
    ).get(taskId, now, documentId) as { generation: number; org: string };
    insertTask(db, org, documentId, generation, now, taskId);
    return taskId;
  })();
}

/** Removes a document from its pathway's index; the document and its file stay. */
export function untrainDocument(db: Db, documentId: number, now: string): void {
  db.transaction(() => {
    finishPendingTasks(db, documentId, 'failed', 'Training cancelled: the document was untrained', now);
    stmt(
      db,
      `UPDATE documents SET training_status = 'untrained', generation = generation + 1, failure_reason = NULL, updated_at = ? WHERE id = ?`,
    ).run(now, documentId);
    deleteChunks(db, documentId);
  })();
}

/** Deletes a document, untraining it first; its stored file goes too. */
export async function deleteDocument(db: Db, row: DocumentRow, dataDir: string, now: string): Promise<void> {
  db.transaction(() => {
    finishPendingTasks(db, row.id, 'failed', 'Training cancelled: the document was deleted', now);
    deleteChunks(db, row.id);
    stmt(db, 'DELETE FROM documents WHERE id = ?').run(row.id);
  })();
  if (row.file_path) await unlink(join(filesDir(dataDir), row.file_path)).catch(() => undefined);
}

/** The worker's result, applied only if nobody changed the document meanwhile (same generation, still pending). */
export function completeTraining(
  db: Db,
  row: Pick<DocumentRow, 'id' | 'generation'>,
  result: { tokens: number; chunks: number; contentHash: string | null; fileSize: number | null },
  now: string,
): boolean {
  return db.transaction(() => {
    const done = stmt(
      db,
      `UPDATE documents SET training_status = 'trained', tokens = ?, chunk_count = ?, failure_reason = NULL, last_trained_at = ?,
           updated_at = ?, content_hash = COALESCE(?, content_hash), file_size = COALESCE(?, file_size)
         WHERE id = ? AND generation = ? AND training_status = 'pending'`,
    ).run(result.tokens, result.chunks, now, now, result.contentHash, result.fileSize, row.id, row.generation);
    if (!done.changes) return false;
    finishPendingTasks(db, row.id, 'completed', 'Training document completed successfully', now);
    return true;
  })();
}

export function failTraining(
  db: Db,
  row: Pick<DocumentRow, 'id' | 'generation'>,
  reason: string,
  now: string,
): boolean {
  return db.transaction(() => {
    const done = stmt(
      db,
      `UPDATE documents SET training_status = 'failed', failure_reason = ?, updated_at = ?
         WHERE id = ? AND generation = ? AND training_status = 'pending'`,
    ).run(reason, now, row.id, row.generation);
    if (!done.changes) return false;
    deleteChunks(db, row.id);
    finishPendingTasks(db, row.id, 'failed', `Training document failed: ${reason}`, now);
    return true;
  })();
}

/** A document already in its final state (direct training, demo data), with its finished task and its chunks. */
export function insertFinishedDocument(
  db: Db,
  doc: NewDocument,
  state: {
    status: 'trained' | 'failed' | 'untrained';
    chunks: string[];
    tokens: number | null;
    failureReason: string | null;
    createdAt: string;
    trainedAt: string | null;
    taskId?: string;
  },
): number {
  const taskId = state.taskId ?? randomUUID();
  const id = Number(
    stmt(
      db,
      `INSERT INTO documents (${NEW_DOCUMENT_COLUMNS}, training_status, generation, tokens, chunk_count, failure_reason,
           task_id, created_at, updated_at, last_trained_at)
         VALUES (${NEW_DOCUMENT_PLACEHOLDERS}, ?, 1, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      ...newDocumentValues(doc),
      state.status,
      state.tokens,
      state.status === 'trained' ? state.chunks.length : 0,
      state.failureReason,
      taskId,
      state.createdAt,
      state.trainedAt ?? state.createdAt,
      state.trainedAt,
    ).lastInsertRowid,
  );
  const failed = state.status === 'failed';
  stmt(
    db,
    `INSERT INTO document_tasks (task_id, org, document_id, generation, status, message, created_at, finished_at)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
  ).run(
    taskId,
    doc.org,
    id,
    failed ? 'failed' : 'completed',
    failed ? `Training document failed: ${state.failureReason}` : 'Training document completed successfully',
    state.createdAt,
    state.trainedAt ?? state.createdAt,
  );
  if (state.status === 'trained') insertChunks(db, id, state.chunks);
  return id;
}
