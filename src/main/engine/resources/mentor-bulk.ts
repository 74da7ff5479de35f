/**
 * Settings across many mentors: mentors.bulkPreview (each mentor's before and after, nothing sent), mentors.bulkSet
 * (the change as one journalled `mentor-bulk-set` job of the one runner) and mentors.diff (two mentors side by side).
 *
 * Each mentor is an item keyed by its unique id. Before its PUT an item is marked `sending`, committed: a run after
 * a crash reads such a mentor again and counts it done when it already holds the values, so nothing is applied twice.
 * Every mentor changed is kept in its local history like a save from its page (so it can be reverted there); one the
 * platform refuses fails that item only.
 */
import { createHash } from 'node:crypto';
import type { MentorBulkPreviewRow, resourceCalls } from '../../../shared/contract';
import {
  fieldValue,
  formSchema,
  mentorSettings,
  sameValue,
  writtenValue,
  type FieldChange,
  type FieldDeclaration,
  type ResourceDeclaration,
} from '../../../shared/resources';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import {
  JobFailed,
  UNFINISHED_STATES,
  type ItemReport,
  type ItemRow,
  type JobContext,
  type JobKindRunner,
} from '../jobs';
import { ApiError, isTransient } from '../platform';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import { KeptRecord, keptFields, type ResourceCache } from './cache';
import { explain, invalidValues } from './explain';
import type { ResourceServices } from './handlers';
import { historyKey } from './single';
import type { SnapshotStore } from './snapshot-store';

type Row = Record<string, unknown>;
type BulkHandlers = Pick<HandlersOf<typeof resourceCalls>, 'mentors.bulkPreview' | 'mentors.bulkSet' | 'mentors.diff'>;
type GetSingle = HandlersOf<typeof resourceCalls>['resources.getSingle'];

export const MENTOR_BULK_KIND = 'mentor-bulk-set';
/** Settings cached more recently than this (a preview just read them) are what a mentor is compared with. */
export const BULK_FRESH_MS = 10 * 60_000;
/**
 * Mentors marked `sending` in one write (a commit of its own), ahead of their PUTs. After a crash each is read again
 * before anything is sent to it: a few more reads then, against a commit per 16 mentors in every run.
 */
const MARK_AHEAD = 50;
/**
 * Finished mentors are written together: this many, or this often (as often as a job's progress is shown). A write
 * of many rewrites each page it touches once (the history's index, the items, the freshness rows): 32 at a time
 * wrote a third more pages per mentor than 100.
 */
const SETTLE_BATCH = 100;
const SETTLE_EVERY_MS = 250;
/** Settings reads in flight at once for a preview or a diff. */
const READS_AT_ONCE = 4;

const declaration: ResourceDeclaration = mentorSettings;
const KIND = mentorSettings.kind;

export interface MentorBulkParams {
  values: Row;
  /** The change's mentors and values: an unfinished job with the same one is resumed, never started twice. */
  signature: string;
}

/** The values as the settings PUT takes them, checked by the spec's rules; only the kind's own form fields. */
export function checkBulkValues(values: Row): Row {
  const names = Object.keys(values);
  if (!names.length) throw new EngineError('validation', 'Nothing to change: name a setting and its value');
  const unknown = names.filter((name) => !declaration.fields.some((field) => field.name === name && !field.own));
  if (unknown.length) {
    throw new EngineError('validation', `Not a setting of mentors: ${unknown.join(', ')}`, {
      issues: unknown.map((path) => ({ path, message: 'Not a setting of mentors' })),
    });
  }
  const parsed = formSchema(declaration, declaration.operations.update ?? null, 'update').safeParse(values);
  if (!parsed.success) throw invalidValues(declaration, parsed.error);
  return Object.fromEntries(Object.entries(parsed.data as Row).filter(([, value]) => value !== undefined));
}

/** A field's value as the PUT takes it (only lists change shape: the spec is looked up for those alone). */
const written = (field: FieldDeclaration, value: unknown) =>
  Array.isArray(value) ? writtenValue(declaration, field, value) : value;

