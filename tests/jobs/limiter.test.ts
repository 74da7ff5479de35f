import { describe, expect, it } from 'vitest';
import { Limiter, TenantLimits, type Slots } from '../../src/main/engine/jobs/limiter';
import { ProgressMeter } from '../../src/main/engine/jobs/progress';

describe('Limiter', () => {
  it('never runs more than its capacity at once, and a raised capacity takes effect for waiting tasks', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const task = () =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 10));
        running--;
      });
    await Promise.all(Array.from({ length: 10 }, task));
    expect(peak).toBe(2);
    peak = 0;
    const all = Promise.all(Array.from({ length: 12 }, task));
    limiter.setCapacity(4);
    await all;
    expect(peak).toBe(4);
  });

  it('lets an aborted waiter leave the queue without taking a slot', async () => {
    const limiter = new Limiter(1);
    let release!: () => void;
    const holder = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiter = limiter.run(async () => 'ran', controller.signal);
    controller.abort(new Error('Request aborted'));
    await expect(waiter).rejects.toThrow('Request aborted');
    release();
    await holder;
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('TenantLimits', () => {
  /** Runs `count` 10 ms tasks through `slots`; answers the most of them at once, and counts into `tenant` too. */
  async function peakOf(slots: Slots, count: number, tenant = { running: 0, peak: 0 }): Promise<number> {
    let running = 0;
    let peak = 0;
    const task = () =>
      slots.run(async () => {
        peak = Math.max(peak, ++running);
        tenant.peak = Math.max(tenant.peak, ++tenant.running);
        await new Promise((r) => setTimeout(r, 10));
        running--;
        tenant.running--;
      });
    await Promise.all(Array.from({ length: count }, task));
    return peak;
  }

  it("applies a job's own concurrency while it runs, then the tenant is back at its default", async () => {
    const limits = new TenantLimits(4);
    const slow = limits.join('p1', 1);
    expect(await peakOf(slow.slots, 8)).toBe(1);
    slow.release();
    expect(await peakOf(limits.join('p1').slots, 12)).toBe(4);
    const fast = limits.join('p1', 8);
    expect(await peakOf(fast.slots, 24)).toBe(8);
    fast.release();
    fast.release();
    expect(await peakOf(limits.join('p1').slots, 12)).toBe(4);
  });

  it('shares the tenant between jobs running at once: each within its own limit, all within the largest', async () => {
    const limits = new TenantLimits(4);
    const tenant = { running: 0, peak: 0 };
    const fast = limits.join('p1', 8);
    const plain = limits.join('p1');
    const gentle = limits.join('p1', 1);
    const other = limits.join('p2');
    const peaks = await Promise.all([
      peakOf(fast.slots, 40, tenant),
      peakOf(plain.slots, 40, tenant),
      peakOf(gentle.slots, 10, tenant),
      peakOf(other.slots, 12),
    ]);
    expect(peaks[0]).toBeLessThanOrEqual(8);
    expect(peaks[1]).toBeLessThanOrEqual(4);
    expect(peaks[2]).toBe(1);
    // Another tenant has its own limit.
    expect(peaks[3]).toBe(4);
    expect(tenant.peak).toBe(8);
  });
});

describe('ProgressMeter', () => {
  it('derives rates and an ETA from recent samples', () => {
    let now = 0;
    const meter = new ProgressMeter(15_000, () => now);
    const totals = { total: 100, done: 0, failed: 0, skipped: 0, active: 0, bytesTotal: 1000, bytesDone: 0 };
    meter.measure(totals, 'Uploading');
    now = 2000;
    const progress = meter.measure({ ...totals, done: 20, bytesDone: 200 }, 'Uploading');
    expect(progress.itemsPerSecond).toBe(10);
    expect(progress.bytesPerSecond).toBe(100);
    expect(progress.etaSeconds).toBe(8);
    expect(meter.measure({ ...totals, done: 100, bytesDone: 1000 }, 'Done').etaSeconds).toBe(0);
  });
});
