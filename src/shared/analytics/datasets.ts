/** What can be exported to CSV, with the columns of each file; the charts' tables share these column specs. */

export interface Column {
  key: string;
  label: string;
}

export const OVERVIEW_CHART_IDS = [
  'kpis',
  'activity',
  'top-mentors',
  'topics',
  'sentiment',
  'costs-by-model',
  'costs-by-mentor',
] as const;
/** Charts of the Learning tab. */
export const LEARNING_CHART_IDS = ['completions'] as const;
/** Charts of a learner's page: their data is that one learner's. */
export const LEARNER_CHART_IDS = ['learner-time'] as const;
export const CHART_IDS = [...OVERVIEW_CHART_IDS, ...LEARNING_CHART_IDS, ...LEARNER_CHART_IDS] as const;
export type ChartId = (typeof CHART_IDS)[number];

const col = (key: string, label: string): Column => ({ key, label });

/** The table behind each chart (what "view as table" shows and "export CSV" writes). */
export const CHART_COLUMNS: Record<ChartId, Column[]> = {
  kpis: [
    col('metric', 'Metric'),
    col('value', 'Value'),
    col('previous', 'Previous period'),
    col('change_percent', 'Change (%)'),
  ],
  activity: [
    col('date', 'Date'),
    col('sessions', 'Sessions'),
    col('messages', 'Messages'),
    col('active_users', 'Active users'),
  ],
  'top-mentors': [
    col('mentor_id', 'Mentor id'),
    col('mentor', 'Mentor'),
    col('sessions', 'Sessions'),
    col('cost', 'Cost (USD)'),
  ],
  topics: [col('topic', 'Topic'), col('conversations', 'Conversations')],
  sentiment: [col('sentiment', 'Sentiment'), col('conversations', 'Conversations'), col('share', 'Share (%)')],
  'costs-by-model': [col('model', 'Model'), col('cost', 'Cost (USD)'), col('share', 'Share (%)')],
  'costs-by-mentor': [
    col('mentor_id', 'Mentor id'),
    col('mentor', 'Mentor'),
    col('cost', 'Cost (USD)'),
    col('share', 'Share (%)'),
  ],
  completions: [col('date', 'Date'), col('completions', 'Completions')],
  'learner-time': [col('date', 'Date'), col('time_spent_seconds', 'Time spent (s)')],
};

/**
 * The filters each chart's figures are narrowed by (see the engine's dashboard computations): its table is, so its
 * export must be too. The rest the platform cannot filter; the chart says so in a note.
 */
const CHART_FILTERS: Record<ChartId, Pick<DatasetSpec, 'mentorFilter' | 'departmentFilter'>> = {
  kpis: { mentorFilter: true, departmentFilter: true },
  activity: { mentorFilter: true, departmentFilter: true },
  'top-mentors': { mentorFilter: true, departmentFilter: false },
  topics: { mentorFilter: true, departmentFilter: false },
  sentiment: { mentorFilter: true, departmentFilter: false },
  // Costs per model come from the tenant's total: the platform cannot split them by mentor.
  'costs-by-model': { mentorFilter: false, departmentFilter: false },
  // The platform gives every mentor's cost: the chart keeps only the chosen mentor's row.
  'costs-by-mentor': { mentorFilter: true, departmentFilter: false },
  completions: { mentorFilter: false, departmentFilter: true },
  'learner-time': { mentorFilter: false, departmentFilter: false },
};

export const CHART_TITLES: Record<ChartId, string> = {
  kpis: 'Key figures',
  activity: 'Activity over time',
  'top-mentors': 'Top mentors',
  topics: 'Most discussed topics',
  sentiment: 'Sentiment',
  'costs-by-model': 'Costs by model',
  'costs-by-mentor': 'Costs by mentor',
  completions: 'Course completions per day',
  'learner-time': 'Time spent per day',
};

export interface DatasetSpec {
  id: string;
  label: string;
  description: string;
  columns: Column[];
  /** Whether the rows depend on the date range. */
  ranged: boolean;
  /** Filters the platform applies to this data. */
  mentorFilter: boolean;
  departmentFilter: boolean;
  /** One learner's rows: an export names the learner. */
  perLearner: boolean;
  /** Columns holding instants, written in the export's time zone. */
  timeColumns: string[];
}

const spec = (
  s: Omit<DatasetSpec, 'timeColumns' | 'mentorFilter' | 'departmentFilter' | 'perLearner'> & Partial<DatasetSpec>,
) => ({
  mentorFilter: false,
  departmentFilter: false,
  perLearner: false,
  timeColumns: [],
  ...s,
});

