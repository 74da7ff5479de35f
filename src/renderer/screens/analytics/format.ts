/** How analytics figures read on screen: the app's one format (../../format), with what only analytics needs. */
import type { Kpi } from '../../../shared/contract';
import {
  formatChange as formatSignedPercent,
  formatCount,
  formatDateTime,
  formatDecimal,
  formatPercent,
  formatUsd,
} from '../../lib/format';

export {
  asLabel,
  formatDay,
  formatDayRange,
  formatDayShort,
  formatDecimal,
  formatPercent,
  formatUsd,
} from '../../lib/format';
export const formatInteger = formatCount;

export function formatKpi(kpi: Pick<Kpi, 'unit'>, value: number | null): string {
  if (kpi.unit === 'usd') return formatUsd(value);
  if (kpi.unit === 'ratio') return formatDecimal(value);
  if (kpi.unit === 'percent') return formatPercent(value);
  return formatCount(value);
}

/**
 * "+12.5%", "-3%", "0%"; "—" when there is no percentage to give (nothing before: x/0 or 0/0; a note says
 * why); "no earlier period" when there is none (all time).
 */
export function formatChange(change: number | null, previous: number | null = null, explained = false): string {
  if (change === null) return previous === null && !explained ? 'no earlier period' : '—';
  return formatSignedPercent(change);
}

export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${formatCount(hours)} h ${minutes % 60} min`;
}

/** A date and time, in the dashboard's time zone when it has one. */
export function formatWhen(iso: string | null | undefined, timeZone?: string): string {
  return formatDateTime(iso, timeZone);
}

export const formatCell = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : typeof value === 'number' ? formatDecimal(value) : value;
