import type { Area } from '../area';
import type { Db } from '../db';
import { documentRoutes } from './documents/document-routes';
import { documentsSchema } from './documents/schema';
import { searchRoutes } from './documents/search-routes';
import { seedDocuments } from './documents/seed';
import { trainRoutes } from './documents/train-routes';
import { startTrainingWorker, type TrainingWorker } from './documents/worker';

/** The running worker of each sandbox database, so upload routes can wake it. */
const workers = new WeakMap<Db, TrainingWorker>();

/**
 * Document training (`/api/ai-index/orgs/{org}/users/{user_id}/documents/…`): uploads queued for a background
 * worker that extracts, chunks and indexes them in SQLite FTS5; per-pathway lists; BM25 search and sources.
 */
export const documentsArea: Area = {
  name: 'documents',
  schema: documentsSchema,
  routes(router, deps) {
    const context = { deps, wake: () => workers.get(deps.db)?.wake() };
    // Literal sub-paths first: `{document_id}/` would match `search/`, `sources/`, … as well.
    trainRoutes(router, context);
    searchRoutes(router, context);
    documentRoutes(router, context);
  },
  seed(deps, _size, rng) {
    seedDocuments(deps, rng);
  },
  start(deps) {
    const worker = startTrainingWorker(deps);
    workers.set(deps.db, worker);
    return async () => {
      await worker.stop();
      workers.delete(deps.db);
    };
  },
};