const UTC_DAYS = ' (per UTC day, as the platform counts them)';

/** The dataset of the table behind a chart: `on` says where the chart is, `more` what else to know. */
const chartDataset = (chart: ChartId, on: string, more = '') =>
  spec({
    id: `chart.${chart}`,
    label: `Chart: ${CHART_TITLES[chart]}`,
    description: `The table behind ${on} “${CHART_TITLES[chart]}” chart${more}.`,
    columns: CHART_COLUMNS[chart],
    ranged: true,
    ...CHART_FILTERS[chart],
  });

export const DATASETS: readonly DatasetSpec[] = [
  spec({
    id: 'chat-history',
    label: 'Chat history (messages)',
    description: 'Every message of every conversation in the range: one row per message, in conversation order.',
    columns: [
      col('conversation_id', 'Conversation id'),
      col('message_index', 'Message #'),
      col('timestamp', 'Timestamp'),
      col('role', 'Role'),
      col('content', 'Content'),
      col('mentor_id', 'Mentor id'),
      col('mentor', 'Mentor'),
      col('learner', 'Learner'),
      col('email', 'Email'),
      col('topics', 'Topics'),
      col('sentiment', 'Sentiment'),
    ],
    ranged: true,
    mentorFilter: true,
    timeColumns: ['timestamp'],
  }),
  spec({
    id: 'conversations',
    label: 'Conversations',
    description: 'One row per conversation: learner, mentor, topics, sentiment, rating, model and message count.',
    columns: [
      col('conversation_id', 'Conversation id'),
      col('started_at', 'Started at'),
      col('mentor_id', 'Mentor id'),
      col('mentor', 'Mentor'),
      col('learner', 'Learner'),
      col('email', 'Email'),
      col('topics', 'Topics'),
      col('sentiment', 'Sentiment'),
      col('rating', 'Rating'),
      col('model', 'Model'),
      col('provider', 'Provider'),
      col('messages', 'Messages'),
      col('has_document', 'Has document'),
    ],
    ranged: true,
    mentorFilter: true,
    timeColumns: ['started_at'],
  }),
  spec({
    id: 'topics',
    label: 'Topics',
    description: 'Topics with their conversations, messages, average sentiment and rating.',
    columns: [
      col('topic', 'Topic'),
      col('conversations', 'Conversations'),
      col('messages', 'Messages'),
      col('avg_sentiment', 'Average sentiment'),
      col('avg_user_rating', 'Average rating'),
    ],
    ranged: true,
    mentorFilter: true,
  }),
  spec({
    id: 'sentiment',
    label: 'Sentiment per day',
    description: 'Conversations per day by sentiment (UTC days, as the platform counts them).',
    columns: [
      col('date', 'Date'),
      col('positive', 'Positive'),
      col('neutral', 'Neutral'),
      col('negative', 'Negative'),
      col('total', 'Total'),
    ],
    ranged: true,
  }),
  spec({
    id: 'usage',
    label: 'Usage per day',
    description: 'Sessions, messages, messages per session and active learners per day.',
    columns: [
      col('date', 'Date'),
      col('sessions', 'Sessions'),
      col('messages', 'Messages'),
      col('avg_messages_per_session', 'Messages per session'),
      col('active_learners', 'Active learners'),
    ],
    ranged: true,
  }),
  spec({
    id: 'costs',
    label: 'Costs per learner',
    description: 'LLM cost of each learner’s conversations in the range.',
    columns: [col('learner', 'Learner'), col('total_cost', 'Cost (USD)')],
    ranged: true,
  }),
  spec({
    id: 'costs-by-mentor',
    label: 'Costs per mentor',
    description: 'LLM cost and conversations of each mentor in the range.',
    columns: CHART_COLUMNS['top-mentors'],
    ranged: true,
  }),
  spec({
    id: 'costs-by-model',
    label: 'Costs per model',
    description: 'LLM cost of each model in the range.',
    columns: [col('model', 'Model'), col('cost', 'Cost (USD)')],
    ranged: true,
  }),
  spec({
    id: 'users',
    label: 'Registered users',
    description: 'Every registered learner with enrollments, completions, time spent and indexes.',
    columns: [
      col('username', 'Username'),
      col('full_name', 'Full name'),
      col('enrollments', 'Enrollments'),
      col('completions', 'Completions'),
      col('last_active', 'Last active'),
      col('time_spent_seconds', 'Time spent (s)'),
      col('engagement_index', 'Engagement index'),
      col('performance_index', 'Performance index'),
    ],
    ranged: false,
    departmentFilter: true,
  }),
  spec({
    id: 'learners',
    label: 'Active learners',
    description: 'Learners active in the range, most active first.',
    columns: [
      col('username', 'Username'),
      col('name', 'Name'),
      col('engagement_index', 'Engagement index'),
      col('performance_index', 'Performance index'),
    ],
    ranged: true,
    departmentFilter: true,
  }),
  spec({
    id: 'completions',
    label: 'Course completions per day',
    description: 'Course completions per day in the range.',
    columns: CHART_COLUMNS.completions,
    ranged: true,
    departmentFilter: true,
  }),
  spec({
    id: 'courses',
    label: 'Most active courses',
    description: 'Courses by time spent in the range.',
    columns: [
      col('course_id', 'Course id'),
      col('name', 'Course'),
      col('time_spent_seconds', 'Time spent (s)'),
      col('average_time_seconds', 'Average time per learner (s)'),
      col('course_start', 'Course start'),
      col('course_end', 'Course end'),
    ],
    ranged: true,
    departmentFilter: true,
  }),
  spec({
    id: 'departments',
    label: 'Departments',
    description: 'Departments with their learners’ enrollments, completions and time spent.',
    columns: [
      col('id', 'Id'),
      col('name', 'Department'),
      col('courses_enrolled', 'Courses enrolled'),
      col('courses_completed', 'Courses completed'),
      col('completion_rate', 'Completion rate (%)'),
      col('certificates_earned', 'Certificates'),
      col('time_spent_seconds', 'Time spent (s)'),
    ],
    ranged: false,
    departmentFilter: true,
  }),
  ...OVERVIEW_CHART_IDS.map((chart) => chartDataset(chart, "the Overview's")),
  ...LEARNING_CHART_IDS.map((chart) =>
    chartDataset(chart, "the Learning tab's", `${UTC_DAYS}; empty when there were none`),
  ),
  {
    ...chartDataset('learner-time', "a learner's", `${UTC_DAYS}; empty when no time was recorded`),
    label: `Chart: ${CHART_TITLES['learner-time']} (one learner)`,
    perLearner: true,
  },
];

