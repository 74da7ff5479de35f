/**
 * Analytics: the Overview's charts, the conversations browser, learning pages (each answer cached per tenant, call
 * and parameters, and served from the cache when the tenant is out of reach), CSV exports as durable jobs, and
 * scheduled exports.
 */
import { z } from 'zod';
import { DATASET_IDS } from '../analytics/datasets';
import { RANGE_PRESETS } from '../analytics/range';
import { isCalendarDate, isTimeZone } from '../analytics/time';
import { JobState } from './jobs';
import { call, Empty, event, Ok } from './kit';
import { Freshness } from './mentors';

export * from '../analytics/datasets';
export * from '../analytics/range';
export * from '../analytics/time';
export * from '../analytics/tables';

const Tenant = { profileId: z.string().min(1).optional() };

export const CalendarDate = z.string().refine(isCalendarDate, {
  error: (issue) => `Invalid date format: '${String(issue.input)}' is not a date (use YYYY-MM-DD)`,
});

export const TimeZone = z.string().refine(isTimeZone, {
  error: (issue) => `Unknown time zone '${String(issue.input)}' (use an IANA name such as Europe/Paris, or UTC)`,
});

export const DateRange = z
  .object({ preset: z.enum(RANGE_PRESETS), from: CalendarDate.optional(), to: CalendarDate.optional() })
  .strict()
  .superRefine((range, ctx) => {
    if (range.preset !== 'custom') return;
    if (!range.from || !range.to) {
      ctx.addIssue({
        code: 'custom',
        path: [range.from ? 'to' : 'from'],
        message: 'A custom range needs a start and an end date',
      });
    } else if (range.from > range.to) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `Invalid date range: the start date ${range.from} is after the end date ${range.to}`,
      });
    }
  });
export type DateRange = z.infer<typeof DateRange>;

const PeriodShape = z.object({ from: z.string(), to: z.string(), start: z.string(), end: z.string() });
export const RangeResolved = PeriodShape.extend({
  preset: z.enum(RANGE_PRESETS),
  timeZone: z.string(),
  days: z.number().int(),
  /** The range ends after the instant it was resolved at (it takes in today): its figures are so far. */
  partial: z.boolean().default(false),
  /** The period compared with; for a partial range, only its same part (its `end` is cut to match). */
  previous: PeriodShape.nullable(),
});

/** What every dashboard call takes: a range in a zone (the engine's local zone when absent) and filters. */
const DashboardInput = z
  .object({
    ...Tenant,
    range: DateRange,
    timeZone: TimeZone.optional(),
    /** A mentor's unique id (or name). */
    mentor: z.string().min(1).max(200).optional(),
    department: z.number().int().positive().optional(),
    /** Ask the tenant now instead of serving a fresh-enough cached answer. */
    refresh: z.boolean().optional(),
  })
  .strict();
export type DashboardInput = z.input<typeof DashboardInput>;

/** Every cached answer carries when it was fetched, whether the tenant was out of reach, and notes for the admin. */
const Answer = {
  freshness: Freshness,
  range: RangeResolved,
  /** E.g. "Costs are not filtered by mentor: the platform cannot". */
  notes: z.array(z.string()),
};

/**
 * The engine's one emptiness rule for the chart(s) an answer draws (`src/main/engine/analytics/emptiness.ts`): when
 * true the chart shows its empty state and its CSV export has a header and no rows.
 */
const EmptyFlag = { empty: z.boolean() };

export const KPI_KEYS = [
  'activeUsers',
  'registeredUsers',
  'sessions',
  'messages',
  'avgMessages',
  'ratings',
  'cost',
  'completions',
  'completionRate',
  'averageGrade',
] as const;
export const Kpi = z.object({
  key: z.enum(KPI_KEYS),
  label: z.string(),
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** Percent change against the previous period; null when there is none to compare with (or 0 before: x/0). */
  change: z.number().nullable(),
  unit: z.enum(['count', 'usd', 'ratio', 'percent']),
  /** What the figure counts and which platform endpoint it comes from (the card's tooltip). */
  definition: z.string().default(''),
  /** Why there is no change, or what it compares ("so far today, against yesterday until 19:31"). */
  note: z.string().nullable().default(null),
});
export type Kpi = z.infer<typeof Kpi>;

