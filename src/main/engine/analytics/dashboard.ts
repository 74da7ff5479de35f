/**
 * The Overview's figures, computed from the platform's aggregate endpoints. Counts per hour are regrouped into the
 * admin's calendar days, so "today" in Europe/Paris means Paris's today even though the platform buckets in UTC.
 */
import {
  addDays,
  localDate,
  money,
  percentChange,
  share,
  weekday,
  type Kpi,
  type Period,
  type ResolvedRange,
} from '../../../shared/contract';
import type { AnalyticsApi } from './api';
import { chartIsEmpty } from './emptiness';
import type { Resolved } from './services';

const quick = { quick: true };
/** Hour buckets up to this many days, then day buckets (long ranges count in UTC days). */
const HOURLY_UP_TO_DAYS = 200;
/** Up to this many days the series is per day, then per week. */
const DAILY_SERIES_UP_TO_DAYS = 120;

/** Date-time endpoints include their end instant; ours are exclusive. */
export const inclusiveEnd = (end: string) => new Date(Date.parse(end) - 1).toISOString();

const within = (ms: number, p: Period) => ms >= Date.parse(p.start) && ms < Date.parse(p.end);

function span(range: ResolvedRange) {
  const start = range.previous?.start ?? range.start;
  const days = range.days * (range.previous ? 2 : 1);
  return { start, hourly: days <= HOURLY_UP_TO_DAYS };
}

interface Activity {
  sessions: number;
  messages: number;
}

/** Sessions and messages (average × sessions, as the platform reports them) per bucket over the span. */
async function messageBuckets(
  api: AnalyticsApi,
  range: ResolvedRange,
  mentorId: string | undefined,
  from = span(range),
) {
  const rows = await api.messageStatistics(
    {
      start_date: from.start,
      end_date: inclusiveEnd(range.end),
      aggregation: from.hourly ? 'hourly' : 'daily',
      mentor_id: mentorId,
    },
    quick,
  );
  return rows.map((r) => ({
    at: Date.parse(r.time),
    sessions: r.total_sessions,
    messages: r.avg_messages * r.total_sessions,
  }));
}

function totals(buckets: { at: number; sessions: number; messages: number }[], p: Period): Activity {
  const sum = { sessions: 0, messages: 0 };
  for (const b of buckets) {
    if (!within(b.at, p)) continue;
    sum.sessions += b.sessions;
    sum.messages += b.messages;
  }
  return sum;
}

async function costIn(api: AnalyticsApi, p: Period, mentorId: string | undefined): Promise<number> {
  const query = { start_date: p.start, end_date: inclusiveEnd(p.end) };
  if (!mentorId) return (await api.costsByModel(query, quick)).total_cost;
  const mentors = await api.costsByMentor(query, quick);
  return mentors.mentor_data.find((m) => m.mentor_unique_id.toLowerCase() === mentorId)?.total_cost ?? 0;
}

const CONVERSATIONS = '/api/ai-analytics/orgs/{org}/users/{user_id}';
const OVERVIEW = '/api/ai-analytics/overview/orgs/{org}';

/** What each key figure counts and where it comes from (the card's tooltip). */
export const KPI_DEFINITIONS: Record<Kpi['key'], string> = {
  activeUsers:
    `Learners active on at least one day of the range (a learner is active on a day they chat with a mentor or ` +
    `study a course), each counted once; whole UTC days. From ${OVERVIEW}/active-users.`,
  registeredUsers: `Learners who registered in the range; whole UTC days. From ${OVERVIEW}/registered-users.`,
  sessions: `Chat sessions (conversations) started in the range. total_sessions of ${CONVERSATIONS}/average-messages-per-session/.`,
  messages:
    `Messages of those sessions, the learner's and the mentor's: avg_messages × total_sessions per hour of ` +
    `${CONVERSATIONS}/average-messages-per-session/ (the platform rounds its averages).`,
  avgMessages: `Messages divided by sessions, from ${CONVERSATIONS}/average-messages-per-session/.`,
  ratings: `Ratings (thumbs up or down) learners gave mentors' answers in the range. From ${CONVERSATIONS}/rating-summary/.`,
  cost:
    `LLM cost of the conversations in the range, in US dollars. From ${CONVERSATIONS}/costs/model/ ` +
    `(${CONVERSATIONS}/costs/permentor/ for one mentor).`,
  completions: `Course completions in the range; whole UTC days. completed_count of ${OVERVIEW}/courses/completions.`,
  completionRate: `Completions as a share of enrollments, in percent. completed_percent of ${OVERVIEW}/courses/completions.`,
  averageGrade: `Mean grade over graded enrollments, in percent (all time). From ${OVERVIEW}/average-grade.`,
};

const timeOfDay = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });

/** How a partial range is compared: with the same part of the period before. */
export function partialNote(range: ResolvedRange): string | null {
  if (!range.partial || !range.previous) return null;
  const until = timeOfDay(range.previous.end, range.timeZone);
  return range.days === 1
    ? `So far today, against yesterday until ${until}.`
    : `So far, against the ${range.days} days before until ${until} on their last day.`;
}

