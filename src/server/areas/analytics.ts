import type { Area, AreaDeps } from '../area';
import type { Rng } from '../rng';
import { chatHistoryRoutes } from './analytics/chat-history';
import { conversationRoutes } from './analytics/conversations';
import { costRoutes } from './analytics/costs';
import { rebuildDerived } from './analytics/derived';
import { learningRoutes } from './analytics/learning';
import { perLearnerRoutes } from './analytics/perlearner';
import { analyticsSchema } from './analytics/schema';
import { seedChats } from './analytics/seed-chat';
import { seedLearning } from './analytics/seed-learning';

const BULK_DROPPED = [...analyticsSchema.matchAll(/CREATE (INDEX|TRIGGER) IF NOT EXISTS (\w+)/g)].map((m) => ({
  kind: m[1]!,
  name: m[2]!,
}));

/** Loads the generated rows with secondary indexes and triggers off, then rebuilds them and the derived tables. */
function seedAnalytics(deps: AreaDeps, size: 'demo' | 'large', rng: Rng): void {
  const { db } = deps;
  for (const { kind, name } of BULK_DROPPED) db.exec(`DROP ${kind} IF EXISTS ${name}`);
  seedChats(deps, size, rng);
  seedLearning(deps, size, rng);
  db.exec(`
    INSERT OR IGNORE INTO learning_activity (org, day, user_id)
    SELECT org, day, user_id FROM (
      SELECT org, substr(started_at, 1, 10) AS day, user_id FROM chat_sessions WHERE user_id IS NOT NULL
      UNION SELECT org, day, user_id FROM learning_time
    ) ORDER BY org, day, user_id`);
  db.exec(analyticsSchema);
  // Planner statistics for the rebuilt indexes (sampled, so it stays fast on the large data set).
  db.pragma('analysis_limit = 400');
  rebuildDerived(db);
  for (const table of [
    'users',
    'chat_sessions',
    'chat_messages',
    'chat_session_topics',
    'learning_enrollments',
    'learning_time',
    'learning_activity',
  ]) {
    db.exec(`ANALYZE ${table}`);
  }
}

/**
 * Analytics: chat sessions and messages with topics, sentiment, ratings and LLM costs (conversation analytics under
 * /api/ai-analytics/orgs/{org}/users/{user_id}/…), and courses, enrollments, grades and time spent (learning
 * analytics under /api/ai-analytics/{overview,audience,engagement,departments,user-groups,perlearner}/…).
 */
export const analyticsArea: Area = {
  name: 'analytics',
  schema: analyticsSchema,
  routes(router, deps) {
    chatHistoryRoutes(router, deps);
    conversationRoutes(router, deps);
    costRoutes(router, deps);
    learningRoutes(router, deps);
    perLearnerRoutes(router, deps);
  },
  seed: seedAnalytics,
};
