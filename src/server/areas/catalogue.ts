import type { Area } from '../area';
import { catalogueItemRoutes } from './catalogue/items';
import { enrollmentRoutes } from './catalogue/enrollments';
import { seedCatalogue } from './catalogue/seed';
import { catalogueSchema } from './catalogue/store';
import { invitationsSchema } from './invitations/schema';

/**
 * The catalogue (`/api/catalog/`): courses, pathways and programs with their metadata, and enrolments. It builds on
 * the invitations area's courses, programs and enrolment rows (their schema is created here too, so the area can be
 * served alone) and seeds after it.
 */
export const catalogueArea: Area = {
  name: 'catalogue',
  schema: invitationsSchema + catalogueSchema,
  routes(router, deps) {
    catalogueItemRoutes(router, deps);
    enrollmentRoutes(router, deps);
  },
  seed(deps, _size, rng) {
    seedCatalogue(deps, rng);
  },
};
