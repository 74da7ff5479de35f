/**
 * Bulk changes of a kind's records ('resource-bulk' jobs): delete, a named action, or one set of field values
 * (`update`: a record already holding them counts as unchanged and is not sent), over many records as one
 * journalled job of the one runner. Each record is an item keyed by its id, so a run after a crash or a pause does
 * only what is left; a record the platform no longer has counts as done (what was asked for is true). Unreachable
 * or rate-limited: the runner waits and retries by itself; a refusal of one record fails that item only.
 */
import type { Job } from '../../../shared/contract';
import {
  declarationOf,
  editableBody,
  isResourceKind,
  pluralOf,
  type NamedAction,
  type RecordOperation,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { EngineServices } from '../context';
import { EngineError, invalid } from '../errors';
import { JobFailed, type ItemReport, type JobContext, type JobKindRunner } from '../jobs';
import { ApiError, isTransient } from '../platform';
import { userScope } from '../tenants';
import { addressOf, keyFieldOf } from './address';
import { ResourceApi } from './api';
import { keptFields, type ResourceCache } from './cache';
import { explain } from './explain';

export interface BulkParams {
  kind: ResourceKind;
  action: string;
  /** For `update`: the fields set on every record, checked by the spec's rules before the job was written. */
  values?: Row;
}

/** The phase of an item whose record was not there any more: done, as asked. */
export const ALREADY_GONE = 'already gone';

type Row = Record<string, unknown>;

/** The operation a bulk action sends for each record, or why it cannot. */
export function bulkOperation(
  declaration: ResourceDeclaration,
  action: string,
): { operation: RecordOperation; named: NamedAction | null } {
  if (action === 'delete') {
    const operation = declaration.operations.delete;
    if (!operation) throw invalid('action', `The platform offers no way to delete a ${declaration.singular}`);
    return { operation, named: null };
  }
  if (action === 'update') {
    const operation = declaration.operations.update;
    if (!operation || !('id' in operation)) {
      throw invalid('action', `The platform offers no way to change a ${declaration.singular}`);
    }
    return { operation, named: null };
  }
  const named = declaration.actions?.[action];
  if (!named) {
    const offered = ['delete', 'update', ...Object.keys(declaration.actions ?? {})].filter(
      (name) =>
        (name !== 'delete' || declaration.operations.delete) && (name !== 'update' || declaration.operations.update),
    );
    throw invalid('action', `${pluralOf(declaration)} have no action '${action}' (actions: ${offered.join(', ')})`);
  }
  return { operation: named, named };
}

/** In words: "Delete 3 LTI keys", "Revoke 1 API token". */
export function bulkTitle(declaration: ResourceDeclaration, action: string, count: number): string {
  const verb =
    action === 'delete'
      ? (declaration.deleteLabel ?? 'Delete')
      : action === 'update'
        ? 'Change'
        : (declaration.actions?.[action]?.label ?? action);
  return `${verb} ${count} ${count === 1 ? declaration.singular : pluralOf(declaration)}`;
}

/** The per-record report (jobs.exportReport): which record, and what became of it. */
const report: ItemReport = {
  header: ['id', 'name', 'outcome', 'error', 'attempts'],
  row: (item) => [
    item.key,
    item.label,
    item.state === 'done' ? item.phase : item.state === 'failed' ? 'failed' : item.state,
    item.error ?? '',
    item.attempts,
  ],
};

export function bulkJobKind(deps: {
  services: Pick<EngineServices, 'profiles' | 'emit'>;
  cache: ResourceCache;
  /** A write to the kind's list on this tenant: a refresh that started before must not store what it read. */
  changed(profileId: string, kind: ResourceKind): void;
}): JobKindRunner {
  return {
    kind: 'resource-bulk',
    report,
    async run(ctx: JobContext) {
      const { kind, action, values = {} } = ctx.params as BulkParams;
      const profileId = ctx.job.profile_id;
      if (!profileId) throw new JobFailed('This job has no tenant connection (it was removed)');
      if (!isResourceKind(kind)) throw new JobFailed(`No kind '${String(kind)}' in this version of Mentor Admin`);
      const declaration = declarationOf(kind);
      let plan: ReturnType<typeof bulkOperation>;
      try {
        plan = bulkOperation(declaration, action);
      } catch (error) {
        throw new JobFailed((error as Error).message);
      }
      const api = new ResourceApi(await ctx.client(), await userScope(deps.services.profiles, profileId));
      const items = ctx.journal.itemsIn(ctx.job.id, ['pending', 'active']);
      if (!items.length) return;
      // Said before the first request: a list read that started earlier is not stored over these changes.
      deps.changed(profileId, kind);
      ctx.progress(bulkTitle(declaration, action, items.length));
      let stopped: unknown = null;
      try {
        await Promise.all(
          items.map((item) =>
            ctx.limiter.run(async () => {
              if (stopped || ctx.signal.aborted) return;
              ctx.journal.updateItem(item.id, { state: 'active', phase: 'sending', attempt: true, error: null });
              try {
                if (action === 'update') {
                  const outcome = await updateOne(
                    api,
                    deps.cache,
                    profileId,
                    declaration,
                    item.key,
                    values,
                    ctx.signal,
                  );
                  ctx.journal.updateItem(item.id, { state: 'done', phase: outcome });
                  ctx.journal.addCounts(ctx.job.id, { [outcome]: 1 });
                  ctx.progress();
                  return;
                }
                const address = addressOf(deps.cache, profileId, declaration, plan.operation, item.key);
                const answer = await api.send(declaration, plan.operation, address, { signal: ctx.signal });
                if (plan.named) {
                  const record =
                    answer && typeof answer === 'object' && !Array.isArray(answer) && declaration.idField in answer
                      ? keptFields(declaration, answer as Row)
                      : null;
                  if (record) deps.cache.put(profileId, declaration, record);
                } else deps.cache.remove(profileId, kind, item.key);
                ctx.journal.updateItem(item.id, { state: 'done', phase: action === 'delete' ? 'deleted' : 'done' });
                ctx.journal.addCounts(ctx.job.id, { [action === 'delete' ? 'deleted' : 'done']: 1 });
              } catch (error) {
                const gone = action === 'delete' || !!plan.named?.destructive;
                if (error instanceof ApiError && error.status === 404 && gone) {
                  deps.cache.remove(profileId, kind, item.key);
                  ctx.journal.updateItem(item.id, { state: 'done', phase: ALREADY_GONE });
                  ctx.journal.addCounts(ctx.job.id, { gone: 1 });
                } else if (
                  ctx.signal.aborted ||
                  isTransient(error) ||
                  (error instanceof ApiError && error.status === 401)
                ) {
                  // The runner waits (or pauses) and runs what is left again.
                  stopped ??= error;
                } else {
                  const explained = explain(error, declaration, item.key);
                  const message = explained instanceof Error ? explained.message : String(explained);
                  ctx.journal.updateItem(item.id, { state: 'failed', phase: 'refused', error: message });
                }
              }
              ctx.progress();
            }, ctx.signal),
          ),
        );
      } finally {
        deps.changed(profileId, kind);
      }
      if (stopped) throw stopped;
    },
  };
}

/** Whether a record already holds a value: the same JSON (an id typed as text is not the number it names). */
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Sets `values` on one record: read as the platform has it now (the cache for a kind it cannot read one by one),
 * left alone when it already holds them, else sent (a PUT with the rest of the record as it is) and cached.
 */
async function updateOne(
  api: ResourceApi,
  cache: ResourceCache,
  profileId: string,
  declaration: ResourceDeclaration,
  id: string,
  values: Row,
  signal: AbortSignal,
): Promise<'updated' | 'unchanged'> {
  const operation = declaration.operations.update as RecordOperation;
  const current = declaration.operations.get
    ? keptFields(declaration, await api.get(declaration, id, { signal }))
    : cache.find(profileId, declaration.kind, id);
  if (current && Object.entries(values).every(([field, value]) => same(current[field], value))) return 'unchanged';
  const editable = editableBody(declaration, operation)?.properties ?? {};
  const body =
    operation.method === 'put' || keyFieldOf(operation)
      ? {
          ...Object.fromEntries(Object.entries(current ?? {}).filter(([name]) => name in editable)),
          ...values,
        }
      : values;
  const address = addressOf(cache, profileId, declaration, operation, id, current ?? undefined);
  const answer = await api.send(declaration, operation, { ...address, values: body }, { signal });
  if (answer && typeof answer === 'object' && !Array.isArray(answer) && declaration.idField in answer) {
    cache.put(profileId, declaration, keptFields(declaration, answer as Row));
  }
  return 'updated';
}

/** Starts a bulk job over `ids` (each once, in the order given) and answers it as the runner presents it. */
export function startBulk(
  services: Pick<EngineServices, 'journal' | 'runner' | 'profiles'>,
  cache: ResourceCache,
  input: { profileId: string; kind: ResourceKind; action: string; ids: string[]; values?: Row },
): Job {
  const declaration = declarationOf(input.kind);
  bulkOperation(declaration, input.action);
  const ids = [...new Set(input.ids)];
  const labelOf = (id: string) => {
    const record = cache.find(input.profileId, input.kind, id);
    const name = record?.name ?? record?.[declaration.idField];
    return typeof name === 'string' || typeof name === 'number' ? String(name) : id;
  };
  const jobId = services.journal.create({
    kind: 'resource-bulk',
    profileId: input.profileId,
    title: `${bulkTitle(declaration, input.action, ids.length)} on ${services.profiles.nameOf(input.profileId)}`,
    params: {
      kind: input.kind,
      action: input.action,
      ...(input.action === 'update' && { values: input.values ?? {} }),
    } satisfies BulkParams,
    items: ids.map((id) => ({ key: id, label: labelOf(id) })),
  });
  if (!services.runner.start(jobId)) throw new EngineError('internal', 'The bulk job could not be started here');
  return services.runner.present(jobId);
}