/** What setting `values` changes on a mentor's settings `record`: each field that holds something else now. */
export function bulkChanges(record: Row, values: Row): FieldChange[] {
  return Object.entries(values).flatMap(([name, after]) => {
    const field = declaration.fields.find((f) => f.name === name)!;
    const before = written(field, fieldValue(field, record));
    return sameValue(before, after) ? [] : [{ field: name, label: field.label, before: before ?? null, after }];
  });
}

/** Two mentors' settings, every field of the kind that differs (as the settings PUT would take them). */
export function settingsDiff(a: Row, b: Row): FieldChange[] {
  return declaration.fields.flatMap((field) => {
    if (field.own) return [];
    const before = written(field, fieldValue(field, a));
    const after = written(field, fieldValue(field, b));
    if (before === undefined && after === undefined) return [];
    return sameValue(before, after) ? [] : [{ field: field.name, label: field.label, before, after }];
  });
}

const nameOf = (record: Row | undefined, fallback: string) =>
  typeof record?.mentor_name === 'string' && record.mentor_name ? record.mentor_name : fallback;

const signatureOf = (mentors: readonly string[], values: Row) =>
  createHash('sha256')
    .update(JSON.stringify([[...mentors].sort(), Object.entries(values).sort(([a], [b]) => a.localeCompare(b))]))
    .digest('hex');

/** Runs `work` over `inputs`, `limit` at a time, answers in the inputs' order. */
async function pooled<T, R>(inputs: readonly T[], limit: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, inputs.length) }, async () => {
      while (next < inputs.length) {
        const index = next++;
        out[index] = await work(inputs[index]!);
      }
    }),
  );
  return out;
}

export function mentorBulkHandlers(
  ctx: ResourceServices,
  cache: ResourceCache,
  getSingle: GetSingle,
  storedKey: (profileId: string, declaration: ResourceDeclaration, key: string) => string | undefined,
): BulkHandlers {
  const settingsOf = async (profileId: string, mentor: string) => {
    const { record, freshness } = await getSingle({ profileId, kind: KIND, key: mentor });
    return { record, asOf: freshness.asOf };
  };

  return {
    'mentors.bulkPreview': async ({ profileId: given, mentors, values: asked }) => {
      const profileId = ctx.tenant(given);
      const values = checkBulkValues(asked);
      const rows = await pooled([...new Set(mentors)], READS_AT_ONCE, async (mentor): Promise<MentorBulkPreviewRow> => {
        try {
          const { record, asOf } = await settingsOf(profileId, mentor);
          return {
            mentor: historyKey(declaration, mentor, record),
            name: nameOf(record, mentor),
            changes: bulkChanges(record, values),
            error: null,
            asOf,
          };
        } catch (error) {
          const cached = cache.single(profileId, KIND, storedKey(profileId, declaration, mentor))?.record;
          return {
            mentor,
            name: nameOf(cached, mentor),
            changes: [],
            error: error instanceof Error ? error.message : String(error),
            asOf: null,
          };
        }
      });
      return { mentors: rows };
    },

    'mentors.bulkSet': ({ profileId: given, mentors, values: asked }) => {
      const profileId = ctx.tenant(given);
      const values = checkBulkValues(asked);
      // A mentor cached under the name given (its unique id, as the Mentors list gives it) needs no look-up; only its
      // name is read here (the job reads its settings).
      const cached = cache.singleFields(profileId, KIND, mentors, 'mentor_name');
      const keyOf = (mentor: string) =>
        cached.has(mentor) ? mentor : (storedKey(profileId, declaration, mentor) ?? mentor);
      const keys = [...new Set(mentors.map(keyOf))];
      const signature = signatureOf(keys, values);
      const { journal, runner } = ctx;
      const [unfinished] = journal.find({
        kind: MENTOR_BULK_KIND,
        profileId,
        states: UNFINISHED_STATES,
        params: { signature },
      });
      if (unfinished) {
        runner.start(unfinished.id);
        return { job: runner.present(unfinished.id), resumed: true };
      }
      const labels = Object.keys(values).map((name) => declaration.fields.find((f) => f.name === name)!.label);
      const jobId = journal.create({
        kind: MENTOR_BULK_KIND,
        profileId,
        title: `Change ${labels.join(', ')} on ${keys.length} ${keys.length === 1 ? 'mentor' : 'mentors'} (${ctx.profiles.nameOf(profileId)})`,
        params: { values, signature } satisfies MentorBulkParams,
        items: keys.map((key) => ({
          key,
          label: nameOf(
            cached.has(key) ? { mentor_name: cached.get(key) } : cache.single(profileId, KIND, key)?.record,
            key,
          ),
        })),
      });
      if (!runner.start(jobId)) throw new EngineError('internal', 'The bulk change could not be started here');
      return { job: runner.present(jobId), resumed: false };
    },

    'mentors.diff': async ({ profileId: given, a, b }) => {
      const profileId = ctx.tenant(given);
      const [left, right] = await pooled([a, b], 2, (mentor) => settingsOf(profileId, mentor));
      const side = (mentor: string, record: Row) => ({
        mentor: historyKey(declaration, mentor, record),
        name: nameOf(record, mentor),
      });
      return {
        a: side(a, left!.record),
        b: side(b, right!.record),
        changes: settingsDiff(left!.record, right!.record),
      };
    },
  };
}

