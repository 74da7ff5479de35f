import type { Area } from '../area';
import { mentorCrudRoutes } from './mentors/crud';
import { mentorEvalRoutes, mentorEvalSchema } from './mentors/evals';
import { mentorsAreaSchema, sharableLinksSchema, voiceSchema } from './mentors/schema';
import { mentorSharingRoutes } from './mentors/sharing';
import { seedMentorTaxonomy } from './mentors/seed';
import { mentorCatalogueRoutes } from './mentors/catalogues';
import { mentorGuidanceRoutes } from './mentors/guidance';
import { mentorKnowledgeRoutes } from './mentors/knowledge';
import { edxMemoryRoutes, mentorMemoryRoutes, profileMemoryRoutes, seedMentorMemory } from './mentors/memory';
import { userMemoryRoutes } from './mentors/user-memories';
import { callCredentialRoutes } from './mentors/call-credentials';
import { mentorSettingsRoutes } from './mentors/settings';
import { mentorTaxonomyRoutes } from './mentors/taxonomy-routes';
import { mentorVoiceRoutes } from './mentors/voice';
import { genericSchema } from './resources/backends';

/**
 * Mentors (`/api/ai-mentor/orgs/{org}/users/{user_id}/`): list with the spec's filters and DRF pages, create,
 * `{name}/` read/update/soft delete, `mentors/{mentor}/`, settings and public settings, audiences and categories, evaluations and their reports.
 */
export const mentorsArea: Area = {
  name: 'mentors',
  // Memory keeps its records in the generic store (the resources area's table, created here too when the mentors
  // area runs without it, as the sandbox's own tests compose it).
  schema: mentorsAreaSchema + sharableLinksSchema + mentorEvalSchema + voiceSchema + genericSchema,
  routes(router, deps) {
    mentorTaxonomyRoutes(router, deps);
    mentorSettingsRoutes(router, deps);
    mentorKnowledgeRoutes(router, deps);
    mentorSharingRoutes(router, deps);
    mentorEvalRoutes(router, deps);
    mentorVoiceRoutes(router, deps);
    mentorMemoryRoutes(router, deps);
    userMemoryRoutes(router, deps);
    callCredentialRoutes(router, deps);
    mentorGuidanceRoutes(router, deps);
    mentorCatalogueRoutes(router, deps);
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
