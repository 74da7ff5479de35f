import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Profile } from '../../../shared/contract';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PlusIcon, TenantIcon, WarningIcon } from '../../components/icons';
import { SettingsSection } from '../../components/SettingsSection';
import { useCall } from '../../queries/useCall';
import { useTenantEditor } from '../../tenants/TenantEditorContext';
import { RemoveTenantModal } from './RemoveTenantModal';
import { TenantsTable } from './TenantsTable';

export function TenantsSection() {
  const profiles = useCall('profiles.list', {});
  const info = useCall('app.info', {});
  const editor = useTenantEditor();
  const [removing, setRemoving] = useState<Profile | null>(null);

  const addButton = (
    <Button leftSection={<PlusIcon size={16} />} onClick={editor.openAdd}>
      Add tenant
    </Button>
  );

  return (
    <SettingsSection
      title="Tenants"
      description="The tenants you administer. Keys are kept in the OS keychain (or in memory, for this session only); this screen only shows where a tenant's key comes from."
      action={addButton}
    >
      {info.data && !info.data.keychain.available && (
        <Alert color="orange" title="The OS keychain is unavailable" icon={<WarningIcon />} data-testid="keychain-help">
          <Text size="sm">{info.data.keychain.message}</Text>
        </Alert>
      )}
      {profiles.isPending && <TenantsLoading />}
      {profiles.isError && (
        <LoadErrorAlert
          title="Tenants could not be loaded"
          error={profiles.error}
          onRetry={() => void profiles.refetch()}
        />
      )}
      {profiles.isSuccess && profiles.data.length === 0 && <NoTenants />}
      {profiles.isSuccess && profiles.data.length > 0 && (
        <TenantsTable profiles={profiles.data} onRemove={setRemoving} />
      )}
      <RemoveTenantModal profile={removing} onClose={() => setRemoving(null)} />
    </SettingsSection>
  );
}

function TenantsLoading() {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading tenants">
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} height={36} radius="sm" />
      ))}
    </Stack>
  );
}

function NoTenants() {
  return (
    <Group
      gap="md"
      p="lg"
      wrap="nowrap"
      bd="1px dashed var(--mantine-color-default-border)"
      style={{ borderRadius: 8 }}
    >
      <TenantIcon size={28} />
      <Text size="sm" c="dimmed">
        No tenants yet. Add one with its base URL, tenant key (org), username and API key.
      </Text>
    </Group>
  );
}
