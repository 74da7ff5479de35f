/**
 * The resource kit's engine part: the generic calls over every declared kind (src/shared/resources/), one typed
 * platform call per declared operation, and the per-tenant cache of their lists.
 */
import type { resourceCalls } from '../../../shared/contract';
import type { EngineArea, EngineContext } from '../context';
import type { HandlersOf } from '../dispatch';
import { ResourceCache } from './cache';
import { resourceHandlers } from './handlers';

export function resourcesArea(ctx: EngineContext): EngineArea<HandlersOf<typeof resourceCalls>> {
  const { close, ...handlers } = resourceHandlers(ctx, new ResourceCache(ctx.db, ctx.log));
  return { handlers, close };
}
