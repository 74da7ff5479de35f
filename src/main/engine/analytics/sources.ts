/**
 * Where each exported dataset's rows come from, page by page, whatever envelope the endpoint uses: DRF
 * `{count, next, previous, results}` by page number (chat history, topics) or by limit/offset (costs per learner),
 * legacy `{data, pagination}` (users, learners, courses, departments), plain arrays and single objects (one page).
 * Rows come out as arrays in the dataset's column order.
 */
import {
  addDays,
  chartTable,
  CHART_COLUMNS,
  daysBetween,
  money,
  type ChartData,
  type ChartId,
  type ResolvedRange,
  type TableRow,
} from '../../../shared/contract';
import { EngineError } from '../errors';
import { parseTranscript, type AnalyticsApi, type ApiConversation } from './api';
import {
  computeActivity,
  computeCosts,
  computeKpis,
  computeSentiment,
  computeTopics,
  computeTopMentors,
  inclusiveEnd,
} from './dashboard';
import { chartIsEmpty } from './emptiness';
import { completionSeries, learnerTime, learningDates, timeSeries } from './learning';
import type { Resolved } from './services';

export type Cell = string | number | boolean | null;

export interface ExportPlan {
  profileId: string;
  dataset: string;
  range: ResolvedRange;
  timeZone: string;
  mentorId?: string | undefined;
  department?: number | undefined;
  /** The learner of a per-learner dataset. */
  learner?: string | undefined;
  pageSize: number;
  mentorNames: Record<string, string>;
}

export interface Page {
  rows: Cell[][];
  /** How many pages there are, when the envelope says. */
  totalPages: number | null;
  last: boolean;
}

export type PageReader = (page: number, signal: AbortSignal) => Promise<Page>;

/** The largest page each kind of endpoint serves. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Rows per request by dataset. Chat history pages carry every transcript: smaller pages keep the export's memory
 * flat (each page's text is garbage a moment later) at a small cost in requests.
 */
export function defaultPageSize(dataset: string): number {
  return dataset === 'chat-history' || dataset === 'conversations' ? 250 : MAX_PAGE_SIZE;
}

const pagesOf = (count: number, size: number) => Math.max(1, Math.ceil(count / size));

function drf<T>(answer: { count: number; next: string | null; results: T[] }, pageSize: number) {
  return { totalPages: pagesOf(answer.count, pageSize), last: answer.next === null || answer.results.length === 0 };
}

function legacy(answer: { data: unknown[]; pagination: { totalPages: number; currentPage: number } }) {
  const total = Math.max(1, answer.pagination.totalPages);
  return { totalPages: total, last: answer.pagination.currentPage >= total || answer.data.length === 0 };
}

const one = (rows: Cell[][]): Page => ({ rows, totalPages: 1, last: true });
const topicsText = (c: ApiConversation) => c.topics.map((t) => t.name).join('; ');
const seconds = (v: string | number) => (typeof v === 'number' ? v : Number(v));

/** `sentiment-count/` counts whole UTC days ending today: the period that reaches back to `from`. */
function sentimentPeriod(from: string, now: number): number {
  const today = new Date(now).toISOString().slice(0, 10);
  return Math.min(365, Math.max(1, daysBetween(from, today) + 1));
}

