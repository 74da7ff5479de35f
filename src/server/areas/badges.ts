import type { Area } from '../area';
import { milestoneRoutes } from './badges/milestones';
import { badgeRoutes } from './badges/routes';
import { credentialsSchema } from './badges/schema';
import { seedBadges } from './badges/seed';

/**
 * Badges (`/api/credentials/orgs/{org}/users/{user_id}/…`: definitions, issuers, images, assertions, issuance over
 * time) and the course completion milestones they are issued from. Seeded after the learning analytics' courses.
 */
export const badgesArea: Area = {
  name: 'badges',
  schema: credentialsSchema,
  routes(router, deps) {
    badgeRoutes(router, deps);
    milestoneRoutes(router, deps);
  },
  seed(deps, _size, rng) {
    seedBadges(deps, rng);
  },
};
