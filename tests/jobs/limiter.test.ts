import { describe, expect, it } from 'vitest';
import { Limiter } from '../../src/main/engine/jobs/limiter';
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
