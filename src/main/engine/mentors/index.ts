/**
 * The mentors area: the tenant's mentors and their documents. "The cache serves the screen; the API is the truth":
 * lists answer from SQLite at once and refresh in the background; writes go to the API, then update the cache.
 */
import type { mentorCalls } from '../../../shared/contract';
import type { EngineArea, EngineContext } from '../context';
import type { HandlersOf } from '../dispatch';
import { documentsList, MentorCache } from './cache';
import { documentHandlers } from './document-handlers';
import { Freshener } from './freshness';
import { mentorHandlers } from './mentor-handlers';

export { MentorCache } from './cache';
export { resolveMentor, resolveMentorRef, toMentor, type Scope } from './resolve';
export {
  DocumentApi,
  toRemoteDocument,
  uploadRetryPolicy,
  type RemoteDocument,
  type TaskOutcome,
  type TrainAnswer,
  type Upload,
} from './document-api';
export { isUnreachable, offlineNote } from './explain';

export interface MentorsArea extends EngineArea<HandlersOf<typeof mentorCalls>> {
  /**
   * For other areas (training) that change a mentor's documents on the tenant: the cached list is marked old, so
   * the next documents.list fetches it, and open screens are told to read it again (documents.changed).
   */
  documentsChanged(profileId: string, mentor: string): void;
}

export function mentorsArea(ctx: EngineContext): MentorsArea {
  const cache = new MentorCache(ctx.db, ctx.log);
  const freshener = new Freshener(cache, ctx.log);
  const parts = { ctx, cache, freshener };
  return {
    handlers: { ...mentorHandlers(parts), ...documentHandlers(parts) },
    documentsChanged: (profileId, mentor) => {
      freshener.changedOnTenant(profileId, documentsList(mentor));
      ctx.emit('documents.changed', { profileId, mentor });
    },
    close: () => freshener.close(),
  };
}
