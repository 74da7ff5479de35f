import type { Area } from '../area';
import { messageRoutes } from './support/messages';
import { supportSchema } from './support/schema';
import { seedSupport } from './support/seed';
import { startSimulator } from './support/simulator';
import { ticketRoutes } from './support/tickets';

/**
 * Human-support tickets (`/api/ai-mentor/orgs/{org}/users/{user_id}/support-tickets/…` and
 * `support-ticket-messages/…`). There is no create operation: mentors file tickets (the demo seed and the
 * `--simulate` simulator stand in for them).
 */
export const supportArea: Area = {
  name: 'support',
  schema: supportSchema,
  routes(router, deps) {
    ticketRoutes(router, deps);
    messageRoutes(router, deps);
  },
  seed: seedSupport,
  start: startSimulator,
};
