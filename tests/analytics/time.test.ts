/** Ranges and time zones: calendar arithmetic, DST, presets, and timestamps written with their offset. */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  DateRange,
  isCalendarDate,
  isTimeZone,
  localDate,
  offsetMinutes,
  resolveRange,
  TimeZone,
  zonedInstant,
  ZonedFormatter,
} from '../../src/shared/contract';
import { latestSlot, nextSlot, runRange } from '../../src/main/engine/analytics/schedules';

const at = (iso: string) => Date.parse(iso);

describe('time zones', () => {
  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(TimeZone.safeParse('Nowhere/Land').error?.issues[0]?.message).toContain("Unknown time zone 'Nowhere/Land'");
  });

  it('finds offsets across daylight saving changes', () => {
    expect(offsetMinutes(at('2026-07-01T12:00:00Z'), 'Europe/Paris')).toBe(120);
    expect(offsetMinutes(at('2026-12-01T12:00:00Z'), 'Europe/Paris')).toBe(60);
    expect(offsetMinutes(at('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(at('2026-07-01T12:00:00Z'), 'Asia/Kolkata')).toBe(330);
    // Paris leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC).
    expect(zonedInstant('2026-10-25', 'Europe/Paris')).toBe(at('2026-10-24T22:00:00Z'));
    expect(zonedInstant('2026-10-26', 'Europe/Paris')).toBe(at('2026-10-25T23:00:00Z'));
    expect(localDate(at('2026-10-31T23:30:00Z'), 'Europe/Paris')).toBe('2026-11-01');
    expect(localDate(at('2026-10-31T23:30:00Z'), 'America/New_York')).toBe('2026-10-31');
  });

  it('starts a day at its first instant where a DST change happens at midnight', () => {
    // Clocks jump from 00:00 to 01:00: the day starts at 01:00 local, never on the day before.
    expect(zonedInstant('2024-09-08', 'America/Santiago')).toBe(at('2024-09-08T04:00:00Z'));
    expect(zonedInstant('2026-03-08', 'America/Havana')).toBe(at('2026-03-08T05:00:00Z'));
    expect(zonedInstant('2023-10-01', 'America/Asuncion')).toBe(at('2023-10-01T04:00:00Z'));
    for (const [date, zone] of [
      ['2024-09-08', 'America/Santiago'],
      ['2026-03-08', 'America/Havana'],
      ['2023-10-01', 'America/Asuncion'],
    ] as const) {
      expect(localDate(zonedInstant(date, zone), zone), zone).toBe(date);
      // The day before ends where this one starts: 23 hours.
      const range = resolveRange({ preset: 'custom', from: date, to: date }, zone, at('2027-01-01T00:00:00Z'));
      expect(range.start, zone).toBe(new Date(zonedInstant(date, zone)).toISOString());
      expect(Date.parse(range.end) - Date.parse(range.start), zone).toBe(23 * 3_600_000);
    }
    // Santiago going back an hour at midnight (2026-04-05 00:00 → 2026-04-04 23:00): the 5th starts at its midnight.
    expect(zonedInstant('2026-04-05', 'America/Santiago')).toBe(at('2026-04-05T04:00:00Z'));
    const today = resolveRange({ preset: 'today' }, 'America/Santiago', at('2024-09-08T12:00:00Z'));
    expect(today).toMatchObject({ from: '2024-09-08', start: '2024-09-08T04:00:00.000Z' });
  });

  it('places wall-clock times that DST skips or repeats', () => {
    // Paris springs forward at 02:00 on 2026-03-29: 02:30 does not exist and happens at 03:30 (UTC+2).
    expect(zonedInstant('2026-03-29', 'Europe/Paris', 2, 30)).toBe(at('2026-03-29T01:30:00Z'));
    // It falls back at 03:00 on 2026-10-25: 02:30 happens twice, and counts the first time (UTC+2).
    expect(zonedInstant('2026-10-25', 'Europe/Paris', 2, 30)).toBe(at('2026-10-25T00:30:00Z'));
    expect(zonedInstant('2026-07-01', 'Europe/Paris', 2, 30)).toBe(at('2026-07-01T00:30:00Z'));
  });

  it('keeps offsets right across a change, asked in any order', () => {
    const intl = (ms: number, zone: string) => {
      const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(new Date(ms))
        .find((p) => p.type === 'timeZoneName')!.value;
      const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
      return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
    };
    const start = at('2026-10-24T12:00:00Z');
    const times = Array.from({ length: 48 * 4 }, (_, i) => start + i * 900_000);
    for (const zone of ['Europe/Paris', 'America/Santiago', 'Australia/Lord_Howe']) {
      for (const ms of [...times, ...[...times].reverse()])
        expect(offsetMinutes(ms, zone), `${zone} ${ms}`).toBe(intl(ms, zone));
    }
  });

  it('writes timestamps as ISO 8601 with the offset of their own date', () => {
    const paris = new ZonedFormatter('Europe/Paris');
    expect(paris.formatIso('2026-07-01T12:00:05.678Z')).toBe('2026-07-01T14:00:05+02:00');
    expect(paris.formatIso('2026-12-01T12:00:05Z')).toBe('2026-12-01T13:00:05+01:00');
    const utc = new ZonedFormatter('UTC');
    expect(utc.formatIso('2026-12-01T12:00:05.1Z')).toBe('2026-12-01T12:00:05+00:00');
    expect(utc.formatIso('2026-12-01T12:00:05Z')).toBe('2026-12-01T12:00:05+00:00');
    expect(utc.formatIso('2026-12-01T12:00Z')).toBe('2026-12-01T12:00:00+00:00');
    expect(utc.formatIso('2026-12-01T13:00:05+01:00')).toBe('2026-12-01T12:00:05+00:00');
    expect(new ZonedFormatter('America/St_Johns').formatIso('2026-01-15T12:00:00Z')).toBe('2026-01-15T08:30:00-03:30');
    // Dates stay dates; anything else is left alone.
    expect(paris.formatIso('2026-07-01')).toBe('2026-07-01');
    expect(paris.formatIso('soon')).toBe('soon');
  });
});

describe('date ranges', () => {
  const now = at('2026-11-22T10:00:00Z');

  it('resolves presets to calendar days in the zone, with the period before', () => {
    const week = resolveRange({ preset: '7d' }, 'Europe/Paris', now);
    expect(week).toMatchObject({ from: '2026-11-16', to: '2026-11-22', days: 7 });
    expect(week.start).toBe('2026-11-15T23:00:00.000Z');
    expect(week.end).toBe('2026-11-22T23:00:00.000Z');
    expect(week.previous).toMatchObject({ from: '2026-11-09', to: '2026-11-15' });
    const today = resolveRange({ preset: 'today' }, 'Pacific/Auckland', now);
    expect(today).toMatchObject({ from: '2026-11-22', to: '2026-11-22', days: 1 });
    expect(resolveRange({ preset: 'today' }, 'Pacific/Honolulu', now).from).toBe('2026-11-22');
    expect(resolveRange({ preset: 'today' }, 'Pacific/Honolulu', at('2026-11-22T05:00:00Z')).from).toBe('2026-11-21');
    const all = resolveRange({ preset: 'all' }, 'UTC', now, '2026-05-05');
    expect(all).toMatchObject({ from: '2026-05-05', to: '2026-11-22', previous: null });
    expect(resolveRange({ preset: '90d' }, 'UTC', now).days).toBe(90);
  });

  it('refuses a reversed or malformed custom range with words that say so', () => {
    const reversed = DateRange.safeParse({ preset: 'custom', from: '2026-10-31', to: '2026-10-01' });
    expect(reversed.error?.issues[0]?.message).toBe(
      'Invalid date range: the start date 2026-10-31 is after the end date 2026-10-01',
    );
    const malformed = DateRange.safeParse({ preset: 'custom', from: '2026-13-01', to: '2026-10-01' });
    expect(malformed.error?.issues[0]?.message).toBe(
      "Invalid date format: '2026-13-01' is not a date (use YYYY-MM-DD)",
    );
    expect(DateRange.safeParse({ preset: 'custom', from: '2026-10-01' }).error?.issues[0]?.message).toBe(
      'A custom range needs a start and an end date',
    );
    expect(isCalendarDate('2026-02-29')).toBe(false);
    // Any year the platform takes: its date parameters have no floor.
    expect(isCalendarDate('1969-12-31')).toBe(true);
    expect(isCalendarDate('0999-01-01')).toBe(true);
    expect(isCalendarDate('26-01-01')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(addDays('2028-02-28', 2)).toBe('2028-03-01');
    expect(() => resolveRange({ preset: 'custom', from: '2026-10-31', to: '2026-10-01' }, 'UTC', now)).toThrow(
      'Invalid date range',
    );
  });
});

describe('schedule slots', () => {
  const daily = { cadence: 'daily' as const, weekday: null, time: '06:30', time_zone: 'Europe/Paris' };
  const weekly = { cadence: 'weekly' as const, weekday: 1, time: '07:00', time_zone: 'America/New_York' };

  it('finds the latest and the next run in the schedule’s zone', () => {
    expect(new Date(latestSlot(daily, at('2026-11-22T10:00:00Z'))).toISOString()).toBe('2026-11-22T05:30:00.000Z');
    expect(new Date(latestSlot(daily, at('2026-11-22T05:00:00Z'))).toISOString()).toBe('2026-11-21T05:30:00.000Z');
    expect(new Date(nextSlot(daily, at('2026-11-22T05:30:00Z'))).toISOString()).toBe('2026-11-23T05:30:00.000Z');
    // 2026-11-22 is a Sunday: the weekly Monday run was on the 16th and is next on the 23rd (EST, UTC−5).
    expect(new Date(latestSlot(weekly, at('2026-11-22T10:00:00Z'))).toISOString()).toBe('2026-11-16T12:00:00.000Z');
    expect(new Date(nextSlot(weekly, at('2026-11-22T10:00:00Z'))).toISOString()).toBe('2026-11-23T12:00:00.000Z');
  });

  it('runs at the right instant on both DST change days, once each', () => {
    const early = { cadence: 'daily' as const, weekday: null, time: '02:30', time_zone: 'Europe/Paris' };
    // Spring forward: never at 01:30, the hour before the skipped one; at 03:30 local, once the clocks say so.
    expect(new Date(nextSlot(early, at('2026-03-28T23:00:00Z'))).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(new Date(latestSlot(early, at('2026-03-29T01:00:00Z'))).toISOString()).toBe('2026-03-28T01:30:00.000Z');
    // Fall back: the first 02:30, and not again an hour later.
    const fallSlot = nextSlot(early, at('2026-10-24T23:00:00Z'));
    expect(new Date(fallSlot).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(nextSlot(early, fallSlot)).toISOString()).toBe('2026-10-26T01:30:00.000Z');
    // A midnight run where midnight does not exist (Santiago, 2024-09-08) runs at the day's start, 01:00 local.
    const midnight = { cadence: 'daily' as const, weekday: null, time: '00:00', time_zone: 'America/Santiago' };
    const slot = nextSlot(midnight, at('2024-09-08T00:00:00Z'));
    expect(new Date(slot).toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(runRange(slot, 'America/Santiago', 1)).toEqual({ from: '2024-09-07', to: '2024-09-07' });
  });

  it('exports the whole days before the run', () => {
    expect(runRange(at('2026-11-22T05:30:00Z'), 'Europe/Paris', 7)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(runRange(at('2026-11-22T05:30:00Z'), 'Europe/Paris', 1)).toEqual({ from: '2026-11-21', to: '2026-11-21' });
  });
});
