/**
 * resources.getSingle|updateSingle: kinds that are one record per tenant (its metadata, branding, site config,
 * billing status). The record is read from its get and from the reads of its fields of their own (a logo), kept in
 * the cache with its as-of time, and answered from there when young or when the tenant cannot be reached.
 */
import type { resourceCalls } from '../../../shared/contract';
import {
  decodeDataUrl,
  declarationOf,
  formSchema,
  isWritable,
  openBody,
  specOperation,
  type FieldDeclaration,
  type ResourceDeclaration,
  type ResourceKind,
} from '../../../shared/resources';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { isUnreachable, offlineNote } from '../mentors';
import type { CallOptions } from '../platform';
import { userScope } from '../tenants';
import { ResourceApi } from './api';
import { keptFields, singleScope, type ResourceCache } from './cache';
import { explain, invalidValues } from './explain';
import type { ResourceServices } from './handlers';
import type { SnapshotStore } from './snapshot-store';

type Row = Record<string, unknown>;
type SingleHandlers = Pick<HandlersOf<typeof resourceCalls>, 'resources.getSingle' | 'resources.updateSingle'>;

/** A record younger than this is answered from the cache. */
export const SINGLE_STALE_MS = 30_000;
const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };

const isObject = (value: unknown): value is Row => !!value && typeof value === 'object' && !Array.isArray(value);
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
  'image/bmp': 'bmp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
};

function needSingle(kind: ResourceKind): ResourceDeclaration {
  const declaration = declarationOf(kind);
  if (!declaration.single) {
    throw new EngineError('validation', `${declaration.label} are many records: name one (resources.get)`);
  }
  return declaration;
}

/** Saves changes to a single record (`revertedTo`: the snapshot it goes back to); the history calls use it too. */
export type SaveSingle = (
  profileId: string,
  declaration: ResourceDeclaration,
  key: string | undefined,
  values: Row,
  revertedTo: number | null,
) => Promise<{ record: Row }>;

