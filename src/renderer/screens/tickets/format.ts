import type { TicketSlaClock, TicketStatus } from '../../../shared/contract';

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

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "3 h ago", "in 2 days". */
export function relative(iso: string | null, now = Date.now()): string {
  if (!iso) return '—';
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs < 60_000) return RELATIVE.format(Math.round(ms / 1000), 'second');
  if (abs < 3_600_000) return RELATIVE.format(Math.round(ms / 60_000), 'minute');
  if (abs < 86_400_000) return RELATIVE.format(Math.round(ms / 3_600_000), 'hour');
  return RELATIVE.format(Math.round(ms / 86_400_000), 'day');
}

export function dateTime(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : DATE_TIME.format(d);
}

export function slaLabel(name: string, clock: TicketSlaClock): { text: string; color: string } | null {
  switch (clock.state) {
    case 'none':
      return null;
    case 'met':
      return { text: `${name} met`, color: 'teal' };
    case 'breached':
      return { text: `${name} breached`, color: 'red' };
    default:
      return { text: `${name} due ${relative(clock.dueAt)}`, color: 'orange' };
  }
}
