/**
 * When a chart has no data: one rule per chart, decided here and nowhere else. Each answer carries the decision as
 * `empty`; the screen shows its empty state from it, and the chart's CSV export (`chartRows`) writes a header and no
 * rows from the same decision, so a chart that says "No data in this range" never exports rows of zeros.
 */
import type { ChartData, ChartId } from '../../../shared/contract';

/** Zeros are no data: a day with no session and no active learner, a sentiment with no conversation, no cost. */
export function chartIsEmpty(chart: ChartId, data: ChartData): boolean {
  switch (chart) {
    case 'kpis':
      // The key figures are always shown (a zero is a figure there).
      return false;
    case 'activity':
      return !data.points?.some((p) => p.sessions > 0 || p.messages > 0 || (p.activeUsers ?? 0) > 0);
    case 'top-mentors':
      return !data.mentors?.some((m) => m.sessions > 0 || m.cost > 0);
    case 'topics':
      return !data.topics?.some((t) => t.conversations > 0);
    case 'sentiment':
      return !data.sentiment?.some((s) => s.conversations > 0);
    case 'costs-by-model':
    case 'costs-by-mentor':
      return !data.byModel?.some((m) => m.cost > 0) && !data.byMentor?.some((m) => m.cost > 0);
    case 'completions':
      return !data.completionSeries?.some((p) => p.completions > 0);
    case 'learner-time':
      return !data.time?.some((p) => p.seconds > 0);
  }
}
