import type { Mentor, MentorVisibility } from '../../../shared/contract';
import { MENTOR_VISIBILITIES } from '../../../shared/contract';
import type { PlatformClient } from '../platform';
import { EngineError } from '../errors';
import type { Log } from '../log';
import type { ApiMentor, ApiMentorSettings } from './shapes';
import { documentsList, type MentorCache } from './cache';
import { isMissing } from './explain';
import { MentorApi } from './mentor-api';

export type { ApiMentor } from './shapes';

const toVisibility = (value: string | null | undefined): MentorVisibility | null =>
  (MENTOR_VISIBILITIES as readonly string[]).includes(value ?? '') ? (value as MentorVisibility) : null;

/**
 * The contract's Mentor from the platform's `Mentor` and, when read, its settings: the spec's `Mentor` has no
 * description or visibility; `MentorSettings(Public)` carries them as `mentor_description` and `mentor_visibility`.
 */
export function toMentor(api: ApiMentor, settings?: ApiMentorSettings | null): Mentor {
  return {
    uniqueId: api.unique_id,
    name: api.name,
    slug: api.slug ?? '',
    description: settings?.mentor_description ?? api.mentor_description ?? api.description ?? '',
    visibility: toVisibility(settings ? settings.mentor_visibility : api.mentor_visibility),
    featured: api.is_featured ?? false,
    createdAt: api.created_at ?? null,
    updatedAt: settings?.updated_at ?? api.updated_at ?? null,
  };
}

/** Whether a list item already carries what would otherwise take a settings call. */
export const hasSettings = (api: ApiMentor) =>
  (api.mentor_description != null || api.description != null) && api.mentor_visibility != null;

export interface Scope {
  org: string;
  username: string;
}

const noLog: Log = () => {};

/**
 * Finds a mentor by unique id, name or slug (`{name}/` accepts all three on the platform). 404 becomes a plain
 * "no mentor" message naming what was looked for.
 */
export async function resolveMentor(
  client: PlatformClient,
  scope: Scope,
  ref: string,
  signal?: AbortSignal,
  log: Log = noLog,
): Promise<Mentor> {
  try {
    return toMentor(await new MentorApi(client, scope, log).get(ref, signal ? { signal } : {}));
  } catch (error) {
    if (isMissing(error)) {
      throw new EngineError('not_found', `No mentor '${ref}' on this tenant (give its unique id or exact name)`);
    }
    throw error;
  }
}

/**
 * The unique id (the documents' pathway) and name of a mentor reference. A cached unique id or exact name answers
 * without a round trip; anything else (a slug, a mentor not cached yet) asks the platform.
 */
export async function resolveMentorRef(
  deps: { cache: MentorCache; client: () => Promise<PlatformClient>; scope: () => Promise<Scope>; log: Log },
  profileId: string,
  ref: string,
): Promise<{ uniqueId: string; name: string }> {
  const cached = deps.cache.findMentor(profileId, ref);
  if (cached) return { uniqueId: cached.uniqueId, name: cached.name };
  // A unique id whose documents are cached names itself (unique ids never change; names may).
  if (deps.cache.meta(profileId, documentsList(ref))) return { uniqueId: ref, name: ref };
  const [client, scope] = await Promise.all([deps.client(), deps.scope()]);
  const mentor = await resolveMentor(client, scope, ref, undefined, deps.log);
  return { uniqueId: mentor.uniqueId, name: mentor.name };
}
