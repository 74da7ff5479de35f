/** Numbers, sizes, durations and times as an admin reads them: the app's one format (../format), plus rates. */
import { formatBytes } from '../format';

export { formatAsOf, formatBytes, formatCount, formatDateTime, formatDuration, plural } from '../format';

export function formatRate(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : '—';
}

/** Whole-number percentage of `part` in `total`, 0 when the total is unknown. */
export function percent(part: number, total: number): number {
  return total > 0 ? Math.min(100, Math.floor((part / total) * 100)) : 0;
}
