import { Text } from '@mantine/core';
import type { Mentor } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
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
  return (
    <ConfirmModal
      target={mentor}
      title="Delete mentor?"
      mutation={remove}
      failedTitle="Not deleted"
      confirmLabel={(target) => `Delete ${target.name}`}
      onClose={onClose}
      onConfirm={(target, close) =>
        remove.mutate(
          { profileId, mentor: target.uniqueId },
          {
            onSuccess: () => {
              notifySuccess('Mentor deleted', `${target.name} is gone.`);
              close();
              onDeleted?.();
            },
          },
        )
      }
    >
      {(target) => (
        <>
          <Text>
            Delete <strong>{target.name}</strong>? Learners can no longer chat with it, and its documents stop being
            used.
          </Text>
          <Text size="sm" c="dimmed">
            Training jobs still running for it will fail. The platform keeps a deleted mentor for its own records.
          </Text>
        </>
      )}
    </ConfirmModal>
  );
}
