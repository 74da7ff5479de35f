import type { TicketSlaClock, TicketStatus } from '../../../shared/contract';
import { formatDateTime } from '../../lib/format';

export const STATUS_LABEL: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  closed: 'Closed',
};

export const STATUS_COLOR: Record<TicketStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  closed: 'gray',
};

/** "35 min", "5 h", "3 d": a span short enough for a badge. */
export function shortSpan(ms: number): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

export interface SlaShown {
  text: string;
  /** red: overdue; orange: under a quarter of the time left; gray: time enough; teal: met. */
  color: 'red' | 'orange' | 'gray' | 'teal';
  /** The clock in full, for a tooltip. */
  title: string;
}

const CLOCK_NAMES = { firstReply: 'First reply', resolution: 'Resolution' } as const;

/** One clock in words: the time left or how late it is, met, or nothing when no target runs it. */
export function slaLabel(name: string, clock: TicketSlaClock, now = Date.now()): SlaShown | null {
  if (clock.state === 'none' || !clock.dueAt) return null;
  const due = Date.parse(clock.dueAt);
  if (clock.state === 'met')
    return { text: `${name} met`, color: 'teal', title: `${name} met (due ${formatDateTime(clock.dueAt)})` };
  if (clock.state === 'breached') {
    const late = (clock.doneAt ? Date.parse(clock.doneAt) : now) - due;
    return {
      text: `${name} ${shortSpan(late)} overdue`,
      color: 'red',
      title: `${name} was due ${formatDateTime(clock.dueAt)}`,
    };
  }
  return {
    text: `${name}: ${shortSpan(due - now)} left`,
    color: 'gray',
    title: `${name} due ${formatDateTime(clock.dueAt)}`,
  };
}

/**
 * The one SLA figure a queue row shows: the clock that is overdue, else the one due soonest, with the time left (orange
 * once under a quarter of its target remains). Nothing for a closed ticket or when no target runs a clock.
 */
export function rowSla(
  ticket: { status: TicketStatus; createdAt: string; sla: Record<keyof typeof CLOCK_NAMES, TicketSlaClock> },
  now = Date.now(),
): SlaShown | null {
  if (ticket.status === 'closed') return null;
  const running = (Object.keys(CLOCK_NAMES) as (keyof typeof CLOCK_NAMES)[])
    .map((key) => ({ key, clock: ticket.sla[key] }))
    .filter(({ clock }) => (clock.state === 'pending' || clock.state === 'breached') && clock.dueAt)
    .sort((a, b) => Date.parse(a.clock.dueAt!) - Date.parse(b.clock.dueAt!));
  const next = running[0];
  if (!next) return null;
  const due = Date.parse(next.clock.dueAt!);
  const name = CLOCK_NAMES[next.key];
  if (next.clock.state === 'breached' || due <= now) {
    return {
      text: `${shortSpan(now - due)} overdue`,
      color: 'red',
      title: `${name} was due ${formatDateTime(next.clock.dueAt)}`,
    };
  }
  const target = due - Date.parse(ticket.createdAt);
  return {
    text: `${shortSpan(due - now)} left`,
    color: due - now < target / 4 ? 'orange' : 'gray',
    title: `${name} due ${formatDateTime(next.clock.dueAt)}`,
  };
}
