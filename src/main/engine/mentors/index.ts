/**
 * The mentors area: the tenant's mentors and their documents. "The cache serves the screen; the API is the truth":
 * lists answer from SQLite at once and refresh in the background; writes go to the API, then update the cache.
 */
import type { mentorCalls, mentorSharingCalls, mentorVoiceCalls } from '../../../shared/contract';
import type { EngineArea } from '../context';
import type { Db } from '../store';
import type { TenantIdentity } from '../profiles';
import type { HandlersOf } from '../dispatch';
import { documentsList, MentorCache } from './cache';
import type { Log } from '../log';
import { documentHandlers } from './document-handlers';
import { Freshener } from './freshness';
import { mentorHandlers } from './mentor-handlers';
import { sharingHandlers } from './sharing-handlers';
import { voiceHandlers } from './voice-handlers';
import type { MentorServices } from './tenant';

export { MentorCache } from './cache';
export { resolveMentor, resolveMentorRef, toMentor, type Scope } from './resolve';
export {
  DocumentApi,
  documentMetadata,
  toRemoteDocument,
  uploadRetryPolicy,
  type RemoteDocument,
  type TaskOutcome,
  type TrainAnswer,
  type Upload,
} from './document-api';
export { isUnreachable, offlineNote } from './explain';
export type { ApiDocument } from './shapes';

export interface MentorsArea extends EngineArea<
  HandlersOf<typeof mentorCalls & typeof mentorSharingCalls & typeof mentorVoiceCalls>
> {
  /**
   * For other areas (training) that change a mentor's documents on the tenant: the cached list is marked old, so
   * the next documents.list fetches it, and open screens are told to read it again (documents.changed).
   */
  documentsChanged(profileId: string, mentor: string): void;
}

export interface MentorStores {
  cache: MentorCache;
}

/** The mentors area's tables, opened by the engine on its database. */
export function mentorStores(db: Db, log: Log, tenants: TenantIdentity): MentorStores {
  return { cache: new MentorCache(db, log, tenants) };
}

export function mentorsArea(services: MentorServices, { cache }: MentorStores): MentorsArea {
  const freshener = new Freshener(cache, services.log);
  const parts = { services, cache, freshener };
  return {
    handlers: {
      ...mentorHandlers(parts),
      ...documentHandlers(parts),
      ...sharingHandlers(parts),
      ...voiceHandlers(parts),
    },
    documentsChanged: (profileId, mentor) => {
      freshener.changedOnTenant(profileId, documentsList(mentor));
      services.emit('documents.changed', { profileId, mentor });
    },
    close: () => freshener.close(),
  };
}
