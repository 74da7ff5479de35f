import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Profile } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { WarningIcon } from '../../components/icons';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

interface RemoveTenantModalProps {
  profile: Profile | null;
  onClose(): void;
}

/** Asks before removing, naming the tenant and saying that its stored key goes too. */
export function RemoveTenantModal({ profile, onClose }: RemoveTenantModalProps) {
  const remove = useMutationCall('profiles.remove');

  function close() {
    remove.reset();
    onClose();
  }

  function confirm(target: Profile) {
    remove.mutate(
      { id: target.id },
      {
        onSuccess: () => {
          notifySuccess('Tenant removed', `${target.name} and its stored key are gone.`);
          close();
        },
      },
    );
  }

  return (
    <Modal opened={profile !== null} onClose={close} title="Remove tenant?" centered>
      {profile && (
        <Stack gap="md">
          <Text>
            Remove <strong>{profile.name}</strong> ({profile.baseUrl}, org {profile.org}) from Mentor Admin?
          </Text>
          <Text size="sm" c="dimmed">
            {profile.secretSource === 'keychain'
              ? 'Its stored key is removed from the OS keychain too; to add this tenant again you will need the key.'
              : 'Any key stored for it in the OS keychain is removed too.'}
          </Text>
          {remove.isError && (
            <Alert color="red" title="Not removed" icon={<WarningIcon />}>
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => confirm(profile)}>
              Remove tenant
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
