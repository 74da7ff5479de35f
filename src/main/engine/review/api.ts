/**
 * The platform endpoints the review area reads and deletes through, answers validated at the boundary:
 * `moderation-logs/`, `safety-logs/` (`ModerationLog`), the mentor list (for the integer ids the logs carry),
 * `chat-history/` (the conversation a log came from, and the conversations learners rated down: the spec lists no
 * feedback entries, and a conversation's `rating` is -1 when its learner gave a thumbs down), `traces/` and
 * `observations/` (Langfuse).
 */
import { z } from 'zod';
import type { PlatformClient } from '../platform';

export interface Scope {
  org: string;
  username: string;
}

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const maybe = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const ApiLog = z.object({
  id: z.number().int(),
  username: text,
  email: text,
  mentor: z.number().int(),
  prompt: z.string(),
  reason: z.string(),
  target_system: z.enum(['Safety System', 'Moderation System']).nullish(),
  date_created: z.string(),
});
export type ApiLog = z.output<typeof ApiLog>;

const LogPage = z.object({ count: z.number().int(), next: z.string().nullish(), results: z.array(ApiLog) });

const MentorPage = z.object({
  next: z.string().nullish(),
  results: z.array(z.object({ id: z.number().int().nullish(), unique_id: z.string(), name: z.string() }).passthrough()),
});

/** The spec's `Conversations`: `id` is the chat session's id. */
export const ApiConversation = z.object({
  id: z.string(),
  mentor: maybe,
  messages: z.union([z.string(), z.array(z.unknown())]).nullish(),
  /** 1 thumbs up, -1 thumbs down, 0 (or absent) not rated. */
  rating: z.number().int().nullish(),
  student: text,
  email: text,
  inserted_at: text,
});
export type ApiConversation = z.output<typeof ApiConversation>;
const ConversationPage = z.object({ next: z.string().nullish(), results: z.array(ApiConversation) });

export const ApiTrace = z.object({
  id: z.string(),
  timestamp: z.string(),
  name: z.string(),
  user_id: maybe,
  metadata: z.unknown(),
  input: maybe,
  output: maybe,
  session_id: maybe,
});
export type ApiTrace = z.output<typeof ApiTrace>;
const TracePage = z.object({ count: z.number().int(), next: z.string().nullish(), results: z.array(ApiTrace) });

export const ApiObservation = z.object({
  id: z.string(),
  trace_id: z.string(),
  type: z.string(),
  parent_observation_id: maybe,
  start_time: z.string(),
  end_time: maybe,
  name: z.string(),
  level: z.string(),
  status_message: maybe,
  input: maybe,
  output: maybe,
  provided_model_name: maybe,
  usage_details: z.unknown(),
  total_cost: z.union([z.string(), z.number()]).nullish(),
});
export type ApiObservation = z.output<typeof ApiObservation>;
const ObservationPage = z.object({
  count: z.number().int(),
  next: z.string().nullish(),
  results: z.array(ApiObservation),
});

export const LOG_SEGMENTS = { moderation: 'moderation-logs', safety: 'safety-logs' } as const;
export type LogKind = keyof typeof LOG_SEGMENTS;

const MODERATION = '/api/ai-mentor/orgs/{org}/users/{user_id}/moderation-logs/' as const;
const SAFETY = '/api/ai-mentor/orgs/{org}/users/{user_id}/safety-logs/' as const;
const MODERATION_ONE = '/api/ai-mentor/orgs/{org}/users/{user_id}/moderation-logs/{id}/' as const;
const SAFETY_ONE = '/api/ai-mentor/orgs/{org}/users/{user_id}/safety-logs/{id}/' as const;
const ANALYTICS = '/api/ai-analytics/orgs/{org}/users/{user_id}/' as const;

export class ReviewApi {
  constructor(
    private readonly client: PlatformClient,
    private readonly scope: Scope,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }

