/**
 * A person's edX memory on their page (`edx-memory/`): the courses the platform tells mentors they were last in, each
 * with what it keeps of their place, and a delete that asks first, naming the course and the person.
 */
import { ActionIcon, Code, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { EdxMemory } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
import { TrashIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { formatDateTime } from '../../lib/format';
import { SectionLoadError } from '../../components/SectionReach';
import { useCall, useMutationCall } from '../../queries/useCall';

export function EdxMemorySection({ profileId, username }: { profileId: string; username: string }) {
  const list = useCall('memory.edx', { profileId, learner: username });
  const [deleting, setDeleting] = useState<EdxMemory | null>(null);
  const records = list.data?.records ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="person-edx-memory">
      <Stack gap="xs">
        <Title order={3} size="h5">
          edX memory
        </Title>
        {list.error ? (
          <SectionLoadError
            section="person-edx-memory"
            title="edX memory could not be loaded"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.isPending ? (
          <Skeleton height={14} />
        ) : records.length === 0 ? (
          <Text size="sm" c="dimmed">
            No course kept for mentors.
          </Text>
        ) : (
          records.map((record) => (
            <Group key={record.id} justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {record.course_id}
                </Text>
                <Text size="xs" c="dimmed">
                  Updated {formatDateTime(record.last_modified)}
                </Text>
                {record.data !== undefined && record.data !== null && (
                  <Code block style={{ maxHeight: 120, overflow: 'auto' }}>
                    {JSON.stringify(record.data, null, 2)}
                  </Code>
                )}
              </Stack>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${record.course_id}`}
                onClick={() => setDeleting(record)}
              >
                <TrashIcon size={16} />
              </ActionIcon>
            </Group>
          ))
        )}
      </Stack>
      <DeleteModal profileId={profileId} username={username} record={deleting} onClose={() => setDeleting(null)} />
    </Paper>
  );
}

function DeleteModal({
  profileId,
  username,
  record,
  onClose,
}: {
  profileId: string;
  username: string;
  record: EdxMemory | null;
  onClose(): void;
}) {
  const remove = useMutationCall('memory.edxDelete');
  return (
    <ConfirmModal
      target={record}
      title={record ? `Delete ${username}'s memory of ${record.course_id}?` : ''}
      mutation={remove}
      failedTitle="Not deleted"
      confirmLabel="Delete"
      onConfirm={(chosen, close) =>
        remove.mutate(
          { profileId, learner: username, id: chosen.id },
          {
            onSuccess: (result) => {
              notifySuccess(result.deleted ? 'edX memory deleted' : 'Nothing to delete', chosen.course_id);
              close();
            },
          },
        )
      }
      onClose={onClose}
    >
      {() => <Text size="sm">Mentors will no longer know where {username} was in this course.</Text>}
    </ConfirmModal>
  );
}
