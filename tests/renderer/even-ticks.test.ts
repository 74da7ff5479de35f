/** The issuance chart's date labels: evenly spaced at any width, counted back from today, every day when there is room. */
import { describe, expect, it } from 'vitest';
import { evenTicks } from '../../src/renderer/screens/credentials/evenTicks';

const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 9, 28 + i)).toISOString().slice(0, 10));
const gaps = (ticks: string[]) =>
  ticks.slice(1).map((tick, i) => (Date.parse(tick) - Date.parse(ticks[i]!)) / 86_400_000);

describe('evenTicks', () => {
  it('keeps one gap between labels at the widths of the Credentials screen (1000 and 1400 wide windows)', () => {
    for (const width of [520, 640, 760, 900, 1100]) {
      const ticks = evenTicks(days, width);
      expect(new Set(gaps(ticks)).size, `${width}: ${ticks.join(' ')}`).toBe(1);
      expect(ticks.at(-1)).toBe(days.at(-1));
      // Each label has its room.
      expect(ticks.length * 52).toBeLessThanOrEqual(width + 52);
    }
  });

  it('labels every day when there is room, and nothing for no days', () => {
    expect(evenTicks(days, 30 * 52)).toEqual(days);
    expect(evenTicks([], 800)).toEqual([]);
  });
});
