import { memo } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import type { TicketView } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { formatCount } from '../../lib/format';

interface ViewsPanelProps {
  views: TicketView[];
  current: string;
  onSelect(id: string): void;
  onEdit(view: TicketView | null): void;
  /** The tenant's SLA targets (views without their own follow them). */
  onSlaTargets(): void;
}

const HOTKEY: Record<string, string> = { open: 'g o', in_progress: 'g p', closed: 'g c', all: 'g a', mine: 'g m' };

/** Built-in views, one per mentor, and saved views, each with its count and unread count. */
export const ViewsPanel = memo(function ViewsPanel({
  views,
  current,
  onSelect,
  onEdit,
  onSlaTargets,
}: ViewsPanelProps) {
  const remove = useMutationCall('tickets.deleteView');
  const section = (kind: TicketView['kind']) => views.filter((v) => v.kind === kind);
  const item = (view: TicketView) => (
    <Group key={view.id} gap={2} wrap="nowrap">
      <NavLink
        component="button"
        active={view.id === current}
        aria-current={view.id === current ? 'true' : undefined}
        onClick={() => onSelect(view.id)}
        label={
          <Text size="sm" truncate dir="auto">
            {view.label}
          </Text>
        }
        title={HOTKEY[view.id] ? `${view.label} (${HOTKEY[view.id]})` : view.label}
        data-testid={`view-${view.id}`}
        rightSection={
          <Group gap={4} wrap="nowrap">
            {view.unread > 0 && (
              <Badge size="xs" color="blue" circle={view.unread < 10} aria-label={`${view.unread} unread`}>
                {view.unread}
              </Badge>
            )}
            <Text size="xs" c="dimmed" aria-label={`${view.count} tickets`}>
              {formatCount(view.count)}
            </Text>
          </Group>
        }
        style={{ borderRadius: 'var(--mantine-radius-sm)', flex: 1, minWidth: 0 }}
      />
      <Menu position="right-start" withinPortal>
        <Menu.Target>
          <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Options for ${view.label}`}>
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onEdit(view)}>{view.kind === 'saved' ? 'Edit view…' : 'SLA targets…'}</Menu.Item>
          {view.kind === 'saved' && (
            <Menu.Item
              color="red"
              onClick={() => {
                if (view.id === current) onSelect('open');
                remove.mutate({ id: view.id }, { onError: (e) => notifyError('Not removed', e) });
              }}
            >
              Remove view
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
  return (
    <ScrollArea h="100%" type="auto" aria-label="Views">
      <Stack gap={2} pr={4} component="nav" aria-label="Ticket views">
        {section('builtin').map(item)}
        <Group justify="space-between" mt="sm">
          <Text size="xs" fw={600} c="dimmed" tt="uppercase">
            Saved views
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => onEdit(null)}>
            New…
          </Button>
        </Group>
        {section('saved').map(item)}
        {section('mentor').length > 0 && (
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" mt="sm">
            By mentor (unresolved)
          </Text>
        )}
        {section('mentor').map(item)}
        <Button size="compact-xs" variant="subtle" mt="sm" onClick={onSlaTargets} style={{ alignSelf: 'flex-start' }}>
          SLA targets…
        </Button>
      </Stack>
    </ScrollArea>
  );
});
