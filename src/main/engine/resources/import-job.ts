/**
 * The `resource-import` job: creates or updates a kind's records, one journal item per CSV row, by the kind's id.
 * A record that exists and equals the row is "unchanged" (nothing sent); one that differs is updated (when the
 * platform has an update call); otherwise the row creates it. Kinds the platform lists are read once at the start;
 * kinds it cannot list (the domain whitelist) are created first and looked up only when the platform answers that
 * the id exists, so a new record costs one request, as a bare POST would.
 *
 * Idempotent on resume: items are marked `sending` (a chunk in one transaction) before their requests, and settled
 * with their outcome and the job's counts in one transaction after. A run that stopped between the two leaves them
 * `sending`: each is looked up before anything is sent again, and a record the platform has as the row says counts
 * as created by this import.
 */
import { setMaxListeners } from 'node:events';
import type { Job } from '../../../shared/contract';
import {
  declarationOf,
  editableBody,
  withoutSecrets,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import { EngineError } from '../errors';
import type { ItemReport, ItemRow, JobContext, JobKindRunner } from '../jobs';
import { ApiError, isTransient, RequestAbortedError } from '../platform';
import type { Profiles } from '../profiles';
import { userScope } from '../tenants';
import { addressOf, keyFieldOf } from './address';
import { ResourceApi } from './api';
import { keptFields, recordId, type ResourceCache } from './cache';
import { drfIssues, explain } from './explain';

type Row = Record<string, unknown>;

export interface ResourceImportParams {
  kind: ResourceKind;
  fileName: string;
  fileSha256: string;
  rows: number;
}

export type ImportItemData = {
  line: number;
  id: string | null;
  /** The row's fields, typed as the spec's request schema types them. */
  values: Row;
  message?: string;
};

export const IMPORT_OUTCOMES = ['created', 'updated', 'unchanged', 'invalid', 'failed', 'dropped'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

const SENDING = 'sending';
/** Items marked sending, and settled, per transaction. */
const CHUNK = 200;

interface Result {
  item: ItemRow;
  outcome: ImportOutcome;
  message?: string;
  record?: Row;
}

/** The row's fields all equal the record's: nothing to send. */
function sameAs(values: Row, record: Row): boolean {
  return Object.entries(values).every(([field, value]) => JSON.stringify(record[field]) === JSON.stringify(value));
}

/** The platform's "already exists" for the id field (DRF's unique validator): the record is there already. */
function alreadyExists(error: unknown, declaration: ResourceDeclaration): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  return drfIssues(error.body).some(
    (issue) => issue.path === declaration.idField && /already exists/i.test(issue.message),
  );
}

/** Errors that end this run (the runner waits for the tenant, or pauses for the admin); the rest fail their row. */
function endsRun(error: unknown): boolean {
  return (
    error instanceof RequestAbortedError ||
    isTransient(error) ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

export function resourceImportKind(deps: {
  profiles: Profiles;
  cache: ResourceCache;
  changed: (profileId: string, kind: ResourceKind) => void;
  finished?: (job: Job) => void;
}): JobKindRunner {
  return {
    kind: 'resource-import',
    bulkWrites: true,
    report: importReport,
    ...(deps.finished && { finished: deps.finished }),
    async run(ctx: JobContext) {
      const params = ctx.params as ResourceImportParams;
      const declaration = declarationOf(params.kind);
      const profileId = ctx.job.profile_id ?? '';
      const { journal } = ctx;
      const api = new ResourceApi(await ctx.client(), await userScope(deps.profiles, profileId));
      const options = { signal: ctx.signal };
      // A chunk's rows wait for a slot, and their requests and retries, on the one signal.
      setMaxListeners(CHUNK * 2 + 32, ctx.signal);
      /** The platform gives the id (an LTI key's number): a row's id names a record to update, never one to create. */
      const givenId =
        editableBody(declaration, declaration.operations.create!)?.properties?.[declaration.idField] !== undefined;

      ctx.progress(`Reading the ${declaration.plural ?? declaration.label}`);
      /** Every record the platform has, by id, for kinds it lists; null: looked up one by one when needed. */
      const existing = declaration.operations.list
        ? new Map((await api.list(declaration, options)).map((record) => [recordId(declaration, record), record]))
        : null;

      const lookUp = async (id: string): Promise<Row | null> => {
        if (existing) return existing.get(id) ?? null;
        if (!declaration.operations.get) return null;
        try {
          return await api.get(declaration, id, options);
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      };

      const update = async (id: string, values: Row, current: Row): Promise<Row> => {
        const operation = declaration.operations.update!;
        // A PUT replaces the record: what the row does not give is sent as it is now.
        const editable = editableBody(declaration, operation)?.properties ?? {};
        const kept = Object.fromEntries(Object.entries(current).filter(([name]) => name in editable));
        const body = operation.method === 'put' || keyFieldOf(operation) ? { ...kept, ...values } : values;
        const address = addressOf(deps.cache, profileId, declaration, operation, id, current);
        return (await api.send(declaration, operation, { ...address, values: body }, options)) as Row;
      };

      const differs = (current: Row, values: Row): Promise<Result['outcome'] | Row> =>
        sameAs(values, current)
          ? Promise.resolve('unchanged' as const)
          : declaration.operations.update
            ? update(recordId(declaration, current), values, current)
            : Promise.reject(
                new EngineError(
                  'validation',
                  `The platform has this ${declaration.singular} with other values and offers no way to change one`,
                ),
              );

      const apply = async (item: ItemRow): Promise<Result> => {
        const data = JSON.parse(item.data) as ImportItemData;
        const { id, values } = data;
        try {
          if (item.phase === SENDING) {
            // An earlier run may have sent it: what the platform has decides, and nothing is sent twice.
            if (id === null) {
              return {
                item,
                outcome: 'failed',
                message:
                  'The import stopped while this row was being sent: look whether it was created before importing it again',
              };
            }
            const current = await lookUp(id);
            if (current && sameAs(values, current)) {
              return { item, outcome: 'created', message: 'Sent before the import was interrupted', record: current };
            }
          }
          const current = id === null ? null : existing ? (existing.get(id) ?? null) : undefined;
          if (current === null && id !== null && !givenId) {
            return {
              item,
              outcome: 'invalid',
              message: `No ${declaration.singular} "${id}" on this tenant: leave its ${declaration.idField} empty to create one`,
            };
          }
          if (current) {
            const answer = await differs(current, values);
            return typeof answer === 'string'
              ? { item, outcome: answer }
              : { item, outcome: 'updated', record: answer };
          }
          try {
            const record = (await api.send(declaration, declaration.operations.create!, { values }, options)) as Row;
            return { item, outcome: 'created', record };
          } catch (error) {
            // Not listed: the platform says whether it has the id already, then it is looked up and compared.
            if (current !== undefined || id === null || !alreadyExists(error, declaration)) throw error;
            const found = await lookUp(id);
            if (!found) throw error;
            const answer = await differs(found, values);
            return typeof answer === 'string'
              ? { item, outcome: answer }
              : { item, outcome: 'updated', record: answer };
          }
        } catch (error) {
          if (endsRun(error)) throw error;
          const explained = explain(error, declaration, id ?? undefined);
          const message = explained instanceof Error ? explained.message : String(explained);
          const refused = error instanceof ApiError && error.status === 400;
          return { item, outcome: refused ? 'invalid' : 'failed', message };
        }
      };

      /** Outcomes, counts and the cached records in one transaction: a kill -9 never separates them. */
      const settle = (results: Result[]) => {
        if (!results.length) return;
        const counts: Record<string, number> = {};
        const at = new Date().toISOString();
        journal.transaction(() => {
          for (const { item, outcome, message, record } of results) {
            counts[outcome] = (counts[outcome] ?? 0) + 1;
            journal.updateItem(item.id, {
              state: outcome === 'failed' ? 'failed' : outcome === 'invalid' ? 'skipped' : 'done',
              phase: outcome,
              error: outcome === 'failed' ? (message ?? 'Failed') : null,
              ...(message && outcome !== 'failed' && { data: { message } }),
            });
            // A write's answer may echo a secret in full (a credential's value): it is never cached.
            if (record)
              deps.cache.put(profileId, declaration, withoutSecrets(declaration, keptFields(declaration, record)), at);
          }
          journal.addCounts(ctx.job.id, counts);
        });
        deps.changed(profileId, params.kind);
      };

      const pending = journal.itemsIn(ctx.job.id, ['pending', 'active']);
      ctx.progress(`Importing ${declaration.plural ?? declaration.label}`);
      for (let start = 0; start < pending.length; start += CHUNK) {
        if (ctx.signal.aborted) break;
        const chunk = pending.slice(start, start + CHUNK);
        const fresh = chunk.filter((item) => item.phase !== SENDING).map((item) => item.id);
        journal.updateItems(fresh, { phase: SENDING });
        const settled = await Promise.allSettled(chunk.map((item) => ctx.limiter.run(() => apply(item), ctx.signal)));
        const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        settle(done);
        ctx.progress();
        const stop = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        // The rows of this chunk that got no answer stay `sending`: the next run looks them up first.
        if (stop) throw stop.reason;
      }
    },
  };
}

const RESULTS: Record<string, string> = {
  created: 'created',
  updated: 'updated',
  unchanged: 'unchanged',
  invalid: 'invalid',
  dropped: 'dropped',
  failed: 'failed',
};

/** One line per input row, in file order (the journal's CSV writer makes every cell safe for spreadsheets). */
export const importReport: ItemReport = {
  header: ['row', 'id', 'result', 'message'],
  row(item) {
    const data = JSON.parse(item.data) as ImportItemData;
    const result =
      item.state === 'pending' || item.state === 'active' ? 'not sent' : (RESULTS[item.phase] ?? item.phase);
    return [data.line, data.id ?? '', result, item.error ?? data.message ?? ''];
  },
};
