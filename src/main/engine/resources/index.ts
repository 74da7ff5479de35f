/**
 * The resource kit's engine part: the generic calls over every declared kind (src/shared/resources/), one typed
 * platform call per declared operation, the per-tenant cache of their lists, and CSV import as a job.
 */
import type { resourceCalls } from '../../../shared/contract';
import type { EngineArea } from '../context';
import type { HandlersOf } from '../dispatch';
import type { Log } from '../log';
import type { Db } from '../store';
import { ResourceCache } from './cache';
import { resourceHandlers, type ResourceServices } from './handlers';
import { resourceImport, type ImportServices } from './import';
import { resourceImportKind } from './import-job';
import { membersImportKind } from './members-import';
import { singleRecordHandlers } from './single';

export interface ResourceStores {
  cache: ResourceCache;
}

/** The resource kit's table, opened by the engine on its database. */
export function resourceStores(db: Db, log: Log): ResourceStores {
  return { cache: new ResourceCache(db, log) };
}

export function resourcesArea(
  services: ResourceServices & ImportServices,
  stores: ResourceStores,
): EngineArea<HandlersOf<typeof resourceCalls>> {
  const { close, ...handlers } = resourceHandlers(services, stores.cache);
  services.runner.register(
    resourceImportKind({
      profiles: services.profiles,
      cache: stores.cache,
      changed: (profileId, kind) => services.emit('resources.changed', { profileId, kind }),
    }),
  );
  services.runner.register(
    membersImportKind({
      profiles: services.profiles,
      changed: (profileId, kind) => services.emit('resources.changed', { profileId, kind }),
    }),
  );
  return {
    handlers: {
      ...handlers,
      ...singleRecordHandlers(services, stores.cache),
      'resources.import': (input) => resourceImport(services, input),
    },
    close,
  };
}
