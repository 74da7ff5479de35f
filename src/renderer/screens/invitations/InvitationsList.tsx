import {
  ActionIcon,
  Alert,
  Badge,
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
import type { Invitation, InvitationState, InviteTarget } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { PlusIcon, TrashIcon, WarningIcon } from '../../components/icons';
import { useCall } from '../../queries/useCall';
import { InviteOneModal } from './InviteOneModal';
import { RevokeModal } from './RevokeModal';
import { isComplete, TargetPicker } from './TargetPicker';

const PAGE_SIZE = 25;

const STATE_COLORS: Record<InvitationState, string> = {
  pending: 'blue',
  accepted: 'teal',
  inactive: 'gray',
  expired: 'orange',
};

const date = (value: string | null) => (value ? new Date(value).toLocaleDateString() : '—');

/** Existing invitations of the platform, a course or a program: filters, paging (newest first), revoke, invite one. */
export function InvitationsList({ profileId }: { profileId: string | undefined }) {
  const [target, setTarget] = useState<InviteTarget | { kind: 'course' | 'program'; id: '' }>({ kind: 'platform' });
  const [active, setActive] = useState<string>('any');
  const [email, setEmail] = useState('');
  const [source, setSource] = useState('');
  const [page, setPage] = useState(1);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [inviting, setInviting] = useState(false);
  const ready = isComplete(target);
  const list = useCall(
    'invitations.list',
    {
      ...(profileId && { profileId }),
      target: ready ? target : { kind: 'platform' },
      ...(active !== 'any' && { active: active === 'active' }),
      ...(email.trim() && { email: email.trim() }),
      ...(source.trim() && { source: source.trim() }),
      page,
      pageSize: PAGE_SIZE,
    },
    { enabled: ready },
  );
  const filtersChanged =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

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
      <Group gap="sm" wrap="wrap">
        <Select
          label="State"
          w={150}
          value={active}
          onChange={(value) => filtersChanged(setActive)(value ?? 'any')}
          data={[
            { value: 'any', label: 'Any' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
          allowDeselect={false}
        />
        <TextInput
          label="Email"
          placeholder="exact address"
          w={260}
          value={email}
          onChange={(event) => filtersChanged(setEmail)(event.currentTarget.value)}
        />
        <TextInput
          label="Source"
          placeholder="who invited"
          w={200}
          value={source}
          onChange={(event) => filtersChanged(setSource)(event.currentTarget.value)}
        />
      </Group>

      {!ready && <Text c="dimmed">Choose a {target.kind} to see its invitations.</Text>}
      {ready && list.isPending && <Skeleton height={240} radius="sm" />}
      {list.isError && (
        <Alert color="red" icon={<WarningIcon />} title="The invitations could not be loaded">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && list.data.invitations.length === 0 && <Text c="dimmed">No invitations match.</Text>}
      {list.data && list.data.invitations.length > 0 && (
        <>
          <Table striped highlightOnHover aria-label="Invitations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.invitations.map((invitation) => (
                <Table.Tr key={invitation.id} data-testid={`invitation-${invitation.email ?? invitation.id}`}>
                  <Table.Td>
                    {invitation.email ?? <Text c="dimmed">blank ({invitation.username ?? 'unassigned'})</Text>}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLORS[invitation.state]} variant="light">
                      {invitation.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{invitation.source ?? '—'}</Table.Td>
                  <Table.Td>{date(invitation.createdAt)}</Table.Td>
                  <Table.Td>{date(invitation.expiresAt)}</Table.Td>
                  <Table.Td>
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
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {list.data.total} invitation{list.data.total === 1 ? '' : 's'}
            </Text>
            <Pagination
              total={Math.max(1, Math.ceil(list.data.total / PAGE_SIZE))}
              value={page}
              onChange={setPage}
              size="sm"
            />
          </Group>
        </>
      )}
      {ready && (
        <InviteOneModal profileId={profileId} target={target} opened={inviting} onClose={() => setInviting(false)} />
      )}
      <RevokeModal profileId={profileId} invitation={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}
