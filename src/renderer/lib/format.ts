/**
 * How every screen writes dates, times and numbers: one set of formatters, in one locale — the operating system's
 * (`system`) or the one chosen in Settings → Appearance. Screens import from here, never build their own `Intl`
 * formatters, so a date reads the same on the Jobs list, a ticket and a chart.
 */

import { formatBytes as formatSharedBytes } from '../../shared/bytes';

type Formatters = ReturnType<typeof buildFormatters>;

let chosenLocale: string | undefined;
let formatters: Formatters = buildFormatters(undefined);

/** `system` (or nothing) follows the operating system; otherwise a BCP 47 tag such as `en-GB`. */
export function setFormatLocale(locale: string | undefined): void {
  const next = !locale || locale === 'system' ? undefined : locale;
  if (next === chosenLocale) return;
  chosenLocale = next;
  formatters = buildFormatters(next);
}

/** The locale in force, resolved (e.g. `en-US` when following a US system). */
export function formatLocale(): string {
  return formatters.dateTime.resolvedOptions().locale;
}

function buildFormatters(locale: string | undefined) {
  return {
    count: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    decimal: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
    oneDecimal: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }),
    percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
    signedPercent: new Intl.NumberFormat(locale, {
      style: 'percent',
      maximumFractionDigits: 1,
      signDisplay: 'exceptZero',
    }),
    usd: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }),
    usdSmall: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 }),
    usdFine: new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 5,
      maximumFractionDigits: 5,
    }),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
    dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    time: new Intl.DateTimeFormat(locale, { timeStyle: 'short' }),
    dayAndTime: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
    // Calendar days ("2026-11-24", no time of day) are read at UTC midnight and written in UTC, so no zone moves them.
    day: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
    dayShort: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
  };
}

const DASH = '—';

function isMissing(value: number | null | undefined): value is null | undefined {
  return value === null || value === undefined || !Number.isFinite(value);
}

