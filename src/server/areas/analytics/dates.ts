import { badRequest } from '../../http/errors';

/** Analytics timestamps are stored as ISO strings (`toISOString()`), so ranges compare as strings. */
export const DAY_MS = 86_400_000;
export const INVALID_DATE = 'Invalid date format';
export const INVALID_PARAMETERS = 'Invalid parameters';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A half-open range [start, end) of ISO timestamps; either side may be open. */
export interface IsoRange {
  start?: string;
  end?: string;
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const dayOf = (ms: number) => iso(ms).slice(0, 10);
export const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

function validCalendarDay(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Parses a date (`YYYY-MM-DD`) or, when allowed, an ISO date-time (no zone = UTC). Returns the instant and whether
 * only a day was given (an end day then means the whole day); null when malformed.
 */
export function parseInstant(value: string, allowDateTime: boolean): { ms: number; dayOnly: boolean } | null {
  const day = DATE_RE.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    return validCalendarDay(y, m, d) ? { ms: Date.UTC(y, m - 1, d), dayOnly: true } : null;
  }
  if (!allowDateTime) return null;
  const dt = DATETIME_RE.exec(value);
  if (!dt) return null;
  const [y, m, d, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(dt[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!validCalendarDay(y, m, d) || hh > 23 || mm > 59 || ss > 59) return null;
  const ms = Date.parse(
    `${dt[1]}-${dt[2]}-${dt[3]}T${dt[4]}:${dt[5]}:${dt[6] ?? '00'}${dt[7] ? `.${dt[7]}` : ''}${dt[8] ?? 'Z'}`,
  );
  return Number.isNaN(ms) ? null : { ms, dayOnly: false };
}

export interface RangeOptions {
  /** Date-times are accepted besides plain dates. */
  dateTime?: boolean;
  /** Both bounds must be given (missing → 400 'Invalid parameters'). */
  required?: boolean;
}

/** Reads `start_date`/`end_date`: malformed or reversed → 400 'Invalid date format'. An end day includes that day. */
export function queryRange(query: URLSearchParams, options: RangeOptions = {}): { startMs?: number; endMs?: number } {
  const read = (name: string) => {
    const raw = query.get(name);
    if (raw === null || raw === '') {
      if (options.required) throw badRequest(INVALID_PARAMETERS);
      return undefined;
    }
    const parsed = parseInstant(raw.trim(), options.dateTime ?? true);
    if (!parsed) throw badRequest(INVALID_DATE);
    return parsed;
  };
  const start = read('start_date');
  const end = read('end_date');
  // End bounds are exclusive internally: a day means "until the next midnight", an instant includes itself.
  const endMs = end ? (end.dayOnly ? end.ms + DAY_MS : end.ms + 1) : undefined;
  if (start && endMs !== undefined && start.ms >= endMs) throw badRequest(INVALID_DATE);
  return { startMs: start?.ms, endMs };
}

export function isoRange(range: { startMs?: number; endMs?: number }): IsoRange {
  return {
    ...(range.startMs !== undefined ? { start: iso(range.startMs) } : {}),
    ...(range.endMs !== undefined ? { end: iso(range.endMs) } : {}),
  };
}

export type Bucket = 'hour' | 'day' | 'week' | 'month';

/** SQL expression for the bucket (an ISO instant at the bucket start) of an ISO timestamp column. */
export function bucketSql(column: string, bucket: Bucket): string {
  switch (bucket) {
    case 'hour':
      return `substr(${column}, 1, 13) || ':00:00Z'`;
    case 'day':
      return `substr(${column}, 1, 10) || 'T00:00:00Z'`;
    case 'week':
      // Weeks start on Monday: back six days, then forward to the next Monday.
      return `date(${column}, '-6 days', 'weekday 1') || 'T00:00:00Z'`;
    case 'month':
      return `substr(${column}, 1, 7) || '-01T00:00:00Z'`;
  }
}

/** The start of the bucket holding `ms`. */
export function bucketStart(ms: number, bucket: Bucket): number {
  const d = new Date(ms);
  switch (bucket) {
    case 'hour':
      return Math.floor(ms / 3_600_000) * 3_600_000;
    case 'day':
      return startOfDay(ms);
    case 'week':
      return startOfDay(ms) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

function nextBucket(ms: number, bucket: Bucket): number {
  if (bucket === 'hour') return ms + 3_600_000;
  if (bucket === 'day') return ms + DAY_MS;
  if (bucket === 'week') return ms + 7 * DAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Every bucket start (ISO, `YYYY-MM-DDTHH:00:00Z`) overlapping [startMs, endMs), for zero-filled series. */
export function bucketKeys(startMs: number, endMs: number, bucket: Bucket, limit = 20_000): string[] {
  const keys: string[] = [];
  for (let t = bucketStart(startMs, bucket); t < endMs && keys.length < limit; t = nextBucket(t, bucket)) {
    keys.push(`${iso(t).slice(0, 19)}Z`);
  }
  return keys;
}

/** Maps a query value onto a bucket, e.g. `aggregation=daily` or `group_by=day`; unknown → 400 'Invalid parameters'. */
export function bucketParam(
  query: URLSearchParams,
  name: string,
  fallback: Bucket,
  allowed: readonly Bucket[],
): Bucket {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const aliases: Record<string, Bucket> = {
    hourly: 'hour',
    hour: 'hour',
    daily: 'day',
    day: 'day',
    weekly: 'week',
    week: 'week',
    monthly: 'month',
    month: 'month',
  };
  const bucket = aliases[raw.toLowerCase()];
  if (!bucket || !allowed.includes(bucket)) throw badRequest(INVALID_PARAMETERS);
  return bucket;
}

export const percentChange = (current: number, previous: number) =>
  previous === 0 ? (current === 0 ? 0 : 100) : Math.round(((current - previous) / previous) * 10_000) / 100;
