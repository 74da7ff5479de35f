/** How analytics figures read on screen. */
import type { Kpi } from '../../../shared/contract';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const usdSmall = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 });

export const formatInteger = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : integer.format(n);
export const formatDecimal = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : decimal.format(n);
export const formatUsd = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n !== 0 && Math.abs(n) < 0.01 ? usdSmall.format(n) : usd.format(n);
export const formatPercent = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : `${decimal.format(n)} %`;

export function formatKpi(kpi: Pick<Kpi, 'unit'>, value: number | null): string {
  if (kpi.unit === 'usd') return formatUsd(value);
  if (kpi.unit === 'ratio') return formatDecimal(value);
  if (kpi.unit === 'percent') return formatPercent(value);
  return formatInteger(value);
}

/**
 * "+12.5 %", "−3 %", "±0 %"; "—" when there is no percentage to give (nothing before: x/0 or 0/0; a note says
 * why); "no earlier period" when there is none (all time).
 */
export function formatChange(change: number | null, previous: number | null = null, explained = false): string {
  if (change === null) return previous === null && !explained ? 'no earlier period' : '—';
  if (change === 0) return '±0 %';
  return `${change > 0 ? '+' : '−'}${decimal.format(Math.abs(change))} %`;
}

export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${integer.format(hours)} h ${minutes % 60} min`;
}

export function formatWhen(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
}

export const formatCell = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : typeof value === 'number' ? decimal.format(value) : value;
