/**
 * resources.list|get|create|update|delete|action over every declared kind. "The cache serves the screen; the API is
 * the truth": a list answers from SQLite at once and refreshes in the background when it is old; writes go to the
 * platform, then to the cache, then out as `resources.changed`.
 */
import type { Freshness, resourceCalls } from '../../../shared/contract';
import {
  declarationOf,
  editableBody,
  fieldType,
  formSchema,
  isListed,
  narrowingFields,
  pluralOf,
  recordSchema,
  trimSecrets,
  withoutSecrets,
  type FieldNote,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { EngineServices } from '../context';
import { addressOf, keyFieldOf } from './address';
import type { HandlersOf } from '../dispatch';
import { EngineError, invalid } from '../errors';
import { isUnreachable, offlineNote } from '../mentors';
import { RequestAbortedError, type CallOptions } from '../platform';
import type { AnswerCache } from '../store';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import { keptFields, type FieldEquals, type ResourceCache } from './cache';
import { refuseNoAdminLeft } from './access';
import { bulkJobKind, startBulk } from './bulk';
import { describedChoices, type DescribedChoice } from './described';
import { explain, invalidValues } from './explain';
import { exportResources } from './export';
import { appKeyHandlers } from './app-key';
import { llmAccessHandlers } from './llm-access';
import { readPages } from './paging';
import { countReferrers, referrersIn, referringKinds } from './referrers';

const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/** A kind of many records; a single-record kind (the tenant's settings) is read with resources.getSingle. */
function manyOf(kind: ResourceKind): ResourceDeclaration {
  const declaration = declarationOf(kind);
  if (declaration.single) {
    throw new EngineError(
      'validation',
      `${declaration.label} is one record per tenant: read it with resources.getSingle, change it with resources.updateSingle`,
    );
  }
  return declaration;
}

/** A list older than this is refreshed in the background when a screen asks for it. */
export const RESOURCES_STALE_MS = 30_000;
/** How long the platform's description of a kind's form fields is kept (per tenant connection). */
export const DESCRIBED_FIELDS_TTL_MS = 10 * 60_000;
/** With saved rows to show, a screen does not wait through the whole retry policy. */
const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };
/** A delete's confirmation waits for a count only briefly: without an answer it says the saved list's. */
const COUNT_CALL: CallOptions = { maxAttempts: 1, timeoutMs: 5_000 };

type Row = Record<string, unknown>;

/** What the resource kit uses of the engine's services. */
export type ResourceServices = Pick<EngineServices, 'tenant' | 'platform' | 'profiles' | 'emit' | 'journal' | 'runner'>;

/** The kit's calls but those of single records, CSV import and people (single.ts, import.ts, people.ts). */
type ResourceHandlers = Omit<
  HandlersOf<typeof resourceCalls>,
  | 'resources.getSingle'
  | 'resources.updateSingle'
  | 'resources.import'
  | 'resources.history'
  | 'resources.historyDiff'
  | 'resources.revert'
  | `access.${string}`
  | 'people.remove'
  | 'people.learning'
  | 'people.completions'
  | `memory.${string}`
  | `calls.${string}`
  | `badges.${string}`
  | `mentors.${string}`
  | `mentorEvals.${string}`
  | `person.${string}`
  | `licences.${string}`
  | `catalogue.${string}`
  | 'accessRequests.review'
> & { close(): Promise<void> };