export const ActivityPoint = z.object({
  date: z.string(),
  sessions: z.number(),
  messages: z.number(),
  activeUsers: z.number().nullable(),
  /** The bucket is not over yet (today, this week): its figures are so far, not a drop. */
  partial: z.boolean().default(false),
});
export const MentorUsage = z.object({
  mentorId: z.string(),
  mentor: z.string(),
  sessions: z.number(),
  cost: z.number(),
});
export const TopicCount = z.object({ topic: z.string(), conversations: z.number() });
export const SentimentShare = z.object({
  sentiment: z.enum(['positive', 'neutral', 'negative']),
  conversations: z.number(),
  share: z.number(),
});
export const ModelCost = z.object({ model: z.string(), cost: z.number(), share: z.number() });
export const MentorCost = z.object({ mentorId: z.string(), mentor: z.string(), cost: z.number(), share: z.number() });

export const ConversationRow = z.object({
  id: z.string(),
  startedAt: z.string(),
  mentorId: z.string(),
  mentor: z.string(),
  learner: z.string(),
  email: z.string(),
  topics: z.array(z.string()),
  sentiment: z.string(),
  rating: z.number().nullable(),
  model: z.string(),
  messages: z.number().int(),
});
export type ConversationRow = z.infer<typeof ConversationRow>;

export const TranscriptMessage = z.object({
  role: z.enum(['human', 'ai', 'other']),
  content: z.string(),
  at: z.string(),
});

export const LearnerRow = z.object({
  username: z.string(),
  name: z.string(),
  enrollments: z.number().nullable(),
  completions: z.number().nullable(),
  lastActive: z.string().nullable(),
  timeSpentSeconds: z.number().nullable(),
  engagementIndex: z.number().nullable(),
  performanceIndex: z.number().nullable(),
});
export type LearnerRow = z.infer<typeof LearnerRow>;

/** One of a learner's courses: grades in percent, the course's average over its graded learners, time spent. */
export const LearnerCourse = z.object({
  courseId: z.string(),
  course: z.string(),
  grade: z.number().nullable(),
  classAverage: z.number().nullable(),
  timeSpentSeconds: z.number().nullable(),
  daysAccessed: z.number().nullable(),
  lastAccess: z.string().nullable(),
});
export type LearnerCourse = z.infer<typeof LearnerCourse>;

export const CourseActivity = z.object({
  courseId: z.string(),
  name: z.string(),
  timeSpentSeconds: z.number(),
  averageTimeSeconds: z.number(),
});
export type CourseActivity = z.infer<typeof CourseActivity>;

export const FILTER_PARTS = ['mentors', 'departments', 'topics'] as const;
export type FilterPart = (typeof FILTER_PARTS)[number];
export const FilterOption = z.object({ id: z.string(), name: z.string() });
export type FilterOption = z.infer<typeof FilterOption>;

// ----- exports ---------------------------------------------------------------------------------------------------

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export const Dataset = z.enum(DATASET_IDS as [string, ...string[]]);

export const ExportOptions = z.object({
  /** A UTF-8 byte order mark so Excel reads the file as UTF-8. */
  bom: z.boolean().default(true),
  delimiter: z.enum(DELIMITERS).default(','),
  /** Column keys, in any order; all columns when absent. */
  columns: z.array(z.string().min(1).max(64)).max(100).optional(),
});

export const ExportRequest = z
  .object({
    ...Tenant,
    dataset: Dataset,
    range: DateRange.default({ preset: '30d' }),
    timeZone: TimeZone.optional(),
    mentor: z.string().min(1).max(200).optional(),
    department: z.number().int().positive().optional(),
    /** Whose rows, for a per-learner dataset (a username or an email); refused for the others. */
    learner: z.string().min(1).max(200).optional(),
    ...ExportOptions.shape,
    /** The file to write (replaced when it exists), or a folder to write a named file into; Downloads by default. */
    path: z.string().min(1).max(4096).optional(),
    folder: z.string().min(1).max(4096).optional(),
    /** Rows per API page (tests and benchmarks); the platform's maximum by default. */
    pageSize: z.number().int().min(1).max(1000).optional(),
    /** Continue an unfinished export of the same data to the same file (after a crash) instead of starting over. */
    resume: z.boolean().optional(),
  })
  .strict();
