/**
 * The platform's analytics endpoints the app reads, with zod schemas for the answers it relies on. Every answer is
 * validated at this boundary: an unexpected shape becomes an `UnexpectedShapeError` naming the endpoint and the
 * first fields that differ, never a silent cast.
 */
import { z } from 'zod';
import { EngineError } from '../errors';
import { ApiError, type CallOptions, type PlatformClient } from '../platform';

export interface AnalyticsScope {
  org: string;
  username: string;
}

type QueryValue = string | number | boolean;
/** Query parameters as the datasets build them (arrays repeat a parameter; null and undefined are left out). */
type Query = Record<string, QueryValue | readonly QueryValue[] | null | undefined>;
/** The spec requires a date range on these endpoints. */
type DatedQuery = Query & { start_date: string; end_date: string };

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

/** One typed GET of the platform API, given the caller's signal and patience. */
type Send = (init: CallOptions) => Promise<{ data?: unknown }>;

/** A spec path with its parameters filled in, as errors and the in-flight key name it. */
const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

const USER = '/api/ai-analytics/orgs/{org}/users/{user_id}';

/** Reads analytics for one tenant through its platform client; every answer is checked against its schema. */
export class AnalyticsApi {
  constructor(
    readonly client: PlatformClient,
    readonly scope: AnalyticsScope,
    /** Identical dashboard requests under way share one answer (two charts often need the same endpoint). */
    private readonly inFlight?: Map<string, Promise<unknown>>,
  ) {}

  private get user() {
    return { org: this.scope.org, user_id: this.scope.username };
  }
  private get org() {
    return { org: this.scope.org };
  }

