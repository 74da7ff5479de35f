import { badRequest } from '../../http/errors';
import type { Router } from '../../http/router';
import { DOCUMENTS_BASE, INVALID_REQUEST, publicOnly, readFields, type DocumentsContext } from './common';
import { searchChunks, termCoverage } from './fts';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

function parseSearch(body: Record<string, unknown>): { query: string; pathway: string; limit: number } {
  const { query, pathway } = body;
  if (typeof query !== 'string' || !query.trim() || typeof pathway !== 'string' || !pathway.trim())
    throw badRequest(INVALID_REQUEST);
  let limit = DEFAULT_LIMIT;
  if (body.limit !== undefined && body.limit !== null && body.limit !== '') {
    const n = Number(body.limit);
    if (!Number.isInteger(n) || n < 1) throw badRequest(INVALID_REQUEST);
    limit = Math.min(n, MAX_LIMIT);
  }
  return { query: query.trim(), pathway: pathway.trim(), limit };
}

/** `search/` (passages) and `sources/` (documents with a confidence) over the FTS5 index, ranked by BM25. */
export function searchRoutes(router: Router, { deps }: DocumentsContext): void {
  const { db } = deps;

  router.post(`${DOCUMENTS_BASE}search/`, async (ctx) => {
    const { query, pathway, limit } = parseSearch(await readFields(ctx, deps));
    const { hits } = searchChunks(db, { org: ctx.params.org!, pathway, query, limit, publicOnly: publicOnly(ctx) });
    return {
      status: 200,
      body: {
        results: hits.map((hit) => ({
          page_content: hit.content,
          snippet: hit.snippet,
          document_id: hit.document_id,
          document_name: hit.document_name,
          chunk_index: hit.chunk_index,
          score: hit.score,
        })),
      },
    };
  });

  router.post(`${DOCUMENTS_BASE}sources/`, async (ctx) => {
    const { query, pathway, limit } = parseSearch(await readFields(ctx, deps));
    // Rank passages, then keep each document once, at its best passage.
    const { hits, terms } = searchChunks(db, {
      org: ctx.params.org!,
      pathway,
      query,
      limit: limit * 5,
      publicOnly: publicOnly(ctx),
    });
    const best = hits[0]?.score ?? 0;
    const seen = new Set<number>();
    const sources = [];
    for (const hit of hits) {
      if (seen.has(hit.document_id)) continue;
      seen.add(hit.document_id);
      // A heuristic percentage: half from how many query words the passage holds, half from BM25 relative to the best.
      const relative = best > 0 ? hit.score / best : 1;
      const confidence = Math.round(100 * (0.5 * termCoverage(terms, hit.content) + 0.5 * relative) * 100) / 100;
      sources.push({
        source: hit.url ?? hit.document_name,
        confidence_level: confidence,
        document_id: hit.document_id,
        document_name: hit.document_name,
      });
      if (sources.length >= limit) break;
    }
    return { status: 200, body: sources };
  });
}
