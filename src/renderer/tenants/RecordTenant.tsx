import { Text } from '@mantine/core';
import { useCall } from '../queries/useCall';
import { useActiveTenant } from './tenantContext';

/**
 * Which tenant a record opened by its own address belongs to (a job from a notification, say): said plainly when it
 * is not the tenant the window shows, so it is never read as that tenant's.
 */
export function RecordTenant({ profileId }: { profileId: string | null }) {
  const active = useActiveTenant();
  const profiles = useCall('profiles.list', {});
  if (profileId === active.id) return null;
  const name = profiles.data?.find((profile) => profile.id === profileId)?.name;
  return (
    <Text size="xs" c="orange" data-testid="record-tenant">
      {profileId === null || !name ? 'Of a tenant that was removed' : `Of ${name}, not the active tenant`}
    </Text>
  );
}
