/**
 * Quality and safety (issue 18): one review queue over the tenant's moderation and safety logs, with a reviewed state
 * kept on this machine per tenant (who, when), saved views, counts per mentor and a CSV export; each item opens the
 * conversation it came from at the flagged message with the mentor's settings as they were then; LLM traces (Langfuse
 * traces and their observations) as timelines, and the slowest and costliest per mentor.
 */
import { z } from 'zod';
import { call, event, Ok } from './kit';
import { Freshness } from './mentors';
import { sessionCalls } from './sessions';

const Tenant = { profileId: z.string().min(1).optional() };

/** The logs' `target_system` values, and conversations the learner rated down (chat-history's `rating` -1). */
export const REVIEW_SOURCES = ['Moderation System', 'Safety System', 'Negative feedback'] as const;
export const ReviewSource = z.enum(REVIEW_SOURCES);
export type ReviewSource = z.infer<typeof ReviewSource>;

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is YYYY-MM-DD');

export const ReviewFilter = z
  .object({
    sources: z.array(ReviewSource).max(REVIEW_SOURCES.length).optional(),
    /** The mentor's integer id, as the logs name it. */
    mentor: z.number().int().optional(),
    learner: z.string().trim().max(200).optional(),
    from: Day.optional(),
    to: Day.optional(),
    /** Open (not reviewed here yet), reviewed, or both. */
    state: z.enum(['open', 'reviewed', 'all']).default('open'),
    search: z.string().trim().max(200).optional(),
  })
  .strict();
export type ReviewFilter = z.input<typeof ReviewFilter>;

export const ReviewItem = z.object({
  /** `moderation:ID` or `safety:ID` (the endpoint and the log's id), or `feedback:SESSION` (the rated conversation). */
  id: z.string(),
  source: ReviewSource,
  /** The log's id; null for negative feedback. */
  logId: z.number().int().nullable(),
  /** The rated conversation of negative feedback; null for a log (found from its prompt when opened). */
  session: z.string().nullable(),
  learner: z.string(),
  email: z.string(),
  mentorId: z.number().int(),
  mentorName: z.string().nullable(),
  prompt: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type ReviewItem = z.infer<typeof ReviewItem>;

export const ReviewSyncState = z.object({
  syncedAt: z.string().nullable(),
  /** Why the last refresh failed (the queue shows the cache with it); null when it worked. */
  error: z.string().nullable(),
});

export const ReviewPage = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  items: z.array(ReviewItem),
  /** Items per mentor under the filter (mentor and state aside), most first. */
  mentors: z.array(
    z.object({ id: z.number().int(), name: z.string().nullable(), open: z.number().int(), total: z.number().int() }),
  ),
  sync: ReviewSyncState,
});
export type ReviewPage = z.infer<typeof ReviewPage>;

export const ReviewMessage = z.object({
  role: z.enum(['learner', 'mentor']),
  content: z.string(),
  timestamp: z.string(),
});

export const ReviewConversation = z.object({
  available: z.boolean(),
  /** Why there is no conversation ("This conversation no longer exists"), or a note about it. */
  reason: z.string().nullable(),
  session: z.string().nullable(),
  mentorUniqueId: z.string().nullable(),
  messages: z.array(ReviewMessage),
  /** The index of the flagged message in `messages`. */
  flaggedIndex: z.number().int().nullable(),
});
export type ReviewConversation = z.infer<typeof ReviewConversation>;

export const ReviewMentorSettings = z.object({
  /** When the snapshot was kept (the latest at or before the flagged message); null: today's settings. */
  takenAt: z.string().nullable(),
  note: z.string(),
  safetyPrompt: z.string().nullable(),
  safetyResponse: z.string().nullable(),
  moderationPrompt: z.string().nullable(),
  moderationResponse: z.string().nullable(),
});

export const ReviewDetail = z.object({
  item: ReviewItem,
  conversation: ReviewConversation,
  /** The mentor's safety settings at the time, from the mentor editor's local snapshots; null when none were kept. */
  settings: ReviewMentorSettings.nullable(),
});
export type ReviewDetail = z.infer<typeof ReviewDetail>;

export const ReviewView = z.object({
  id: z.number().int(),
  name: z.string(),
  filter: ReviewFilter,
});
export type ReviewView = z.infer<typeof ReviewView>;

export const TraceSpan = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  type: z.string(),
  name: z.string(),
  level: z.string(),
  status: z.string().nullable(),
  model: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string().nullable(),
  latencyMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  totalTokens: z.number().nullable(),
  cost: z.number().nullable(),
  input: z.string().nullable(),
  output: z.string().nullable(),
});
export type TraceSpan = z.infer<typeof TraceSpan>;

export const TraceSummary = z.object({
  id: z.string(),
  name: z.string(),
  timestamp: z.string(),
  learner: z.string().nullable(),
  session: z.string().nullable(),
  mentorUniqueId: z.string().nullable(),
  input: z.string().nullable(),
  output: z.string().nullable(),
});
export type TraceSummary = z.infer<typeof TraceSummary>;

