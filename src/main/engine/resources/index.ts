/**
 * The resource kit's engine part: the generic calls over every declared kind (src/shared/resources/), one typed
 * platform call per declared operation, the per-tenant cache of their lists, and CSV import as a job.
 */
import type { resourceCalls } from '../../../shared/contract';
import type { EngineArea, EngineServices } from '../context';
import type { HandlersOf } from '../dispatch';
import { AnswerCache, type Db } from '../store';
import type { TenantIdentity } from '../profiles';
import { accessHandlers } from './access';
import { ResourceCache } from './cache';
import { resourceHandlers, type ResourceServices } from './handlers';
import { resourceImport, type ImportServices } from './import';
import { resourceImportKind } from './import-job';
import { peopleHandlers } from './people';
import { memoryHandlers } from './memory';
import { callCredentialHandlers } from './call-credentials';
import { badgeHandlers, badgeImportKind } from '../badges';
import { historyHandlers } from './history';
import { membersImportKind } from './members-import';
import { catalogueHandlers, enrolmentImportKind, suggestionImportKind } from '../catalogue';
import { mentorBulkHandlers, mentorBulkKind } from './mentor-bulk';
import { EvalRunStore } from './eval-run-store';
import { mentorEvalHandlers, mentorEvalKind } from './mentor-evals';
import { singleRecordHandlers } from './single';
import { SnapshotStore } from './snapshot-store';
import { ErasureStore, personHandlers } from './person';
import { licencesArea } from '../licences';

export { SnapshotStore };

export type { ImportServices } from './import';
export type { MembersRow } from './members-import';

export interface ResourceStores {
  cache: ResourceCache;
  snapshots: SnapshotStore;
  evalRuns: EvalRunStore;
  erasures: ErasureStore;
  /** Answers kept per tenant to stand in offline (the Credentials area's badges and assertions, the LLM access). */
  answers: AnswerCache;
}

/** The resource kit's table, opened by the engine on its database. */
export function resourceStores(
  db: Db,
  services: Pick<EngineServices, 'emit' | 'log'>,
  tenants: TenantIdentity,
): ResourceStores {
  return {
    cache: new ResourceCache(db, services.log, tenants),
    snapshots: new SnapshotStore(db),
    evalRuns: new EvalRunStore(db),
    erasures: new ErasureStore(db),
    answers: new AnswerCache(db, services),
  };
}

export function resourcesArea(
  services: ResourceServices & ImportServices,
  stores: ResourceStores,
): EngineArea<HandlersOf<typeof resourceCalls>> {
  const { close, ...handlers } = resourceHandlers(services, stores.cache, stores.answers);
  services.runner.register(
    resourceImportKind({
      profiles: services.profiles,
      cache: stores.cache,
      changed: (profileId, kind) => services.emit('resources.changed', { profileId, kind }),
    }),
  );
  const { save, storedKey, ...single } = singleRecordHandlers(services, stores.cache, stores.snapshots);
  services.runner.register(
    membersImportKind({
      profiles: services.profiles,
      // The saved members (and groups' counts) are old now: the next read of either reads it again.
      changed: (profileId, kind) => {
        stores.cache.markChanged(profileId, kind);
        services.emit('resources.changed', { profileId, kind });
      },
    }),
  );
  services.runner.register(
    enrolmentImportKind({
      profiles: services.profiles,
      changed: (profileId, kind) => services.emit('resources.changed', { profileId, kind }),
    }),
  );
  services.runner.register(
    suggestionImportKind({
      profiles: services.profiles,
      changed: (profileId, kind) => services.emit('resources.changed', { profileId, kind }),
    }),
  );
  services.runner.register(mentorBulkKind({ services, cache: stores.cache, snapshots: stores.snapshots }));
  services.runner.register(mentorEvalKind({ services, runs: stores.evalRuns }));
  services.runner.register(badgeImportKind({ profiles: services.profiles }));
  return {
    handlers: {
      ...handlers,
      ...single,
      ...accessHandlers(services, stores.cache),
      ...peopleHandlers(services, stores.cache),
      ...memoryHandlers(services),
      ...callCredentialHandlers(services),
      ...badgeHandlers(services, stores.answers),
      ...historyHandlers(services, stores.cache, stores.snapshots, save, storedKey),
      'resources.import': (input) => resourceImport(services, input),
      ...mentorBulkHandlers(services, stores.cache, single['resources.getSingle'], storedKey),
      ...mentorEvalHandlers(services, stores.evalRuns),
      ...personHandlers(services, stores.cache, stores.erasures),
      ...licencesArea(services, stores.answers),
      ...catalogueHandlers(services),
    },
    close,
  };
}
