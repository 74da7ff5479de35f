import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Invitation } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
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
  const close = () => {
    revoke.reset();
    onClose();
  };
  return (
    <Modal opened={!!invitation} onClose={close} title="Revoke invitation" centered>
      {invitation && (
        <Stack gap="md">
          <Text size="sm">
            Revoke the invitation of <b>{invitation.email ?? 'this blank invitation'}</b>? The link it was sent stops
            working. This cannot be undone.
          </Text>
          {revoke.isError && <Alert color="red">{errorMessage(revoke.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() =>
                revoke.mutate(
                  { ...(profileId && { profileId }), target: invitation.target, id: invitation.id },
                  {
                    onSuccess: () => {
                      notifySuccess('Invitation revoked', invitation.email ?? `#${invitation.id}`);
                      close();
                    },
                  },
                )
              }
            >
              Revoke
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
