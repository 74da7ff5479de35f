import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { MentorDocument } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
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

  function close() {
    remove.reset();
    onClose();
  }

  function confirm(target: MentorDocument) {
    remove.mutate(
      { profileId, mentor: mentor.uniqueId, documentId: target.id },
      {
        onSuccess: () => {
          notifySuccess('Document deleted', `${mentor.name} no longer uses ${target.name}.`);
          close();
        },
      },
    );
  }

  return (
    <Modal opened={document !== null} onClose={close} title="Delete document?" centered>
      {document && (
        <Stack gap="md">
          <Text>
            Delete <strong>{document.name}</strong> from {mentor.name}? The mentor stops using it in answers.
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
            <Button color="red" loading={remove.isPending} onClick={() => confirm(document)}>
              Delete document
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
