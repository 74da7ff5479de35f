import type { Area } from '../area';
import { mentorCrudRoutes } from './mentors/crud';
import { mentorsAreaSchema } from './mentors/schema';
import { seedMentorTaxonomy } from './mentors/seed';
import { mentorKnowledgeRoutes } from './mentors/knowledge';
import { edxMemoryRoutes, mentorMemoryRoutes, profileMemoryRoutes, seedMentorMemory } from './mentors/memory';
import { mentorSettingsRoutes } from './mentors/settings';
import { mentorTaxonomyRoutes } from './mentors/taxonomy-routes';

/**
 * Mentors (`/api/ai-mentor/orgs/{org}/users/{user_id}/`): list with the spec's filters and DRF pages, create,
 * `{name}/` read/update/soft delete, `mentors/{mentor}/`, settings and public settings, audiences and categories.
 */
export const mentorsArea: Area = {
  name: 'mentors',
  schema: mentorsAreaSchema,
  routes(router, deps) {
    mentorTaxonomyRoutes(router, deps);
    mentorSettingsRoutes(router, deps);
    mentorKnowledgeRoutes(router, deps);
    mentorMemoryRoutes(router, deps);
    profileMemoryRoutes(router, deps);
    edxMemoryRoutes(router, deps);
    // Route registration of every area runs synchronously in one pass; a microtask runs right after it, so the
    // catch-all `{name}/` routes come after every literal `users/{user_id}/<segment>/` route of later areas.
    mentorCrudRoutes(router, deps, (register) => queueMicrotask(register));
  },
  seed(deps, _size, rng) {
    seedMentorTaxonomy(deps, rng);
    seedMentorMemory(deps);
  },
};
