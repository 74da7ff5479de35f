import { Badge, Checkbox, Group, Text } from '@mantine/core';
import { memo } from 'react';
import type { TicketSort, TicketSummary } from '../../../shared/contract';
import { relative, STATUS_COLOR, STATUS_LABEL } from './format';

export const ROW_HEIGHT = 60;

interface TicketRowProps {
  index: number;
  ticket: TicketSummary | undefined;
  active: boolean;
  open: boolean;
  checked: boolean;
  sort: TicketSort;
  onPick(index: number, open: boolean): void;
  onCheck(index: number): void;
}

/** One line of the queue; a placeholder while its block loads. */
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
  if (!ticket) {
    return (
      <div
        style={{
          height: ROW_HEIGHT,
          padding: '8px 12px',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <Text size="sm" c="dimmed">
          …
        </Text>
      </div>
    );
  }
  const when =
    sort === 'waiting' && ticket.waitingSince
      ? `waiting ${relative(ticket.waitingSince).replace(/ ago$/, '')}`
      : relative(sort === 'activity' ? ticket.activityAt : ticket.createdAt);
  const breached = ticket.sla.firstReply.state === 'breached' || ticket.sla.resolution.state === 'breached';
  return (
    <div
      id={`ticket-row-${ticket.id}`}
      role="option"
      aria-selected={active}
      data-testid="ticket-row"
      data-ticket={ticket.id}
      data-status={ticket.status}
      data-unread={ticket.unread || undefined}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => onPick(index, true)}
      style={{
        height: ROW_HEIGHT,
        padding: '6px 10px 6px 6px',
        display: 'flex',
        gap: 8,
        alignItems: 'center',
        cursor: 'pointer',
        borderBottom: '1px solid var(--mantine-color-default-border)',
        borderLeft: `3px solid ${active ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
        background: open
          ? 'var(--mantine-primary-color-light)'
          : active
            ? 'var(--mantine-color-default-hover)'
            : undefined,
        opacity: ticket.status === 'closed' ? 0.75 : 1,
      }}
    >
      <Checkbox
        size="xs"
        checked={checked}
        tabIndex={-1}
        aria-label={`Select ticket ${ticket.id}`}
        onClick={(e) => e.stopPropagation()}
        onChange={() => onCheck(index)}
      />
      <span
        aria-label={ticket.unread ? 'Unread' : undefined}
        style={{
          width: 8,
          height: 8,
          borderRadius: 4,
          flexShrink: 0,
          background: ticket.unread ? 'var(--mantine-color-blue-filled)' : 'transparent',
        }}
      />
      <div style={{ minWidth: 0, flex: 1 }}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="sm" fw={ticket.unread ? 700 : 500} truncate dir="auto" style={{ minWidth: 0 }}>
            {ticket.subject}
          </Text>
          <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
            {when}
          </Text>
        </Group>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Text size="xs" c="dimmed" truncate dir="auto" style={{ minWidth: 0 }}>
            #{ticket.id} · {ticket.requester.name || ticket.requester.username}
            {ticket.local.assignee ? ` · ${ticket.local.assignee}` : ''}
          </Text>
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            {breached && ticket.status !== 'closed' && (
              <Badge size="xs" color="red" variant="light" title="SLA breached">
                SLA
              </Badge>
            )}
            {ticket.local.priority && ticket.local.priority !== 'normal' && (
              <Badge
                size="xs"
                color={
                  ticket.local.priority === 'urgent' ? 'red' : ticket.local.priority === 'high' ? 'orange' : 'gray'
                }
                variant="outline"
              >
                {ticket.local.priority}
              </Badge>
            )}
            <Badge size="xs" color={STATUS_COLOR[ticket.status]} variant="light">
              {STATUS_LABEL[ticket.status]}
            </Badge>
          </Group>
        </Group>
      </div>
    </div>
  );
});