export const TraceDetail = z.object({
  trace: TraceSummary,
  spans: z.array(TraceSpan),
  totals: z.object({
    /** The time the spans took (overlapping spans counted once): the model's, retrieval's and tools' time. */
    latencyMs: z.number().nullable(),
    /** From the first span's start to the last one's end: the conversation, the learner's pauses included. */
    durationMs: z.number().nullable(),
    tokens: z.number(),
    cost: z.number(),
    tools: z.number().int(),
  }),
});
export type TraceDetail = z.infer<typeof TraceDetail>;

export const TraceRanking = z.object({
  trace: TraceSummary,
  /** As TraceDetail's totals; null with `measured` false (the most recent, listed before their spans were read). */
  latencyMs: z.number().nullable(),
  durationMs: z.number().nullable(),
  cost: z.number(),
  tokens: z.number(),
  measured: z.boolean(),
});
export type TraceRanking = z.infer<typeof TraceRanking>;

export const reviewCalls = {
  'review.sync': call(
    z.object(Tenant).strict().optional(),
    ReviewSyncState.extend({ total: z.number().int() }),
    "Bring the local review queue up to date with the tenant's moderation and safety logs and the conversations rated down",
  ),
  'review.list': call(
    z
      .object({
        ...Tenant,
        filter: ReviewFilter.default({ state: 'open' }),
        offset: z.number().int().min(0).default(0),
        limit: z.number().int().min(0).max(5000).default(200),
      })
      .strict(),
    ReviewPage,
    'A window of the review queue (from the local cache), with counts per mentor',
  ),
  'review.get': call(
    z.object({ ...Tenant, id: z.string().min(1) }).strict(),
    ReviewDetail,
    'One item with the conversation it came from (at the flagged message) and the mentor settings at the time',
  ),
  'review.mark': call(
    z
      .object({ ...Tenant, ids: z.array(z.string().min(1)).min(1).max(100_000), reviewed: z.boolean().default(true) })
      .strict(),
    z.object({ marked: z.number().int(), unknown: z.array(z.string()) }),
    'Mark items reviewed (or open again) on this machine, with who and when',
  ),
  'review.delete': call(
    z.object({ ...Tenant, id: z.string().min(1) }).strict(),
    Ok,
    'Delete a moderation or safety log on the tenant (negative feedback has no delete call: mark it reviewed)',
  ),
  'review.views': call(z.object(Tenant).strict().optional(), z.array(ReviewView), 'Saved review views'),
  'review.saveView': call(
    z
      .object({
        ...Tenant,
        id: z.number().int().optional(),
        name: z.string().trim().min(1, 'Name the view').max(80),
        filter: ReviewFilter,
      })
      .strict(),
    ReviewView,
    'Save (or rename) a review view',
  ),
  'review.deleteView': call(z.object({ ...Tenant, id: z.number().int() }).strict(), Ok, 'Remove a saved review view'),
  'review.export': call(
    z.object({ ...Tenant, filter: ReviewFilter.default({ state: 'open' }) }).strict(),
    z.object({ fileName: z.string(), csv: z.string(), rows: z.number().int() }),
    'The filtered queue as a CSV file (injection-safe cells)',
  ),
  'review.traces': call(
    z
      .object({
        ...Tenant,
        search: z.string().trim().max(200).optional(),
        mentor: z.string().optional(),
        from: Day.optional(),
        to: Day.optional(),
        rank: z.enum(['recent', 'slowest', 'costliest']).default('recent'),
        limit: z.number().int().min(1).max(500).default(50),
        /** Read the traces and their spans again rather than rank the saved reading. */
        refresh: z.boolean().optional(),
      })
      .strict(),
    z.object({ traces: z.array(TraceRanking), scanned: z.number().int(), freshness: Freshness.nullable() }),
    'Traces: the most recent, or the slowest or costliest over a range (per mentor when one is named), ranked from a ' +
      'saved reading of their spans (read again when stale or asked)',
  ),
  'review.trace': call(
    z.object({ ...Tenant, id: z.string().min(1) }).strict(),
    TraceDetail,
    'One trace as a timeline of its spans (model, tokens, cost, latency, tool calls)',
  ),
  'review.traceOf': call(
    z.object({ ...Tenant, session: z.string().min(1) }).strict(),
    z.object({ traces: z.array(TraceSummary) }),
    'The traces of a chat session',
  ),
  ...sessionCalls,
} as const;

export const reviewEvents = {
  /** The saved reading of a range's traces was refreshed in the background (or could not be: `offline`). */
  'review.tracesChanged': event(z.object({ profileId: z.string(), offline: z.string().nullable() }), {
    invalidates: [{ call: 'review.traces', by: ['profileId'] }],
  }),
  'review.changed': event(z.object({ profileId: z.string() }), {
    invalidates: [
      { call: 'review.list', by: ['profileId'] },
      { call: 'review.views', by: ['profileId'] },
    ],
  }),
} as const;
