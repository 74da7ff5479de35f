import { Alert } from '@mantine/core';
import { WarningIcon } from '../components/icons';
import { useCall } from '../queries/useCall';
import { useActiveTenant } from '../tenants/tenantContext';
import type { Declared } from './naming';

/**
 * In a delete's confirmation: a warning when a record being deleted holds the key this app uses for the tenant (an
 * API token), as the engine compared them; the key never comes here. Nothing is said when it could not be checked.
 */
export function AppKeyNote({
  profileId,
  declaration,
  ids,
  nameOf,
}: {
  profileId: string;
  declaration: Declared;
  ids: string[];
  nameOf(id: string): string;
}) {
  const tenant = useActiveTenant();
  const checked = useCall(
    'resources.usedByApp',
    { profileId, kind: declaration.kind, ids },
    { enabled: !!declaration.appKeyField },
  );
  const ours = checked.data?.ids ?? [];
  if (!declaration.appKeyField || ours.length === 0) return null;
  const name = tenant.id === profileId && tenant.profile ? tenant.profile.name : 'this tenant';
  return (
    <Alert color="red" variant="light" icon={<WarningIcon />} title="The app uses this key" data-testid="app-key-note">
      {ids.length > 1 ? `“${nameOf(ours[0]!)}” is` : 'It is'} the key Mentor Admin uses for {name}: revoked, the app
      loses access to {name} until you give it another key (Settings → Tenants).
    </Alert>
  );
}
