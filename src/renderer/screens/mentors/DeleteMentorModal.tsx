import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Mentor } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

interface DeleteMentorModalProps {
  profileId: string;
  mentor: Mentor | null;
  onClose(): void;
  onDeleted?(): void;
}

/** Asks before deleting, naming the mentor. */
export function DeleteMentorModal({ profileId, mentor, onClose, onDeleted }: DeleteMentorModalProps) {
  const remove = useMutationCall('mentors.delete');

  function close() {
    remove.reset();
    onClose();
  }

  function confirm(target: Mentor) {
    remove.mutate(
      { profileId, mentor: target.uniqueId },
      {
        onSuccess: () => {
          notifySuccess('Mentor deleted', `${target.name} is gone.`);
          close();
          onDeleted?.();
        },
      },
    );
  }

  return (
    <Modal opened={mentor !== null} onClose={close} title="Delete mentor?" centered>
      {mentor && (
        <Stack gap="md">
          <Text>
            Delete <strong>{mentor.name}</strong>? Learners can no longer chat with it, and its documents stop being
            used.
          </Text>
          <Text size="sm" c="dimmed">
            Training jobs still running for it will fail. The platform keeps a deleted mentor for its own records.
          </Text>
          {remove.isError && (
            <Alert color="red" title="Not deleted" icon={<WarningIcon />}>
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => confirm(mentor)}>
              Delete {mentor.name}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
