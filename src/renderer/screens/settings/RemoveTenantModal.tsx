import { Text } from '@mantine/core';
import type { Profile } from '../../../shared/contract';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { useMutationCall } from '../../queries/useCall';

interface RemoveTenantModalProps {
  profile: Profile | null;
  onClose(): void;
}

/** Asks before removing, naming the tenant and saying that its stored key goes too. */
export function RemoveTenantModal({ profile, onClose }: RemoveTenantModalProps) {
  const remove = useMutationCall('profiles.remove');
  return (
    <ConfirmModal
      target={profile}
      title="Remove tenant?"
      mutation={remove}
      failedTitle="Not removed"
      confirmLabel="Remove tenant"
      onClose={onClose}
      onConfirm={(target, close) =>
        remove.mutate(
          { id: target.id },
          {
            onSuccess: () => {
              notifySuccess('Tenant removed', `${target.name} and its stored key are gone.`);
              close();
            },
          },
        )
      }
    >
      {(target) => (
        <>
          <Text>
            Remove <strong>{target.name}</strong> ({target.baseUrl}, org {target.org}) from Mentor Admin?
          </Text>
          <Text size="sm" c="dimmed">
            {target.secretSource === 'keychain'
              ? 'Its stored key is removed from the OS keychain too; to add this tenant again you will need the key.'
              : 'Any key stored for it in the OS keychain is removed too.'}
          </Text>
        </>
      )}
    </ConfirmModal>
  );
}