  /** One page of a kind of log, newest first. */
  async logs(kind: LogKind, page: number, pageSize: number, signal?: AbortSignal) {
    const options = {
      params: { path: this.user, query: { page, page_size: pageSize, ordering: '-date_created' } },
      ...(signal ? { signal } : {}),
    };
    const { data } =
      kind === 'moderation'
        ? await this.client.api.GET(MODERATION, options)
        : await this.client.api.GET(SAFETY, options);
    return LogPage.parse(data);
  }

  async deleteLog(kind: LogKind, id: number): Promise<void> {
    const options = { params: { path: { ...this.user, id } } };
    if (kind === 'moderation') await this.client.api.DELETE(MODERATION_ONE, options);
    else await this.client.api.DELETE(SAFETY_ONE, options);
  }

  /** Every mentor of the tenant with the integer id logs name it by (the list is DRF-paginated). */
  async mentors(): Promise<{ id: number; uniqueId: string; name: string }[]> {
    const out: { id: number; uniqueId: string; name: string }[] = [];
    for (let page = 1; page <= 50; page++) {
      const { data } = await this.client.api.GET('/api/ai-mentor/orgs/{org}/users/{user_id}/', {
        params: { path: this.user, query: { page, page_size: 200 } },
      });
      const answer = MentorPage.parse(data);
      for (const m of answer.results)
        if (typeof m.id === 'number') out.push({ id: m.id, uniqueId: m.unique_id, name: m.name });
      if (!answer.next) break;
    }
    return out;
  }

  /** A learner's conversations that started between two days (inclusive), newest first. */
  async conversations(learner: string, from: string, to: string) {
    const out: z.output<typeof ApiConversation>[] = [];
    for (let page = 1; page <= 20; page++) {
      const { data } = await this.client.api.GET(`${ANALYTICS}chat-history/`, {
        params: {
          path: this.user,
          query: { filter_user_id: learner, start_date: from, end_date: to, page, page_size: 100 },
        },
      });
      const answer = ConversationPage.parse(data);
      out.push(...answer.results);
      if (!answer.next) break;
    }
    return out;
  }

  /** One page of the tenant's conversations that started from a day on (inclusive), newest first. */
  async conversationsSince(from: string, page: number, pageSize: number) {
    const { data } = await this.client.api.GET(`${ANALYTICS}chat-history/`, {
      params: { path: this.user, query: { start_date: from, page, page_size: pageSize } },
    });
    return ConversationPage.parse(data);
  }

  /** One conversation by its session id. */
  async conversation(session: string): Promise<ApiConversation> {
    const { data } = await this.client.api.GET(`${ANALYTICS}chat-history/{id}/`, {
      params: { path: { ...this.user, id: session } },
    });
    return ApiConversation.parse(data);
  }

  async traces(query: { search?: string; ordering?: string; limit: number; offset: number }) {
    const { data } = await this.client.api.GET(`${ANALYTICS}traces/`, {
      params: { path: this.user, query },
    });
    return TracePage.parse(data);
  }

  async trace(id: string): Promise<ApiTrace> {
    const { data } = await this.client.api.GET(`${ANALYTICS}traces/{id}/`, { params: { path: { ...this.user, id } } });
    return ApiTrace.parse(data);
  }

  /**
   * A trace's observations. The spec's `observations/` filters by nothing but a search, so the trace id is searched
   * and only the observations that name it are kept.
   */
  async observationsOf(traceId: string): Promise<ApiObservation[]> {
    const out: ApiObservation[] = [];
    for (let offset = 0; offset < 100_000;) {
      const { data } = await this.client.api.GET(`${ANALYTICS}observations/`, {
        params: { path: this.user, query: { search: traceId, ordering: 'start_time', limit: 1000, offset } },
      });
      const answer = ObservationPage.parse(data);
      out.push(...answer.results.filter((o) => o.trace_id === traceId));
      offset += answer.results.length;
      if (!answer.next || !answer.results.length) break;
    }
    return out;
  }
}
