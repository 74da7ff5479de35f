/**
 * The platform's analytics endpoints the app reads, with zod schemas for the answers it relies on. Every answer is
 * validated at this boundary: an unexpected shape becomes an `UnexpectedShapeError` naming the endpoint and the
 * first fields that differ, never a silent cast.
 */
import { z } from 'zod';
import { EngineError } from '../errors';
import { ApiError, type PlatformClient, type PlatformRequestOptions } from '../platform';

export interface AnalyticsScope {
  org: string;
  username: string;
}

type Query = PlatformRequestOptions['query'];

/** The platform answered 2xx with a body the app does not understand. */
export class UnexpectedShapeError extends Error {
  override name = 'UnexpectedShapeError';
  constructor(
    readonly endpoint: string,
    readonly issues: string,
  ) {
    super(`The platform answered ${endpoint} with an unexpected shape: ${issues}`);
  }
}

export function describeZodIssues(error: z.ZodError, max = 3): string {
  return error.issues
    .slice(0, max)
    .map((i) => `${i.path.length ? i.path.join('.') : '(answer)'}: ${i.message}`)
    .join('; ');
}

// ----- envelopes -------------------------------------------------------------------------------------------------

/** DRF `{count, next, previous, results}` (page numbers or limit/offset). */
export const drfPage = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int().min(0),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

/** Legacy analytics `{data, pagination: {totalItems, currentPage, perPage, totalPages}}`. */
export const legacyPage = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    pagination: z.object({
      totalItems: z.number().int().min(0),
      currentPage: z.number().int(),
      perPage: z.number().int(),
      totalPages: z.number().int().min(0),
    }),
  });

// ----- shapes ----------------------------------------------------------------------------------------------------

const Topic = z.object({ name: z.string() });
const num = z.number();
const text = z.string();

export const ApiConversation = z.object({
  id: text,
  /** The transcript as a JSON string of `[{type, content, timestamp}]`. */
  messages: text,
  topics: z.array(Topic),
  sentiment: text,
  mentor: text,
  student: text,
  email: text,
  model: text,
  rating: num.nullable(),
  inserted_at: text,
  llm_provider: text.nullish(),
  has_document: z.boolean().optional(),
  metadata: z.object({ message_count: num.optional() }).nullish().catch(null),
});
export type ApiConversation = z.infer<typeof ApiConversation>;

export const ApiTranscriptMessage = z.object({ type: text, content: text, timestamp: text });
export const ApiTranscript = z.array(ApiTranscriptMessage);

export const ApiTopicStatistics = z.object({
  name: text,
  conversations: num,
  messages: num,
  avg_sentiment: text,
  avg_user_rating: z.union([text, num]),
});
export const ApiSentimentDay = z.object({
  date: text,
  sentiment_count: num,
  positive: num.optional(),
  neutral: num.optional(),
  negative: num.optional(),
});
export const ApiMessageStatistics = z.object({ time: text, avg_messages: num, total_sessions: num });
export const ApiUserCount = z.object({ date: text, user_count: num });
export const ApiRatingRecord = z.object({ time: text, total_ratings: num });
export const ApiTopicRecord = z.object({ topic_name: text, conversation_count: num });
export const ApiModelCost = z.object({
  model: text,
  total_cost: num,
  /** Beyond the spec's single ModelCost: the split per model, when the platform sends it. */
  model_costs: z.array(z.object({ model: text, total_cost: num })).optional(),
});
export const ApiMentorCosts = z.object({
  tenant: text,
  tenant_total_cost: num,
  mentor_data: z.array(
    z.object({
      mentor_unique_id: text,
      mentor_name: text,
      total_cost: num,
      mentor_sessions: z.array(z.object({ session_id: text, cost: num })),
    }),
  ),
});
export const ApiUserCost = z.object({ username: text, total_cost: num });
export const ApiUserCosts = z.object({
  count: z.number().int().min(0),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(ApiUserCost),
});
export const ApiOvertime = z.object({
  data: z.record(z.string(), num),
  total: num,
  meta: z.object({ total: num, change_range: num.optional(), change_range_percent: num.optional() }).optional(),
});
export const ApiCompletions = z.object({
  data: z.object({
    overtime: z.record(z.string(), num),
    total_user_count: num,
    completed_count: num,
    completed_percent: num,
  }),
  meta: z.object({ change_range_percent: num.optional() }).optional(),
});
export const ApiAverage = z.object({ data: z.object({ average: num.nullable() }) });
export const ApiLearner = z.object({
  username: text,
  full_name: text,
  enrollments: num,
  completions: num,
  last_active: text,
  time_spent: z.union([text, num]),
  engagement_index: num,
  performance_index: num,
});
export const ApiActiveLearner = z.object({
  username: text,
  name: text,
  engagement_index: num,
  performance_index: num,
});
export const ApiCourseTime = z.object({
  name: text,
  course_id: text,
  time_spent: num,
  course_start: text.nullish(),
  course_end: text.nullish(),
  average_time: num,
});
export const ApiGroup = z.object({
  id: num,
  name: text,
  courses_enrolled: num,
  courses_completed: num,
  completion_rate: num,
  certificates_earned: num,
  time_spent: z.union([text, num]),
});
export const ApiMentor = z.object({ unique_id: text.nullish(), name: text });
export const ApiGradePerCourse = z.object({
  course_id: text.optional(),
  name: text.optional(),
  course_name: text.optional(),
  grade: num.nullish(),
  percent: num.nullish(),
  class_average: num.nullish(),
});
/** LearnerInformationAPI (only what the app shows). */
export const ApiLearnerInfo = z.object({
  data: z.object({
    username: text,
    name: text,
    email: text,
    date_joined: text,
    last_activity: text,
    total_time_spent: num.nullish(),
    course_completions: num.nullish(),
  }),
});
/** ActivityAPI: time, active days and last access per course. */
export const ApiLearnerActivity = z.object({
  data: z
    .array(
      z.object({
        course_id: text,
        name: text,
        time_invested: num,
        days_accessed: num,
        last_access_date: text,
      }),
    )
    .optional(),
  total: num,
});

