/** mentors.list|get|create|update|delete: the cache answers lists, the platform answers everything else. */
import type { Mentor, mentorCalls } from '../../../shared/contract';
import type { HandlersOf } from '../dispatch';
import { EngineError } from '../errors';
import { MENTORS_LIST, type CachedMentor } from './cache';
import { explain, isMissing, isUnreachable } from './explain';
import { INTERACTIVE, type ListSource } from './freshness';
import type { CallOptions, MentorApi } from './mentor-api';
import { matches } from './matching';
import { hasSettings, toMentor } from './resolve';
import type { ApiMentor } from './shapes';
import { TenantCalls, type AreaParts } from './tenant';

type MentorHandlers = Pick<
  HandlersOf<typeof mentorCalls>,
  'mentors.list' | 'mentors.get' | 'mentors.create' | 'mentors.update' | 'mentors.delete'
>;

/** A list older than this is refreshed in the background when a screen asks for it. */
export const MENTORS_STALE_MS = 30_000;
/** Settings reads in flight at once while refreshing the list (one per mentor whose settings changed). */
const SETTINGS_CONCURRENCY = 4;

export function mentorHandlers(parts: AreaParts): MentorHandlers {
  const tenant = (profileId: string | undefined) => new TenantCalls(parts, profileId);

  const changed = (t: TenantCalls) => {
    t.freshener.wrote(t.profileId, MENTORS_LIST);
    t.emit('mentors.changed', { profileId: t.profileId });
  };

  /** GET `{name}/` and its settings at once: one round trip's wait for the whole mentor. */
  async function fetchMentor(api: MentorApi, ref: string, options: CallOptions = {}): Promise<CachedMentor> {
    const [mentor, settings] = await Promise.all([api.get(ref, options), api.settings(ref, options)]);
    return { mentor: toMentor(mentor, settings), settingsOf: settings.updated_at ?? mentor.updated_at ?? null };
  }

  return {
    'mentors.list': async (input) => {
      const t = tenant(input?.profileId);
      const { rows, freshness } = await t.freshener.answer(mentorsSource(t), input?.refresh ?? false);
      const mentors = rows.map((row) => row.mentor).filter((m) => matches(input?.search, m.name, m.description));
      return { mentors, freshness };
    },

    'mentors.get': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const cached = t.cache.findMentor(t.profileId, ref);
        try {
          // With a saved copy to fall back on, the page does not wait through the whole retry policy.
          const fresh = await fetchMentor(await t.mentors(), cached?.uniqueId ?? ref, cached ? INTERACTIVE : {});
          t.cache.putMentor(t.profileId, fresh);
          return fresh.mentor;
        } catch (error) {
          if (cached && isMissing(error)) forgetMentor(t, cached.uniqueId);
          // The tenant cannot be reached: the mentor opens from the saved copy (its lists say they are one).
          if (cached && isUnreachable(error)) return cached;
          throw error;
        }
      });
    },

    'mentors.create': async ({ profileId, name, description, visibility }) => {
      const t = tenant(profileId);
      const api = await t.mentors();
      const created = await t.explained({}, () => api.create(name));
      try {
        const settings = await api.putSettings(created.unique_id, { description, visibility });
        const mentor = toMentor(created, settings);
        t.cache.putMentor(t.profileId, { mentor, settingsOf: settings.updated_at ?? created.updated_at ?? null });
        return mentor;
      } catch (error) {
        // The mentor exists now: keep it on screen, and say what is missing.
        t.cache.putMentor(t.profileId, { mentor: toMentor(created), settingsOf: null });
        const reason = explain(error, { ...t.scope(), mentor: created.unique_id });
        const words = reason instanceof Error ? reason.message : String(reason);
        throw new EngineError(
          reason instanceof EngineError ? reason.code : 'api',
          `Mentor '${created.name}' was created, but its description and visibility could not be saved (${words}). ` +
            'Edit the mentor to try again.',
          reason instanceof EngineError ? reason.extra : {},
        );
      } finally {
        changed(t);
      }
    },

    'mentors.update': async ({ profileId, mentor: ref, name, description, visibility }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        const api = await t.mentors();
        let wrote = false;
        try {
          if (name !== undefined) {
            await api.rename(uniqueId, name);
            wrote = true;
          }
          if (description !== undefined || visibility !== undefined) {
            await api.putSettings(uniqueId, {
              ...(description !== undefined && { description }),
              ...(visibility !== undefined && { visibility }),
            });
            wrote = true;
          }
          const fresh = await fetchMentor(api, uniqueId);
          t.cache.putMentor(t.profileId, fresh);
          return fresh.mentor;
        } finally {
          if (wrote) changed(t);
        }
      });
    },

    'mentors.delete': async ({ profileId, mentor: ref }) => {
      const t = tenant(profileId);
      return t.explained({ mentor: ref }, async () => {
        const { uniqueId } = await t.resolve(ref);
        try {
          await (await t.mentors()).delete(uniqueId);
        } catch (error) {
          // Deleted elsewhere meanwhile: the cached row is wrong either way.
          if (isMissing(error)) forgetMentor(t, uniqueId);
          throw error;
        }
        forgetMentor(t, uniqueId);
        return { ok: true as const };
      });
    },
  };

  function forgetMentor(t: TenantCalls, uniqueId: string): void {
    t.cache.removeMentor(t.profileId, uniqueId);
    changed(t);
  }
}

/** The mentors list as a cached source: every page, with settings read only for mentors changed since last time. */
function mentorsSource(t: TenantCalls): ListSource<CachedMentor> {
  return {
    profileId: t.profileId,
    list: MENTORS_LIST,
    read: () => t.cache.mentors(t.profileId),
    fetch: async (options) => {
      const api = await t.mentors();
      const items = await api.list(options);
      const known = new Map((t.cache.mentors(t.profileId)?.rows ?? []).map((row) => [row.mentor.uniqueId, row]));
      const rows = await mapLimit(items, SETTINGS_CONCURRENCY, (item) => withSettings(api, item, known, options));
      return rows.filter((row): row is CachedMentor => row !== null);
    },
    store: (rows, asOf) => t.cache.replaceMentors(t.profileId, rows, asOf),
    changed: () => t.emit('mentors.changed', { profileId: t.profileId }),
    staleAfterMs: () => MENTORS_STALE_MS,
    asked: () => t.scope(),
  };
}

async function withSettings(
  api: MentorApi,
  item: ApiMentor,
  known: Map<string, CachedMentor>,
  options: CallOptions,
): Promise<CachedMentor | null> {
  const settingsOf = item.updated_at ?? null;
  if (hasSettings(item)) return { mentor: toMentor(item), settingsOf };
  const before = known.get(item.unique_id);
  if (before && settingsOf !== null && before.settingsOf === settingsOf) {
    const { description, visibility } = before.mentor;
    return { mentor: { ...toMentor(item), description, visibility }, settingsOf };
  }
  try {
    const settings = await api.settings(item.unique_id, options);
    const mentor: Mentor = { ...toMentor(item, settings), updatedAt: item.updated_at ?? null };
    return { mentor, settingsOf };
  } catch (error) {
    // Deleted between the list and this call: it is no longer on the list.
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Maps with at most `limit` calls in flight; the first failure fails the whole (the cache stays as it was). */
async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        out[index] = await run(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
