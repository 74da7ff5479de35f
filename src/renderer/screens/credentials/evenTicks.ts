/**
 * The days a chart of one bar per day labels: every `step`-th day counted back from the last, so the gaps between
 * labels are all the same (recharts' own thinning skips two days here and three there), with `step` the fewest days
 * a label needs at this width.
 */
export function evenTicks(days: readonly string[], plotWidth: number, labelWidth = 52): string[] {
  if (!days.length) return [];
  const step = Math.max(1, Math.ceil((days.length * labelWidth) / Math.max(plotWidth, 1)));
  return days.filter((_, index) => (days.length - 1 - index) % step === 0);
}