/** Figures the platform counts in whole days cannot be cut at the same hour: a day under way is not compared. */
export const WHOLE_DAYS_NOTE = 'Counted in whole days; compared once today is over.';

export function kpi(
  key: Kpi['key'],
  label: string,
  unit: Kpi['unit'],
  value: number | null,
  previous: number | null,
  note: string | null = null,
): Kpi {
  const change = percentChange(value, previous);
  const why =
    note ??
    (previous === 0 && value !== null
      ? value === 0
        ? 'None in either period.'
        : 'None in the period before: no percentage to give.'
      : null);
  return { key, label, unit, value, previous, change, definition: KPI_DEFINITIONS[key], note: why };
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

function filterNotes(r: Resolved, mentorOnly: string[], departmentOnly: string[]): string[] {
  const notes: string[] = [];
  if (r.mentorId && mentorOnly.length)
    notes.push(`Not filtered by mentor (the platform cannot): ${mentorOnly.join(', ')}.`);
  if (r.department && departmentOnly.length)
    notes.push(`Filtered by department: ${departmentOnly.join(', ')} only (the platform cannot filter the rest).`);
  return notes;
}

/**
 * A figure the learning endpoints count per whole day, with the change they give against the range before
 * (meta.change_range = now − before). While today is under way that compares part of a day with a whole one: no
 * change then, and the card says why.
 */
export function wholeDaysKpi(
  key: Kpi['key'],
  label: string,
  range: ResolvedRange,
  o: { total: number; meta?: { change_range?: number | undefined } | undefined },
): Kpi {
  const previous = range.previous && o.meta?.change_range !== undefined ? o.total - o.meta.change_range : null;
  if (!range.partial || previous === null) return kpi(key, label, 'count', o.total, previous);
  return { ...kpi(key, label, 'count', o.total, previous, WHOLE_DAYS_NOTE), change: null };
}

export async function computeKpis(r: Resolved): Promise<{ kpis: Kpi[]; notes: string[] }> {
  const { api, range, mentorId } = r;
  const previous = range.previous;
  const from = span(range);
  const learning = (period: Period | null) =>
    period ? { start_date: period.from, end_date: period.to, department_id: r.department } : {};
  const [buckets, ratings, active, registered, cost, costBefore] = await Promise.all([
    messageBuckets(api, range, mentorId, from),
    api.ratingSummary(
      { start_date: from.start, end_date: inclusiveEnd(range.end), group_by: from.hourly ? 'hour' : 'day' },
      quick,
    ),
    api.activeUsers(learning(range), quick),
    api.registeredUsers(learning(range), quick),
    costIn(api, range, mentorId),
    previous ? costIn(api, previous, mentorId) : Promise.resolve(null),
  ]);
  const now = totals(buckets, range);
  const before = previous ? totals(buckets, previous) : null;
  const ratingsIn = (p: Period) =>
    ratings.reduce((sum, r) => (within(Date.parse(r.time), p) ? sum + r.total_ratings : sum), 0);
  const partly = partialNote(range);
  const kpis = [
    wholeDaysKpi('activeUsers', 'Active users', range, active),
    wholeDaysKpi('registeredUsers', 'New registered users', range, registered),
    kpi('sessions', 'Sessions', 'count', now.sessions, before?.sessions ?? null, partly),
    kpi('messages', 'Messages', 'count', now.messages, before?.messages ?? null, partly),
    kpi(
      'avgMessages',
      'Messages per session',
      'ratio',
      ratio(now.messages, now.sessions),
      before ? ratio(before.messages, before.sessions) : null,
      partly,
    ),
    kpi('ratings', 'Ratings given', 'count', ratingsIn(range), previous ? ratingsIn(previous) : null, partly),
    kpi('cost', 'LLM cost', 'usd', money(cost), costBefore === null ? null : money(costBefore), partly),
  ];
  const notes = filterNotes(r, ['active users', 'registered users', 'ratings'], ['active users', 'registered users']);
  if (!from.hourly) notes.push('Long ranges are counted in whole UTC days.');
  return { kpis, notes };
}

/** The Monday starting the week of a date. */
const weekOf = (date: string) => addDays(date, -((weekday(date) + 6) % 7));

export async function computeActivity(r: Resolved) {
  const { api, range, mentorId } = r;
  const granularity: 'day' | 'week' = range.days <= DAILY_SERIES_UP_TO_DAYS ? 'day' : 'week';
  const from = span(range);
  const [buckets, active] = await Promise.all([
    // The same request as the KPIs' (this period and the one before): asked together, they are answered once.
    messageBuckets(api, range, mentorId, from),
    granularity === 'day'
      ? api.activeUsers({ start_date: range.from, end_date: range.to, department_id: r.department }, quick)
      : Promise.resolve(null),
  ]);
  const keyOf = (date: string) => (granularity === 'day' ? date : weekOf(date));
  // The bucket holding the instant the range was resolved at is not over: it is marked, not read as a drop.
  const today = range.partial ? keyOf(localDate(r.now, r.timeZone)) : null;
  const points = new Map<
    string,
    { date: string; sessions: number; messages: number; activeUsers: number | null; partial: boolean }
  >();
  for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
    const key = keyOf(day);
    if (!points.has(key))
      points.set(key, {
        date: key,
        sessions: 0,
        messages: 0,
        activeUsers: active ? (active.data[day] ?? 0) : null,
        partial: key === today,
      });
  }
  for (const b of buckets) {
    if (!within(b.at, range)) continue;
    const point = points.get(keyOf(localDate(b.at, r.timeZone)));
    if (!point) continue;
    point.sessions += b.sessions;
    point.messages += b.messages;
  }
  const notes = filterNotes(r, ['active users'], ['active users']);
  if (granularity === 'week') notes.push('Per week (Monday to Sunday); active users are counted per day only.');
  else if (r.timeZone !== 'UTC') notes.push('Active users are counted per UTC day, as the platform does.');
  if (!from.hourly && r.timeZone !== 'UTC') notes.push('Long ranges are counted in whole UTC days.');
  const series = [...points.values()];
  if (series.some((p) => p.partial))
    notes.push(`The last ${granularity === 'day' ? 'day' : 'week'} is not over: its figures are so far.`);
  return { points: series, granularity, empty: chartIsEmpty('activity', { points: series }), notes };
}

