import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { calls, type CannedReply } from '../../../shared/contract';
import { notifyError } from '../../components/notify';
import { contractResolver, showSaveError, topLevelField } from '../../lib/forms';
import { useCall, useMutationCall } from '../../queries/useCall';

/** Canned replies live on this computer; {first_name} and {mentor} are filled in when one is used. */
export function CannedRepliesModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const replies = useCall('tickets.cannedReplies', {}, { enabled: opened });
  const remove = useMutationCall('tickets.deleteCannedReply');
  const [editing, setEditing] = useState<Partial<CannedReply> | null>(null);

  return (
    <Modal opened={opened} onClose={onClose} title="Canned replies" size="lg">
      {editing ? (
        <CannedReplyForm key={editing.id ?? 'new'} reply={editing} onDone={() => setEditing(null)} />
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

const fieldOf = topLevelField(['title', 'body']);

/** One canned reply's title and text; Save keeps it on this computer. */
function CannedReplyForm({ reply, onDone }: { reply: Partial<CannedReply>; onDone(): void }) {
  const save = useMutationCall('tickets.saveCannedReply');
  const toInput = (values: { title: string; body: string }) => ({ ...(reply.id ? { id: reply.id } : {}), ...values });
  const form = useForm({
    mode: 'controlled',
    initialValues: { title: reply.title ?? '', body: reply.body ?? '' },
    validate: contractResolver(calls['tickets.saveCannedReply'].input, toInput, fieldOf),
  });
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        save.mutate(toInput(values), {
          onSuccess: onDone,
          onError: (error) => {
            const rest = showSaveError(form, error, fieldOf);
            if (rest) notifyError('Not saved', rest);
          },
        }),
      )}
    >
      <Stack>
        <TextInput label="Title" {...form.getInputProps('title')} required data-autofocus />
        <Textarea
          label="Reply"
          description="{first_name} and {mentor} are replaced with the learner's first name and the mentor's name"
          {...form.getInputProps('body')}
          autosize
          minRows={4}
          required
          dir="auto"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
