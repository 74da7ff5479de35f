import type { JobProgress } from '../../../shared/contract';
import type { ItemTotals } from './journal';

interface Sample {
  at: number;
  items: number;
  bytes: number;
}

/** Rates over a sliding window, so the ETA follows what the job does now rather than since it began. */
export class ProgressMeter {
  private samples: Sample[] = [];
  constructor(
    private readonly windowMs = 15_000,
    private readonly clock: () => number = Date.now,
  ) {}

  measure(totals: ItemTotals, phase: string): JobProgress {
    const at = this.clock();
    const finished = totals.done + totals.failed + totals.skipped;
    this.samples.push({ at, items: finished, bytes: totals.bytesDone });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (at - first.at) / 1000;
    const itemsPerSecond = seconds > 0.5 ? (finished - first.items) / seconds : 0;
    const bytesPerSecond = seconds > 0.5 ? (totals.bytesDone - first.bytes) / seconds : 0;
    const remainingBytes = Math.max(0, totals.bytesTotal - totals.bytesDone);
    const remainingItems = Math.max(0, totals.total - finished);
    let etaSeconds: number | null = null;
    if (remainingItems === 0) etaSeconds = 0;
    else if (bytesPerSecond > 0 && remainingBytes > 0) etaSeconds = Math.round(remainingBytes / bytesPerSecond);
    else if (itemsPerSecond > 0) etaSeconds = Math.round(remainingItems / itemsPerSecond);
    return { ...totals, itemsPerSecond, bytesPerSecond, etaSeconds, phase };
  }

  reset(): void {
    this.samples = [];
  }
}
