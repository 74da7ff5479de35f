/**
 * The app's one way of writing a size in bytes, for every screen, the command line, the engine's messages and
 * notifications: whole bytes under 1 KB ("726 B"), then binary units with one decimal under 10 ("1.4 KB", "12 MB").
 * Screens pass their locale's number format ("1,4 KB" in German); everything else writes plain digits.
 */
const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** Writes a number with at most `fractionDigits` decimals. */
export type NumberWriter = (value: number, fractionDigits: 0 | 1) => string;

const plainDigits: NumberWriter = (value, fractionDigits) =>
  fractionDigits ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));

export function formatBytes(bytes: number | null | undefined, write: NumberWriter = plainDigits): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const whole = Math.max(0, Math.round(bytes));
  if (whole < 1024) return `${write(whole, 0)} B`;
  let value = whole / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // 9.96 KB reads "10 KB", not "10.0 KB".
  return `${value < 9.95 ? write(value, 1) : write(value, 0)} ${UNITS[unit]}`;
}
