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

/** Query words as an FTS5 expression: each word quoted (no operator injection), any word may match. */
export function ftsQuery(query: string): { expression: string; terms: string[] } | null {
  const terms = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_QUERY_WORDS))];
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
  /** Okapi BM25 of the chunk for the query, on the mentor's own documents: higher is better, 0 for no match. */
  score: number;
}

const MAX_QUERY_WORDS = 32;
/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/**
 * The query's words as the index holds them (lower case, accents removed, Porter stems), read from FTS5's own
 * tokenizer: a temporary one-row FTS5 table with the same settings, and its vocabulary.
 */
function indexTerms(db: Db, query: string): string[] {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5(
             content, tokenize = 'porter unicode61 remove_diacritics 2');
           CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms USING fts5vocab(temp, query_words, 'row');`);
  return db.transaction(() => {
    stmt(db, 'DELETE FROM temp.query_words').run();
    stmt(db, 'INSERT INTO temp.query_words (content) VALUES (?)').run(query);
    const terms = (stmt(db, 'SELECT term FROM temp.query_terms').all() as { term: string }[]).map((row) => row.term);
    stmt(db, 'DELETE FROM temp.query_words').run();
    return terms.slice(0, MAX_QUERY_WORDS);
  })();
}

/** The first varint of an FTS5 `_docsize` blob: the chunk's length in tokens (its content column). */
function contentTokens(sz: Buffer): number {
  let value = 0;
  for (let i = 0; i < Math.min(sz.length, 9); i++) {
    value = value * 128 + (sz[i]! & 0x7f);
    if (!(sz[i]! & 0x80)) break;
  }
  return value;
}

/**
 * The best chunks of a pathway's trained documents for `query`, best first, scored by Okapi BM25 over that
 * pathway's chunks alone (their count, average length and how many hold each word), with Lucene's IDF, which stays
 * positive for words most chunks hold. FTS5's own bm25() counts every chunk of every tenant, and floors the IDF of
 * a word in more than half of them to ~0: in a mentor with a few documents every passage then scored 0 and the
 * order was noise.
 */
export function searchChunks(
  db: Db,
  options: { org: string; pathway: string; query: string; limit: number; publicOnly: boolean },
): { hits: ChunkHit[]; terms: string[] } {
  const words = ftsQuery(options.query);
  if (!words) return { hits: [], terms: [] };
  const terms = indexTerms(db, options.query);
  const documents = stmt(
    db,
    `SELECT id, document_name, url FROM documents
     WHERE org = @org AND pathway = @pathway AND training_status = 'trained' AND (@publicOnly = 0 OR access = 'public')`,
  ).all({ org: options.org, pathway: options.pathway, publicOnly: options.publicOnly ? 1 : 0 }) as {
    id: number;
    document_name: string;
    url: string | null;
  }[];
  if (!terms.length || !documents.length) return { hits: [], terms: words.terms };

  // The pathway's chunks and their lengths.
  const lengths = new Map<number, number>();
  const sizes = stmt(db, 'SELECT id, sz FROM document_chunks_docsize WHERE id BETWEEN ? AND ?');
  for (const document of documents) {
    const first = document.id * CHUNK_ROWID_SPAN;
    for (const row of sizes.all(first, first + CHUNK_ROWID_SPAN - 1) as { id: number; sz: Buffer }[]) {
      lengths.set(row.id, contentTokens(row.sz));
    }
  }
  const chunkCount = lengths.size;
  if (!chunkCount) return { hits: [], terms: words.terms };
  let totalLength = 0;
  for (const length of lengths.values()) totalLength += length;
  const averageLength = totalLength / chunkCount || 1;

  // Each word's frequency in each of the pathway's chunks, then BM25 summed over the words.
  const scores = new Map<number, number>();
  const frequencies = stmt(db, 'SELECT doc, count(*) AS n FROM document_chunks_terms WHERE term = ? GROUP BY doc');
  for (const term of terms) {
    const inPathway = (frequencies.all(term) as { doc: number; n: number }[]).filter((row) => lengths.has(row.doc));
    if (!inPathway.length) continue;
    const idf = Math.log(1 + (chunkCount - inPathway.length + 0.5) / (inPathway.length + 0.5));
    for (const { doc, n } of inPathway) {
      const norm = K1 * (1 - B + (B * lengths.get(doc)!) / averageLength);
      scores.set(doc, (scores.get(doc) ?? 0) + (idf * (n * (K1 + 1))) / (n + norm));
    }
  }
  const best = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, options.limit);
  if (!best.length) return { hits: [], terms: words.terms };

  const byId = new Map(documents.map((document) => [document.id, document]));
  const content = stmt(db, 'SELECT content FROM document_chunks WHERE rowid = ?').pluck();
  const snippetOf = stmt(
    db,
    `SELECT snippet(document_chunks, 0, '**', '**', '…', 24) FROM document_chunks
     WHERE document_chunks MATCH ? AND rowid = ?`,
  ).pluck();
  const hits = best.map(([rowid, score]) => {
    const text = content.get(rowid) as string;
    // The words as typed may not match as a phrase ("a_b" is the phrase "a b"): then the passage's start.
    const snippet = (snippetOf.get(words.expression, rowid) as string | undefined) ?? text.slice(0, 200);
    const document = byId.get(Math.floor(rowid / CHUNK_ROWID_SPAN))!;
    return {
      document_id: document.id,
      chunk_index: rowid % CHUNK_ROWID_SPAN,
      content: text,
      snippet,
      document_name: document.document_name,
      url: document.url,
      score: Math.round(score * 1e4) / 1e4,
    };
  });
  return { hits, terms: words.terms };
}

/** The share of query words a passage contains (prefix match, so stemmed forms count), from 0 to 1. */
export function termCoverage(terms: string[], content: string): number {
  if (!terms.length) return 0;
  const text = content.toLowerCase();
  return (
    terms.filter((term) => text.includes(term.length > 5 ? term.slice(0, term.length - 2) : term)).length / terms.length
  );
}