  /**
   * Sends and validates. A 400 with the platform's own words (e.g. 'Invalid date format') is shown as those words.
   * `fits` is an allocation-free check for hot paths (export pages): when it accepts the answer, the answer is used
   * as is; otherwise zod decides and names what differs.
   */
  private async read<T extends z.ZodType>(
    endpoint: string,
    query: Query,
    schema: T,
    options: ReadOptions,
    send: Send,
    fits?: (body: unknown) => boolean,
  ): Promise<z.output<T>> {
    const init: CallOptions = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.quick ? { maxAttempts: 2, timeoutMs: 15_000 } : {}),
    };
    const answer = async () => (await send(init)).data;
    let body: unknown;
    try {
      if (options.quick && !options.signal && this.inFlight) {
        const key = `${this.client.baseUrl} ${endpoint} ${JSON.stringify(query ?? {})}`;
        let pending = this.inFlight.get(key);
        if (!pending) {
          pending = answer().finally(() => this.inFlight!.delete(key));
          this.inFlight.set(key, pending);
        }
        body = await pending;
      } else body = await answer();
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

  /** A GET under `/api/ai-analytics/orgs/{org}/users/{user_id}/…`. */
  private byUser<T extends z.ZodType>(
    rest: string,
    query: Query,
    schema: T,
    options: ReadOptions = {},
    send: Send,
    fits?: (body: unknown) => boolean,
  ) {
    return this.read(fill(`${USER}/${rest}`, this.user), query, schema, options, send, fits);
  }

  conversationsPage(query: Query, options?: ReadOptions) {
    return this.byUser(
      'chat-history/',
      query,
      ConversationPage,
      options,
      (init) => this.client.api.GET(`${USER}/chat-history/`, { params: { path: this.user, query }, ...init }),
      fitsConversationPage,
    );
  }
  conversation(id: string, options?: ReadOptions) {
    return this.byUser(`chat-history/${encodeURIComponent(id)}/`, {}, ApiConversation, options, (init) =>
      this.client.api.GET(`${USER}/chat-history/{id}/`, { params: { path: { ...this.user, id } }, ...init }),
    );
  }
  topicStatistics(query: Query, options?: ReadOptions) {
    return this.byUser('topic-statistics/', query, drfPage(ApiTopicStatistics), options, (init) =>
      this.client.api.GET(`${USER}/topic-statistics/`, { params: { path: this.user, query }, ...init }),
    );
  }
  sentimentCount(period: string, options?: ReadOptions) {
    const query = { period };
    return this.byUser('sentiment-count/', query, z.array(ApiSentimentDay), options, (init) =>
      this.client.api.GET(`${USER}/sentiment-count/`, { params: { path: this.user, query }, ...init }),
    );
  }
  messageStatistics(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('average-messages-per-session/', query, z.array(ApiMessageStatistics), options, (init) =>
      this.client.api.GET(`${USER}/average-messages-per-session/`, { params: { path: this.user, query }, ...init }),
    );
  }
  usageSummary(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('usage-summary/', query, z.array(ApiUserCount), options, (init) =>
      this.client.api.GET(`${USER}/usage-summary/`, { params: { path: this.user, query }, ...init }),
    );
  }
  ratingSummary(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('rating-summary/', query, z.array(ApiRatingRecord), options, (init) =>
      this.client.api.GET(`${USER}/rating-summary/`, { params: { path: this.user, query }, ...init }),
    );
  }
  mostDiscussedTopics(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('most-discussed-topics/', query, z.array(ApiTopicRecord), options, (init) =>
      this.client.api.GET(`${USER}/most-discussed-topics/`, { params: { path: this.user, query }, ...init }),
    );
  }
  costsByModel(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('costs/model/', query, ApiModelCost, options, (init) =>
      this.client.api.GET(`${USER}/costs/model/`, { params: { path: this.user, query }, ...init }),
    );
  }
  costsByMentor(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('costs/permentor/', query, ApiMentorCosts, options, (init) =>
      this.client.api.GET(`${USER}/costs/permentor/`, { params: { path: this.user, query }, ...init }),
    );
  }
  costsByUser(query: DatedQuery, options?: ReadOptions) {
    return this.byUser('costs/peruser/', query, ApiUserCosts, options, (init) =>
      this.client.api.GET(`${USER}/costs/peruser/`, { params: { path: this.user, query }, ...init }),
    );
  }

  // Learning analytics (legacy envelope for lists).
  activeUsers(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/active-users';
    return this.read(fill(path, this.org), query, ApiOvertime, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  registeredUsers(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/registered-users';
    return this.read(fill(path, this.org), query, ApiOvertime, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  completions(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/courses/completions';
    return this.read(fill(path, this.org), query, ApiCompletions, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  averageGrade(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/average-grade';
    return this.read(fill(path, this.org), query, ApiAverage, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  learners(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/learners';
    return this.read(fill(path, this.org), query, legacyPage(ApiLearner), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  registeredLearners(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/audience/orgs/{org}/registered-users/';
    return this.read(fill(path, this.org), query, legacyPage(ApiLearner), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  activeLearners(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/audience/orgs/{org}/active-users/users';
    return this.read(fill(path, this.org), query, legacyPage(ApiActiveLearner), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  mostActiveCourses(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/overview/orgs/{org}/most-active-courses';
    return this.read(fill(path, this.org), query, legacyPage(ApiCourseTime), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }
  departments(query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/departments/orgs/{org}/';
    return this.read(fill(path, this.org), query, legacyPage(ApiGroup), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.org, query }, ...init }),
    );
  }

  // One learner (the path's `user_id` is the learner's username).
  learnerGrades(username: string, options?: ReadOptions) {
    const path = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/grades/per-course';
    const params = { ...this.org, user_id: username };
    return this.read(
      fill(path, params),
      {},
      z.union([z.array(ApiGradePerCourse), z.object({ data: z.array(ApiGradePerCourse) })]),
      options ?? {},
      (init) => this.client.api.GET(path, { params: { path: params }, ...init }),
    );
  }
  learnerInfo(username: string, options?: ReadOptions) {
    const path = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/info';
    const params = { ...this.org, user_id: username };
    return this.read(fill(path, params), {}, ApiLearnerInfo, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: params }, ...init }),
    );
  }
  learnerActivity(username: string, options?: ReadOptions) {
    const path = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/activity/';
    const params = { ...this.org, user_id: username };
    return this.read(fill(path, params), {}, ApiLearnerActivity, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: params }, ...init }),
    );
  }
  learnerTime(username: string, query: Query, options?: ReadOptions) {
    const path = '/api/ai-analytics/perlearner/orgs/{org}/users/{user_id}/overview/time/over-time';
    const params = { ...this.org, user_id: username };
    return this.read(fill(path, params), query, ApiOvertime, options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: params, query }, ...init }),
    );
  }
  mentors(options?: ReadOptions) {
    const path = '/api/ai-mentor/orgs/{org}/users/{user_id}/';
    const query = { page_size: 1000, filter_by: 'name' };
    return this.read(fill(path, this.user), query, drfPage(ApiMentor), options ?? {}, (init) =>
      this.client.api.GET(path, { params: { path: this.user, query }, ...init }),
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

/** Built once: a person's export reads hundreds of these pages. */
const ConversationPage = drfPage(ApiConversation);

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
