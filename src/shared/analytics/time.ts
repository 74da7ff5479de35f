/**
 * Calendar dates and time zones without a date library: IANA zones through `Intl`, arithmetic on UTC milliseconds.
 * Shared by the engine (ranges, CSV timestamps) and the renderer (range pickers, labels).
 */

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `Intl` knows the zone (an IANA name such as `Europe/Paris`, or `UTC`). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    partsFormatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The zone of the machine the code runs on. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Minutes to add to UTC to get the zone's wall-clock time at an instant. */
export function offsetMinutes(ms: number, timeZone: string): number {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 0;
  const seconds = Math.floor(ms / 1000) * 1000;
  const values: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(seconds))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const wall = Date.UTC(values.year!, values.month! - 1, values.day!, values.hour!, values.minute!, values.second!);
  return Math.round((wall - seconds) / 60_000);
}

export function isCalendarDate(value: string): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1970 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function dateParts(date: string): [number, number, number] {
  const match = DATE_RE.exec(date);
  if (!match) throw new RangeError(`Invalid date format: '${date}' is not a date (use YYYY-MM-DD)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** `YYYY-MM-DD` plus (or minus) whole days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = dateParts(date);
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (0 when equal). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = dateParts(from);
  const [y2, m2, d2] = dateParts(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / DAY_MS);
}

/** The zone's calendar date at an instant. */
export function localDate(ms: number, timeZone: string): string {
  return new Date(ms + offsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 10);
}

/** The instant at which a wall-clock time happens in the zone (the later one when DST repeats an hour). */
export function zonedInstant(date: string, timeZone: string, hour = 0, minute = 0): number {
  const [y, m, d] = dateParts(date);
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  const first = offsetMinutes(wall, timeZone);
  const instant = wall - first * 60_000;
  const second = offsetMinutes(instant, timeZone);
  return second === first ? instant : wall - second * 60_000;
}

/** The instant a zone's calendar day starts. */
export const startOfLocalDay = (date: string, timeZone: string) => zonedInstant(date, timeZone);

/** Day of the week of a date, 0 = Sunday. */
export function weekday(date: string): number {
  const [y, m, d] = dateParts(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
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