// ----- requests --------------------------------------------------------------------------------------------------

export interface ReadOptions {
  signal?: AbortSignal | undefined;
  /** Dashboards give up quickly (the cache answers instead); exports keep retrying. */
  quick?: boolean;
}

/** Reads analytics for one tenant through its platform client; every answer is checked against its schema. */
export class AnalyticsApi {
  constructor(
    readonly client: PlatformClient,
    readonly scope: AnalyticsScope,
    /** Identical dashboard requests under way share one answer (two charts often need the same endpoint). */
    private readonly inFlight?: Map<string, Promise<unknown>>,
  ) {}

  private get user() {
    return `/api/ai-analytics/orgs/${encodeURIComponent(this.scope.org)}/users/${encodeURIComponent(this.scope.username)}`;
  }
  private get org() {
    return encodeURIComponent(this.scope.org);
  }

  /**
   * GET and validate. A 400 with the platform's own words (e.g. 'Invalid date format') is shown as those words.
   * `fits` is an allocation-free check for hot paths (export pages): when it accepts the answer, the answer is used
   * as is; otherwise zod decides and names what differs.
   */
  async get<T extends z.ZodType>(
    path: string,
    schema: T,
    query: Query,
    options: ReadOptions = {},
    fits?: (body: unknown) => boolean,
  ): Promise<z.output<T>> {
    const endpoint = path.replace(/\?.*$/, '');
    const send = () =>
      this.client.request(path, {
        query,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.quick ? { maxAttempts: 2, timeoutMs: 15_000 } : {}),
      });
    let body: unknown;
    try {
      if (options.quick && !options.signal && this.inFlight) {
        const key = `${this.client.baseUrl} ${path} ${JSON.stringify(query ?? {})}`;
        let pending = this.inFlight.get(key);
        if (!pending) {
          pending = send().finally(() => this.inFlight!.delete(key));
          this.inFlight.set(key, pending);
        }
        body = await pending;
      } else body = await send();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        throw new EngineError('validation', error.detail ?? 'The platform refused the request (400 Bad Request)', {
          status: 400,
        });
      }
      throw error;
    }
    if (fits?.(body)) return body as z.output<T>;
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new UnexpectedShapeError(endpoint, describeZodIssues(parsed.error));
    return parsed.data;
  }

  conversationsPage(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/chat-history/`, drfPage(ApiConversation), query, options, fitsConversationPage);
  }
  conversation(id: string, options?: ReadOptions) {
    return this.get(`${this.user}/chat-history/${encodeURIComponent(id)}/`, ApiConversation, {}, options);
  }
  topicStatistics(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/topic-statistics/`, drfPage(ApiTopicStatistics), query, options);
  }
  sentimentCount(period: string, options?: ReadOptions) {
    return this.get(`${this.user}/sentiment-count/`, z.array(ApiSentimentDay), { period }, options);
  }
  messageStatistics(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/average-messages-per-session/`, z.array(ApiMessageStatistics), query, options);
  }
  usageSummary(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/usage-summary/`, z.array(ApiUserCount), query, options);
  }
  ratingSummary(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/rating-summary/`, z.array(ApiRatingRecord), query, options);
  }
  mostDiscussedTopics(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/most-discussed-topics/`, z.array(ApiTopicRecord), query, options);
  }
  costsByModel(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/costs/model/`, ApiModelCost, query, options);
  }
  costsByMentor(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/costs/permentor/`, ApiMentorCosts, query, options);
  }
  costsByUser(query: Query, options?: ReadOptions) {
    return this.get(`${this.user}/costs/peruser/`, ApiUserCosts, query, options);
  }

  // Learning analytics (legacy envelope for lists).
  activeUsers(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/overview/orgs/${this.org}/active-users`, ApiOvertime, query, options);
  }
  registeredUsers(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/overview/orgs/${this.org}/registered-users`, ApiOvertime, query, options);
  }
  completions(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/overview/orgs/${this.org}/courses/completions`, ApiCompletions, query, options);
  }
  averageGrade(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/overview/orgs/${this.org}/average-grade`, ApiAverage, query, options);
  }
  learners(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/overview/orgs/${this.org}/learners`, legacyPage(ApiLearner), query, options);
  }
  registeredLearners(query: Query, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/audience/orgs/${this.org}/registered-users/`,
      legacyPage(ApiLearner),
      query,
      options,
    );
  }
  activeLearners(query: Query, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/audience/orgs/${this.org}/active-users/users`,
      legacyPage(ApiActiveLearner),
      query,
      options,
    );
  }
  mostActiveCourses(query: Query, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/overview/orgs/${this.org}/most-active-courses`,
      legacyPage(ApiCourseTime),
      query,
      options,
    );
  }
  departments(query: Query, options?: ReadOptions) {
    return this.get(`/api/ai-analytics/departments/orgs/${this.org}/`, legacyPage(ApiGroup), query, options);
  }
  learnerGrades(username: string, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/perlearner/orgs/${this.org}/users/${encodeURIComponent(username)}/grades/per-course`,
      z.union([z.array(ApiGradePerCourse), z.object({ data: z.array(ApiGradePerCourse) })]),
      {},
      options,
    );
  }
  learnerInfo(username: string, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/perlearner/orgs/${this.org}/users/${encodeURIComponent(username)}/info`,
      ApiLearnerInfo,
      {},
      options,
    );
  }
  learnerActivity(username: string, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/perlearner/orgs/${this.org}/users/${encodeURIComponent(username)}/activity/`,
      ApiLearnerActivity,
      {},
      options,
    );
  }
  learnerTime(username: string, query: Query, options?: ReadOptions) {
    return this.get(
      `/api/ai-analytics/perlearner/orgs/${this.org}/users/${encodeURIComponent(username)}/overview/time/over-time`,
      ApiOvertime,
      query,
      options,
    );
  }
  mentors(options?: ReadOptions) {
    return this.get(
      `/api/ai-mentor/orgs/${this.org}/users/${encodeURIComponent(this.scope.username)}/`,
      drfPage(ApiMentor),
      { page_size: 1000, filter_by: 'name' },
      options,
    );
  }
}

/** The transcript inside a conversation; a malformed one is an unexpected shape, reported as such. */
export function parseTranscript(conversation: Pick<ApiConversation, 'id' | 'messages'>, endpoint: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(conversation.messages || '[]');
  } catch {
    throw new UnexpectedShapeError(endpoint, `messages of conversation ${conversation.id}: not JSON`);
  }
  if (Array.isArray(raw) && raw.every(fitsMessage)) return raw as z.output<typeof ApiTranscript>;
  const parsed = ApiTranscript.safeParse(raw);
  if (!parsed.success) {
    throw new UnexpectedShapeError(
      endpoint,
      `messages of conversation ${conversation.id}: ${describeZodIssues(parsed.error)}`,
    );
  }
  return parsed.data;
}

// ----- allocation-free checks for the export's hot path (the zod schemas above stay the definition) ------------

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown) => typeof v === 'string';
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || v === null || check(v);

function fitsMessage(m: unknown): boolean {
  return isObject(m) && isString(m.type) && isString(m.content) && isString(m.timestamp);
}

function fitsConversation(c: unknown): boolean {
  return (
    isObject(c) &&
    isString(c.id) &&
    isString(c.messages) &&
    Array.isArray(c.topics) &&
    c.topics.every((t) => isObject(t) && isString(t.name)) &&
    isString(c.sentiment) &&
    isString(c.mentor) &&
    isString(c.student) &&
    isString(c.email) &&
    isString(c.model) &&
    (c.rating === null || typeof c.rating === 'number') &&
    isString(c.inserted_at) &&
    optional(c.llm_provider, isString) &&
    optional(c.has_document, (v) => typeof v === 'boolean') &&
    optional(c.metadata, (v) => isObject(v) && optional(v.message_count, (n) => typeof n === 'number'))
  );
}

function fitsConversationPage(body: unknown): boolean {
  return (
    isObject(body) &&
    Number.isInteger(body.count) &&
    (body.count as number) >= 0 &&
    (body.next === null || isString(body.next)) &&
    (body.previous === null || isString(body.previous)) &&
    Array.isArray(body.results) &&
    body.results.every(fitsConversation)
  );
}
