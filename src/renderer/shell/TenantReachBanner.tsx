import { Alert, Button, Group, Text } from '@mantine/core';
import { CloudOffIcon } from '../components/icons';
import { EditTenantButton } from '../components/LoadErrorAlert';
import { useActiveTenant } from '../tenants/tenantContext';
import { useTenantReach } from '../tenants/useTenantReach';

/**
 * One notice for the tenant the window shows when the engine knows it cannot be reached (from any call, not only the
 * screen's own): every screen of that tenant shows its saved copy and refuses changes, and says so once here — the
 * screens' own notices only say how old their copy is, or that a part is not available offline.
 */
export function TenantReachBanner() {
  const tenant = useActiveTenant();
  const reach = useTenantReach(tenant.id);
  if (!tenant.id || !reach.unreachable) return null;
  const name = tenant.profile?.name ?? 'The tenant';
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<CloudOffIcon />}
      role="status"
      mb="md"
      data-testid="tenant-reach-banner"
      title={`${name} cannot be reached`}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">Showing saved copies; changes cannot be saved until it answers.</Text>
        {/* Not "Try again": that is each screen's own retry of what it failed to read; this asks the tenant. */}
        <Group gap="xs">
          <Button size="xs" variant="default" loading={reach.retrying} onClick={reach.retry}>
            Check again
          </Button>
          {/* Never reached at all is often a wrong address: its editor's Test connection says what fails. */}
          <EditTenantButton />
        </Group>
      </Group>
    </Alert>
  );
}
