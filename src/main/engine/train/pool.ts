/**
 * A bounded pool: at most `concurrency` tasks run at once, and `add` waits while the pool is full, so a producer of
 * 100,000 tasks never holds more than a handful of promises. The first failure is kept and thrown by `drain`.
 */
export class TaskPool {
  private running = 0;
  private readonly freed: (() => void)[] = [];
  private readonly idle: (() => void)[] = [];
  private failure: { error: unknown } | null = null;

  constructor(private readonly concurrency: number) {}

  /** Starts `task` as soon as a slot is free; resolves once it has started (not finished). */
  async add(task: () => Promise<void>): Promise<void> {
    while (this.running >= this.concurrency) await new Promise<void>((resolve) => this.freed.push(resolve));
    if (this.failure) throw this.failure.error;
    this.running++;
    task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.running--;
        this.freed.shift()?.();
        if (this.running === 0) this.idle.splice(0).forEach((resolve) => resolve());
      });
  }

  /** Waits for every started task; throws the first failure. */
  async drain(): Promise<void> {
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    if (this.failure) throw this.failure.error;
  }
}
