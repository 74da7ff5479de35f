import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { CannedReply } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { useCall, useMutationCall } from '../../queries/useCall';

/** Canned replies live on this computer; {first_name} and {mentor} are filled in when one is used. */
export function CannedRepliesModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const replies = useCall('tickets.cannedReplies', {}, { enabled: opened });
  const save = useMutationCall('tickets.saveCannedReply');
  const remove = useMutationCall('tickets.deleteCannedReply');
  const [editing, setEditing] = useState<Partial<CannedReply> | null>(null);

  return (
    <Modal opened={opened} onClose={onClose} title="Canned replies" size="lg">
      {editing ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              { ...(editing.id ? { id: editing.id } : {}), title: editing.title ?? '', body: editing.body ?? '' },
              { onSuccess: () => setEditing(null), onError: (error) => notifyError('Not saved', error) },
            );
          }}
        >
          <Stack>
            <TextInput
              label="Title"
              value={editing.title ?? ''}
              onChange={(e) => setEditing({ ...editing, title: e.currentTarget.value })}
              required
              data-autofocus
            />
            <Textarea
              label="Reply"
              description="{first_name} and {mentor} are replaced with the learner's first name and the mentor's name"
              value={editing.body ?? ''}
              onChange={(e) => setEditing({ ...editing, body: e.currentTarget.value })}
              autosize
              minRows={4}
              required
              dir="auto"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack>
          {(replies.data?.replies ?? []).map((reply) => (
            <Group key={reply.id} justify="space-between" wrap="nowrap">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} size="sm">
                  {reply.title}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={2} dir="auto">
                  {reply.body}
                </Text>
              </div>
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setEditing(reply)}>
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => remove.mutate({ id: reply.id }, { onError: (e) => notifyError('Not removed', e) })}
                >
                  Remove
                </Button>
              </Group>
            </Group>
          ))}
          {!replies.data?.replies.length && (
            <Text size="sm" c="dimmed">
              No canned replies yet.
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={() => setEditing({ title: '', body: 'Hi {first_name},\n\n' })}>Add a canned reply</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
