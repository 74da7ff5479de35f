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

/** What a job runs its requests through. */
export interface Slots {
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** A job's place in its tenant's concurrency, held while one run of the job lasts. */
export interface JobShare {
  slots: Slots;
  /** The run ended: the tenant goes back to what its other running jobs ask for, or to its default. */
  release(): void;
}

/**
 * One limiter per tenant: every job against the same tenant shares its concurrency (default 4). A job may ask for
 * its own concurrency (train --concurrency N): it then never runs more than N at once, and the tenant's limit is
 * raised to N while it runs, so a faster job is not held at the default. The adjustment is the job's, not the
 * tenant's: once the job's run ends the tenant is back at its default for every later job (there is no per-tenant
 * setting to keep).
 */
export class TenantLimits {
  private readonly tenants = new Map<string, { limiter: Limiter; asked: number[] }>();
  constructor(private readonly defaultCapacity = 4) {}

  join(profileId: string | null, capacity?: number): JobShare {
    const key = profileId ?? '';
    let tenant = this.tenants.get(key);
    if (!tenant) this.tenants.set(key, (tenant = { limiter: new Limiter(this.defaultCapacity), asked: [] }));
    const { limiter, asked } = tenant;
    const own = new Limiter(capacity ?? this.defaultCapacity);
    const fit = () => limiter.setCapacity(Math.max(this.defaultCapacity, ...asked));
    if (capacity) {
      asked.push(capacity);
      fit();
    }
    let released = false;
    return {
      // The job's own slot first: a job at its own limit does not hold one of the tenant's.
      slots: { run: (task, signal) => own.run(() => limiter.run(task, signal), signal) },
      release: () => {
        if (released || !capacity) return;
        released = true;
        asked.splice(asked.indexOf(capacity), 1);
        fit();
      },
    };
  }
}
