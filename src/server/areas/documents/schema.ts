/**
 * Training documents, their training tasks, and the full-text index of their chunks.
 *
 * A chunk's rowid in `document_chunks` is `document_id * CHUNK_ROWID_SPAN + chunk_index`, so a document's chunks
 * can be removed by rowid without scanning the index.
 */
export const CHUNK_ROWID_SPAN = 1_000_000;

export const documentsSchema = `
CREATE TABLE IF NOT EXISTS documents (
  -- AUTOINCREMENT: a deleted document's id (and its tasks' reference to it) is never given to a new document.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org TEXT NOT NULL REFERENCES orgs(key),
  pathway TEXT NOT NULL,
  mentor_id INTEGER NOT NULL REFERENCES mentors(id),
  username TEXT NOT NULL,
  document_name TEXT NOT NULL,
  document_type TEXT NOT NULL,
  source_kind TEXT NOT NULL CHECK (source_kind IN ('file', 'url', 'text')),
  url TEXT,
  file_path TEXT,
  file_size INTEGER,
  content_hash TEXT,
  access TEXT NOT NULL DEFAULT 'private' CHECK (access IN ('public', 'private')),
  training_status TEXT NOT NULL CHECK (training_status IN ('trained', 'failed', 'pending', 'untrained')),
  generation INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  -- Chunks written to the index so far (also partial ones of an interrupted training), for deleting them.
  indexed_chunks INTEGER NOT NULL DEFAULT 0,
  failure_reason TEXT,
  custom_metadata TEXT CHECK (custom_metadata IS NULL OR json_valid(custom_metadata)),
  retrain_interval_days INTEGER,
  task_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_trained_at TEXT
);
CREATE INDEX IF NOT EXISTS documents_pathway ON documents(org, pathway, id);
CREATE INDEX IF NOT EXISTS documents_status ON documents(training_status, id);
CREATE TABLE IF NOT EXISTS document_tasks (
  task_id TEXT PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  document_id INTEGER NOT NULL,
  generation INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE INDEX IF NOT EXISTS document_tasks_document ON document_tasks(document_id, status);
CREATE VIRTUAL TABLE IF NOT EXISTS document_chunks USING fts5(
  content, document_id UNINDEXED, chunk_index UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Each indexed word of each chunk: search ranks one mentor's chunks by BM25 on that mentor's own figures (fts.ts).
CREATE VIRTUAL TABLE IF NOT EXISTS document_chunks_terms USING fts5vocab(document_chunks, 'instance');
`;

export type TrainingStatus = 'trained' | 'failed' | 'pending' | 'untrained';

export interface DocumentRow {
  id: number;
  org: string;
  pathway: string;
  mentor_id: number;
  username: string;
  document_name: string;
  document_type: string;
  source_kind: 'file' | 'url' | 'text';
  url: string | null;
  file_path: string | null;
  file_size: number | null;
  content_hash: string | null;
  access: 'public' | 'private';
  training_status: TrainingStatus;
  generation: number;
  tokens: number | null;
  chunk_count: number;
  indexed_chunks: number;
  failure_reason: string | null;
  custom_metadata: string | null;
  retrain_interval_days: number | null;
  task_id: string | null;
  created_at: string;
  updated_at: string;
  last_trained_at: string | null;
}
