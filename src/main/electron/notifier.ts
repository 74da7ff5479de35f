/**
 * Desktop notifications of the Electron app, shown by the shell: the window is refused every permission
 * (policies.ts), so the page cannot use the Notification API here. The shell follows the engine's events
 * (`tickets.new`, `jobs.changed`, `settings.changed`), asks the pure decisions of `shared/desktop-notify.ts` what to
 * say, and shows it. Written against small interfaces (no `electron` import) so tests drive it with fakes;
 * `main.ts` gives it Electron's Notification and the window.
 */
import { events, type BridgeResult, type EventName, type Job, type Settings } from '../../shared/contract';
import {
  endingWorthTelling,
  jobChanged,
  jobEndedNote,
  JOBS_TAG,
  lookedAgain,
  newTicketsNote,
  NO_JOB_NOTES,
  NO_TICKET_NOTES,
  noteForPlatform,
  TICKETS_TAG,
  type DesktopNote,
} from '../../shared/desktop-notify';

export interface ShownNote {
  close(): void;
}

export interface NotifierDeps {
  /** A contract call to the engine (settings.get, jobs.get). */
  call(name: 'settings.get' | 'jobs.get', input: unknown): Promise<BridgeResult>;
  /** Shows a note; `onClick` runs when the admin clicks it. */
  show(note: DesktopNote, onClick: () => void): ShownNote;
  /** The window is shown and focused: the admin sees the app. */
  looking(): boolean;
  /** Bring the window forward (opening one if there is none) at this route of the app. */
  open(href: string): void;
  platform: string;
  now?: () => number;
  log?: (line: string) => void;
}

export class DesktopNotifier {
  private tickets = NO_TICKET_NOTES;
  private jobs = NO_JOB_NOTES;
  private settings: Promise<Pick<Settings, 'notifyNewTickets' | 'notifyJobEnds'>> | undefined;
  private readonly shown = new Map<string, ShownNote>();

  constructor(private readonly deps: NotifierDeps) {}

  /** Reads the settings now, so the first event does not wait for them. */
  start(): void {
    void this.currentSettings();
  }

  /** Every engine event passes through here (after it went to the window). */
  onEvent(name: EventName, payload: unknown): void {
    switch (name) {
      case 'settings.changed': {
        const parsed = events['settings.changed'].safeParse(payload);
        if (!parsed.success) return;
        this.settings = Promise.resolve(parsed.data);
        // Turned off: what is on the desktop goes too.
        if (!parsed.data.notifyNewTickets) this.close(TICKETS_TAG);
        if (!parsed.data.notifyJobEnds) this.close(JOBS_TAG);
        return;
      }
      case 'tickets.new': {
        const parsed = events['tickets.new'].safeParse(payload);
        if (parsed.success) void this.newTickets(parsed.data.tickets);
        return;
      }
      case 'jobs.changed': {
        const parsed = events['jobs.changed'].safeParse(payload);
        if (!parsed.success) return;
        const seen = jobChanged(this.jobs, parsed.data);
        this.jobs = seen.state;
        if (seen.ended && endingWorthTelling(parsed.data)) void this.jobEnded(parsed.data.id);
        return;
      }
      default:
        return;
    }
  }

  /** The window got the focus: what the desktop said is seen now. */
  onLooking(): void {
    this.tickets = lookedAgain(this.tickets);
    this.jobs = lookedAgain(this.jobs);
    this.close(TICKETS_TAG);
    this.close(JOBS_TAG);
  }

  private async newTickets(tickets: { id: number; subject: string; requester: string }[]): Promise<void> {
    const settings = await this.currentSettings();
    const decided = newTicketsNote(this.tickets, tickets, this.context(settings.notifyNewTickets));
    this.tickets = decided.state;
    if (decided.note) this.present(decided.note);
  }

  private async jobEnded(id: string): Promise<void> {
    const [settings, result] = await Promise.all([this.currentSettings(), this.deps.call('jobs.get', { id })]);
    if (!result.ok) {
      this.deps.log?.(`notifications: job ${id} could not be read: ${result.error.message}`);
      return;
    }
    const decided = jobEndedNote(this.jobs, result.value as Job, this.context(settings.notifyJobEnds));
    this.jobs = decided.state;
    if (decided.note) this.present(decided.note);
  }

  private context(enabled: boolean) {
    return { enabled, looking: this.deps.looking(), now: (this.deps.now ?? Date.now)() };
  }

  private present(note: DesktopNote): void {
    this.close(note.tag);
    try {
      const shown = this.deps.show(noteForPlatform(note, this.deps.platform), () => {
        this.close(note.tag);
        if (note.tag === TICKETS_TAG) this.tickets = lookedAgain(this.tickets);
        else this.jobs = lookedAgain(this.jobs);
        this.deps.open(note.href);
      });
      this.shown.set(note.tag, shown);
    } catch (error) {
      this.deps.log?.(`notifications: could not show one: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private close(tag: string): void {
    const shown = this.shown.get(tag);
    this.shown.delete(tag);
    try {
      shown?.close();
    } catch {
      // already gone
    }
  }

  private currentSettings(): Promise<Pick<Settings, 'notifyNewTickets' | 'notifyJobEnds'>> {
    if (this.settings) return this.settings;
    const asked: Promise<Pick<Settings, 'notifyNewTickets' | 'notifyJobEnds'>> = this.deps
      .call('settings.get', {})
      .then((result) => (result.ok ? (result.value as Settings) : Promise.reject(new Error(result.error.message))))
      .catch((error: unknown) => {
        // Not known: say nothing this time, and ask again next time.
        if (this.settings === asked) this.settings = undefined;
        this.deps.log?.(
          `notifications: settings unavailable: ${error instanceof Error ? error.message : String(error)}`,
        );
        return { notifyNewTickets: false, notifyJobEnds: false };
      });
    this.settings = asked;
    return asked;
  }
}
