import type { Area } from '../area';
import { reviewRoutes, learningSchema, suggestionRoutes } from './learning/routes';
import { seedLearning } from './learning/seed';

/**
 * Course suggestions and reviews (`/api/catalog/suggestions/course/`, `reviews/`), on the catalogue's courses and
 * programs and the core's people and user groups: seeded after them.
 */
export const learningArea: Area = {
  name: 'learning',
  schema: learningSchema,
  routes(router, deps) {
    suggestionRoutes(router, deps);
    reviewRoutes(router, deps);
  },
  seed(deps, _size, rng) {
    seedLearning(deps, rng);
  },
};
