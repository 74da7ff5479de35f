import { Text } from '@mantine/core';
import type { MentorDocument } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

interface DeleteDocumentModalProps {
  profileId: string;
  mentor: { uniqueId: string; name: string };
  document: MentorDocument | null;
  onClose(): void;
}

/** Asks before deleting a document, naming it and its mentor. */
export function DeleteDocumentModal({ profileId, mentor, document, onClose }: DeleteDocumentModalProps) {
  const remove = useMutationCall('documents.delete');
  return (
    <ConfirmModal
      target={document}
      title="Delete document?"
      mutation={remove}
      failedTitle="Not deleted"
      confirmLabel="Delete document"
      onClose={onClose}
      onConfirm={(target, close) =>
        remove.mutate(
          { profileId, mentor: mentor.uniqueId, documentId: target.id },
          {
            onSuccess: () => {
              notifySuccess('Document deleted', `${mentor.name} no longer uses ${target.name}.`);
              close();
            },
          },
        )
      }
    >
      {(target) => (
        <Text>
          Delete <strong>{target.name}</strong> from {mentor.name}? The mentor stops using it in answers.
        </Text>
      )}
    </ConfirmModal>
  );
}
