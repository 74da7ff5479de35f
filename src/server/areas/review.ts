import type { Area } from '../area';
import { feedbackRoutes } from './review/feedback';
import { logRoutes } from './review/logs';
import { reviewSchema } from './review/schema';
import { seedReview } from './review/seed';
import { traceRoutes } from './review/traces';

/**
 * Quality and safety (issue 18): moderation and safety logs and learners' feedback under
 * `/api/ai-mentor/orgs/{org}/users/{user_id}/`, Langfuse traces and observations and feedback counts under
 * `/api/ai-analytics/orgs/{org}/users/{user_id}/`. Seeded on the analytics area's demo conversations.
 */
export const reviewArea: Area = {
  name: 'review',
  schema: reviewSchema,
  routes(router, deps) {
    logRoutes(router, deps);
    feedbackRoutes(router, deps);
    traceRoutes(router, deps);
  },
  seed: seedReview,
};
