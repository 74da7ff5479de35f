import { afterEach, describe, expect, it } from 'vitest';
import {
  formatAsOf,
  formatBytes,
  formatChange,
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayRange,
  formatDayShort,
  formatDuration,
  formatLocale,
  formatPercent,
  formatRelative,
  formatUsd,
  parseDay,
  plural,
  setFormatLocale,
} from '../../src/renderer/lib/format';

afterEach(() => setFormatLocale('system'));

describe('one date and number format for every screen', () => {
  it('writes in the chosen locale and back in the system one', () => {
    setFormatLocale('de-DE');
    expect(formatLocale()).toBe('de-DE');
    expect(formatCount(12480)).toBe('12.480');
    expect(formatDate('2026-11-25T12:00:00Z', 'UTC')).toBe('25.11.2026');
    setFormatLocale('en-US');
    expect(formatCount(12480)).toBe('12,480');
    expect(formatDateTime('2026-11-25T19:31:00Z', 'UTC')).toBe('Nov 25, 2026, 7:31 PM');
    setFormatLocale('system');
    expect(formatLocale()).toBe(new Intl.DateTimeFormat().resolvedOptions().locale);
  });

  it('counts bytes honestly: 726 B is 726 B', () => {
    setFormatLocale('en-US');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(726)).toBe('726 B');
    expect(formatBytes(1413)).toBe('1.4 KB');
    expect(formatBytes(10_189)).toBe('10 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(null)).toBe('—');
    setFormatLocale('de-DE');
    expect(formatBytes(1413)).toBe('1,4 KB');
  });

  it('puts the percent sign on rates and changes, and a dash where there is no figure', () => {
    setFormatLocale('en-US');
    expect(formatPercent(6.04)).toBe('6.04%');
    expect(formatPercent(62.555)).toBe('62.56%');
    expect(formatChange(12.5)).toBe('+12.5%');
    expect(formatChange(-3)).toBe('-3%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(null)).toBe('—');
    expect(formatPercent(Number.NaN)).toBe('—');
    setFormatLocale('fr-FR');
    expect(formatPercent(6.5)).toBe('6,5\u00a0%');
  });

  it('writes money, plurals, durations and relative times', () => {
    setFormatLocale('en-US');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(1204, 'row')).toBe('1,204 rows');
    expect(formatDuration(0.2)).toBe('a moment');
    expect(formatDuration(80 * 60)).toBe('1 h 20 min');
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(formatRelative('2026-11-25T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelative(null, now)).toBe('—');
  });

  it('says "as of" with the time alone today and the date otherwise', () => {
    setFormatLocale('en-GB');
    const now = new Date(2026, 10, 25, 20, 0);
    expect(formatAsOf(new Date(2026, 10, 25, 19, 31).toISOString(), now)).toBe('19:31');
    expect(formatAsOf(new Date(2026, 10, 24, 19, 31).toISOString(), now)).toBe('24 Nov 2026, 19:31');
    expect(formatAsOf(null, now)).toBe('never');
  });

  it("writes the platform's calendar days in the locale, on the day they name whatever the zone", () => {
    setFormatLocale('en-US');
    expect(formatDay('2026-11-24')).toBe('Nov 24, 2026');
    expect(formatDayShort('2026-10-27')).toBe('Oct 27');
    expect(formatDayRange('2026-10-27', '2026-11-25')).toBe('Oct 27\u2009–\u2009Nov 25, 2026');
    expect(formatDayRange('2026-11-25', '2026-11-25')).toBe('Nov 25, 2026');
    setFormatLocale('en-GB');
    expect(formatDay('2026-01-01')).toBe('1 Jan 2026');
    expect(formatDayShort('2026-10-27')).toBe('27 Oct');
    setFormatLocale('de-DE');
    expect(formatDay('2026-11-24')).toBe('24.11.2026');
    // Not a calendar day: a timestamp gives its date, anything else stays as the platform wrote it.
    expect(formatDay('yesterday')).toBe('yesterday');
    expect(formatDay(null)).toBe('—');
    expect(formatDayShort('week 3')).toBe('week 3');
  });
});

describe('a typed day, read in the app’s date format', () => {
  it('reads back what formatDay writes, in every chosen locale', () => {
    for (const locale of ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'ja-JP', 'es-ES']) {
      setFormatLocale(locale);
      for (const day of ['2026-01-05', '2026-10-10', '2026-12-31']) expect(parseDay(formatDay(day)), locale).toBe(day);
    }
  });

  it('reads a numeric day in the locale’s order: day first in en-GB, month first in en-US', () => {
    setFormatLocale('en-GB');
    expect(parseDay('05/10/2026')).toBe('2026-10-05');
    expect(parseDay('5.10.26')).toBe('2026-10-05');
    expect(parseDay('5 oct 2026')).toBe('2026-10-05');
    setFormatLocale('en-US');
    expect(parseDay('05/10/2026')).toBe('2026-05-10');
    expect(parseDay('October 5, 2026')).toBe('2026-10-05');
    expect(parseDay('2026-10-05')).toBe('2026-10-05');
  });

  it('refuses what is no real day', () => {
    setFormatLocale('en-GB');
    for (const text of ['', 'tomorrow', '31/02/2026', '13/13/2026', '10/2026', '10 Foo 2026', '2026-02-30', '1/1/1'])
      expect(parseDay(text), text).toBeNull();
  });
});
