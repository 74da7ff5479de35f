import { ActionIcon, Alert, Group, Loader, Text, Tooltip } from '@mantine/core';
import type { Freshness } from '../../shared/contract';
import { CloudOffIcon, RefreshIcon } from './icons';
import { formatAsOf } from '../lib/format';
import { useTenantReach } from '../tenants/useTenantReach';

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

/**
 * The list on screen is the saved copy. When the app's banner already says the tenant cannot be reached (and that
 * changes wait), this only says how old the copy is; otherwise (a tenant answering with errors) it says why too.
 */
export function OfflineBanner({
  freshness,
  'data-testid': testId,
}: {
  freshness: Freshness | undefined;
  'data-testid'?: string;
}) {
  const bannerSaysWhy = useTenantReach().unreachable;
  if (!freshness?.offline) return null;
  if (bannerSaysWhy) return <SavedCopyNote asOf={freshness.asOf} data-testid={testId} />;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<CloudOffIcon />}
      title="Showing the saved copy"
      role="status"
      data-testid={testId}
    >
      {freshness.offline}
      {freshness.asOf ? ` Last fetched ${formatAsOf(freshness.asOf)}.` : ''} Changes cannot be saved until the tenant
      can be reached.
    </Alert>
  );
}

/** "Showing the saved copy as of 10:42": all a section says of its copy while the app's banner says why. */
export function SavedCopyNote({
  asOf,
  size = 'sm',
  'data-testid': testId = 'saved-copy-note',
}: {
  asOf: string | null | undefined;
  size?: 'xs' | 'sm';
  'data-testid'?: string | undefined;
}) {
  return (
    <Group gap={6} wrap="nowrap" c="dimmed" role="status" data-testid={testId}>
      <CloudOffIcon size={size === 'xs' ? 14 : 16} />
      <Text size={size} c="dimmed">
        Showing the saved copy{asOf ? ` as of ${formatAsOf(asOf)}` : ''}
      </Text>
    </Group>
  );
}

/** What a section says when this computer has nothing saved of it and the tenant cannot be reached. */
export const NOT_AVAILABLE_OFFLINE = 'Not available offline';
