import { Text } from '@mantine/core';
import type { Invitation } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

/** Revoking deletes the invitation on the platform: asked before it is done. */
export function RevokeModal({
  profileId,
  invitation,
  onClose,
}: {
  profileId: string | undefined;
  invitation: Invitation | null;
  onClose: () => void;
}) {
  const revoke = useMutationCall('invitations.revoke');
  return (
    <ConfirmModal
      target={invitation}
      title="Revoke invitation"
      mutation={revoke}
      failedTitle="Not revoked"
      cancelLabel="Keep it"
      confirmLabel="Revoke"
      onClose={onClose}
      onConfirm={(target, close) =>
        revoke.mutate(
          { ...(profileId && { profileId }), target: target.target, id: target.id },
          {
            onSuccess: () => {
              notifySuccess('Invitation revoked', target.email ?? `#${target.id}`);
              close();
            },
          },
        )
      }
    >
      {(target) => (
        <Text size="sm">
          Revoke the invitation of <b>{target.email ?? 'this blank invitation'}</b>? The link it was sent stops working.
          This cannot be undone.
        </Text>
      )}
    </ConfirmModal>
  );
}
