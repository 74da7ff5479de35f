/** Date ranges as an admin picks them (today, 7 d, 30 d, 90 d, all time, custom) resolved in a time zone. */
import { addDays, daysBetween, localDate, sameWallTimeDaysBefore, zonedInstant } from './time';

export const RANGE_PRESETS = ['today', '7d', '30d', '90d', 'all', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const RANGE_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  all: 'All time',
  custom: 'Custom',
};

export interface RangeInput {
  preset: RangePreset;
  /** Inclusive calendar dates in the zone (custom ranges). */
  from?: string | undefined;
  to?: string | undefined;
}

/** A period in the zone: inclusive calendar dates and the half-open instant interval [start, end). */
export interface Period {
  from: string;
  to: string;
  start: string;
  end: string;
}

export interface ResolvedRange extends Period {
  preset: RangePreset;
  timeZone: string;
  days: number;
  /** The range ends after `now` (it takes in today): its figures are so far, not final. */
  partial: boolean;
  /**
   * The period of the same length just before (for "change against the previous period"); none for all time. For a
   * partial range only its same part: it ends at the same wall-clock time, as many days before, as `now` does (at
   * 19:31 "today" compares with yesterday until 19:31), so a day under way does not read as a drop.
   */
  previous: Period | null;
}

/** Where "all time" starts when the tenant has no data to say otherwise. */
export const ALL_TIME_FALLBACK_DAYS = 365;

export function period(from: string, to: string, timeZone: string): Period {
  return {
    from,
    to,
    start: new Date(zonedInstant(from, timeZone)).toISOString(),
    end: new Date(zonedInstant(addDays(to, 1), timeZone)).toISOString(),
  };
}

/**
 * Resolves a range at `now` in `timeZone`. Presets end today (included): "last 7 days" is today and the 6 days
 * before. `allTimeFrom` is the first day with data, when known.
 */
export function resolveRange(range: RangeInput, timeZone: string, now: number, allTimeFrom?: string): ResolvedRange {
  const today = localDate(now, timeZone);
  let from: string;
  let to = today;
  switch (range.preset) {
    case 'today':
      from = today;
      break;
    case '7d':
    case '30d':
    case '90d':
      from = addDays(today, -(Number.parseInt(range.preset, 10) - 1));
      break;
    case 'all':
      from = allTimeFrom && allTimeFrom < today ? allTimeFrom : addDays(today, -(ALL_TIME_FALLBACK_DAYS - 1));
      break;
    case 'custom':
      if (!range.from || !range.to) throw new RangeError('A custom range needs a start and an end date');
      from = range.from;
      to = range.to;
      if (from > to) throw new RangeError(`Invalid date range: the start date ${from} is after the end date ${to}`);
      break;
  }
  const days = daysBetween(from, to) + 1;
  const current = period(from, to, timeZone);
  const partial = now < Date.parse(current.end);
  let previous = range.preset === 'all' ? null : period(addDays(from, -days), addDays(from, -1), timeZone);
  if (previous && partial) {
    // Nothing of the range has happened yet (a custom range in the future): nothing of the one before to compare.
    const cut =
      now <= Date.parse(current.start) ? Date.parse(previous.start) : sameWallTimeDaysBefore(now, timeZone, days);
    previous = { ...previous, end: new Date(Math.min(cut, Date.parse(previous.end))).toISOString() };
  }
  return { preset: range.preset, timeZone, days, ...current, partial, previous };
}

/** "2026-10-01 → 2026-10-31" (or one date). */
export function describeRange(range: Pick<Period, 'from' | 'to'>): string {
  return range.from === range.to ? range.from : `${range.from} → ${range.to}`;
}

/** Percent change from `previous` to `current`; null when there is nothing to compare with, or nothing before (x/0, 0/0). */
export function percentChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}
