/**
 * The app's one way of writing a size in bytes, for every screen, the command line and notifications: whole bytes
 * under 1 KB ("726 B"), then binary units with one decimal under 10 ("1.4 KB", "12 MB"). Other copies in the code
 * base (training, browser-mode staging) are to move here.
 */
const UNITS = ['KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const whole = Math.max(0, Math.round(bytes));
  if (whole < 1024) return `${whole} B`;
  let value = whole / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // 9.96 KB reads "10 KB", not "10.0 KB".
  const text = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text} ${UNITS[unit]}`;
}
