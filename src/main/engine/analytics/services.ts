/** What every analytics handler needs: the tenant's API, the answer cache, ranges resolved in a zone, filters. */
import {
  FILTER_PARTS,
  localDate,
  type FilterOption,
  type FilterPart,
  localTimeZone,
  resolveRange,
  type DashboardInput,
  type ResolvedRange,
} from '../../../shared/contract';
import type { EngineServices } from '../context';
import { EngineError } from '../errors';
import { userScope } from '../tenants';
import { AnalyticsApi } from './api';
import type { AnswerCache, Cached } from '../store';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

export interface Filters {
  mentors: { id: string; name: string }[];
  departments: { id: string; name: string }[];
  topics: string[];
}

export interface Resolved {
  profileId: string;
  api: AnalyticsApi;
  range: ResolvedRange;
  timeZone: string;
  /** The mentor's unique id, when filtering by mentor. */
  mentorId: string | undefined;
  department: number | undefined;
  /** The instant the range was resolved at: what is partial ("so far") is decided against it. */
  now: number;
}

/** The shape of cached answers: raised when it changes, so answers of another shape are never served. */
export const ANSWER_SHAPE = 2;

/** What analytics uses of the engine. */
export type AnalyticsDeps = Pick<
  EngineServices,
  'config' | 'tenant' | 'platform' | 'profiles' | 'journal' | 'runner' | 'emit' | 'log'
>;

