/**
 * Whether a record holds the key this app uses for the tenant (an API token about to be revoked): the engine reads
 * the kind's list from the platform and compares there, so the key goes to no answer, log or renderer. The platform
 * lists a token's key masked but for its last four characters (FIELD-NOTES: the full key is answered once, by the
 * create); those are compared, or the whole key where a list answers it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { resourceCalls } from '../../../shared/contract';
import { declarationOf } from '../../../shared/resources';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import type { CallOptions } from '../platform';
import type { ResourceApi } from './api';
import type { ResourceServices } from './handlers';

type Handlers = HandlersOf<typeof resourceCalls>;

/** A confirmation waits for this briefly: without an answer it says nothing. */
const CHECK_CALL: CallOptions = { maxAttempts: 1, timeoutMs: 5_000 };
const MASKED = /^\*+(.{4})$/s;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The listed value is the key, whole or masked to its last four characters. */
export function holdsKey(listed: unknown, key: string): boolean {
  if (typeof listed !== 'string' || !listed || !key) return false;
  const masked = MASKED.exec(listed);
  if (masked) return key.length > 4 && timingSafeEqual(digest(masked[1]!), digest(key.slice(-4)));
  return timingSafeEqual(digest(listed), digest(key));
}

export function appKeyHandlers(
  ctx: ResourceServices,
  apiFor: (profileId: string) => Promise<ResourceApi>,
): Pick<Handlers, 'resources.usedByApp'> {
  return {
    'resources.usedByApp': async ({ profileId: given, kind, ids }) => {
      const profileId = ctx.tenant(given);
      const declaration = declarationOf(kind);
      const field = declaration.appKeyField;
      if (!field) throw new EngineError('validation', `${declaration.label} hold no key this app could be using`);
      const key = (await ctx.profiles.connection(profileId)).secret?.trim();
      if (!key) return { ids: [], checked: false };
      let records: Record<string, unknown>[];
      try {
        records = await (await apiFor(profileId)).list(declaration, CHECK_CALL);
      } catch {
        return { ids: [], checked: false };
      }
      const wanted = new Set(ids);
      const holding = records
        .filter((record) => wanted.has(String(record[declaration.idField])) && holdsKey(record[field], key))
        .map((record) => String(record[declaration.idField]));
      return { ids: holding, checked: true };
    },
  };
}