/** The per-mentor report (jobs.exportReport). */
const report: ItemReport = {
  header: ['mentor', 'name', 'outcome', 'error', 'attempts'],
  row: (item) => [
    item.key,
    item.label,
    item.state === 'done' ? item.phase : item.state === 'failed' ? 'refused' : item.state,
    item.error ?? '',
    item.attempts,
  ],
};

export function mentorBulkKind(deps: {
  services: Pick<ResourceServices, 'profiles' | 'emit'>;
  cache: ResourceCache;
  snapshots: SnapshotStore;
}): JobKindRunner {
  const { cache, snapshots } = deps;
  return {
    kind: MENTOR_BULK_KIND,
    report,
    // Each mentor writes its settings and a snapshot (a few kB each): checkpoints go off the engine's thread.
    bulkWrites: true,
    async run(ctx: JobContext) {
      const { values } = ctx.params as MentorBulkParams;
      const profileId = ctx.job.profile_id;
      if (!profileId) throw new JobFailed('This job has no tenant connection (it was removed)');
      const api = new ResourceApi(await ctx.client(), await userScope(deps.services.profiles, profileId));
      const items = ctx.journal.itemsIn(ctx.job.id, ['pending', 'active']);
      if (!items.length) return;
      ctx.progress(`Changing ${items.length} ${items.length === 1 ? 'mentor' : 'mentors'}`);
      const read = async (key: string) =>
        keptFields(
          declaration,
          (await api.send(declaration, declaration.operations.get!, { id: key }, { signal: ctx.signal })) as Row,
        );

      // Marked `sending` a few at a time, committed before the first of them is sent: one write for many mentors.
      let markedUpTo = 0;
      function markFrom(index: number) {
        if (index < markedUpTo) return;
        markedUpTo = Math.min(items.length, index + MARK_AHEAD);
        ctx.journal.updateItems(
          items.slice(index, markedUpTo).map((item) => item.id),
          { phase: 'sending' },
        );
      }

      // What each mentor became, written together (its cache, history and item): lost with a crash, it is found
      // again, since its item still says `sending`. One statement per table and outcome, in one transaction.
      let settled: Settled[] = [];
      function settle() {
        if (!settled.length) return;
        const batch = settled;
        settled = [];
        const kept = batch.flatMap(({ item, kept }) =>
          kept ? [{ ...kept, key: historyKey(declaration, item.key, kept.record.record) }] : [],
        );
        const byOutcome = new Map<Settled['outcome'], number[]>();
        for (const { item, outcome } of batch) byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), item.id]);
        ctx.journal.transaction(() => {
          cache.putSingles(profileId!, declaration, kept);
          snapshots.keepAll(
            profileId!,
            KIND,
            kept.map(({ key, before, record, changed }) => ({ key, before, after: record, changed })),
          );
          for (const [outcome, ids] of byOutcome)
            ctx.journal.updateItems(ids, { state: 'done', phase: outcome, error: null });
          ctx.journal.addCounts(
            ctx.job.id,
            Object.fromEntries([...byOutcome].map(([outcome, ids]) => [outcome, ids.length])),
          );
        });
      }
      const settling = setInterval(settle, SETTLE_EVERY_MS);
      // The mentors' settings as cached, read in one go: what each is compared with when young enough.
      const cachedNow = cache.singles(
        profileId,
        KIND,
        items.map((item) => item.key),
      );

      /** Sets the values on one mentor. */
      async function setOne(item: (typeof items)[number], index: number): Promise<Settled> {
        // Sent by a run that ended before it heard back: the platform says whether it took it.
        const inDoubt = item.phase === 'sending';
        const cached = cachedNow.get(item.key);
        const young = cached && Date.now() - Date.parse(cached.meta.checkedAt) < BULK_FRESH_MS;
        const current = !inDoubt && young ? cached.record : await read(item.key);
        const changes = Object.fromEntries(bulkChanges(current, values).map((c) => [c.field, c.after]));
        if (!Object.keys(changes).length) {
          if (!inDoubt) return { item, outcome: 'unchanged', kept: null };
          // The earlier run's PUT landed: kept in the history now, from the settings as they were cached before it.
          const kept = {
            before: cached?.record ?? null,
            record: KeptRecord.of(declaration, current),
            changed: Object.keys(values),
          };
          return { item, outcome: 'updated', kept };
        }
        markFrom(index);
        const answer = await api.send(
          declaration,
          declaration.operations.update!,
          { id: item.key, values: changes },
          { signal: ctx.signal },
        );
        // Kept as the cache keeps it (no write-only field): the same record and text go to the cache and the history.
        const record = KeptRecord.of(declaration, {
          ...current,
          ...(answer && typeof answer === 'object' ? (answer as Row) : {}),
        });
        return { item, outcome: 'updated', kept: { before: current, record, changed: Object.keys(changes) } };
      }

      let stopped: unknown = null;
      async function one(item: ItemRow, index: number) {
        if (stopped || ctx.signal.aborted) return;
        try {
          const outcome = await setOne(item, index);
          // Pushed after the await: a settle meanwhile starts a new list.
          settled.push(outcome);
          if (settled.length >= SETTLE_BATCH) settle();
        } catch (error) {
          if (ctx.signal.aborted || isTransient(error) || (error instanceof ApiError && error.status === 401)) {
            // The runner waits (or pauses) and runs what is left again.
            stopped ??= error;
          } else {
            const explained = explain(error, declaration, item.label);
            const message = explained instanceof Error ? explained.message : String(explained);
            ctx.journal.updateItem(item.id, { state: 'failed', phase: 'refused', error: message });
            ctx.journal.addCounts(ctx.job.id, { refused: 1 });
          }
        }
        ctx.progress();
      }
      try {
        // As many workers as the job may ever have requests at once, each taking the next mentor: the limiter holds
        // a few waiters, not one per mentor (hundreds of listeners on the job's signal).
        let next = 0;
        const worker = async () => {
          while (next < items.length && !stopped && !ctx.signal.aborted) {
            const index = next++;
            await ctx.limiter.run(() => one(items[index]!, index), ctx.signal);
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.limiter.ceiling, items.length)) }, worker));
      } finally {
        clearInterval(settling);
        settle();
        deps.services.emit('resources.changed', { profileId, kind: KIND });
        deps.services.emit('mentors.changed', { profileId });
      }
      if (stopped) throw stopped;
    },
  };
}

interface Settled {
  item: ItemRow;
  outcome: 'updated' | 'unchanged';
  /** What to keep in the cache and the mentor's history. */
  kept: { before: Row | null; record: KeptRecord; changed: string[] } | null;
}
