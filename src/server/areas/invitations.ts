import type { Area } from '../area';
import { seedCatalog } from './invitations/catalog';
import { invitationCheckRoute, invitationRoutes } from './invitations/routes';
import { invitationsSchema } from './invitations/schema';
import { seedInvitations } from './invitations/seed';
import { KINDS } from './invitations/store';

/**
 * Catalog invitations (`/api/catalog/invitations/{platform,course,program}/…`): list, create, delete, bulk, blank,
 * redeem and the public platform check. The tenant travels as `platform_key`, never in the path. The courses and
 * programs invited to are listed by the catalogue area.
 */
export const invitationsArea: Area = {
  name: 'invitations',
  schema: invitationsSchema,
  routes(router, deps) {
    invitationCheckRoute(router, deps);
    for (const spec of KINDS) invitationRoutes(router, deps, spec);
  },
  seed(deps, size, rng) {
    seedCatalog(deps, size, rng);
    seedInvitations(deps, rng);
  },
};
