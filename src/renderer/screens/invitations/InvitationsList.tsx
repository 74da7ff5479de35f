import {
  ActionIcon,
  Button,
  Group,
  Pagination,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useState } from 'react';
import type { ImportBatch, Invitation, InviteTarget } from '../../../shared/contract';
import { PlusIcon, TrashIcon } from '../../components/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useBridge } from '../../bridge/BridgeContext';
import { useCall, useCallKey } from '../../queries/useCall';
import { ListFrame, ListTableArea } from '../../components/ListFrame';
import { InvitationState } from './InvitationState';
import { InviteOneModal } from './InviteOneModal';
import { RevokeModal } from './RevokeModal';
import { Address, SourceCell } from './SourceCell';
import { isComplete, TargetPicker } from './TargetPicker';
import { formatAsOf, formatDate, formatDateTime, plural } from '../../lib/format';

const PAGE_SIZE = 25;

const date = (value: string | null) => formatDate(value);

const batchLabel = (batch: ImportBatch) =>
  `${batch.fileName} · ${formatDateTime(batch.createdAt)} · ${plural(batch.invited, 'invited', 'invited')}`;

/** Who an invitation is for: the address, or a blank one's story. */
function Invitee({ invitation }: { invitation: Invitation }) {
  if (invitation.email) return <Address email={invitation.email} />;
  if (invitation.username) return <>{invitation.username}</>;
  return (
    <Tooltip
      multiline
      maw={320}
      label={`Not given to anyone yet: a blank invitation is made for a source${invitation.source ? ` (here “${invitation.source}”)` : ''} and goes to the next person who redeems that source.`}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Text span c="dimmed" fs="italic" tabIndex={0}>
        Blank invitation
      </Text>
    </Tooltip>
  );
}

/**
 * Existing invitations of the platform, a course or a program: filters, paging (newest first), revoke, invite one.
 * The platform filters an address only exactly, so "Search" looks in the app's copy of the whole list, and says so.
 */
export function InvitationsList({ profileId, batchJobId }: { profileId: string | undefined; batchJobId?: string }) {
  const batches = useCall('invitations.batches', { ...(profileId && { profileId }) });
  // Opened from an import's result: start on that batch, where it was sent.
  if (batchJobId && batches.isPending) return <Skeleton height={240} radius="sm" />;
  const opened = batchJobId ? batches.data?.batches.find((b) => b.jobId === batchJobId) : undefined;
  return <ListView profileId={profileId} batches={batches.data?.batches ?? []} opened={opened} />;
}

