import type { Db } from '../../db';
import { CHUNK_ROWID_SPAN } from './schema';
import { stmt } from '../mentors/sql';

/** The FTS5 index of document chunks: writing a document's chunks, removing them, and BM25-ranked search. */

/**
 * Removes a document's chunks. FTS5 serves `rowid = ?` from its index but scans for a rowid range, so the chunks are
 * deleted one rowid at a time, as many as `documents.indexed_chunks` says were written.
 */
export function deleteChunks(db: Db, documentId: number): void {
  const row = stmt(db, 'SELECT indexed_chunks FROM documents WHERE id = ?').get(documentId) as
    { indexed_chunks: number } | undefined;
  if (!row?.indexed_chunks) return;
  const remove = stmt(db, 'DELETE FROM document_chunks WHERE rowid = ?');
  for (let index = 0; index < row.indexed_chunks; index++) remove.run(documentId * CHUNK_ROWID_SPAN + index);
  stmt(db, 'UPDATE documents SET indexed_chunks = 0 WHERE id = ?').run(documentId);
}

/** Writes chunks `from…` of a document; callers keep each call inside one small transaction. */
export function insertChunks(db: Db, documentId: number, chunks: string[], from = 0): void {
  const insert = stmt(db, 'INSERT INTO document_chunks (rowid, content, document_id, chunk_index) VALUES (?, ?, ?, ?)');
  chunks.forEach((content, i) => {
    const index = from + i;
    insert.run(documentId * CHUNK_ROWID_SPAN + index, content, documentId, index);
  });
  stmt(db, 'UPDATE documents SET indexed_chunks = max(indexed_chunks, ?) WHERE id = ?').run(
    from + chunks.length,
    documentId,
  );
}

/** Query words as an FTS5 expression: each word quoted (no operator injection), any word may match; BM25 ranks. */
export function ftsQuery(query: string): { expression: string; terms: string[] } | null {
  const terms = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 32))];
  if (!terms.length) return null;
  return { expression: terms.map((term) => `"${term}"`).join(' OR '), terms };
}

export interface ChunkHit {
  document_id: number;
  chunk_index: number;
  content: string;
  snippet: string;
  document_name: string;
  url: string | null;
  /** FTS5 bm25() is lower-is-better and negative; this is its negation, so higher is better. */
  score: number;
}

/** The best chunks of a pathway's trained documents for `query`, best first. */
export function searchChunks(
  db: Db,
  options: { org: string; pathway: string; query: string; limit: number; publicOnly: boolean },
): { hits: ChunkHit[]; terms: string[] } {
  const parsed = ftsQuery(options.query);
  if (!parsed) return { hits: [], terms: [] };
  const rows = db
    .prepare(
      `SELECT c.document_id, c.chunk_index, c.content, d.document_name, d.url,
              snippet(document_chunks, 0, '**', '**', '…', 24) AS snippet, bm25(document_chunks) AS rank
       FROM document_chunks c JOIN documents d ON d.id = c.document_id
       WHERE document_chunks MATCH @expression AND d.org = @org AND d.pathway = @pathway
         AND d.training_status = 'trained' ${options.publicOnly ? "AND d.access = 'public'" : ''}
       ORDER BY rank LIMIT @limit`,
    )
    .all({ expression: parsed.expression, org: options.org, pathway: options.pathway, limit: options.limit }) as (Omit<
    ChunkHit,
    'score'
  > & { rank: number })[];
  return {
    terms: parsed.terms,
    hits: rows.map(({ rank, ...hit }) => ({ ...hit, score: Math.round(-rank * 1e6) / 1e6 })),
  };
}

/** The share of query words a passage contains (prefix match, so stemmed forms count), from 0 to 1. */
export function termCoverage(terms: string[], content: string): number {
  if (!terms.length) return 0;
  const text = content.toLowerCase();
  return (
    terms.filter((term) => text.includes(term.length > 5 ? term.slice(0, term.length - 2) : term)).length / terms.length
  );
}