export function pageReader(api: AnalyticsApi, plan: ExportPlan, now: () => number = Date.now): PageReader {
  const { range, pageSize } = plan;
  const names = plan.mentorNames;
  const dates = { start_date: range.from, end_date: range.to };
  const instants = { start_date: range.start, end_date: inclusiveEnd(range.end) };
  const dept = { department_id: plan.department };

  if (plan.dataset.startsWith('chart.')) {
    const chart = plan.dataset.slice('chart.'.length) as ChartId;
    return async () => {
      const resolved: Resolved = {
        profileId: plan.profileId,
        api,
        range,
        timeZone: plan.timeZone,
        mentorId: plan.mentorId,
        department: plan.department,
        now: now(),
      };
      const table = await chartRows(chart, resolved, plan.learner);
      return one(table.map((row) => CHART_COLUMNS[chart].map((c) => row[c.key] ?? null)));
    };
  }

  switch (plan.dataset) {
    case 'chat-history':
    case 'conversations': {
      const perMessage = plan.dataset === 'chat-history';
      const endpoint = 'chat-history/';
      // The platform filters by UTC days: ask for a day more on each side, keep what starts inside the zone's range.
      const exact = plan.timeZone !== 'UTC' && plan.timeZone !== 'Etc/UTC';
      const days = exact ? { start_date: addDays(range.from, -1), end_date: addDays(range.to, 1) } : dates;
      const [startMs, endMs] = [Date.parse(range.start), Date.parse(range.end)];
      return async (page, signal) => {
        const answer = await api.conversationsPage(
          { ...days, page, page_size: pageSize, mentor: plan.mentorId },
          { signal },
        );
        const rows: Cell[][] = [];
        for (const c of answer.results) {
          if (exact) {
            const at = Date.parse(c.inserted_at);
            if (!(at >= startMs && at < endMs)) continue;
          }
          const mentor = names[c.mentor] ?? '';
          if (perMessage) {
            const transcript = parseTranscript(c, endpoint);
            const topics = topicsText(c);
            transcript.forEach((m, i) =>
              rows.push([
                c.id,
                i + 1,
                m.timestamp,
                m.type,
                m.content,
                c.mentor,
                mentor,
                c.student,
                c.email,
                topics,
                c.sentiment,
              ]),
            );
          } else {
            const messages = c.metadata?.message_count ?? parseTranscript(c, endpoint).length;
            rows.push([
              c.id,
              c.inserted_at,
              c.mentor,
              mentor,
              c.student,
              c.email,
              topicsText(c),
              c.sentiment,
              c.rating === 0 ? null : c.rating,
              c.model,
              c.llm_provider ?? '',
              messages,
              c.has_document ?? false,
            ]);
          }
        }
        return { rows, ...drf(answer, pageSize) };
      };
    }
    case 'topics':
      return async (page, signal) => {
        const answer = await api.topicStatistics(
          { ...instants, page, page_size: pageSize, mentor_id: plan.mentorId },
          { signal },
        );
        const rows = answer.results.map((t) => [
          t.name,
          t.conversations,
          t.messages,
          t.avg_sentiment,
          t.avg_user_rating,
        ]);
        return { rows, ...drf(answer, pageSize) };
      };
    case 'sentiment':
      return async (_page, signal) => {
        const days = await api.sentimentCount(`${sentimentPeriod(range.from, now())}d`, { signal });
        const rows = days
          .map((d) => ({ ...d, day: d.date.slice(0, 10) }))
          .filter((d) => d.day >= range.from && d.day <= range.to)
          .map((d) => [d.day, d.positive ?? null, d.neutral ?? null, d.negative ?? null, d.sentiment_count]);
        return one(rows);
      };
    case 'usage':
      return async (_page, signal) => {
        const [stats, users] = await Promise.all([
          api.messageStatistics({ ...dates, aggregation: 'daily', mentor_id: plan.mentorId }, { signal }),
          api.usageSummary(dates, { signal }),
        ]);
        const active = new Map(users.map((u) => [u.date.slice(0, 10), u.user_count]));
        const perDay = new Map(stats.map((s) => [s.time.slice(0, 10), s]));
        const rows: Cell[][] = [];
        for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
          const s = perDay.get(day);
          const sessions = s?.total_sessions ?? 0;
          rows.push([day, sessions, (s?.avg_messages ?? 0) * sessions, s?.avg_messages ?? 0, active.get(day) ?? 0]);
        }
        return one(rows);
      };
    case 'costs':
      return async (page, signal) => {
        const answer = await api.costsByUser(
          { ...instants, limit: pageSize, offset: (page - 1) * pageSize },
          { signal },
        );
        return { rows: answer.results.map((u) => [u.username, u.total_cost]), ...drf(answer, pageSize) };
      };
    case 'costs-by-mentor':
      return async (_page, signal) => {
        const answer = await api.costsByMentor(instants, { signal });
        return one(
          answer.mentor_data
            .map((m) => [m.mentor_unique_id, m.mentor_name, m.mentor_sessions.length, money(m.total_cost)] as Cell[])
            .sort((a, b) => (b[3] as number) - (a[3] as number)),
        );
      };
    case 'costs-by-model':
      return async (_page, signal) => {
        const answer = await api.costsByModel(instants, { signal });
        const models = answer.model_costs ?? [{ model: answer.model, total_cost: answer.total_cost }];
        return one(models.map((m) => [m.model, money(m.total_cost)]));
      };
    case 'users':
      return async (page, signal) => {
        const answer = await api.registeredLearners({ page, length: pageSize, ...dept }, { signal });
        const rows = answer.data.map((u) => [
          u.username,
          u.full_name,
          u.enrollments,
          u.completions,
          u.last_active,
          seconds(u.time_spent),
          u.engagement_index,
          u.performance_index,
        ]);
        return { rows, ...legacy(answer) };
      };
    case 'learners':
      return async (page, signal) => {
        const answer = await api.activeLearners({ ...dates, page, length: pageSize, ...dept }, { signal });
        const rows = answer.data.map((u) => [u.username, u.name, u.engagement_index, u.performance_index]);
        return { rows, ...legacy(answer) };
      };
    case 'completions':
      return async (_page, signal) => {
        const answer = await api.completions({ ...dates, ...dept }, { signal });
        return one(completionSeries(answer).map((p) => [p.date, p.completions]));
      };
    case 'courses':
      return async (page, signal) => {
        const answer = await api.mostActiveCourses({ ...dates, page, length: pageSize, ...dept }, { signal });
        const rows = answer.data.map((c) => [
          c.course_id,
          c.name,
          c.time_spent,
          c.average_time,
          c.course_start ?? '',
          c.course_end ?? '',
        ]);
        return { rows, ...legacy(answer) };
      };
    case 'departments':
      return async (page, signal) => {
        const answer = await api.departments({ page, length: pageSize, ...dept }, { signal });
        const rows = answer.data.map((d) => [
          d.id,
          d.name,
          d.courses_enrolled,
          d.courses_completed,
          d.completion_rate,
          d.certificates_earned,
          seconds(d.time_spent),
        ]);
        return { rows, ...legacy(answer) };
      };
    default:
      throw new Error(`No source for dataset '${plan.dataset}'`);
  }
}

/**
 * The table behind a chart, computed as its screen computes it (`learner`: whose, for a learner's chart). A chart the
 * emptiness rule calls empty exports no rows, as its screen shows none.
 */
export async function chartRows(chart: ChartId, r: Resolved, learner?: string): Promise<TableRow[]> {
  const data = await chartData(chart, r, learner);
  return chartIsEmpty(chart, data) ? [] : chartTable(chart, data);
}

async function chartData(chart: ChartId, r: Resolved, learner?: string): Promise<ChartData> {
  switch (chart) {
    case 'kpis':
      return computeKpis(r);
    case 'activity':
      return computeActivity(r);
    case 'top-mentors':
      return { mentors: (await computeTopMentors(r)).rows };
    case 'topics':
      return { topics: (await computeTopics(r)).rows };
    case 'sentiment':
      return { sentiment: (await computeSentiment(r)).rows };
    case 'costs-by-model':
    case 'costs-by-mentor':
      return computeCosts(r);
    case 'completions':
      return { completionSeries: completionSeries(await r.api.completions(learningDates(r))) };
    case 'learner-time':
      if (!learner) throw new EngineError('validation', 'Whose time? This chart is one learner’s');
      return { time: timeSeries(await learnerTime(r, learner)) };
  }
}
