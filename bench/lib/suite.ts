/** What every benchmark suite reports, one per metric (see bench/run.ts). */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  goal: string;
}

export type Log = (line: string) => void;

/** The value below which `p` percent of `values` fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The middle value (the upper one of two): what the suites compare their alternating rounds by. */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