export class AnalyticsServices {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    readonly services: AnalyticsDeps,
    readonly cache: AnswerCache,
    readonly clock: () => number = Date.now,
  ) {}

  async api(profileId: string): Promise<AnalyticsApi> {
    const [client, scope] = await Promise.all([
      this.services.platform(profileId),
      userScope(this.services.profiles, profileId),
    ]);
    return new AnalyticsApi(client, scope, this.inFlight);
  }

  /** The zone asked for, else the machine's. */
  timeZone(requested: string | undefined): string {
    return requested ?? localTimeZone();
  }

  /** Mentors, departments or topics of a tenant, each list cached on its own for an hour. */
  private filterPart(
    profileId: string,
    part: FilterPart,
    refresh?: boolean,
  ): Promise<Cached<FilterOption[] | string[]>> {
    return this.cache.answer(
      { profileId, call: `filters.${part}`, params: {}, refresh, freshForMs: 60 * 60_000 },
      async (): Promise<FilterOption[] | string[]> => {
        const api = await this.api(profileId);
        if (part === 'mentors') {
          const mentors = await api.mentors({ quick: true });
          return mentors.results
            .filter((m) => m.unique_id)
            .map((m) => ({ id: m.unique_id!, name: m.name }))
            .sort((a, b) => a.name.localeCompare(b.name));
        }
        if (part === 'departments') {
          const departments = await api.departments({ page: 1, length: 1000 }, { quick: true });
          return departments.data.map((d) => ({ id: String(d.id), name: d.name }));
        }
        const topics = await api.topicStatistics({ page: 1, page_size: 1000 }, { quick: true });
        return topics.results.map((t) => t.name).sort((a, b) => a.localeCompare(b));
      },
    );
  }

  /** The lists asked for; the freshness of the oldest. */
  async filters(
    profileId: string,
    parts: readonly FilterPart[] = FILTER_PARTS,
    refresh?: boolean,
  ): Promise<Cached<Filters>> {
    const value: Filters = { mentors: [], departments: [], topics: [] };
    const answers = await Promise.all(
      parts.map(async (part) => {
        const answer = await this.filterPart(profileId, part, refresh);
        (value as unknown as Record<string, unknown>)[part] = answer.value;
        return answer.freshness;
      }),
    );
    const oldest = answers.sort((a, b) => (a.asOf ?? '').localeCompare(b.asOf ?? ''))[0]!;
    return { value, freshness: { ...oldest, offline: answers.find((f) => f.offline)?.offline ?? null } };
  }

  /** Mentor unique id → name, for rows that carry only the id. */
  async mentorNames(profileId: string): Promise<Map<string, string>> {
    try {
      const { value } = await this.filters(profileId, ['mentors']);
      return new Map(value.mentors.map((m) => [m.id, m.name]));
    } catch {
      return new Map();
    }
  }

  /** A mentor given by unique id or name → its unique id. */
  async mentorId(profileId: string, ref: string | undefined): Promise<string | undefined> {
    if (!ref) return undefined;
    if (UUID_RE.test(ref)) return ref.toLowerCase();
    const { value } = await this.filters(profileId, ['mentors']);
    const found = value.mentors.find((m) => m.name.toLowerCase() === ref.toLowerCase());
    if (!found)
      throw new EngineError('not_found', `No mentor '${ref}' on this tenant (give its unique id or exact name)`);
    return found.id;
  }

  /** The first day with conversations, in the zone (cached for a day): where "all time" starts. */
  async firstDay(profileId: string, api: AnalyticsApi, timeZone: string): Promise<string | undefined> {
    const { value } = await this.cache.answer(
      { profileId, call: 'firstConversation', params: {}, freshForMs: DAY_MS },
      async () => {
        const first = await api.conversationsPage({ page: 1, page_size: 1 }, { quick: true });
        if (!first.count) return null;
        const last = await api.conversationsPage({ page: first.count, page_size: 1 }, { quick: true });
        return last.results[0]?.inserted_at ?? null;
      },
    );
    return value ? localDate(Date.parse(value), timeZone) : undefined;
  }

  async resolve(input: DashboardInput): Promise<Resolved> {
    const profileId = this.services.tenant(input.profileId);
    const timeZone = this.timeZone(input.timeZone);
    const api = await this.api(profileId);
    const first = input.range.preset === 'all' ? await this.firstDay(profileId, api, timeZone) : undefined;
    let range: ResolvedRange;
    const now = this.clock();
    try {
      range = resolveRange(input.range, timeZone, now, first);
    } catch (error) {
      throw new EngineError('validation', (error as Error).message);
    }
    return {
      profileId,
      api,
      range,
      timeZone,
      mentorId: await this.mentorId(profileId, input.mentor),
      department: input.department,
      now,
    };
  }

  /** A dashboard answer, cached per tenant, call and the parameters that shape it. */
  dashboard<T>(
    call: string,
    input: DashboardInput,
    compute: (resolved: Resolved) => Promise<T>,
  ): Promise<Cached<{ value: T; range: ResolvedRange }>> {
    const { profileId, params, fetch } = this.dashboardRequest(call, input, compute);
    return this.cache.answer({ profileId, call, params, refresh: input.refresh }, fetch);
  }

  /** The cached dashboard answer, if any (a stale one is refreshed behind); the tenant is not waited for. */
  dashboardCached<T>(
    call: string,
    input: DashboardInput,
    compute: (resolved: Resolved) => Promise<T>,
  ): Cached<{ value: T; range: ResolvedRange }> | undefined {
    const { profileId, params, fetch } = this.dashboardRequest(call, input, compute);
    return this.cache.cached({ profileId, call, params }, fetch);
  }

  private dashboardRequest<T>(call: string, input: DashboardInput, compute: (resolved: Resolved) => Promise<T>) {
    const profileId = this.services.tenant(input.profileId);
    const { refresh: _refresh, profileId: _profile, ...rest } = input;
    // Keyed by the range as asked ("last 30 days"), not by its dates: yesterday's answer still stands in offline,
    // and it carries the dates it covers.
    const params = { ...rest, timeZone: this.timeZone(input.timeZone), shape: ANSWER_SHAPE };
    const fetch = async () => {
      const resolved = await this.resolve(input);
      return { value: await compute(resolved), range: resolved.range };
    };
    return { profileId, call, params, fetch };
  }
}