export const DATASET_IDS = DATASETS.map((d) => d.id);

export function findDataset(id: string): DatasetSpec | undefined {
  return DATASETS.find((d) => d.id === id);
}

/** The filters of the screen that a dataset takes: what its export is asked with (it cannot apply the others). */
export function datasetFilters(
  dataset: Pick<DatasetSpec, 'mentorFilter' | 'departmentFilter'>,
  filters: { mentor?: string | undefined; department?: number | undefined },
): { mentor?: string; department?: number } {
  return {
    ...(dataset.mentorFilter && filters.mentor ? { mentor: filters.mentor } : {}),
    ...(dataset.departmentFilter && filters.department ? { department: filters.department } : {}),
  };
}

/** The columns a file will have: the chosen ones in the order given, or all of them in the dataset's order. */
export function chooseColumns(dataset: DatasetSpec, chosen?: readonly string[]): Column[] {
  if (!chosen?.length) return dataset.columns;
  const unknown = chosen.filter((key) => !dataset.columns.some((c) => c.key === key));
  if (unknown.length) {
    throw new RangeError(
      `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} for ${dataset.id} ` +
        `(columns: ${dataset.columns.map((c) => c.key).join(', ')})`,
    );
  }
  return [...new Set(chosen)].map((key) => dataset.columns.find((c) => c.key === key)!);
}

/** A file name that says what is inside: tenant, dataset (and its mentor, department or learner), range and zone. */
export function exportFileName(input: {
  tenant: string;
  dataset: string;
  mentor?: string;
  department?: number;
  learner?: string;
  from?: string;
  to?: string;
  timeZone: string;
}) {
  const safe = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._+-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
  const range = input.from && input.to ? `${input.from}_${input.to}` : 'current';
  const filters =
    (input.mentor ? `-mentor-${safe(input.mentor)}` : '') +
    (input.department ? `-department-${input.department}` : '') +
    (input.learner ? `-${safe(input.learner)}` : '');
  return `${safe(input.tenant)}-${safe(input.dataset)}${filters}-${range}-${safe(input.timeZone)}.csv`;
}