export type ExportRequest = z.input<typeof ExportRequest>;

export const ExportInfo = z.object({
  id: z.string(),
  dataset: z.string(),
  title: z.string(),
  state: JobState,
  reason: z.string().nullable(),
  error: z.string().nullable(),
  rows: z.number().int(),
  pagesDone: z.number().int(),
  /** Known after the first page. */
  pagesTotal: z.number().int().nullable(),
  rowsPerSecond: z.number(),
  etaSeconds: z.number().nullable(),
  /** Where the file is (or will be, once complete), on the computer the engine runs on. */
  path: z.string(),
  /** The finished file's length in bytes; null until it is complete. */
  bytes: z.number().int().nullable(),
  timeZone: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  scheduleId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExportInfo = z.infer<typeof ExportInfo>;

export const DatasetInfo = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  ranged: z.boolean(),
  mentorFilter: z.boolean(),
  departmentFilter: z.boolean(),
  /** One learner's rows: an export needs `learner`. */
  perLearner: z.boolean(),
});

// ----- scheduled exports -----------------------------------------------------------------------------------------

export const RELATIVE_RANGES = [1, 7, 30, 90] as const;
export const RELATIVE_RANGE_LABELS: Record<(typeof RELATIVE_RANGES)[number], string> = {
  1: 'Yesterday',
  7: 'Last 7 days',
  30: 'Last 30 days',
  90: 'Last 90 days',
};

const HourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 06:30');

export const ScheduleFields = z.object({
  ...Tenant,
  name: z.string().trim().min(1, 'Name is required').max(100),
  dataset: Dataset,
  cadence: z.enum(['daily', 'weekly']),
  /** 0 = Sunday … 6 = Saturday; weekly schedules only. */
  weekday: z.number().int().min(0).max(6).optional(),
  time: HourMinute,
  timeZone: TimeZone.optional(),
  /** The whole days before the run's day: 1 = yesterday, 7 = the last 7 days… */
  rangeDays: z.union(
    RELATIVE_RANGES.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>],
  ),
  /** Where each run writes its file; when absent, a new schedule takes the export folder and a changed one keeps its own. */
  folder: z.string().min(1).max(4096).optional(),
  mentor: z.string().min(1).max(200).optional(),
  ...ExportOptions.shape,
  enabled: z.boolean().default(true),
});

