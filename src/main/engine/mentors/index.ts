/**
 * The mentors area: the tenant's mentors and their documents. "The cache serves the screen; the API is the truth":
 * lists answer from SQLite at once and refresh in the background; writes go to the API, then update the cache.
 */
import type { mentorCalls } from '../../../shared/contract';
import type { EngineArea, EngineContext } from '../context';
import type { HandlersOf } from '../dispatch';
import { MentorCache } from './cache';
import { documentHandlers } from './document-handlers';
import { Freshener } from './freshness';
import { mentorHandlers } from './mentor-handlers';

export { MentorCache, documentsChanged } from './cache';
export { resolveMentor, resolveMentorRef, toMentor, mentorsPath, type Scope } from './resolve';
export { isUnreachable, offlineNote } from './explain';

export function mentorsArea(ctx: EngineContext): EngineArea<HandlersOf<typeof mentorCalls>> {
  const cache = new MentorCache(ctx.db, ctx.log);
  const freshener = new Freshener(cache, ctx.log);
  const parts = { ctx, cache, freshener };
  return {
    handlers: { ...mentorHandlers(parts), ...documentHandlers(parts) },
    close: () => freshener.close(),
  };
}
