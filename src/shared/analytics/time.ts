/**
 * Calendar dates and time zones on the Temporal API (`temporal-polyfill` until Node and Electron ship it): IANA zones,
 * the start of a zone's day (which is not always midnight), wall-clock times that a DST change skips or repeats.
 * Shared by the engine (ranges, CSV timestamps, schedules) and the renderer (range pickers, labels).
 */
import { Temporal } from 'temporal-polyfill';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(Math.floor(ms));

/** Whether the zone is known (an IANA name such as `Europe/Paris`, or `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    instant(0).toZonedDateTimeISO(value);
    return true;
  } catch {
    return false;
  }
}

/** The zone of the machine the code runs on. */
export function localTimeZone(): string {
  return Temporal.Now.timeZoneId() || 'UTC';
}

/** Stretches of time over which a zone keeps one offset: from an instant asked about to the zone's next change. */
interface Stretch {
  from: number;
  to: number;
  offset: number;
}
const stretches = new Map<string, Stretch[]>();
const STRETCHES_PER_ZONE = 32;

/**
 * Minutes to add to UTC to get the zone's wall-clock time at an instant. Offsets change a few times a year: the
 * answer holds until the zone's next change, so a run of instants (a dashboard's hours, an export's rows) costs one
 * Temporal look-up per change, not one each.
 */
export function offsetMinutes(ms: number, timeZone: string): number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 0;
  let known = stretches.get(timeZone);
  if (!known) stretches.set(timeZone, (known = []));
  for (const stretch of known) if (ms >= stretch.from && ms < stretch.to) return stretch.offset;
  const zoned = instant(ms).toZonedDateTimeISO(timeZone);
  const offset = Math.round(zoned.offsetNanoseconds / 60e9);
  const next = zoned.getTimeZoneTransition('next');
  if (known.length >= STRETCHES_PER_ZONE) known.shift();
  known.push({ from: Math.floor(ms), to: next ? next.epochMilliseconds : Number.POSITIVE_INFINITY, offset });
  return offset;
}

/** A real `YYYY-MM-DD` date, any year the platform's date parameters take (no floor at 1970: the spec has none). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

function plainDate(date: string): Temporal.PlainDate {
  if (!DATE_RE.test(date)) throw new RangeError(`Invalid date format: '${date}' is not a date (use YYYY-MM-DD)`);
  return Temporal.PlainDate.from(date, { overflow: 'reject' });
}

/** `YYYY-MM-DD` plus (or minus) whole days. */
export function addDays(date: string, days: number): string {
  return plainDate(date).add({ days }).toString();
}

/** Whole days from `from` to `to` (0 when equal). */
export function daysBetween(from: string, to: string): number {
  return plainDate(from).until(plainDate(to), { largestUnit: 'days' }).days;
}

/** The zone's calendar date at an instant. */
export function localDate(ms: number, timeZone: string): string {
  return new Date(Math.floor(ms) + offsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 10);
}

/**
 * The instant a wall-clock time happens in the zone. Without a time: the first instant of that day, which is not
 * midnight where a DST change happens at midnight (America/Santiago on 2024-09-08 starts at 01:00). A time that the
 * clocks skip (02:30 on a spring-forward day) happens as late as the skip: 03:30 after a one-hour jump; a time that
 * repeats (01:30 on a fall-back day) happens the first time, before the clocks go back. Temporal calls this
 * disambiguation 'compatible'; it is what calendars and cron do.
 */
export function zonedInstant(date: string, timeZone: string, hour?: number, minute = 0): number {
  const day = plainDate(date);
  if (hour === undefined) return day.toZonedDateTime({ timeZone }).epochMilliseconds;
  return day.toPlainDateTime({ hour, minute }).toZonedDateTime(timeZone, { disambiguation: 'compatible' })
    .epochMilliseconds;
}

/**
 * The instant `days` calendar days before `ms` at the same wall-clock time in the zone (what "until the same time
 * yesterday" means across a DST change); a time that day skips comes after the skip.
 */
export function sameWallTimeDaysBefore(ms: number, timeZone: string, days: number): number {
  return instant(ms).toZonedDateTimeISO(timeZone).subtract({ days }).epochMilliseconds;
}

/** The instant a zone's calendar day starts. */
export const startOfLocalDay = (date: string, timeZone: string) => zonedInstant(date, timeZone);

/** Day of the week of a date, 0 = Sunday. */
export function weekday(date: string): number {
  return plainDate(date).dayOfWeek % 7;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * Formats instants as ISO 8601 with the zone's offset (`2026-10-02T14:03:11+02:00`), to the second. Offsets are
 * remembered per quarter hour (every zone changes offset on a quarter hour), so a million rows cost one `Intl` call
 * per quarter hour they cover, not one each.
 */
export class ZonedFormatter {
  private readonly offsets = new Map<number, number>();
  private readonly texts = new Map<number, string>();
  private readonly utc: boolean;
  constructor(readonly timeZone: string) {
    this.utc = timeZone === 'UTC' || timeZone === 'Etc/UTC';
  }

  offsetAt(ms: number): number {
    if (this.utc) return 0;
    const slot = Math.floor(ms / 900_000);
    let offset = this.offsets.get(slot);
    if (offset === undefined) {
      if (this.offsets.size > 200_000) this.offsets.clear();
      offset = offsetMinutes(ms, this.timeZone);
      this.offsets.set(slot, offset);
    }
    return offset;
  }

  private offsetText(offset: number): string {
    let text = this.texts.get(offset);
    if (text === undefined) this.texts.set(offset, (text = offsetText(offset)));
    return text;
  }

  format(ms: number): string {
    const offset = this.offsetAt(ms);
    const wall = new Date(ms + offset * 60_000).toISOString();
    return `${wall.slice(0, 19)}${this.offsetText(offset)}`;
  }

  /** An ISO timestamp from the API (any offset) in this zone; anything that is not a timestamp is returned as is. */
  formatIso(value: string | null | undefined): string {
    if (!value) return '';
    if (value.length <= 10) return value;
    // The common case needs no date arithmetic: a UTC timestamp written in UTC.
    if (
      this.utc &&
      value.length >= 20 &&
      value.charCodeAt(10) === 84 /* T */ &&
      value.charCodeAt(value.length - 1) === 90 /* Z */ &&
      (value.charCodeAt(19) === 46 /* . */ || value.charCodeAt(19) === 90)
    )
      return `${value.slice(0, 19)}+00:00`;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : this.format(ms);
  }
}