/** `answers`: where the answers kept as saved copies are (the LLM access read). */
export function resourceHandlers(ctx: ResourceServices, cache: ResourceCache, answers: AnswerCache): ResourceHandlers {
  /** Writes per list: a refresh that started before a write must not store what it fetched. */
  const writes = new Map<string, number>();
  const background = new Set<Promise<void>>();
  const refreshing = new Set<string>();
  const stop = new AbortController();
  const keyOf = (profileId: string, kind: string) => `${profileId}\n${kind}`;

  const apiFor = async (profileId: string) =>
    new ResourceApi(await ctx.platform(profileId), await userScope(ctx.profiles, profileId));

  const changed = (profileId: string, kind: ResourceKind) => {
    const key = keyOf(profileId, kind);
    writes.set(key, (writes.get(key) ?? 0) + 1);
    ctx.emit('resources.changed', { profileId, kind });
  };

  async function refresh(
    profileId: string,
    declaration: ResourceDeclaration,
    options: CallOptions,
    whole = false,
  ): Promise<string> {
    const key = keyOf(profileId, declaration.kind);
    const before = writes.get(key) ?? 0;
    const startedAt = new Date().toISOString();
    const current = () => (writes.get(key) ?? 0) === before && !stop.signal.aborted;
    if (declaration.envelope === 'drf') {
      const kind = declaration.kind as ResourceKind;
      const read = readPages(await apiFor(profileId), cache, profileId, declaration, {
        ...options,
        signal: stop.signal,
        startedAt,
        current,
        progressive: !cache.meta(profileId, kind),
        grew: () => ctx.emit('resources.changed', { profileId, kind }),
      });
      // The screen has its first page; the rest fill in behind it, each page announced.
      const rest = read.rest.catch((error: unknown) => {
        if (stop.signal.aborted || error instanceof RequestAbortedError) return;
        cache.refreshFailed(profileId, kind, `Only part of the list was read: ${String((error as Error).message)}`);
        ctx.emit('resources.changed', { profileId, kind });
      });
      background.add(rest);
      void rest.finally(() => background.delete(rest));
      if (whole) {
        // The whole list is awaited: a failed first page is its failure, told once (not also as an unhandled first).
        read.first.catch(() => undefined);
        await read.rest;
      } else await read.first;
      return startedAt;
    }
    const api = await apiFor(profileId);
    let records: Row[];
    if (declaration.listEach) {
      // One request per parent: a few at a time, in the tenant's slots shared with its jobs.
      const share = ctx.runner.share(profileId);
      try {
        records = await api.listEach(declaration, share.slots, { ...options, signal: stop.signal });
      } finally {
        share.release();
      }
    } else records = await api.list(declaration, { ...options, signal: stop.signal });
    if (current()) cache.replace(profileId, declaration, records, startedAt);
    return startedAt;
  }

  function refreshInBackground(profileId: string, declaration: ResourceDeclaration): void {
    const kind = declaration.kind as ResourceKind;
    const key = keyOf(profileId, kind);
    if (refreshing.has(key)) return;
    refreshing.add(key);
    const task = refresh(profileId, declaration, {}).then(
      () => ctx.emit('resources.changed', { profileId, kind }),
      (error: unknown) => {
        if (stop.signal.aborted || error instanceof RequestAbortedError) return;
        const explained = explain(error, declaration);
        cache.refreshFailed(
          profileId,
          kind,
          isUnreachable(error)
            ? offlineNote(error)
            : `Could not refresh: ${explained instanceof Error ? explained.message : String(explained)}`,
        );
        ctx.emit('resources.changed', { profileId, kind });
      },
    );
    background.add(task);
    void task.finally(() => {
      background.delete(task);
      refreshing.delete(key);
    });
  }

  /** The list's freshness: from the cache when it is young enough, else read from the platform first. */
  async function freshness(
    profileId: string,
    declaration: ResourceDeclaration,
    force: boolean,
    whole = false,
  ): Promise<Freshness> {
    const meta = cache.meta(profileId, declaration.kind);
    if (!isListed(declaration)) return { asOf: meta?.asOf ?? null, source: 'cache', offline: null };
    if (meta && !force) {
      const age = Date.now() - Date.parse(meta.checkedAt);
      if (!(age < RESOURCES_STALE_MS)) refreshInBackground(profileId, declaration);
      return { asOf: meta.asOf, source: 'cache', offline: meta.error };
    }
    try {
      const asOf = await refresh(profileId, declaration, meta ? INTERACTIVE : {}, whole);
      return { asOf, source: 'api', offline: null };
    } catch (error) {
      if (meta && isUnreachable(error)) {
        const note = offlineNote(error);
        cache.refreshFailed(profileId, declaration.kind, note);
        return { asOf: meta.asOf, source: 'cache', offline: note };
      }
      if (isUnreachable(error)) {
        // Never another tenant's rows instead: this one has none saved yet.
        throw new EngineError(
          'unreachable',
          `Nothing is cached for ${ctx.profiles.nameOf(profileId)} yet: the tenant cannot be reached (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      throw explain(error, declaration);
    }
  }

  /** `where` as typed equality on declared fields: a boolean field takes true/false, a number a number. */
  function typedWhere(declaration: ResourceDeclaration, where: Record<string, string> | undefined): FieldEquals[] {
    const schema = recordSchema(declaration);
    const known = narrowingFields(declaration);
    return Object.entries(where ?? {}).map(([field, text]) => {
      if (!known.has(field)) throw unknownField(declaration, `where.${field}`, field, known);
      const type = fieldType(schema, field);
      if (type === 'boolean') {
        if (!['true', 'false'].includes(text)) throw invalid(`where.${field}`, `${field} is true or false`);
        return { field, value: text === 'true' ? 1 : 0 };
      }
      if (type === 'integer' || type === 'number') {
        if (!Number.isFinite(Number(text)) || text.trim() === '')
          throw invalid(`where.${field}`, `${field} is a number`);
        return { field, value: Number(text) };
      }
      return { field, value: text };
    });
  }

  function unknownField(declaration: ResourceDeclaration, path: string, field: string, known: Set<string>) {
    return invalid(
      path,
      `${capital(pluralOf(declaration))} have no field '${field}' (fields: ${[...known].join(', ')})`,
    );
  }

  /** The values checked by the spec's rules, their secrets trimmed first (and a note for each one trimmed). */
  function checked(
    declaration: ResourceDeclaration,
    mode: 'create' | 'update',
    given: Row,
  ): { values: Row; notes: FieldNote[] } {
    const operation = mode === 'create' ? declaration.operations.create : declaration.operations.update;
    if (!operation) throw new EngineError('validation', `${capital(pluralOf(declaration))} cannot be ${mode}d`);
    const { values, notes } = trimSecrets(declaration, given);
    const parsed = formSchema(declaration, operation, mode).safeParse(values);
    if (!parsed.success) throw invalidValues(declaration, parsed.error);
    return { values: parsed.data, notes };
  }

  /**
   * A write's answer as it may be kept: without its secrets (the platform echoes a new key in full). For a kind with
   * secrets the list is read again, so the written record is cached as the masked view shows it.
   */
  async function afterWrite(profileId: string, declaration: ResourceDeclaration, answer: Row): Promise<Row> {
    const record = withoutSecrets(declaration, keptFields(declaration, answer));
    if (!declaration.secretFields?.length) {
      cache.put(profileId, declaration, record);
      return record;
    }
    try {
      await refresh(profileId, declaration, INTERACTIVE);
    } catch {
      cache.put(profileId, declaration, record);
    }
    const id = String(record[declaration.idField]);
    return cache.find(profileId, declaration.kind, id) ?? record;
  }

  const described = new Map<string, { at: number; tenant: string; choices: DescribedChoice[] }>();

  /** The record's fields that its update body takes, as the cache (or else the platform) has them now. */
  async function currentBody(
    api: ResourceApi,
    profileId: string,
    declaration: ResourceDeclaration,
    id: string,
  ): Promise<Row> {
    const editable = editableBody(declaration, declaration.operations.update!)?.properties ?? {};
    const current =
      cache.find(profileId, declaration.kind, id) ??
      (declaration.operations.get ? await api.get(declaration, id, INTERACTIVE) : {});
    return Object.fromEntries(Object.entries(current).filter(([name]) => name in editable));
  }

  async function platformCall<T>(declaration: ResourceDeclaration, id: string | undefined, run: () => Promise<T>) {
    try {
      return await run();
    } catch (error) {
      throw explain(error, declaration, id);
    }
  }

  ctx.runner.register(bulkJobKind({ services: ctx, cache, changed }));

  const handlers: ResourceHandlers = {
    'resources.list': async (input) => {
      const profileId = ctx.tenant(input.profileId);
      const declaration = manyOf(input.kind);
      const where = typedWhere(declaration, input.where);
      const also = input.searchAlso;
      if (also) {
        const known = narrowingFields(declaration);
        if (!known.has(also.field)) throw unknownField(declaration, 'searchAlso.field', also.field, known);
      }
      const fresh = await freshness(profileId, declaration, input.refresh ?? false, input.whole ?? false);
      const known = cache.meta(profileId, declaration.kind) !== null;
      const { records, total } = known
        ? cache.page(profileId, declaration.kind, {
            search: input.search,
            where,
            searchAlso: also,
            page: input.page,
            pageSize: input.pageSize,
          })
        : { records: [], total: 0 };
      return {
        records,
        total,
        page: input.page,
        pageSize: input.pageSize,
        freshness: fresh,
        listed: isListed(declaration),
      };
    },

    'resources.get': async ({ profileId: given, kind, id }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      const cached = cache.find(profileId, kind, id);
      if (!declaration.operations.get) {
        // No call reads one record: it is read from the list (to its last page when it is not cached yet). A cached
        // one answers at once, as the list does: its list is read again behind it when old (resources.changed then).
        await freshness(profileId, declaration, !cached, !cached).catch((error: unknown) => {
          if (!cached) throw error;
        });
        const record = cache.find(profileId, kind, id);
        if (!record) throw new EngineError('not_found', `No ${declaration.singular} "${id}" on this tenant`);
        return { record };
      }
      try {
        const record = keptFields(
          declaration,
          await platformCall(declaration, id, async () =>
            (await apiFor(profileId)).get(declaration, id, cached ? INTERACTIVE : {}),
          ),
        );
        cache.put(profileId, declaration, record);
        if (JSON.stringify(record) !== JSON.stringify(cached)) changed(profileId, kind);
        return { record };
      } catch (error) {
        if (error instanceof EngineError && error.code === 'not_found' && cached) {
          cache.remove(profileId, kind, id);
          changed(profileId, kind);
        }
        if (cached && isUnreachable(error)) return { record: cached };
        throw error;
      }
    },

    'resources.create': async ({ profileId: given, kind, values }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      const { values: body, notes } = checked(declaration, 'create', values);
      refuseNoAdminLeft(cache, profileId, { kind, op: 'create', values: body });
      const answer = (await platformCall(declaration, undefined, async () =>
        (await apiFor(profileId)).send(declaration, declaration.operations.create!, { values: body }),
      )) as Row;
      const revealed: Record<string, string> = {};
      for (const field of declaration.revealOnce ?? []) {
        if (typeof answer[field] === 'string') revealed[field] = answer[field];
      }
      const record = await afterWrite(profileId, declaration, answer);
      changed(profileId, kind);
      return { record, revealed, ...(notes.length && { notes }) };
    },

    'resources.update': async ({ profileId: given, kind, id, values }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      const { values: changes, notes } = checked(declaration, 'update', values);
      const operation = declaration.operations.update!;
      refuseNoAdminLeft(cache, profileId, { kind, op: 'update', id, values: changes });
      const answer = (await platformCall(declaration, id, async () => {
        const api = await apiFor(profileId);
        // A PUT replaces the record: what it does not change is sent as it is now.
        // A PUT replaces the record, and so does an "add or update" POST naming it by another field (a program's
        // program_id, its body's required fields): what it does not change is sent as it is now.
        const body =
          operation.method === 'put' || keyFieldOf(operation)
            ? { ...(await currentBody(api, profileId, declaration, id)), ...changes }
            : changes;
        return api.send(declaration, operation, {
          ...addressOf(cache, profileId, declaration, operation, id),
          values: body,
        });
      })) as Row;
      const record = await afterWrite(profileId, declaration, answer);
      changed(profileId, kind);
      return { record, ...(notes.length && { notes }) };
    },

    'resources.delete': async ({ profileId: given, kind, id }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      const operation = declaration.operations.delete;
      if (!operation) {
        throw new EngineError('validation', `The platform offers no way to delete a ${declaration.singular}`);
      }
      refuseNoAdminLeft(cache, profileId, { kind, op: 'delete', id });
      try {
        await platformCall(declaration, id, async () =>
          (await apiFor(profileId)).send(
            declaration,
            operation,
            addressOf(cache, profileId, declaration, operation, id),
          ),
        );
      } catch (error) {
        // Gone already: the cached row is wrong either way.
        if (error instanceof EngineError && error.code === 'not_found') {
          cache.remove(profileId, kind, id);
          changed(profileId, kind);
        }
        throw error;
      }
      cache.remove(profileId, kind, id);
      changed(profileId, kind);
      // What the platform deletes with it (a role's policies) leaves the cache too.
      const removedWith = new Set(
        referringKinds(kind)
          .filter((r) => r.removedWith)
          .map((r) => r.declaration.kind),
      );
      for (const gone of referrersIn(cache, profileId, kind, [id], Infinity).referrers) {
        if (!removedWith.has(gone.kind)) continue;
        cache.remove(profileId, gone.kind, gone.id);
        changed(profileId, gone.kind);
      }
      return { ok: true as const };
    },

    'resources.action': async ({ profileId: given, kind, id, action, values }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      const named = declaration.actions?.[action];
      if (!named) {
        const offered = Object.keys(declaration.actions ?? {});
        throw invalid(
          'action',
          `${capital(pluralOf(declaration))} have no action '${action}' (${offered.length ? `actions: ${offered.join(', ')}` : 'they have no actions'})`,
        );
      }
      const answer = await platformCall(declaration, id, async () =>
        (await apiFor(profileId)).send(declaration, named, { id, values: values ?? {} }),
      );
      const record =
        answer && typeof answer === 'object' && !Array.isArray(answer) && declaration.idField in answer
          ? withoutSecrets(declaration, keptFields(declaration, answer as Row))
          : null;
      if (record) cache.put(profileId, declaration, record);
      changed(profileId, kind);
      return { record };
    },

    'resources.bulk': ({ profileId: given, kind, action, ids, values }) => {
      const declaration = manyOf(kind);
      if (action !== 'update') return startBulk(ctx, cache, { profileId: ctx.tenant(given), kind, action, ids });
      // The values are kept in the job's journal: a secret is never written there (set it record by record).
      const secret = Object.keys(values ?? {}).find(
        (field) =>
          (declaration.secretFields ?? []).includes(field) ||
          declaration.fields.some((f) => f.name === field && f.input === 'secret') ||
          field === declaration.describedFields?.field,
      );
      if (secret) throw invalid(`values.${secret}`, `${secret} is a secret: it is set on one record at a time`);
      const { values: checkedValues } = checked(declaration, 'update', values ?? {});
      if (!Object.keys(checkedValues).length) throw invalid('values', 'Say which field to set');
      return startBulk(ctx, cache, { profileId: ctx.tenant(given), kind, action, ids, values: checkedValues });
    },

    'resources.referrers': async ({ profileId: given, kind, ids, refresh: read }) => {
      const profileId = ctx.tenant(given);
      for (const { declaration, counted } of referringKinds(kind)) {
        // Counted kinds are asked of the platform below, not read whole.
        if (counted) continue;
        const meta = cache.meta(profileId, declaration.kind);
        const fresh = meta && !meta.error && Date.now() - Date.parse(meta.checkedAt) < RESOURCES_STALE_MS;
        if (fresh) continue;
        // Asked to be sure (the CLI): read now, and say so below when it could not be read.
        if (read) await freshness(profileId, declaration, true).catch(() => undefined);
        else refreshInBackground(profileId, declaration);
      }
      const counts = await countReferrers(cache, profileId, kind, ids, async (declaration, query) =>
        (await apiFor(profileId)).count(declaration, query, COUNT_CALL),
      );
      return { ...referrersIn(cache, profileId, kind, ids, RESOURCES_STALE_MS), ...(counts.length && { counts }) };
    },

    'resources.counts': async ({ profileId: given, kind, field, ids }) => {
      const profileId = ctx.tenant(given);
      const declaration = manyOf(kind);
      if (!(declaration.relations ?? []).some((relation) => relation.field === field)) {
        throw invalid('field', `${capital(pluralOf(declaration))} refer to nothing by '${field}'`);
      }
      // Counted over the whole list: the first read waits for its last page (its first would count part of it).
      const fresh = await freshness(profileId, declaration, false, true);
      const values = ids.map((id) => typedWhere(declaration, { [field]: id })[0]!.value);
      const found = cache.countBy(profileId, kind, field, values);
      return {
        counts: Object.fromEntries(ids.map((id, i) => [id, found.get(String(values[i])) ?? 0])),
        freshness: fresh,
      };
    },

    'resources.export': (input) =>
      exportResources(input, {
        list: (page) => handlers['resources.list'](page),
        tenantName: ctx.profiles.nameOf(ctx.tenant(input.profileId)),
      }),

    'resources.describe': async ({ profileId: given, kind }) => {
      const profileId = ctx.tenant(given);
      const declaration = declarationOf(kind);
      if (!declaration.describedFields) {
        throw invalid('kind', `The platform describes no form fields of ${pluralOf(declaration)}`);
      }
      // Kept per connection and tenant: another tenant (or this connection pointed elsewhere) reads its own.
      const profile = await userScope(ctx.profiles, profileId);
      const tenant = `${profile.org} ${profile.username}`;
      const key = keyOf(profileId, kind);
      const kept = described.get(key);
      if (kept && kept.tenant === tenant && Date.now() - kept.at < DESCRIBED_FIELDS_TTL_MS) {
        return { choices: kept.choices, asOf: new Date(kept.at).toISOString() };
      }
      const rows = await platformCall(declaration, undefined, async () =>
        (await apiFor(profileId)).describe(declaration, INTERACTIVE),
      );
      const at = Date.now();
      const choices = describedChoices(rows);
      described.set(key, { at, tenant, choices });
      return { choices, asOf: new Date(at).toISOString() };
    },

    ...llmAccessHandlers(ctx, apiFor, answers),
    ...appKeyHandlers(ctx, apiFor),

    async close() {
      stop.abort();
      await Promise.allSettled([...background]);
    },
  };
  return handlers;
}
