/**
 * What a mentor remembers of a learner (`memory.learner`, `memory.clear`). The platform's memory paths take the
 * learner's username as `{user_id}`, so these calls are sent with the learner in the connection's place; the
 * tenant's API key is an admin's, which the platform lets name any learner of the tenant (IsAdminUserOrStudent).
 *
 * The spec has no call that clears one mentor's memory of a learner: `memory-entries/{category}/` deletes "a
 * category of memories" of the learner, across mentors. Clearing deletes the three categories a mentor's memory is
 * made of, and only those the learner has; the confirmation says that every mentor forgets them.
 */
import { z } from 'zod';
import type { HandlersOf } from '../dispatch';
import {
  LearnerMemory,
  MEMORY_COMPONENTS,
  MemoryComponents,
  ProfileMemoryEntry,
  EdxMemory,
  MemoryFilterOptions,
  UserMemory,
  UserMemoryEntry,
  type memoryCalls,
} from '../../../shared/contract';
import { EngineError, invalid } from '../errors';
import { drfIssues } from './explain';
import { ApiError, type CallOptions, type PlatformClient } from '../platform';
import { userScope } from '../tenants';
import type { ResourceServices } from './handlers';

const INTERACTIVE: CallOptions = { maxAttempts: 2, timeoutMs: 15_000 };

const Progress = LearnerMemory.shape.progress.unwrap();
/** One recorded snapshot (the spec's MemoryComponentMemoryDetail). */
const HistoryEntry = z.object({
  data: z.array(z.object({ kind: z.string().optional(), content: z.string() })),
  inserted_at: z.string(),
});
const EdxPage = z.object({ next: z.string().nullable().optional(), results: z.array(EdxMemory) });
const MemoryPage = z.object({ next: z.string().nullable().optional(), results: z.array(UserMemory) });
/** `memory-filter/` declares no body: its example's two lists are read, either missing read as empty. */
const FilterAnswer = z.object({
  categories: MemoryFilterOptions.shape.categories.optional().default([]),
  users: MemoryFilterOptions.shape.users.optional().default([]),
});
/** The spec's schema is one snapshot, its example a list of them: both are read. */
const History = z.union([z.array(HistoryEntry), HistoryEntry.transform((one) => [one])]);

function platformSaid(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  return error.detail ?? error.message;
}

/** A platform refusal in the platform's own words, as an error of the engine's kind for its status. */
function refusal(error: unknown, what: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const said = platformSaid(error);
  if (error.status === 404) return new EngineError('not_found', `${what}: ${said}`);
  return new EngineError('api', `${what}: ${said}`, { status: error.status });
}

/** Deletes one category of a learner's memories; false when the platform had none ('Memory not found.'). */
export async function deleteMemoryCategory(
  client: PlatformClient,
  org: string,
  learner: string,
  category: string,
  options: CallOptions = {},
): Promise<boolean> {
  try {
    await client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/memory-entries/{entry_unique_id}/', {
      params: { path: { org, user_id: learner, entry_unique_id: category } },
      ...options,
    });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