export async function computeTopMentors(r: Resolved) {
  const data = await r.api.costsByMentor({ start_date: r.range.start, end_date: inclusiveEnd(r.range.end) }, quick);
  const rows = data.mentor_data
    .filter((m) => !r.mentorId || m.mentor_unique_id.toLowerCase() === r.mentorId)
    .map((m) => ({
      mentorId: m.mentor_unique_id,
      mentor: m.mentor_name || m.mentor_unique_id,
      sessions: m.mentor_sessions.length,
      cost: money(m.total_cost),
    }))
    .sort((a, b) => b.sessions - a.sessions || a.mentor.localeCompare(b.mentor))
    .slice(0, 10);
  return { rows, empty: chartIsEmpty('top-mentors', { mentors: rows }), notes: filterNotes(r, [], []) };
}

export async function computeTopics(r: Resolved) {
  const rows = await r.api.mostDiscussedTopics(
    { start_date: r.range.start, end_date: inclusiveEnd(r.range.end), mentor_id: r.mentorId },
    quick,
  );
  const topics = rows
    .map((t) => ({ topic: t.topic_name, conversations: t.conversation_count }))
    .sort((a, b) => b.conversations - a.conversations || a.topic.localeCompare(b.topic))
    .slice(0, 10);
  return { rows: topics, empty: chartIsEmpty('topics', { topics }), notes: filterNotes(r, [], []) };
}

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

export async function computeSentiment(r: Resolved) {
  const counts = await Promise.all(
    SENTIMENTS.map(async (sentiment) => {
      const page = await r.api.conversationsPage(
        { page: 1, page_size: 1, start_date: r.range.from, end_date: r.range.to, mentor: r.mentorId, sentiment },
        quick,
      );
      return page.count;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const notes = filterNotes(r, [], []);
  if (r.timeZone !== 'UTC') notes.push('Counted over UTC days, as the platform filters conversations by date.');
  const rows = SENTIMENTS.map((sentiment, i) => ({
    sentiment,
    conversations: counts[i]!,
    share: share(counts[i]!, total),
  }));
  return { rows, empty: chartIsEmpty('sentiment', { sentiment: rows }), notes };
}

export async function computeCosts(r: Resolved) {
  const query = { start_date: r.range.start, end_date: inclusiveEnd(r.range.end) };
  const [models, mentors] = await Promise.all([r.api.costsByModel(query, quick), r.api.costsByMentor(query, quick)]);
  const total = money(models.total_cost);
  const byModel = (models.model_costs ?? [{ model: models.model, total_cost: models.total_cost }])
    .map((m) => ({ model: m.model, cost: money(m.total_cost), share: share(m.total_cost, models.total_cost) }))
    .sort((a, b) => b.cost - a.cost || a.model.localeCompare(b.model));
  const byMentor = mentors.mentor_data
    .filter((m) => !r.mentorId || m.mentor_unique_id.toLowerCase() === r.mentorId)
    .map((m) => ({
      mentorId: m.mentor_unique_id,
      mentor: m.mentor_name || m.mentor_unique_id,
      cost: money(m.total_cost),
      share: share(m.total_cost, mentors.tenant_total_cost),
    }))
    .sort((a, b) => b.cost - a.cost || a.mentor.localeCompare(b.mentor));
  return {
    total,
    byModel,
    byMentor,
    empty: chartIsEmpty('costs-by-model', { byModel, byMentor }),
    notes: filterNotes(r, ['costs by model'], []),
  };
}
