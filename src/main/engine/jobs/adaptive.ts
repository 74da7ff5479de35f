/**
 * How many requests a tenant takes at once, learnt while jobs run, the way TCP learns a link's rate (additive
 * increase, multiplicative decrease). A round is as many answers as the limit. From its starting limit it doubles
 * each round while answers come back about as fast as the fastest seen lately ("slow start"); after the first sign
 * of strain it grows by one a round instead. A round whose answers mostly slow to more than twice the fastest stops
 * the growth (the tenant is queueing them); a throttle (429, 503, 504, a timeout) halves the limit, once per round:
 * the answers of requests already sent at the old limit are not counted again.
 */
export interface AdaptiveOptions {
  /** Where a tenant starts (the app's long-standing default of 4). */
  initial: number;
  /** The most it ever grows to. */
  max: number;
  /** The least it ever shrinks to. */
  min?: number;
}

/** How many answers a "fastest seen lately" lasts: a route whose base latency changes is followed. */
const FASTEST_WINDOW = 200;
/** An answer slower than this many times the fastest counts as queued. */
const SLOW_FACTOR = 2;

export class AdaptiveLimit {
  private current: number;
  private readonly min: number;
  private slowStart = true;
  private answers = 0;
  private slowAnswers = 0;
  /** Answers still due from requests sent before the last decrease: they tell about the old limit. */
  private stale = 0;
  private fastestNow = Infinity;
  private fastestBefore = Infinity;
  private windowCount = 0;
  private readonly listeners = new Set<(limit: number) => void>();

  constructor(private readonly options: AdaptiveOptions) {
    this.min = Math.max(1, options.min ?? 1);
    this.current = Math.min(options.max, Math.max(this.min, options.initial));
  }

  /** The most it ever grows to. */
  get max(): number {
    return this.options.max;
  }

  get limit(): number {
    return this.current;
  }

  /** Called with the new limit each time it changes. */
  onChange(listener: (limit: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A request was answered in `ms`. */
  answered(ms: number): void {
    const fastest = this.noteFastest(ms);
    if (this.stale > 0) {
      this.stale--;
      return;
    }
    this.answers++;
    if (ms > fastest * SLOW_FACTOR) this.slowAnswers++;
    if (this.answers < this.current) return;
    const queueing = this.slowAnswers * 2 > this.answers;
    this.answers = this.slowAnswers = 0;
    if (queueing) {
      this.slowStart = false;
      return;
    }
    this.set(this.slowStart ? this.current * 2 : this.current + 1);
  }

  /** A request ended without an answer that tells anything about load (refused for its content, cancelled). */
  unanswered(): void {
    if (this.stale > 0) this.stale--;
  }

  /** The tenant refused or dropped a request for load (429, 503, 504, a timeout). */
  throttled(): void {
    if (this.stale > 0) {
      this.stale--;
      return;
    }
    this.slowStart = false;
    this.answers = this.slowAnswers = 0;
    // The other requests in flight were sent at the old limit: their answers say nothing about the new one.
    this.stale = this.current - 1;
    this.set(Math.floor(this.current / 2));
  }

  private set(next: number): void {
    const limit = Math.min(this.options.max, Math.max(this.min, next));
    if (limit === this.current) return;
    this.current = limit;

    for (const listener of this.listeners) listener(limit);
  }

  /** The fastest answer of this window and the last one (a windowed minimum). */
  private noteFastest(ms: number): number {
    if (++this.windowCount > FASTEST_WINDOW) {
      this.fastestBefore = this.fastestNow;
      this.fastestNow = Infinity;
      this.windowCount = 1;
    }
    this.fastestNow = Math.min(this.fastestNow, ms);
    return Math.min(this.fastestNow, this.fastestBefore);
  }
}
