/**
 * A person's profile memory on their page: what mentors know of them (`ai-user-profile-memory/`), one detail per
 * tag. An entry is added, or its detail changed, by saving its tag; a delete asks first, naming the tag and person.
 */
import { ActionIcon, Button, Group, Paper, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { BridgeCallError, type ProfileMemoryEntry } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ConfirmModal } from '../../components/ConfirmModal';
import { EditIcon, TrashIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { SectionLoadError } from '../../components/SectionReach';
import { useCall, useMutationCall } from '../../queries/useCall';

export function ProfileMemorySection({
  profileId,
  username,
  name,
}: {
  profileId: string;
  username: string;
  /** Their full name where the directory knows it (else their username): how the section names them. */
  name: string;
}) {
  const list = useCall('memory.profile', { profileId, learner: username });
  const save = useMutationCall('memory.profileSave');
  const [tag, setTag] = useState('');
  const [detail, setDetail] = useState('');
  const [deleting, setDeleting] = useState<ProfileMemoryEntry | null>(null);
  const entries = list.data?.entries ?? [];
  const issues = save.error instanceof BridgeCallError ? (save.error.issues ?? []) : [];
  const at = (field: string) => issues.find((issue) => issue.path === field)?.message;
  const general = save.error && !at('tag') && !at('detail') ? errorMessage(save.error) : undefined;

  return (
    <Paper withBorder radius="md" p="md" data-testid="person-profile-memory">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Profile memory
        </Title>
        <Text size="xs" c="dimmed">
          What mentors know of {name}, by tag.
        </Text>
        {list.error ? (
          <SectionLoadError
            section="person-profile-memory"
            title="Profile memory could not be loaded"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        ) : list.isPending ? (
          <Skeleton height={14} />
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed">
            No entries.
          </Text>
        ) : (
          <Table striped withRowBorders={false} verticalSpacing={4} aria-label="Profile memory entries">
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.tag}>
                  <Table.Td fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {entry.tag}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.detail ?? ''}</Table.Td>
                  <Table.Td w={72}>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Edit ${entry.tag}`}
                        onClick={() => {
                          setTag(entry.tag);
                          setDetail(entry.detail ?? '');
                        }}
                      >
                        <EditIcon size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${entry.tag}`}
                        onClick={() => setDeleting(entry)}
                      >
                        <TrashIcon size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              { profileId, learner: username, tag, detail },
              {
                onSuccess: (saved) => {
                  notifySuccess('Profile memory saved', `${saved.tag} for ${name}`);
                  setTag('');
                  setDetail('');
                },
              },
            );
          }}
        >
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label="Tag"
              placeholder="favorite-subject"
              value={tag}
              onChange={(event) => setTag(event.currentTarget.value)}
              error={at('tag')}
              w={160}
            />
            <TextInput
              label="Detail"
              placeholder="Loves organic chemistry"
              value={detail}
              onChange={(event) => setDetail(event.currentTarget.value)}
              error={at('detail')}
              style={{ flex: 1, minWidth: 180 }}
            />
            <Button type="submit" variant="light" loading={save.isPending} disabled={!tag.trim()}>
              Save entry
            </Button>
          </Group>
          {general && (
            <Text size="sm" c="red" mt={4}>
              {general}
            </Text>
          )}
        </form>
      </Stack>
      <DeleteEntryModal profileId={profileId} username={username} entry={deleting} onClose={() => setDeleting(null)} />
    </Paper>
  );
}

function DeleteEntryModal({
  profileId,
  username,
  entry,
  onClose,
}: {
  profileId: string;
  username: string;
  entry: ProfileMemoryEntry | null;
  onClose(): void;
}) {
  const remove = useMutationCall('memory.profileDelete');
  return (
    <ConfirmModal
      target={entry}
      title={entry ? `Delete ${entry.tag} of ${username}?` : ''}
      mutation={remove}
      failedTitle="Not deleted"
      confirmLabel="Delete entry"
      onConfirm={(chosen, close) =>
        remove.mutate(
          { profileId, learner: username, tag: chosen.tag },
          {
            onSuccess: (result) => {
              notifySuccess(
                result.deleted ? 'Entry deleted' : 'Nothing to delete',
                result.deleted ? `${result.tag} of ${username}` : `${username} had no ${result.tag}.`,
              );
              close();
            },
          },
        )
      }
      onClose={onClose}
    >
      {() => <Text size="sm">Mentors will no longer know this of {username}.</Text>}
    </ConfirmModal>
  );
}
