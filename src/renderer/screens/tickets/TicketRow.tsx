import { memo } from 'react';
import type { TicketSort, TicketSummary } from '../../../shared/contract';
import { rowSla, STATUS_COLOR, STATUS_LABEL } from './format';
import classes from './TicketRow.module.css';
import { formatRelative } from '../../lib/format';

export const ROW_HEIGHT = 60;

interface TicketRowProps {
  index: number;
  ticket: TicketSummary | undefined;
  active: boolean;
  open: boolean;
  checked: boolean;
  sort: TicketSort;
  onPick(index: number, id: number): void;
  onCheck(id: number): void;
}

const PRIORITY_COLOR: Record<string, string> = { urgent: 'red', high: 'orange', low: 'gray' };

/**
 * One line of the queue (a placeholder while its block loads). Plain elements and CSS classes: rows are drawn by the
 * dozen on every scroll frame, so they stay cheap.
 */
export const TicketRow = memo(function TicketRow({
  index,
  ticket,
  active,
  open,
  checked,
  sort,
  onPick,
  onCheck,
}: TicketRowProps) {
  if (!ticket) return <div className={classes.placeholder}>…</div>;
  const when =
    sort === 'waiting' && ticket.waitingSince
      ? `waiting ${formatRelative(ticket.waitingSince).replace(/ ago$/, '')}`
      : formatRelative(sort === 'activity' ? ticket.activityAt : ticket.createdAt);
  const sla = rowSla(ticket);
  const priority = ticket.local.priority;
  return (
    <div
      id={`ticket-row-${ticket.id}`}
      role="option"
      aria-selected={active}
      className={classes.row}
      data-testid="ticket-row"
      data-ticket={ticket.id}
      data-status={ticket.status}
      data-unread={ticket.unread || undefined}
      data-active={active || undefined}
      data-open={open || undefined}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onPick(index, ticket.id)}
    >
      <input
        type="checkbox"
        className={classes.check}
        checked={checked}
        tabIndex={-1}
        aria-label={`Select ticket ${ticket.id}`}
        onClick={(e) => e.stopPropagation()}
        onChange={() => onCheck(ticket.id)}
      />
      <span className={classes.dot} aria-label={ticket.unread ? 'Unread' : undefined} />
      <div className={classes.body}>
        <div className={classes.line}>
          <span className={classes.subject} dir="auto">
            {ticket.subject}
          </span>
          <span className={classes.when}>{when}</span>
        </div>
        <div className={classes.line}>
          <span className={classes.meta} dir="auto">
            #{ticket.id} · {ticket.requester.name || ticket.requester.username}
            {ticket.local.assignee ? ` · ${ticket.local.assignee}` : ''}
          </span>
          <span className={classes.badges}>
            {sla && (
              <span
                className={classes.badge}
                data-color={sla.color}
                data-sla
                title={sla.title}
                data-testid="ticket-sla"
              >
                {sla.text}
              </span>
            )}
            {priority && priority !== 'normal' && (
              <span className={classes.badge} data-color={PRIORITY_COLOR[priority]} data-outline>
                {priority}
              </span>
            )}
            <span className={classes.badge} data-color={STATUS_COLOR[ticket.status]}>
              {STATUS_LABEL[ticket.status]}
            </span>
          </span>
        </div>
      </div>
    </div>
  );
});