export function singleRecordHandlers(
  ctx: ResourceServices,
  cache: ResourceCache,
  snapshots: SnapshotStore,
): SingleHandlers & {
  save: SaveSingle;
  storedKey(profileId: string, declaration: ResourceDeclaration, key: string | undefined): string | undefined;
} {
  const apiFor = async (profileId: string) =>
    new ResourceApi(await ctx.platform(profileId), await userScope(ctx.profiles, profileId));

  /** The record as the platform has it now: its get's answer, with each field of its own from its own read. */
  async function read(
    api: ResourceApi,
    declaration: ResourceDeclaration,
    options: CallOptions,
    key?: string,
  ): Promise<Row> {
    const { get, create } = declaration.operations;
    let answer: unknown = {};
    try {
      if (get) answer = await api.send(declaration, get, key === undefined ? {} : { id: key }, options);
    } catch (error) {
      // A record made by its create the first time (a user's custom instruction): none yet reads as empty.
      if (!create || !isNotFound(error, declaration)) throw error;
    }
    const record: Row = isObject(answer) ? { ...answer } : { value: answer ?? null };
    await Promise.all(
      declaration.fields
        .filter((field) => field.own)
        .map(async (field) => {
          record[field.name] = await readOwn(api, declaration, field, options);
        }),
    );
    return record;
  }

  async function readOwn(
    api: ResourceApi,
    declaration: ResourceDeclaration,
    field: FieldDeclaration,
    options: CallOptions,
  ) {
    try {
      const answer = await api.send(declaration, field.own!.read, {}, options);
      const value = isObject(answer) ? answer[field.own!.answerField] : null;
      return value ?? null;
    } catch (error) {
      // Nothing uploaded yet.
      if (isNotFound(error, declaration)) return null;
      throw error;
    }
  }

  /** Where a keyed record is cached: under its parent's own id, whichever of its names (a slug) the call used. */
  function storedKey(profileId: string, declaration: ResourceDeclaration, key: string | undefined) {
    if (key === undefined || !declaration.keyedBy) return key;
    // Already its own id (as the lists name mentors): found by the cache's key, without reading every record.
    if (cache.hasSingle(profileId, declaration.kind, key)) return key;
    const names = [declaration.idField, ...(declaration.keyedBy.aliases ?? [])];
    return cache.singleKeyOf(profileId, declaration.kind, key, names) ?? key;
  }

  return {
    storedKey,
    'resources.getSingle': async ({ profileId: given, kind, key: givenKey, refresh }) => {
      const profileId = ctx.tenant(given);
      const declaration = needSingle(kind);
      const key = keyOf(declaration, givenKey);
      const stored = storedKey(profileId, declaration, key);
      const cached = cache.single(profileId, kind, stored);
      if (cached && !refresh && Date.now() - Date.parse(cached.meta.checkedAt) < SINGLE_STALE_MS) {
        return {
          record: cached.record,
          freshness: { asOf: cached.meta.asOf, source: 'cache', offline: cached.meta.error },
        };
      }
      const asOf = new Date().toISOString();
      try {
        const answer = await read(await apiFor(profileId), declaration, cached ? INTERACTIVE : {}, key);
        // A keyed record's read may leave out what its update answers (a mentor's prompts): kept as last answered.
        const record = key === undefined ? answer : { ...cached?.record, ...answer };
        cache.putSingle(profileId, declaration, record, asOf, key && historyKey(declaration, key, record));
        return { record: keptFields(declaration, record), freshness: { asOf, source: 'api', offline: null } };
      } catch (error) {
        if (cached && isUnreachable(error)) {
          const note = offlineNote(error);
          cache.refreshFailed(profileId, singleScope(kind, stored), note);
          return { record: cached.record, freshness: { asOf: cached.meta.asOf, source: 'cache', offline: note } };
        }
        if (isUnreachable(error)) {
          throw new EngineError(
            'unreachable',
            `Nothing is cached for ${ctx.profiles.nameOf(profileId)} yet: the tenant cannot be reached (${error instanceof Error ? error.message : String(error)})`,
          );
        }
        throw explain(error, declaration);
      }
    },

    'resources.updateSingle': async ({ profileId: given, kind, key: givenKey, values }) => {
      const profileId = ctx.tenant(given);
      const declaration = needSingle(kind);
      const key = keyOf(declaration, givenKey);
      return save(profileId, declaration, key, values, null);
    },
    save,
  };

  /** Saves changes to a single record, keeps the result in the cache and, for a kind with history, as a snapshot. */
  async function save(
    profileId: string,
    declaration: ResourceDeclaration,
    key: string | undefined,
    values: Row,
    revertedTo: number | null,
  ): Promise<{ record: Row }> {
    const kind = declaration.kind as ResourceKind;
    {
      if (!isWritable(declaration)) {
        throw new EngineError(
          'validation',
          `${declaration.label} is read-only: the platform offers no call that changes it`,
        );
      }
      const update = declaration.operations.update ?? null;
      const parsed = formSchema(declaration, update, 'update').safeParse(values);
      if (!parsed.success) throw invalidValues(declaration, parsed.error);
      const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length === 0)
        throw new EngineError('validation', `Nothing to change: name a field of ${declaration.label}`);

      const api = await apiFor(profileId);
      const own = declaration.fields.filter((field) => field.own && field.name in changes);
      const rest = Object.fromEntries(
        Object.entries(changes).filter(([name]) => !declaration.fields.some((f) => f.own && f.name === name)),
      );
      let cachedBefore = cache.single(profileId, kind, storedKey(profileId, declaration, key))?.record ?? null;
      if (!cachedBefore && declaration.history && key !== undefined) {
        // The first save of a record with history keeps how it was found, so that save can be undone too.
        cachedBefore = await read(api, declaration, INTERACTIVE, key).catch(() => null);
      }
      const before = cachedBefore ?? {};
      let record: Row = { ...before };
      const target = key === undefined ? {} : { id: key };
      let answered: Row = {};
      try {
        if (update && Object.keys(rest).length) {
          const answer = await api.send(declaration, update, { ...target, values: rest }).catch((error: unknown) => {
            // None yet: the first save makes it.
            const { create } = declaration.operations;
            if (!create || !isNotFound(error, declaration)) throw error;
            return api.send(declaration, create, { ...target, values: rest });
          });
          // An open body (site config's field_key and value) names no record field: only a read-back shows it.
          if (!openBody(specOperation(update).body?.schema)) record = { ...record, ...rest };
          // A keyed record's update answers it whole (a mentor's settings, prompts included).
          if (key !== undefined && isObject(answer)) answered = answer;
          record = { ...record, ...answered };
        }
        for (const field of own) {
          const image = decodeDataUrl(String(changes[field.name]))!;
          const file = {
            name: `${field.name}.${EXTENSIONS[image.type] ?? 'bin'}`,
            type: image.type,
            bytes: image.bytes,
          };
          const answer = await api.send(declaration, field.own!.write, {
            files: { [field.own!.bodyField]: file },
          });
          record[field.name] = isObject(answer) ? (answer[field.own!.answerField] ?? null) : null;
        }
      } catch (error) {
        if (isUnreachable(error)) {
          const why = error instanceof Error ? error.message : String(error);
          throw new EngineError(
            'unreachable',
            `${ctx.profiles.nameOf(profileId)} is not answering (${why}): nothing was saved. What you entered is kept; save again when it answers.`,
          );
        }
        throw explain(error, declaration);
      }
      // What the platform keeps after the save (it may normalise what it was sent), read back when it can be.
      try {
        record = { ...answered, ...(await read(api, declaration, INTERACTIVE, key)) };
      } catch {
        // Saved; the next read brings the platform's own copy.
      }
      const canonical = key && historyKey(declaration, key, record);
      cache.putSingle(profileId, declaration, record, undefined, canonical);
      if (declaration.history && canonical !== undefined) {
        const kept = keptFields(declaration, record);
        snapshots.keep(profileId, kind, canonical, {
          before: cachedBefore && keptFields(declaration, cachedBefore),
          after: kept,
          changed: Object.keys(changes),
          revertedTo,
        });
      }
      ctx.emit('resources.changed', { profileId, kind });
      // A mentor's own settings carry its name and description, which head the mentor's pages and the mentor list.
      if (declaration.keyedBy?.param === 'mentor') ctx.emit('mentors.changed', { profileId });
      return { record: keptFields(declaration, record) };
    }
  }
}

function isNotFound(error: unknown, declaration: ResourceDeclaration): boolean {
  const explained = explain(error, declaration);
  return explained instanceof EngineError && explained.code === 'not_found';
}

/** The parent a keyed kind's call names (a mentor); a tenant's own record names none. */
function keyOf(declaration: ResourceDeclaration, key: string | undefined): string | undefined {
  const keyed = declaration.keyedBy;
  if (keyed && !key)
    throw new EngineError(
      'validation',
      `Name the ${keyed.label.toLowerCase()} of these ${declaration.label.toLowerCase()}`,
    );
  if (!keyed && key)
    throw new EngineError('validation', `${declaration.label} is one record per tenant: it takes no ${'key'}`);
  return keyed ? key : undefined;
}

/** History is kept under the parent's own id as the record names it (a mentor's unique_id), whatever name was used. */
export function historyKey(declaration: ResourceDeclaration, key: string, record: Row): string {
  const id = record[declaration.idField];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : key;
}
