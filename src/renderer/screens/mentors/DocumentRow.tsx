import { ActionIcon, Badge, Group, Loader, Menu, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { MentorDocument } from '../../../shared/contract';
import { DotsIcon, RefreshIcon, TrashIcon } from '../../components/icons';
import { FileName } from '../../components/FileName';
import { notifyError } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';
import { formatCount, formatDateTime } from '../../lib/format';
import { STATUS_INFO } from './documentStatus';

interface DocumentRowProps {
  profileId: string;
  mentor: string;
  document: MentorDocument;
  onRetrain(): void;
  onDelete(): void;
  /** Why its actions are off (the tenant is out of reach), or null. */
  writeRefusal: string | null;
}

/** One document: status (with the failure reason), tokens, access, last trained, and its actions. */
export function DocumentRow({ profileId, mentor, document, onRetrain, onDelete, writeRefusal }: DocumentRowProps) {
  const setTraining = useMutationCall('documents.setTraining');
  const setAccess = useMutationCall('documents.setAccess');
  const status = STATUS_INFO[document.status];
  const busy = setTraining.isPending || setAccess.isPending;
  const trained = document.status === 'trained';
  const isPublic = document.access === 'public';

  function train(train: boolean) {
    setTraining.mutate(
      { profileId, mentor, documentId: document.id, train },
      { onError: (error) => notifyError(`${document.name} was not ${train ? 'trained' : 'untrained'}`, error) },
    );
  }

  function access(access: 'public' | 'private') {
    setAccess.mutate(
      { profileId, mentor, documentId: document.id, access },
      { onError: (error) => notifyError(`${document.name} was not made ${access}`, error) },
    );
  }

  return (
    <Table.Tr data-testid={`document-row-${document.name}`}>
      <Table.Td>
        <Stack gap={2}>
          <FileName size="sm" fw={500} name={document.name} data-testid="document-name" />
          {document.status === 'failed' && document.failureReason && (
            <Text size="xs" c="red" lineClamp={2}>
              {document.failureReason}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed" tt="uppercase">
          {document.type || '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Tooltip label={status.description} withArrow>
          <Badge
            variant="light"
            color={status.color}
            radius="sm"
            style={{ minWidth: 'max-content' }}
            leftSection={document.status === 'pending' ? <Loader size={10} color={status.color} /> : undefined}
            data-testid="document-status"
          >
            {status.label}
          </Badge>
        </Tooltip>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm">{formatCount(document.tokens)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={isPublic ? undefined : 'dimmed'}>
          {document.access ? (isPublic ? 'Public' : 'Private') : '—'}
        </Text>
      </Table.Td>
      <Table.Td data-testid="document-last-trained">
        <LastTrained document={document} />
        {!!document.retrainIntervalDays && (
          <Group gap={4} c="dimmed">
            <RefreshIcon size={12} />
            <Text size="xs" inherit>
              every {document.retrainIntervalDays} d
            </Text>
          </Group>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={2} justify="flex-end" wrap="nowrap">
          {busy && <Loader size={14} />}
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${document.name}`}>
                <DotsIcon />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {writeRefusal && <Menu.Label maw={240}>{writeRefusal}</Menu.Label>}
              {trained ? (
                <Menu.Item onClick={() => train(false)} disabled={!!writeRefusal}>
                  Untrain
                </Menu.Item>
              ) : (
                <Menu.Item onClick={() => train(true)} disabled={document.status === 'pending' || !!writeRefusal}>
                  {document.status === 'failed' ? 'Train again' : 'Train'}
                </Menu.Item>
              )}
              <Menu.Item onClick={() => access(isPublic ? 'private' : 'public')} disabled={!!writeRefusal}>
                {isPublic ? 'Make private' : 'Make public'}
              </Menu.Item>
              <Menu.Item onClick={onRetrain} disabled={!!writeRefusal}>
                Retrain interval…
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<TrashIcon size={14} />} onClick={onDelete} disabled={!!writeRefusal}>
                Delete…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * When the mentor last learned the document, only while it uses it: an untrained (or failed) document shows no date
 * there, which read as if it were trained; the earlier date is in its label.
 */
function LastTrained({ document }: { document: MentorDocument }) {
  const when = formatDateTime(document.lastTrainedAt);
  if (document.status === 'trained') {
    // One line: a date broken before its "AM" reads as two values; the name column gives way instead.
    return (
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {when}
      </Text>
    );
  }
  const note =
    document.status === 'pending' ? 'Training now' : document.status === 'untrained' ? 'Not in use' : 'Not trained';
  const before = document.lastTrainedAt ? `; last trained ${when}` : '';
  return (
    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} title={`${note}${before}`}>
      {note}
      {before && <VisuallyHidden>{before}</VisuallyHidden>}
    </Text>
  );
}
