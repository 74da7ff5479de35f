import type { Area } from '../area';
import { reviewRoutes, learningSchema, suggestionRoutes } from './learning/routes';
import { seedLearning } from './learning/seed';
import { seedSkills, skillRoutes, skillsSchema } from './learning/skills';

/**
 * Course suggestions and reviews (`/api/catalog/suggestions/course/`, `reviews/`), and a person's skills, roles and
 * skill points (`skills/`, `roles/`, `milestones/skill_points/user/`), on the catalogue's courses and
 * programs and the core's people and user groups: seeded after them.
 */
export const learningArea: Area = {
  name: 'learning',
  schema: learningSchema + skillsSchema,
  routes(router, deps) {
    suggestionRoutes(router, deps);
    reviewRoutes(router, deps);
    skillRoutes(router, deps);
  },
  seed(deps, _size, rng) {
    seedLearning(deps, rng);
    seedSkills(deps, rng);
  },
};
