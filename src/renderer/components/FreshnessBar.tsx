import { ActionIcon, Alert, Group, Loader, Text, Tooltip } from '@mantine/core';
import type { Freshness } from '../../shared/contract';
import { CloudOffIcon, RefreshIcon } from './icons';
import { formatAsOf } from '../lib/format';

interface FreshnessNoteProps {
  freshness: Freshness | undefined;
  refreshing: boolean;
  onRefresh(): void;
  /** What is listed, for the refresh button's name: "mentors", "documents". */
  what: string;
}

/** "As of 10:42:13" and a refresh button: lists come from the cache first, then from the tenant. */
export function FreshnessNote({ freshness, refreshing, onRefresh, what }: FreshnessNoteProps) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed" aria-live="polite" data-testid="freshness">
        {refreshing ? 'Refreshing…' : freshness ? `As of ${formatAsOf(freshness.asOf)}` : ''}
      </Text>
      <Tooltip label={`Refresh ${what} from the tenant`} withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={onRefresh}
          disabled={refreshing}
          aria-label={`Refresh ${what}`}
        >
          {refreshing ? <Loader size={14} /> : <RefreshIcon size={16} />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The tenant could not be reached: the list on screen is the saved copy. */
export function OfflineBanner({ freshness }: { freshness: Freshness | undefined }) {
  if (!freshness?.offline) return null;
  return (
    <Alert color="yellow" variant="light" icon={<CloudOffIcon />} title="Showing the saved copy" role="status">
      {freshness.offline}
      {freshness.asOf ? ` Last fetched ${formatAsOf(freshness.asOf)}.` : ''} Changes cannot be saved until the tenant
      can be reached.
    </Alert>
  );
}
