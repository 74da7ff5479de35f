/**
 * resources.history|historyDiff|revert: the local snapshots of single records that keep a history (a mentor's
 * settings). Snapshots are per tenant connection and parent: another tenant's are never listed, compared or saved.
 */
import type { resourceCalls } from '../../../shared/contract';
import {
  declarationOf,
  recordDiff,
  revertValues,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import type { ResourceCache } from './cache';
import type { ResourceServices } from './handlers';
import type { SaveSingle } from './single';
import type { SnapshotStore } from './snapshot-store';

type HistoryHandlers = Pick<
  HandlersOf<typeof resourceCalls>,
  'resources.history' | 'resources.historyDiff' | 'resources.revert'
>;

export function historyHandlers(
  ctx: Pick<ResourceServices, 'tenant'>,
  cache: ResourceCache,
  snapshots: SnapshotStore,
  save: SaveSingle,
  storedKey: (profileId: string, declaration: ResourceDeclaration, key: string) => string | undefined,
): HistoryHandlers {
  const keyed = (kind: ResourceKind) => {
    const declaration = declarationOf(kind);
    if (!declaration.history || !declaration.keyedBy) {
      throw new EngineError('validation', `${declaration.label} keep no history`);
    }
    return declaration;
  };
  /** The parent's history key: its own id as its cached record names it (a mentor named by slug finds its history). */
  const parentOf = (profileId: string, kind: ResourceKind, key: string) => storedKey(profileId, keyed(kind), key)!;
  const currentOf = (profileId: string, kind: ResourceKind, key: string) =>
    cache.single(profileId, kind, parentOf(profileId, kind, key))?.record ?? null;
  const snapshotOf = (profileId: string, kind: ResourceKind, key: string, id: number) => {
    const found = snapshots.find(profileId, kind, parentOf(profileId, kind, key), id);
    if (!found)
      throw new EngineError('not_found', `No snapshot ${id} of these ${declarationOf(kind).label.toLowerCase()}`);
    return found;
  };

  return {
    'resources.history': ({ profileId: given, kind, key }) => {
      const profileId = ctx.tenant(given);
      const list = snapshots.list(profileId, kind, parentOf(profileId, kind, key));
      return { snapshots: list.map(({ record: _record, ...summary }) => summary) };
    },

    'resources.historyDiff': ({ profileId: given, kind, key, from, to }) => {
      const profileId = ctx.tenant(given);
      const declaration = keyed(kind);
      const before = snapshotOf(profileId, kind, key, from).record;
      const after = to === 'current' ? currentOf(profileId, kind, key) : snapshotOf(profileId, kind, key, to).record;
      if (!after)
        throw new EngineError('not_found', `Nothing is cached of these ${declaration.label.toLowerCase()} yet`);
      return { changes: recordDiff(declaration, before, after) };
    },

    'resources.revert': async ({ profileId: given, kind, key, snapshotId }) => {
      const profileId = ctx.tenant(given);
      const declaration = keyed(kind);
      const snapshot = snapshotOf(profileId, kind, key, snapshotId);
      const current = currentOf(profileId, kind, key) ?? {};
      const { values, skipped } = revertValues(declaration, snapshot.record, current);
      if (Object.keys(values).length === 0) {
        throw new EngineError(
          'validation',
          `Nothing to revert: these ${declaration.label.toLowerCase()} are as that snapshot keeps them`,
        );
      }
      const { record } = await save(profileId, declaration, key, values, snapshotId);
      return { record, changed: Object.keys(values), skipped };
    },
  };
}
