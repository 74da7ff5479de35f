import { ActionIcon, Badge, Button, Group, Kbd, Menu, Select, Switch, Text, Title } from '@mantine/core';
import type { TicketStatus, TicketSyncState, TicketView } from '../../../shared/contract';
import { formatAsOf, formatCount } from '../../lib/format';

/** The views as one picker (narrow windows): the same views, counts and options as the panel. */
export function ViewPicker({
  views,
  current,
  onSelect,
  onEdit,
  onSlaTargets,
}: {
  views: TicketView[];
  current: string;
  onSelect(id: string): void;
  onEdit(view: TicketView | null): void;
  onSlaTargets(): void;
}) {
  const group = (kind: TicketView['kind'], label: string) => ({
    group: label,
    items: views
      .filter((v) => v.kind === kind)
      .map((v) => ({ value: v.id, label: `${v.label} (${formatCount(v.count)})` })),
  });
  const view = views.find((v) => v.id === current);
  return (
    <Group gap={6} wrap="nowrap">
      <Select
        size="xs"
        style={{ flex: 1, minWidth: 0 }}
        aria-label="View"
        data={[
          group('builtin', 'Views'),
          group('saved', 'Saved views'),
          group('mentor', 'By mentor (unresolved)'),
        ].filter((g) => g.items.length)}
        value={current}
        onChange={(id) => id && onSelect(id)}
        allowDeselect={false}
        searchable
        data-testid="view-picker"
      />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon size="md" variant="default" aria-label="View options">
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {view && (
            <Menu.Item onClick={() => onEdit(view)}>
              {view.kind === 'saved' ? 'Edit view…' : 'SLA targets of this view…'}
            </Menu.Item>
          )}
          <Menu.Item onClick={() => onEdit(null)}>New saved view…</Menu.Item>
          <Menu.Item onClick={onSlaTargets}>SLA targets of the tenant…</Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** How fresh the queue is, and a way to sync it now. */
function SyncLine({ sync, onSync }: { sync: TicketSyncState | null; onSync(): void }) {
  if (!sync) return null;
  const parts: string[] = [];
  if (sync.state === 'syncing') {
    parts.push(sync.total ? `${sync.phase}: ${formatCount(sync.done)} of ${formatCount(sync.total)}` : sync.phase);
  } else if (sync.asOf) parts.push(`As of ${formatAsOf(sync.asOf)}`);
  if (sync.threadsCached < 1 && sync.asOf) parts.push(`threads ${Math.floor(sync.threadsCached * 100)}% cached`);
  // Offline, the header says so in two words and keeps the cache's time; the reason is in the tooltip.
  const failed = sync.state === 'offline' || sync.state === 'error';
  const text = failed
    ? `${sync.state === 'offline' ? 'Offline' : 'Sync failed'}${sync.asOf ? ` · showing tickets as of ${formatAsOf(sync.asOf)}` : ''}`
    : parts.join(' · ');
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <Text
        size="xs"
        c={failed ? 'orange' : 'dimmed'}
        title={failed && sync.message ? sync.message : text}
        aria-live="polite"
        truncate="end"
        style={{ minWidth: 0 }}
      >
        {text}
      </Text>
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={onSync}
        disabled={sync.state === 'syncing'}
        style={{ flexShrink: 0 }}
      >
        Sync now
      </Button>
    </Group>
  );
}

/** The queue's title line: new tickets, how fresh it is, desktop notifications, the keys. */
export function QueueTitleBar({
  newCount,
  sync,
  onSync,
  notifications,
  onKeys,
}: {
  newCount: number;
  sync: TicketSyncState | null;
  onSync(): void;
  notifications: { enabled: boolean; setEnabled(enabled: boolean): Promise<unknown> | void };
  onKeys(): void;
}) {
  return (
    <Group justify="space-between" style={{ gridColumn: '1 / -1', minWidth: 0 }} wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Title order={1} size="h3" style={{ whiteSpace: 'nowrap' }}>
          Support tickets
        </Title>
        {newCount > 0 && (
          <Badge color="blue" aria-label={`${newCount} new open tickets`} style={{ flexShrink: 0 }}>
            {newCount} new
          </Badge>
        )}
        <SyncLine sync={sync} onSync={onSync} />
      </Group>
      <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Switch
          size="xs"
          label="Desktop notifications"
          checked={notifications.enabled}
          onChange={(e) => void notifications.setEnabled(e.currentTarget.checked)}
        />
        <Button size="xs" variant="subtle" onClick={onKeys} style={{ flexShrink: 0 }}>
          Keys{' '}
          <Kbd ml={6} size="xs">
            ?
          </Kbd>
        </Button>
      </Group>
    </Group>
  );
}

/** What the checked tickets can have done to them at once. */
export function BulkBar({
  count,
  onStatus,
  onClear,
}: {
  count: number;
  onStatus(status: TicketStatus): void;
  onClear(): void;
}) {
  return (
    <Group gap={6} wrap="nowrap" role="toolbar" aria-label="Bulk actions">
      <Text size="xs">{count} selected</Text>
      <Button size="compact-xs" variant="default" onClick={() => onStatus('closed')}>
        Close{' '}
        <Kbd ml={4} size="xs">
          e
        </Kbd>
      </Button>
      <Button size="compact-xs" variant="default" onClick={() => onStatus('in_progress')}>
        In progress{' '}
        <Kbd ml={4} size="xs">
          i
        </Kbd>
      </Button>
      <Button size="compact-xs" variant="subtle" onClick={onClear}>
        Clear
      </Button>
    </Group>
  );
}
