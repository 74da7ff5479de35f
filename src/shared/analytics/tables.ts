/**
 * The table behind each chart, keyed like CHART_COLUMNS: what "view as table" shows and what the chart's
 * CSV export writes. Whether a chart has data at all is the engine's decision (its answers' `empty`), not this
 * module's. Structural types keep this module free of the contract's schemas.
 */
import type { ChartId } from './datasets';

export type Cell = string | number | null;
export type TableRow = Record<string, Cell>;

interface KpiLike {
  label: string;
  value: number | null;
  previous: number | null;
  change: number | null;
}

export interface ChartData {
  kpis?: KpiLike[];
  points?: { date: string; sessions: number; messages: number; activeUsers: number | null }[];
  mentors?: { mentorId: string; mentor: string; sessions: number; cost: number }[];
  topics?: { topic: string; conversations: number }[];
  sentiment?: { sentiment: string; conversations: number; share: number }[];
  byModel?: { model: string; cost: number; share: number }[];
  byMentor?: { mentorId: string; mentor: string; cost: number; share: number }[];
  /** Course completions per day. */
  completionSeries?: { date: string; completions: number }[];
  /** A learner's seconds per day. */
  time?: { date: string; seconds: number }[] | null;
}

export function chartTable(chart: ChartId, data: ChartData): TableRow[] {
  switch (chart) {
    case 'kpis':
      return (data.kpis ?? []).map((k) => ({
        metric: k.label,
        value: k.value,
        previous: k.previous,
        change_percent: k.change,
      }));
    case 'activity':
      return (data.points ?? []).map((p) => ({
        date: p.date,
        sessions: p.sessions,
        messages: p.messages,
        active_users: p.activeUsers,
      }));
    case 'top-mentors':
      return (data.mentors ?? []).map((m) => ({
        mentor_id: m.mentorId,
        mentor: m.mentor,
        sessions: m.sessions,
        cost: m.cost,
      }));
    case 'topics':
      return (data.topics ?? []).map((t) => ({ topic: t.topic, conversations: t.conversations }));
    case 'sentiment':
      return (data.sentiment ?? []).map((s) => ({
        sentiment: s.sentiment,
        conversations: s.conversations,
        share: s.share,
      }));
    case 'costs-by-model':
      return (data.byModel ?? []).map((m) => ({ model: m.model, cost: m.cost, share: m.share }));
    case 'costs-by-mentor':
      return (data.byMentor ?? []).map((m) => ({
        mentor_id: m.mentorId,
        mentor: m.mentor,
        cost: m.cost,
        share: m.share,
      }));
    case 'completions':
      return (data.completionSeries ?? []).map((p) => ({ date: p.date, completions: p.completions }));
    case 'learner-time':
      return (data.time ?? []).map((p) => ({ date: p.date, time_spent_seconds: p.seconds }));
  }
}

/** Rounds to micro-dollars, as the platform reports costs. */
export const money = (n: number) => Math.round(n * 1e6) / 1e6;

/** A share in percent with one decimal. */
export const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
