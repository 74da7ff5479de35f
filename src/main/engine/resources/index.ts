/**
 * The resource kit's engine part: the generic calls over every declared kind (src/shared/resources/), one typed
 * platform call per declared operation, and the per-tenant cache of their lists.
 */
import type { resourceCalls } from '../../../shared/contract';
import type { EngineArea } from '../context';
import type { HandlersOf } from '../dispatch';
import type { Log } from '../log';
import type { Db } from '../store';
import { ResourceCache } from './cache';
import { resourceHandlers, type ResourceServices } from './handlers';
import { singleRecordHandlers } from './single';

export interface ResourceStores {
  cache: ResourceCache;
}

/** The resource kit's table, opened by the engine on its database. */
export function resourceStores(db: Db, log: Log): ResourceStores {
  return { cache: new ResourceCache(db, log) };
}

export function resourcesArea(
  services: ResourceServices,
  stores: ResourceStores,
): EngineArea<HandlersOf<typeof resourceCalls>> {
  const { close, ...handlers } = resourceHandlers(services, stores.cache);
  return { handlers: { ...handlers, ...singleRecordHandlers(services, stores.cache) }, close };
}
