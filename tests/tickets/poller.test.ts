/** Adaptive polling: soon after activity, slower while idle, backing off while unreachable, paused while hidden. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POLL, TicketPoller } from '../../src/main/engine/tickets/poller';
import type { SyncResult } from '../../src/main/engine/tickets/sync';

afterEach(() => {
  vi.useRealTimers();
});

function harness(results: (Partial<SyncResult> | 'pending')[], options: { pollWhileHidden?: () => boolean } = {}) {
  const calls: number[] = [];
  const reconnected: string[] = [];
  const poller = new TicketPoller({
    ...options,
    sync: async () => {
      calls.push(Date.now());
      const next = results.shift() ?? {};
      return { changed: false, added: [], error: null, ...(next === 'pending' ? {} : next) };
    },
    reconnected: (id) => reconnected.push(id),
    log: () => {},
  });
  return { poller, calls, reconnected };
}

describe('TicketPoller', () => {
  it('polls at once when shown, speeds up after activity and slows down while idle', async () => {
    vi.useFakeTimers();
    const { poller, calls } = harness([{ changed: true }, {}, {}, {}]);
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(poller.intervalFor('p')).toBe(POLL.activeMs);
    await vi.advanceTimersByTimeAsync(POLL.activeMs);
    expect(calls).toHaveLength(2);
    expect(poller.intervalFor('p')).toBe(POLL.activeMs * POLL.backoff);
    await vi.advanceTimersByTimeAsync(POLL.activeMs * POLL.backoff);
    expect(calls).toHaveLength(3);
    expect(poller.intervalFor('p')).toBe(POLL.activeMs * POLL.backoff ** 2);
    poller.close();
  });

  it('never waits longer than the idle maximum', async () => {
    vi.useFakeTimers();
    const { poller } = harness(Array.from({ length: 40 }, () => ({})));
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(20 * POLL.idleMaxMs);
    expect(poller.intervalFor('p')).toBe(POLL.idleMaxMs);
    poller.close();
  });

  it('pauses while hidden and looks again as soon as it is shown', async () => {
    vi.useFakeTimers();
    const { poller, calls } = harness([{}, {}, {}]);
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    poller.watch('p', false);
    expect(poller.intervalFor('p')).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * POLL.idleMaxMs);
    expect(calls).toHaveLength(1);
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    poller.close();
  });

  it('keeps looking every hiddenMs while hidden when the admin wants new-ticket notifications', async () => {
    vi.useFakeTimers();
    let notify = true;
    const { poller, calls } = harness(
      Array.from({ length: 10 }, () => ({})),
      { pollWhileHidden: () => notify },
    );
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    poller.watch('p', false);
    expect(poller.intervalFor('p')).toBe(POLL.hiddenMs);
    await vi.advanceTimersByTimeAsync(POLL.hiddenMs - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(POLL.hiddenMs);
    expect(calls).toHaveLength(3);
    // Turned off: the look already planned is the last one.
    notify = false;
    expect(poller.intervalFor('p')).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * POLL.hiddenMs);
    expect(calls).toHaveLength(4);
    poller.close();
  });

  it('backs off while unreachable and sends queued replies when the tenant answers again', async () => {
    vi.useFakeTimers();
    const offline = { error: new Error('unreachable') };
    const { poller, reconnected } = harness([offline, offline, {}]);
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(poller.intervalFor('p')).toBe(POLL.startMs * 2);
    await vi.advanceTimersByTimeAsync(POLL.startMs * 2);
    expect(poller.intervalFor('p')).toBe(POLL.startMs * 4);
    expect(reconnected).toEqual([]);
    await vi.advanceTimersByTimeAsync(POLL.startMs * 4);
    expect(reconnected).toEqual(['p']);
    poller.close();
  });

  it('polls at once, its pace started over, when the tenant it watches answers again elsewhere', async () => {
    vi.useFakeTimers();
    const offline = { error: new Error('unreachable') };
    const { poller, calls, reconnected } = harness([offline, offline, {}]);
    poller.watch('p', true);
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(POLL.startMs * 2);
    expect(calls).toHaveLength(2);
    expect(poller.intervalFor('p')).toBe(POLL.startMs * 4);
    // Another tenant is not the one watched: nothing happens.
    expect(poller.pollNow('q')).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    // The watched tenant: a poll now, not 20 s from now; it answers, queued replies go, the pace is as after a start.
    expect(poller.pollNow('p')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    expect(reconnected).toEqual(['p']);
    expect(poller.intervalFor('p')).toBe(POLL.startMs * POLL.backoff);
    poller.close();
    expect(poller.pollNow('p')).toBe(false);
  });
});
