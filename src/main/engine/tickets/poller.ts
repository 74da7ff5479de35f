import type { SyncResult } from './sync';

export const POLL = {
  /** After a poll that found something: look again soon. */
  activeMs: 3_000,
  startMs: 5_000,
  /** Idle: back off by this factor up to `idleMaxMs`. */
  backoff: 1.5,
  idleMaxMs: 60_000,
  /** Unreachable: double up to this. */
  offlineMaxMs: 60_000,
  /** Hidden while the admin wants desktop notifications of new tickets: look now and then, not at all otherwise. */
  hiddenMs: 60_000,
};

export interface PollerDeps {
  sync(profileId: string): Promise<SyncResult>;
  /** The tenant answered again after failures (queued replies go now). */
  reconnected(profileId: string): void;
  log(line: string): void;
  /** Keep polling (slowly) while the window is hidden: the admin opted in to new-ticket notifications. */
  pollWhileHidden?(): boolean;
}

/**
 * Polls the tenant that the window shows, adaptively: soon after activity, slower and slower while idle, backing off
 * while unreachable, and not at all while the window is hidden (the renderer says so through tickets.watch) — unless
 * the admin asked for desktop notifications of new tickets, which then come from a poll every `hiddenMs`.
 */
export class TicketPoller {
  private profileId: string | null = null;
  private visible = false;
  private timer: NodeJS.Timeout | null = null;
  private interval = POLL.startMs;
  private polling = false;
  private offline = false;
  private closed = false;

  constructor(private readonly deps: PollerDeps) {}

  /** The interval now in use for a tenant; 0 when paused or not watched. */
  intervalFor(profileId: string): number {
    if (this.profileId !== profileId || this.closed) return 0;
    if (this.visible) return Math.round(this.interval);
    return this.background() ? Math.round(Math.max(this.interval, POLL.hiddenMs)) : 0;
  }

  private background(): boolean {
    try {
      return this.deps.pollWhileHidden?.() ?? false;
    } catch {
      return false;
    }
  }

  watch(profileId: string, visible: boolean): void {
    if (this.closed) return;
    const switched = profileId !== this.profileId;
    this.profileId = profileId;
    const wasVisible = this.visible;
    this.visible = visible;
    if (!visible) {
      // Hidden: stop, or carry on at the hidden pace for the admin's desktop notifications.
      if (switched) this.interval = POLL.startMs;
      this.schedule();
      return;
    }
    if (switched) this.interval = POLL.startMs;
    // Shown again (or another tenant): look now, then carry on at the adaptive pace.
    if (switched || !wasVisible || !this.timer) {
      this.clear();
      void this.poll();
    }
  }

  /**
   * Polls the watched tenant now, its pace started over (it answered again after being out of reach, so the next
   * timed poll may be a minute away). False when this tenant is not the one watched.
   */
  pollNow(profileId: string): boolean {
    if (this.closed || this.profileId !== profileId) return false;
    this.clear();
    this.interval = POLL.startMs;
    void this.poll();
    return true;
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.clear();
    if (this.closed || !this.profileId) return;
    const delay = this.intervalFor(this.profileId);
    if (!delay) return;
    this.timer = setTimeout(() => void this.poll(), delay);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closed || !this.profileId) return;
    this.polling = true;
    const profileId = this.profileId;
    try {
      const result = await this.deps.sync(profileId);
      if (result.error) {
        this.offline = true;
        this.interval = Math.min(POLL.offlineMaxMs, Math.max(POLL.startMs, this.interval * 2));
      } else {
        if (this.offline) {
          this.offline = false;
          this.deps.reconnected(profileId);
        }
        this.interval = result.changed
          ? POLL.activeMs
          : Math.min(POLL.idleMaxMs, Math.max(POLL.activeMs, this.interval * POLL.backoff));
      }
    } catch (error) {
      this.deps.log(`tickets: poll failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.polling = false;
      this.schedule();
    }
  }

  close(): void {
    this.closed = true;
    this.clear();
  }
}
