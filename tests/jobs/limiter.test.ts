import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../src/main/engine/jobs/adaptive';
import { Limiter, TenantLimits, type Slots } from '../../src/main/engine/jobs/limiter';
import { ApiError } from '../../src/main/engine/platform';
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

describe('AdaptiveLimit', () => {
  /** One round of `limit` answers, each `ms` long. */
  const round = (limit: AdaptiveLimit, ms = 40) => {
    for (let i = limit.limit; i > 0; i--) limit.answered(ms);
  };

  it('doubles each round while answers stay fast, up to its ceiling', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    const seen = [limit.limit];
    for (let i = 0; i < 4; i++) {
      round(limit);
      seen.push(limit.limit);
    }
    expect(seen).toEqual([4, 8, 16, 16, 16]);
  });

  it('halves once for the requests of one round that were throttled, then grows by one a round', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    round(limit);
    expect(limit.limit).toBe(8);
    // Three of the eight in flight are refused: one halving, not three.
    limit.throttled();
    limit.throttled();
    limit.throttled();
    expect(limit.limit).toBe(4);
    // The other five answers were of requests sent at 8: they do not count towards the new round.
    for (let i = 0; i < 5; i++) limit.answered(40);
    expect(limit.limit).toBe(4);
    round(limit);
    expect(limit.limit).toBe(5);
    round(limit);
    expect(limit.limit).toBe(6);
    // A throttle after the stale answers are in is news again.
    limit.throttled();
    expect(limit.limit).toBe(3);
  });

  it('stops growing while most answers take more than twice the fastest (the tenant is queueing them)', () => {
    const limit = new AdaptiveLimit({ initial: 4, max: 16 });
    round(limit, 40);
    expect(limit.limit).toBe(8);
    round(limit, 100);
    expect(limit.limit).toBe(8);
    round(limit, 100);
    expect(limit.limit).toBe(8);
    // Fast again: growth resumes, one a round (slow start ended with the queueing).
    round(limit, 45);
    expect(limit.limit).toBe(9);
  });

  it('never goes below one nor above its ceiling, and says when it changes', () => {
    const limit = new AdaptiveLimit({ initial: 2, max: 3 });
    const changes: number[] = [];
    limit.onChange((value) => changes.push(value));
    for (let i = 0; i < 4; i++) limit.throttled();
    expect(limit.limit).toBe(1);
    for (let i = 0; i < 10; i++) round(limit, 10);
    expect(limit.limit).toBe(3);
    expect(changes).toEqual([1, 2, 3]);
  });
});

describe('TenantLimits that adapt', () => {
  const throttle = () =>
    new ApiError({ url: 'http://127.0.0.1/x', status: 429, statusText: 'Too Many Requests', body: {} });

  it('lets a job that names no concurrency grow past the default while answers are fast, and shrink on 429s', async () => {
    const limits = new TenantLimits(4, { adaptTo: 16 });
    const share = limits.join('p1');
    expect(share.slots.ceiling).toBe(16);
    let running = 0;
    let peak = 0;
    const task = (fail: boolean) =>
      share.slots.run(async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 10));
        running--;
        if (fail) throw throttle();
      });
    await Promise.all(Array.from({ length: 64 }, () => task(false)));
    expect(peak).toBe(16);
    expect(limits.learnt('p1')).toBe(16);
    await Promise.allSettled(Array.from({ length: 4 }, () => task(true)));
    expect(limits.learnt('p1')).toBe(8);
    // A job with its own concurrency keeps it.
    expect(limits.join('p1', 2).slots.ceiling).toBe(2);
  });

  it('gives the slot back while a task waits outside it, and queues again after', async () => {
    const limits = new TenantLimits(1);
    const slots = limits.join('p1').slots;
    const order: string[] = [];
    let resume!: () => void;
    const first = slots.run(async (slot) => {
      order.push('first sends');
      await slot.outside(() => new Promise<void>((r) => (resume = r)));
      order.push('first sends again');
    });
    await new Promise((r) => setTimeout(r, 5));
    // With the one slot given back, a second task runs while the first waits.
    await slots.run(async () => {
      order.push('second sends');
    });
    resume();
    await first;
    expect(order).toEqual(['first sends', 'second sends', 'first sends again']);
  });
});