function toDate(iso: string | number | Date | null | undefined): Date | undefined {
  if (iso === null || iso === undefined || iso === '') return undefined;
  const date = iso instanceof Date ? iso : new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Whole numbers with the locale's grouping: "12,480". */
export function formatCount(value: number | null | undefined): string {
  return isMissing(value) ? DASH : formatters.count.format(value);
}

/** Up to two decimals: "6.04", "1,250.5". */
export function formatDecimal(value: number | null | undefined): string {
  return isMissing(value) ? DASH : formatters.decimal.format(value);
}

/** A percentage given in percent, in the locale's own way: 6.04 → "6.04%" (en), "6,04 %" (fr). */
export function formatPercent(percent: number | null | undefined): string {
  return isMissing(percent) ? DASH : formatters.percent.format(percent / 100);
}

/** A change in percent, signed: "+12.5%", "−3%", "0%"; "—" when there is nothing to compare with. */
export function formatChange(percent: number | null | undefined): string {
  return isMissing(percent) ? DASH : formatters.signedPercent.format(percent / 100);
}

/** US dollars, keeping tiny amounts readable: "$0.0042" rather than "$0.00". */
export function formatUsd(value: number | null | undefined): string {
  if (isMissing(value)) return DASH;
  return value !== 0 && Math.abs(value) < 0.01 ? formatters.usdSmall.format(value) : formatters.usd.format(value);
}

/** Model costs, often a fraction of a cent: always five decimals, so a column of them lines up ("$0.04400", "$0.00186"). */
export function formatModelCost(value: number | null | undefined): string {
  return isMissing(value) ? DASH : formatters.usdFine.format(value);
}

/** Sizes as file managers show them ("726 B", "1.4 KB", "12 MB"), in the chosen locale's digits. */
export function formatBytes(bytes: number | null | undefined): string {
  return formatSharedBytes(bytes, (value, fractionDigits) =>
    (fractionDigits ? formatters.oneDecimal : formatters.count).format(value),
  );
}

/** A transfer rate: "1.4 MB/s"; "—" while nothing moves. */
export function formatRate(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : DASH;
}

/** Whole-number percentage of `part` in `total` for bars and badges, 0 when the total is unknown. */
export function percent(part: number, total: number): number {
  return total > 0 ? Math.min(100, Math.floor((part / total) * 100)) : 0;
}

/** A platform's lowercase value as a label, in sentence case like every label: "already invited" → "Already invited". */
export function asLabel(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/** "1 file", "1,204 files". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** A calendar date: "25 Nov 2026" / "Nov 25, 2026". */
export function formatDate(iso: string | number | Date | null | undefined, timeZone?: string): string {
  const date = toDate(iso);
  if (!date) return DASH;
  return timeZone ? dateFormatIn(timeZone).format(date) : formatters.date.format(date);
}

/** A date and time: "25 Nov 2026, 19:31". */
export function formatDateTime(iso: string | number | Date | null | undefined, timeZone?: string): string {
  const date = toDate(iso);
  if (!date) return DASH;
  return timeZone ? dateTimeFormatIn(timeZone).format(date) : formatters.dateTime.format(date);
}

/** A time of day: "19:31". */
export function formatTime(iso: string | number | Date | null | undefined): string {
  const date = toDate(iso);
  return date ? formatters.time.format(date) : DASH;
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayDate = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * A calendar day as the platform writes it ("2026-11-24"): "Nov 24, 2026" / "24 Nov 2026". A full timestamp gives
 * its date; anything else is shown as it came.
 */
export function formatDay(day: string | null | undefined): string {
  if (!day) return DASH;
  if (CALENDAR_DAY.test(day)) return formatters.day.format(dayDate(day));
  const date = toDate(day);
  return date ? formatters.date.format(date) : day;
}

/** Lower case, no accents and no dots, so "Oct.", "oct" and "déc." compare as written by hand. */
function plainWord(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f.]/g, '')
    .toLowerCase();
}

/** The chosen locale's order of day, month and year in a numeric date ("dmy" for en-GB, "mdy" for en-US). */
function numericOrder(): string {
  return new Intl.DateTimeFormat(formatLocale(), { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' })
    .formatToParts(dayDate('2026-11-24'))
    .map((part) => part.type.charAt(0))
    .filter((type) => type === 'd' || type === 'm' || type === 'y')
    .join('');
}

/** The month (1–12) a word names in the chosen locale, long or short ("oct", "October", "déc."); 0 for none. */
function monthOfWord(word: string): number {
  const plain = plainWord(word);
  if (plain.length < 3) return 0;
  for (let month = 1; month <= 12; month++) {
    const day = dayDate(`2026-${String(month).padStart(2, '0')}-15`);
    const long = plainWord(new Intl.DateTimeFormat(formatLocale(), { month: 'long', timeZone: 'UTC' }).format(day));
    const short = plainWord(new Intl.DateTimeFormat(formatLocale(), { month: 'short', timeZone: 'UTC' }).format(day));
    if (long.startsWith(plain) || plain === short) return month;
  }
  return 0;
}

/**
 * A day as an admin types it, read in the app's date format: what formatDay writes ("24 Nov 2026", "Nov 24, 2026"),
 * the locale's numeric order ("24/11/2026" day-first in en-GB, "11/24/2026" in en-US) or "2026-11-24".
 * Gives "YYYY-MM-DD", or null when the text is no real day.
 */
export function parseDay(text: string): string | null {
  const iso = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/.exec(text);
  let year: number, month: number, day: number;
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    const tokens = text.match(/\p{L}[\p{L}.]*|\d+/gu) ?? [];
    const numbers = tokens.filter((token) => /^\d+$/.test(token));
    // Words that name no month ("de" in "24 de nov. de 2026") are read past.
    const months = tokens
      .filter((token) => !/^\d/.test(token))
      .map(monthOfWord)
      .filter(Boolean);
    const order = numericOrder();
    if (months.length === 1 && numbers.length === 2) {
      month = months[0]!;
      // The four-digit number is the year; with two short ones, the locale's order says which.
      const yearFirst = numbers[0]!.length > 2 || (numbers[1]!.length <= 2 && order.indexOf('y') < order.indexOf('d'));
      const [yearText, dayText] = yearFirst ? [numbers[0]!, numbers[1]!] : [numbers[1]!, numbers[0]!];
      if (yearText.length !== 2 && yearText.length !== 4) return null;
      [year, day] = [Number(yearText) + (yearText.length === 2 ? 2000 : 0), Number(dayText)];
    } else if (months.length === 0 && numbers.length === 3) {
      const fields = numbers[0]!.length === 4 ? 'ymd' : order;
      const value = (field: string) => Number(numbers[fields.indexOf(field)]);
      const yearText = numbers[fields.indexOf('y')]!;
      if (yearText.length !== 2 && yearText.length !== 4) return null;
      [year, month, day] = [value('y') + (yearText.length === 2 ? 2000 : 0), value('m'), value('d')];
    } else {
      return null;
    }
  }
  if (year < 1000 || year > 9999) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/** A calendar day short enough for a chart's axis: "Nov 24" / "24 Nov". */
export function formatDayShort(day: string | null | undefined): string {
  if (!day) return DASH;
  return CALENDAR_DAY.test(day) ? formatters.dayShort.format(dayDate(day)) : day;
}

/** Two calendar days as one span: "Oct 27 – Nov 25, 2026"; one day when both are the same. */
export function formatDayRange(from: string, to: string): string {
  if (!CALENDAR_DAY.test(from) || !CALENDAR_DAY.test(to)) return from === to ? from : `${from} – ${to}`;
  return from === to ? formatDay(from) : formatters.day.formatRange(dayDate(from), dayDate(to));
}

/** When data was fetched: the time alone today, else the date and time; "never" without one. */
export function formatAsOf(iso: string | null | undefined, now = new Date()): string {
  const date = toDate(iso);
  if (!date) return 'never';
  return date.toDateString() === now.toDateString() ? formatters.time.format(date) : formatters.dateTime.format(date);
}

/** A time soon or lately, as short as it can be: "21:49" today, "Nov 25, 21:49" this year, else the date. */
export function formatClock(iso: string | null | undefined, now = new Date()): string {
  const date = toDate(iso);
  if (!date) return DASH;
  if (date.toDateString() === now.toDateString()) return formatters.time.format(date);
  return date.getFullYear() === now.getFullYear() ? formatters.dayAndTime.format(date) : formatters.date.format(date);
}

/** "3 hours ago", "in 2 days", "now". */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  const date = toDate(iso);
  if (!date) return DASH;
  const ms = date.getTime() - now;
  const abs = Math.abs(ms);
  if (abs < 60_000) return formatters.relative.format(Math.round(ms / 1000), 'second');
  if (abs < 3_600_000) return formatters.relative.format(Math.round(ms / 60_000), 'minute');
  if (abs < 86_400_000) return formatters.relative.format(Math.round(ms / 3_600_000), 'hour');
  return formatters.relative.format(Math.round(ms / 86_400_000), 'day');
}

/** A span of time: "a moment", "45 s", "12 min", "1 h 20 min". */
export function formatDuration(seconds: number | null | undefined): string {
  if (isMissing(seconds)) return DASH;
  if (seconds < 1) return 'a moment';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${formatters.count.format(hours)} h ${rest} min` : `${formatters.count.format(hours)} h`;
}

// Zoned formatters for analytics (a dashboard may be read in the tenant's zone), made once per zone and locale.
const zoned = new Map<string, Intl.DateTimeFormat>();
function zonedFormat(kind: 'date' | 'dateTime', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${chosenLocale ?? ''}|${timeZone}`;
  let format = zoned.get(key);
  if (!format) {
    const style: Intl.DateTimeFormatOptions =
      kind === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
    format = new Intl.DateTimeFormat(chosenLocale, { ...style, timeZone });
    zoned.set(key, format);
  }
  return format;
}
const dateFormatIn = (timeZone: string) => zonedFormat('date', timeZone);
const dateTimeFormatIn = (timeZone: string) => zonedFormat('dateTime', timeZone);