export const Schedule = z.object({
  id: z.string(),
  profileId: z.string(),
  name: z.string(),
  dataset: z.string(),
  cadence: z.enum(['daily', 'weekly']),
  weekday: z.number().int().nullable(),
  time: z.string(),
  timeZone: z.string(),
  rangeDays: z.number().int(),
  folder: z.string(),
  mentor: z.string().nullable(),
  bom: z.boolean(),
  delimiter: z.string(),
  columns: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  /** The last scheduled time that ran (ISO), and the next one. */
  lastRunAt: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  lastExport: ExportInfo.nullable(),
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof Schedule>;

// ----- the Overview's panels --------------------------------------------------------------------------------------

const KpisAnswer = z.object({ kpis: z.array(Kpi), ...Answer });
const ActivityAnswer = z.object({
  points: z.array(ActivityPoint),
  granularity: z.enum(['day', 'week']),
  ...EmptyFlag,
  ...Answer,
});
const TopMentorsAnswer = z.object({ rows: z.array(MentorUsage), ...EmptyFlag, ...Answer });
const TopicsAnswer = z.object({ rows: z.array(TopicCount), ...EmptyFlag, ...Answer });
const SentimentAnswer = z.object({ rows: z.array(SentimentShare), ...EmptyFlag, ...Answer });
const CostsAnswer = z.object({
  total: z.number(),
  byModel: z.array(ModelCost),
  byMentor: z.array(MentorCost),
  ...EmptyFlag,
  ...Answer,
});

/** The Overview's panels and the call that answers each on its own. */
export const OVERVIEW_PANELS = {
  kpis: 'analytics.kpis',
  activity: 'analytics.activity',
  topMentors: 'analytics.topMentors',
  topics: 'analytics.topics',
  sentiment: 'analytics.sentiment',
  costs: 'analytics.costs',
} as const;
export type OverviewPanel = keyof typeof OVERVIEW_PANELS;

export const OverviewAnswer = z.object({
  kpis: KpisAnswer.nullable(),
  activity: ActivityAnswer.nullable(),
  topMentors: TopMentorsAnswer.nullable(),
  topics: TopicsAnswer.nullable(),
  sentiment: SentimentAnswer.nullable(),
  costs: CostsAnswer.nullable(),
});
export type OverviewAnswer = z.infer<typeof OverviewAnswer>;

const Ref = z.object({ id: z.string().min(1) }).strict();

export const analyticsCalls = {
  'analytics.filters': call(
    z
      .object({
        ...Tenant,
        /** Which lists to fetch (each is cached on its own); all three when absent. */
        parts: z.array(z.enum(FILTER_PARTS)).min(1).optional(),
        refresh: z.boolean().optional(),
      })
      .strict()
      .optional(),
    z.object({
      mentors: z.array(FilterOption),
      departments: z.array(FilterOption),
      topics: z.array(z.string()),
      freshness: Freshness,
    }),
    'Mentors, departments and topics to filter analytics by',
  ),
  'analytics.kpis': call(DashboardInput, KpisAnswer, 'Key figures with their change'),
  'analytics.activity': call(DashboardInput, ActivityAnswer, 'Sessions, messages and active users over time'),
  'analytics.topMentors': call(DashboardInput, TopMentorsAnswer, 'Mentors by sessions'),
  'analytics.topics': call(DashboardInput, TopicsAnswer, 'Most discussed topics'),
  'analytics.sentiment': call(DashboardInput, SentimentAnswer, 'Conversations by sentiment'),
  'analytics.costs': call(DashboardInput, CostsAnswer, 'LLM costs by model and by mentor'),
  'analytics.overview': call(
    DashboardInput.omit({ refresh: true }),
    OverviewAnswer,
    "Every Overview panel the engine already holds for these filters, in one answer (null: not fetched yet; ask the panel's own call). Nothing waits on the tenant; stale panels are refreshed behind, as the panel calls do",
  ),
  'analytics.conversations': call(
    DashboardInput.extend({
      sentiment: z.enum(['positive', 'neutral', 'negative']).optional(),
      topics: z.array(z.string().min(1).max(200)).max(20).optional(),
      learner: z.string().min(1).max(200).optional(),
      page: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(100).default(25),
    }).strict(),
    z.object({
      count: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
      rows: z.array(ConversationRow),
      ...Answer,
    }),
    'The chat-history browser: conversations matching the filters, newest first',
  ),
  'analytics.conversation': call(
    z.object({ ...Tenant, id: z.string().min(1).max(200) }).strict(),
    z.object({ conversation: ConversationRow, transcript: z.array(TranscriptMessage), freshness: Freshness }),
    'One conversation with its transcript',
  ),
  'analytics.learning': call(
    DashboardInput,
    z.object({
      activeUsers: Kpi,
      registeredUsers: Kpi,
      completions: Kpi,
      completionRate: z.number().nullable(),
      averageGrade: z.number().nullable(),
      /** The five cards of the Learning tab, each with its unit and definition. */
      kpis: z.array(Kpi),
      completionSeries: z.array(
        z.object({ date: z.string(), completions: z.number(), partial: z.boolean().default(false) }),
      ),
      /** The completions chart has no data (the engine's emptiness rule). */
      ...EmptyFlag,
      courses: z.array(CourseActivity),
      ...Answer,
    }),
    'Learning overview: learners, registrations, completions, average grade, most active courses',
  ),
  'analytics.learners': call(
    z
      .object({
        ...Tenant,
        kind: z.enum(['registered', 'active']).default('registered'),
        range: DateRange.default({ preset: '30d' }),
        timeZone: TimeZone.optional(),
        department: z.number().int().positive().optional(),
        search: z.string().max(200).optional(),
        page: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(1).max(100).default(25),
        refresh: z.boolean().optional(),
      })
      .strict(),
    z.object({
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
      rows: z.array(LearnerRow),
      freshness: Freshness,
    }),
    'Registered or active learners, paged',
  ),
  'analytics.learner': call(
    z
      .object({
        ...Tenant,
        username: z.string().min(1).max(200),
        /** The period of the time-per-day series. */
        range: DateRange.default({ preset: '30d' }),
        timeZone: TimeZone.optional(),
        refresh: z.boolean().optional(),
      })
      .strict(),
    z.object({
      info: LearnerRow.nullable(),
      email: z.string().nullable(),
      /** Registration and last activity, as the platform reports them (ISO 8601). */
      joined: z.string().nullable(),
      lastActivity: z.string().nullable(),
      /** All time spent, in seconds. */
      totalTimeSeconds: z.number().nullable(),
      /** Mean grade over graded enrollments, in percent. */
      averageGrade: z.number().nullable(),
      grades: z.array(LearnerCourse).nullable(),
      /** Seconds per day over the range (per UTC day, as the platform counts them). */
      time: z.array(z.object({ date: z.string(), seconds: z.number() })).nullable(),
      timeTotalSeconds: z.number().nullable(),
      /** The time-per-day chart has no data (the engine's emptiness rule). */
      ...EmptyFlag,
      range: RangeResolved,
      notes: z.array(z.string()),
      freshness: Freshness,
    }),
    "One learner: information, grades and time per course, and time per day over a range (what the tenant's API offers)",
  ),

  'analytics.datasets': call(Empty, z.object({ datasets: z.array(DatasetInfo) }), 'What can be exported to CSV'),
  'analytics.exportStart': call(ExportRequest, ExportInfo, 'Export a dataset to CSV as a durable job', {
    localPaths: { path: 'write', folder: 'write' },
  }),
  'analytics.exportFolder': call(
    Empty,
    z.object({ folder: z.string() }),
    'Where exports go when no folder is given, on the computer the engine runs on',
  ),
  'analytics.exports': call(
    z
      .object({ ...Tenant, limit: z.number().int().min(1).max(500).default(50), scheduleId: z.string().optional() })
      .strict()
      .optional(),
    z.object({ exports: z.array(ExportInfo) }),
    'Exports, newest first',
  ),
  'analytics.export': call(Ref, ExportInfo, 'One export with its progress'),
  'analytics.reveal': call(
    Ref,
    z.object({
      path: z.string(),
      folder: z.string(),
      exists: z.boolean(),
      /** The desktop app opened the folder with the file selected; elsewhere the page shows the path instead. */
      shown: z.boolean(),
    }),
    'Where an export is on disk ("show in folder"); the desktop app also opens that folder',
  ),
  'analytics.schedules': call(
    z
      .object({ ...Tenant })
      .strict()
      .optional(),
    z.object({ schedules: z.array(Schedule) }),
    'Scheduled exports',
  ),
  'analytics.scheduleSave': call(
    ScheduleFields.extend({ id: z.string().min(1).optional() }).strict(),
    Schedule,
    'Create or change a scheduled export',
    { localPaths: { folder: 'write' } },
  ),
  'analytics.scheduleRemove': call(Ref, Ok, 'Delete a scheduled export (its past files stay)'),
  'analytics.scheduleRun': call(Ref, ExportInfo, 'Run a scheduled export now'),
} as const;

/** The tenant's figures: what a background refresh of analytics can change (not exports or schedules). */
const FIGURES = [
  'analytics.filters',
  'analytics.kpis',
  'analytics.activity',
  'analytics.topMentors',
  'analytics.topics',
  'analytics.sentiment',
  'analytics.costs',
  'analytics.overview',
  'analytics.conversations',
  'analytics.conversation',
  'analytics.learning',
  'analytics.learners',
  'analytics.learner',
] as const;

export const analyticsEvents = {
  /** A cached answer was refreshed in the background (or the refresh failed: `offline`). */
  'analytics.changed': event(z.object({ profileId: z.string(), call: z.string(), offline: z.string().nullable() }), {
    invalidates: FIGURES.map((call) => ({ call, by: ['profileId' as const] })),
  }),
  /** An export's progress: the new answer of `analytics.export` for it. */
  'analytics.exportProgress': event(ExportInfo, {
    updates: [{ call: 'analytics.export', by: ['id'], answer: (info) => info }],
    invalidates: [{ call: 'analytics.exports' }],
  }),
  'analytics.schedulesChanged': event(z.object({ id: z.string().nullable() }), {
    invalidates: [{ call: 'analytics.schedules' }, { call: 'analytics.exports' }],
  }),
} as const;
