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
import type { ResourceCache } from './cache';
import { explain, invalidValues } from './explain';
import type { ResourceServices } from './handlers';

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

export function singleRecordHandlers(ctx: ResourceServices, cache: ResourceCache): SingleHandlers {
  const apiFor = async (profileId: string) =>
    new ResourceApi(await ctx.platform(profileId), await userScope(ctx.profiles, profileId));

  /** The record as the platform has it now: its get's answer, with each field of its own from its own read. */
  async function read(api: ResourceApi, declaration: ResourceDeclaration, options: CallOptions): Promise<Row> {
    const { get } = declaration.operations;
    const answer = get ? await api.send(declaration, get, {}, options) : {};
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
      const explained = explain(error, declaration);
      if (explained instanceof EngineError && explained.code === 'not_found') return null;
      throw error;
    }
  }

  return {
    'resources.getSingle': async ({ profileId: given, kind, refresh }) => {
      const profileId = ctx.tenant(given);
      const declaration = needSingle(kind);
      const cached = cache.single(profileId, kind);
      if (cached && !refresh && Date.now() - Date.parse(cached.meta.checkedAt) < SINGLE_STALE_MS) {
        return {
          record: cached.record,
          freshness: { asOf: cached.meta.asOf, source: 'cache', offline: cached.meta.error },
        };
      }
      const asOf = new Date().toISOString();
      try {
        const record = await read(await apiFor(profileId), declaration, cached ? INTERACTIVE : {});
        cache.putSingle(profileId, declaration, record, asOf);
        return { record, freshness: { asOf, source: 'api', offline: null } };
      } catch (error) {
        if (cached && isUnreachable(error)) {
          const note = offlineNote(error);
          cache.refreshFailed(profileId, kind, note);
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

    'resources.updateSingle': async ({ profileId: given, kind, values }) => {
      const profileId = ctx.tenant(given);
      const declaration = needSingle(kind);
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
      const before = cache.single(profileId, kind)?.record ?? {};
      let record: Row = { ...before };
      try {
        if (update && Object.keys(rest).length) {
          await api.send(declaration, update, { values: rest });
          // An open body (site config's field_key and value) names no record field: only a read-back shows it.
          if (!openBody(specOperation(update).body?.schema)) record = { ...record, ...rest };
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
        record = await read(api, declaration, INTERACTIVE);
      } catch {
        // Saved; the next read brings the platform's own copy.
      }
      cache.putSingle(profileId, declaration, record);
      ctx.emit('resources.changed', { profileId, kind });
      return { record };
    },
  };
}
