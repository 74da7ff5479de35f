import { ApiError, OVERLOAD_STATUSES, TimeoutError } from '../platform';
import { AdaptiveLimit } from './adaptive';

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
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Takes a slot, waiting while none is free. */
  async acquire(signal?: AbortSignal): Promise<void> {
    while (this.running >= this.capacity) await this.wait(signal);
    this.running++;
  }

  /** Gives a slot back. */
  release(): void {
    this.running--;
    this.wake();
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

/** A slot a task holds: it may give it back while it waits (a retry's delay), and queues again after. */
export interface Slot {
  outside<T>(work: () => Promise<T>): Promise<T>;
}

/** What a job runs its requests through. */
export interface Slots {
  run<T>(task: (slot: Slot) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** The most requests this job may ever have at once (its own concurrency, or the tenant's ceiling). */
  readonly ceiling: number;
  /** The job saw the tenant refuse or drop a request for load (a 429 or 503 it retries itself). */
  throttled(): void;
}

/** A job's place in its tenant's concurrency, held while one run of the job lasts. */
export interface JobShare {
  slots: Slots;
  /** The run ended: the tenant goes back to what its other running jobs ask for, or to its default. */
  release(): void;
}

/** Whether a failed request says the tenant is overloaded (by status or by timing out), not that it was wrong. */
export function isThrottle(error: unknown): boolean {
  return error instanceof TimeoutError || (error instanceof ApiError && OVERLOAD_STATUSES.has(error.status));
}

/** The same for a retry the platform client makes by itself (its RetryEvent). */
export function isThrottleEvent(event: { status?: number; error?: unknown }): boolean {
  return (event.status !== undefined && OVERLOAD_STATUSES.has(event.status)) || event.error instanceof TimeoutError;
}

interface Tenant {
  limiter: Limiter;
  asked: number[];
  adaptive: AdaptiveLimit | null;
}

/**
 * One limiter per tenant: every job against the same tenant shares its concurrency. A job may ask for its own
 * concurrency (train --concurrency N): it then never runs more than N at once, and the tenant's limit is raised to N
 * while it runs, so a faster job is not held at the default. The adjustment is the job's, not the tenant's: once the
 * job's run ends the tenant is back at its own limit for every later job (there is no per-tenant setting to keep).
 *
 * Without `adaptTo`, a tenant's own limit is the default (4). With it, the limit is learnt (adaptive.ts): it starts at
 * the default and grows towards `adaptTo` while the tenant answers fast, and shrinks when it throttles; jobs that did
 * not ask for a concurrency follow it.
 */
export class TenantLimits {
  private readonly tenants = new Map<string, Tenant>();
  constructor(
    private readonly defaultCapacity = 4,
    private readonly options: { adaptTo?: number } = {},
  ) {}

  /** The tenant's learnt limit, when it adapts (tests, logs). */
  learnt(profileId: string | null): number | undefined {
    return this.tenants.get(profileId ?? '')?.adaptive?.limit;
  }

  /** A request of the tenant was throttled outside any job's slot (a client's own retry saw a 429, say). */
  throttled(profileId: string | null): void {
    this.tenants.get(profileId ?? '')?.adaptive?.throttled();
  }

  private tenant(key: string): Tenant {
    let tenant = this.tenants.get(key);
    if (tenant) return tenant;
    const adaptTo = this.options.adaptTo;
    const adaptive =
      adaptTo && adaptTo > this.defaultCapacity
        ? new AdaptiveLimit({ initial: this.defaultCapacity, max: adaptTo })
        : null;
    tenant = { limiter: new Limiter(this.defaultCapacity), asked: [], adaptive };
    const fit = () => tenant!.limiter.setCapacity(Math.max(this.own(tenant!), ...tenant!.asked));
    adaptive?.onChange(fit);
    this.tenants.set(key, tenant);
    return tenant;
  }

  private own(tenant: Tenant): number {
    return tenant.adaptive?.limit ?? this.defaultCapacity;
  }

  join(profileId: string | null, capacity?: number): JobShare {
    const tenant = this.tenant(profileId ?? '');
    const { limiter, asked, adaptive } = tenant;
    const own = new Limiter(capacity ?? this.own(tenant));
    const fit = () => limiter.setCapacity(Math.max(this.own(tenant), ...asked));
    if (capacity) {
      asked.push(capacity);
      fit();
    }
    // A job without its own concurrency follows what the tenant learns.
    const unfollow = !capacity && adaptive ? adaptive.onChange((limit) => own.setCapacity(limit)) : null;
    // The job's own slot first: a job at its own limit does not hold one of the tenant's.
    const acquire = async (signal?: AbortSignal) => {
      await own.acquire(signal);
      try {
        await limiter.acquire(signal);
      } catch (error) {
        own.release();
        throw error;
      }
    };
    const release = () => {
      limiter.release();
      own.release();
    };
    const run = async <T>(task: (slot: Slot) => Promise<T>, signal?: AbortSignal): Promise<T> => {
      await acquire(signal);
      let held = true;
      // Timed from the last time the slot was taken: a wait outside it is not the tenant's answer time.
      let started = performance.now();
      const slot: Slot = {
        outside: async (work) => {
          release();
          held = false;
          try {
            return await work();
          } finally {
            await acquire(signal);
            held = true;
            started = performance.now();
          }
        },
      };
      try {
        const result = await task(slot);
        adaptive?.answered(performance.now() - started);
        return result;
      } catch (error) {
        if (isThrottle(error)) adaptive?.throttled();
        else adaptive?.unanswered();
        throw error;
      } finally {
        if (held) release();
      }
    };
    let released = false;
    return {
      slots: {
        run,
        ceiling: capacity ?? (adaptive ? adaptive.max : this.defaultCapacity),
        throttled: () => adaptive?.throttled(),
      },
      release: () => {
        if (released) return;
        released = true;
        unfollow?.();
        if (!capacity) return;
        asked.splice(asked.indexOf(capacity), 1);
        fit();
      },
    };
  }
}
