/** A counting semaphore: at most `capacity` tasks at once; the capacity can change while tasks wait. */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private capacity: number) {}

  setCapacity(capacity: number): void {
    this.capacity = Math.max(1, capacity);
    this.wake();
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    while (this.running >= this.capacity) await this.wait(signal);
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.wake();
    }
  }

  private wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        const index = this.waiting.indexOf(wake);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortReason(signal!));
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  /** Wakes as many waiters as there are free slots; each re-checks before taking one. */
  private wake(): void {
    for (let free = this.capacity - this.running; free > 0 && this.waiting.length; free--) this.waiting.shift()!();
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('Request aborted');
}

/** One limiter per tenant: every job against the same tenant shares its concurrency. */
export class TenantLimits {
  private readonly limiters = new Map<string, Limiter>();
  constructor(private readonly defaultCapacity = 4) {}

  for(profileId: string | null, capacity?: number): Limiter {
    const key = profileId ?? '';
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new Limiter(capacity ?? this.defaultCapacity);
      this.limiters.set(key, limiter);
    } else if (capacity) limiter.setCapacity(capacity);
    return limiter;
  }
}