function ListView({
  profileId,
  batches,
  opened,
}: {
  profileId: string | undefined;
  batches: ImportBatch[];
  opened: ImportBatch | undefined;
}) {
  const [target, setTarget] = useState<InviteTarget | { kind: 'course' | 'program'; id: '' }>(
    opened?.target ?? { kind: 'platform' },
  );
  const [active, setActive] = useState<string>('any');
  const [search, setSearch] = useState('');
  const [batch, setBatch] = useState<string | null>(opened?.source ?? null);
  const [source, setSource] = useState('');
  const [page, setPage] = useState(1);
  const [refreshing, setRefreshing] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [inviting, setInviting] = useState(false);
  const ready = isComplete(target);
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const callKey = useCallKey();
  const sourceFilter = batch ?? (source.trim() || undefined);
  const input = {
    ...(profileId && { profileId }),
    target: ready ? target : ({ kind: 'platform' } as const),
    ...(active !== 'any' && { active: active === 'active' }),
    ...(search.trim() && { search: search.trim() }),
    ...(sourceFilter && { source: sourceFilter }),
    page,
    pageSize: PAGE_SIZE,
  };
  const list = useCall('invitations.list', input, { enabled: ready });
  const filtered = active !== 'any' || !!search.trim() || !!sourceFilter;

  const filtersChanged =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const clear = () => {
    setActive('any');
    setSearch('');
    setBatch(null);
    setSource('');
    setPage(1);
  };
  // Read again from the tenant now: the copy behind a search too.
  const refresh = async () => {
    setRefreshing(true);
    try {
      queryClient.setQueryData(
        callKey('invitations.list', input),
        await bridge.call('invitations.list', { ...input, refresh: true }),
      );
    } catch {
      await list.refetch();
    } finally {
      setRefreshing(false);
    }
  };
  const batchOptions = batches
    .filter((b) => !ready || JSON.stringify(b.target) === JSON.stringify(target))
    .map((b) => ({ value: b.source, label: batchLabel(b) }));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TargetPicker
          profileId={profileId}
          value={target}
          onChange={filtersChanged(setTarget)}
          label="Invitations to"
        />
        <Button leftSection={<PlusIcon size={16} />} onClick={() => setInviting(true)} disabled={!ready}>
          Invite someone
        </Button>
      </Group>
      <ListFrame
        what="invitations"
        freshness={list.data?.freshness}
        {...(ready && { refresh: { refreshing, onRefresh: () => void refresh() } })}
        toolbarStart={
          <>
            <TextInput
              label="Search"
              placeholder="Part of an address or a name"
              miw={200}
              style={{ flex: 1 }}
              maw={300}
              value={search}
              onChange={(event) => filtersChanged(setSearch)(event.currentTarget.value)}
            />
            <Select
              label="State"
              w={190}
              value={active}
              onChange={(value) => filtersChanged(setActive)(value ?? 'any')}
              data={[
                { value: 'any', label: 'Any' },
                { value: 'active', label: 'Active (can be used)' },
                { value: 'inactive', label: 'Inactive (switched off)' },
              ]}
              allowDeselect={false}
            />
            <Select
              label="Import batch"
              placeholder={batchOptions.length ? 'Any CSV import' : 'No CSV imports yet'}
              w={240}
              clearable
              searchable
              value={batch}
              data={batchOptions}
              disabled={!batchOptions.length && !batch}
              onChange={(value) => {
                filtersChanged(setBatch)(value);
                if (value) setSource('');
              }}
              nothingFoundMessage="No import matches"
            />
            <TextInput
              label="Source (exact)"
              placeholder="e.g. open-day-2026"
              w={200}
              value={batch ? '' : source}
              disabled={!!batch}
              onChange={(event) => filtersChanged(setSource)(event.currentTarget.value)}
            />
            {filtered && (
              <Button variant="subtle" onClick={clear}>
                Clear filters
              </Button>
            )}
          </>
        }
        count={list.data && <span data-testid="invitations-count">{plural(list.data.total, 'invitation')}</span>}
        loading={ready && list.isPending}
        error={
          list.isError
            ? {
                title: 'The invitations could not be loaded',
                error: list.error,
                onRetry: () => void list.refetch(),
              }
            : null
        }
        empty={
          !ready
            ? { message: `Choose a ${target.kind} to see its invitations.` }
            : list.data && list.data.invitations.length === 0
              ? { message: filtered ? 'No invitations match these filters.' : 'No invitations yet.' }
              : null
        }
        footer={
          list.data &&
          (list.data.total > PAGE_SIZE || (list.data.freshness.source === 'cache' && !list.data.freshness.offline)) && (
            <Group justify="space-between" wrap="wrap" gap="xs">
              {list.data.freshness.source === 'cache' && !list.data.freshness.offline ? (
                <Text size="xs" c="dimmed" data-testid="search-note">
                  Matched in this app&apos;s copy of the list, read {formatAsOf(list.data.freshness.asOf)} (the platform
                  matches only whole addresses).
                </Text>
              ) : (
                <span />
              )}
              {list.data.total > PAGE_SIZE && (
                <Pagination
                  total={Math.ceil(list.data.total / PAGE_SIZE)}
                  value={page}
                  onChange={setPage}
                  size="sm"
                  aria-label="Pages of invitations"
                />
              )}
            </Group>
          )
        }
      >
        {list.data && list.data.invitations.length > 0 && (
          <ListTableArea minWidth={640} label="Invitations">
            <Table highlightOnHover aria-label="Invitations" verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Person</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Source</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th aria-label="Actions" style={STICKY_END} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.invitations.map((invitation) => (
                  <Table.Tr key={invitation.id} data-testid={`invitation-${invitation.email ?? invitation.id}`}>
                    <Table.Td maw={360}>
                      <Stack gap={0}>
                        {invitation.name && (
                          <Text size="sm" fw={500} data-testid="invitation-name">
                            {invitation.name}
                          </Text>
                        )}
                        <Text size="sm" c={invitation.name ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere' }}>
                          <Invitee invitation={invitation} />
                        </Text>
                      </Stack>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <InvitationState invitation={invitation} />
                    </Table.Td>
                    <Table.Td maw={240}>
                      <SourceCell source={invitation.source} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">{date(invitation.createdAt)}</Text>
                      <Text size="xs" c="dimmed">
                        {invitation.expiresAt
                          ? `${invitation.state === 'expired' ? 'expired' : 'expires'} ${date(invitation.expiresAt)}`
                          : invitation.state === 'pending'
                            ? 'no expiry'
                            : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td style={STICKY_END}>
                      <Tooltip label="Revoke">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Revoke the invitation of ${invitation.email ?? invitation.id}`}
                          onClick={() => setRevoking(invitation)}
                        >
                          <TrashIcon size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ListTableArea>
        )}
      </ListFrame>
      {ready && (
        <InviteOneModal profileId={profileId} target={target} opened={inviting} onClose={() => setInviting(false)} />
      )}
      <RevokeModal profileId={profileId} invitation={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}

/** The actions column stays in view when the table scrolls sideways. */
const STICKY_END = {
  position: 'sticky' as const,
  right: 0,
  background: 'var(--mantine-color-body)',
  width: 48,
};