export function memoryHandlers(ctx: ResourceServices): HandlersOf<typeof memoryCalls> {
  async function learnerApi(profileId: string, learner: string) {
    const client: PlatformClient = await ctx.platform(profileId);
    const { org } = await userScope(ctx.profiles, profileId);
    const path = (mentor: string) => ({ org, user_id: learner, mentor });

    return {
      async current(mentor: string) {
        const { data } = await client.api.GET(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/current-memory/',
          { params: { path: path(mentor) }, ...INTERACTIVE },
        );
        return MemoryComponents.parse(data);
      },
      async history(mentor: string) {
        const { data } = await client.api.GET(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/historical-memory/',
          { params: { path: path(mentor) }, ...INTERACTIVE },
        );
        return History.parse(data).map((entry) => ({
          insertedAt: entry.inserted_at,
          items: entry.data.map((item) => ({ kind: item.kind ?? '', content: item.content })),
        }));
      },
      async progress(mentor: string) {
        const { data } = await client.api.GET(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/memory-progress/',
          { params: { path: path(mentor) }, ...INTERACTIVE },
        );
        return Progress.parse(data);
      },
      deleteCategory: (category: string) => deleteMemoryCategory(client, org, learner, category),
    };
  }

  async function profileApi(profileId: string, learner: string) {
    const client: PlatformClient = await ctx.platform(profileId);
    const { org } = await userScope(ctx.profiles, profileId);
    return { client, path: { org, user_id: learner } };
  }

  /** DRF's field errors at the form's fields, or the platform's words. */
  function saveRefusal(error: unknown, what: string): unknown {
    const issues = error instanceof ApiError && error.status === 400 ? drfIssues(error.body) : [];
    if (!issues.length) return refusal(error, what);
    return new EngineError(
      'validation',
      `The platform refused the entry: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      { issues, status: 400 },
    );
  }

  return {
    'memory.filterOptions': async ({ profileId: given }) => {
      const profileId = ctx.tenant(given);
      const client: PlatformClient = await ctx.platform(profileId);
      const { org, username: user_id } = await userScope(ctx.profiles, profileId);
      try {
        const { data } = await client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/memory-filter/', {
          params: { path: { org, user_id } },
          ...INTERACTIVE,
        });
        return FilterAnswer.parse(data ?? {});
      } catch (error) {
        throw refusal(error, 'The memory filters');
      }
    },

    // The admins' list (`filtered-memories/`, "only accessible to tenant admins") is asked as the connection's user,
    // for the learner by `username`.
    'memory.memories': async ({ profileId: given, learner, category, mentor, mode, startDate, endDate }) => {
      const profileId = ctx.tenant(given);
      const client: PlatformClient = await ctx.platform(profileId);
      const { org, username: user_id } = await userScope(ctx.profiles, profileId);
      const memories: UserMemory[] = [];
      try {
        for (let page = 1; page <= 1000; page++) {
          const { data } = await client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/filtered-memories/', {
            params: {
              path: { org, user_id },
              query: {
                page,
                page_size: 100,
                username: learner,
                ...(category && { category }),
                ...(mentor && { mentor }),
                ...(mode && { mode }),
                ...(startDate && { start_date: startDate }),
                ...(endDate && { end_date: endDate }),
              },
            },
            ...INTERACTIVE,
          });
          const answer = MemoryPage.parse(data);
          memories.push(...answer.results);
          if (!answer.next || answer.results.length === 0) break;
        }
      } catch (error) {
        throw refusal(error, `The memories of ${learner}`);
      }
      return { learner, memories };
    },

    'memory.memory': async ({ profileId: given, learner, memory }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        const { data } = await client.api.GET(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/memory/{memory_unique_id_or_name}/',
          { params: { path: { ...path, memory_unique_id_or_name: memory } }, ...INTERACTIVE },
        );
        return UserMemory.parse(data);
      } catch (error) {
        throw refusal(error, `Memory ${memory} of ${learner}`);
      }
    },

    'memory.entrySave': async ({ profileId: given, learner, entry, key, value }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        const { data } = await client.api.POST(
          '/api/ai-mentor/orgs/{org}/users/{user_id}/memory-entries/{entry_unique_id}/',
          {
            params: { path: { ...path, entry_unique_id: entry } },
            // The spec's body is UserMemoryEntry, whose read-only fields are not sent.
            body: { key, value },
          },
        );
        return UserMemoryEntry.parse(data);
      } catch (error) {
        throw saveRefusal(error, `Saving ${key} for ${learner}`);
      }
    },

    'memory.memoryDelete': async ({ profileId: given, learner, memory, confirm }) => {
      if (confirm.trim() !== learner) throw invalid('confirm', `Type ${learner} to delete this memory`);
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        await client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/memory/{memory_unique_id_or_name}/', {
          params: { path: { ...path, memory_unique_id_or_name: memory } },
        });
        return { memory, deleted: true };
      } catch (error) {
        // 'Memory not found.': it is gone already, which is what was asked.
        if (error instanceof ApiError && error.status === 404) return { memory, deleted: false };
        throw refusal(error, `Deleting memory ${memory} of ${learner}`);
      }
    },

    'memory.profile': async ({ profileId: given, learner }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        const { data } = await client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/ai-user-profile-memory/', {
          params: { path },
          ...INTERACTIVE,
        });
        return { learner, entries: z.array(ProfileMemoryEntry).parse(data) };
      } catch (error) {
        throw refusal(error, `The profile memory of ${learner}`);
      }
    },

    'memory.profileSave': async ({ profileId: given, learner, tag, detail }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        const { data } = await client.api.POST('/api/ai-mentor/orgs/{org}/users/{user_id}/ai-user-profile-memory/', {
          params: { path },
          body: { tag, detail },
        });
        return ProfileMemoryEntry.parse(data);
      } catch (error) {
        throw saveRefusal(error, `Saving ${tag} for ${learner}`);
      }
    },

    'memory.profileDelete': async ({ profileId: given, learner, tag }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        await client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/ai-user-profile-memory/{tag}/', {
          params: { path: { ...path, tag } },
        });
        return { tag, deleted: true };
      } catch (error) {
        // "Failed request will be responded with status 404": there was no such entry, so nothing is left to delete.
        if (error instanceof ApiError && error.status === 404) return { tag, deleted: false };
        throw refusal(error, `Deleting ${tag} of ${learner}`);
      }
    },

    'memory.edx': async ({ profileId: given, learner, courseId }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      const records: EdxMemory[] = [];
      try {
        // DRF pages until the platform says there is no next one (a guard against one that never ends).
        for (let page = 1; page <= 1000; page++) {
          const { data } = await client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/edx-memory/', {
            params: { path, query: { page, page_size: 100, ...(courseId && { course_id: courseId }) } },
            ...INTERACTIVE,
          });
          const answer = EdxPage.parse(data);
          records.push(...answer.results);
          if (!answer.next || answer.results.length === 0) break;
        }
      } catch (error) {
        throw refusal(error, `The edX memory of ${learner}`);
      }
      return { learner, records };
    },

    'memory.edxDelete': async ({ profileId: given, learner, id }) => {
      const { client, path } = await profileApi(ctx.tenant(given), learner);
      try {
        await client.api.DELETE('/api/ai-mentor/orgs/{org}/users/{user_id}/edx-memory/{id}/', {
          params: { path: { ...path, id } },
        });
        return { id, deleted: true };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { id, deleted: false };
        throw refusal(error, `Deleting edX memory ${id} of ${learner}`);
      }
    },

    'memory.learner': async ({ profileId: given, mentor, learner }) => {
      const profileId = ctx.tenant(given);
      const api = await learnerApi(profileId, learner);
      // The current memory is the page's subject: its refusal is the call's. History and progress are extras.
      const [current, history, progress] = await Promise.allSettled([
        api.current(mentor),
        api.history(mentor),
        api.progress(mentor),
      ]);
      if (current.status === 'rejected') throw refusal(current.reason, `The memory of ${learner}`);
      const warnings: string[] = [];
      const said = (reason: unknown) =>
        platformSaid(reason) ?? (reason instanceof Error ? reason.message : String(reason));
      if (history.status === 'rejected') warnings.push(`History not read: ${said(history.reason)}`);
      if (progress.status === 'rejected') warnings.push(`Progress not read: ${said(progress.reason)}`);
      return {
        learner,
        mentor,
        current: current.value,
        history: history.status === 'fulfilled' ? history.value : [],
        progress: progress.status === 'fulfilled' ? progress.value : null,
        warnings,
      };
    },

    'memory.clear': async ({ profileId: given, mentor, learner, confirm }) => {
      const profileId = ctx.tenant(given);
      if (confirm.trim() !== learner) throw invalid('confirm', `Type ${learner} to clear their memory`);
      const api = await learnerApi(profileId, learner);
      let current: MemoryComponents;
      try {
        current = await api.current(mentor);
      } catch (error) {
        throw refusal(error, `The memory of ${learner}`);
      }
      const held = MEMORY_COMPONENTS.filter((category) => current[category].length > 0);
      const cleared: (typeof MEMORY_COMPONENTS)[number][] = [];
      try {
        for (const category of held) if (await api.deleteCategory(category)) cleared.push(category);
      } catch (error) {
        throw refusal(
          error,
          `Clearing the memory of ${learner}${cleared.length ? ` (cleared: ${cleared.join(', ')})` : ''}`,
        );
      }
      return { learner, cleared, nothingToClear: cleared.length === 0 };
    },
  };
}
