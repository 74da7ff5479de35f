import { Stack, Tabs, Text, Title } from '@mantine/core';
import { navigateTo, useSubRoute } from '../../shell/routes';
import { useActiveTenant } from '../../tenants/tenantContext';
import { ImportWizard } from './import/ImportWizard';
import { InvitationsList } from './InvitationsList';

/** `#/invitations` lists invitations; `#/invitations/import` imports people from a CSV file. */
export function InvitationsScreen() {
  const [tab, batchJobId] = useSubRoute();
  const { profile: tenant } = useActiveTenant();
  const current = tab === 'import' ? 'import' : 'list';
  return (
    <Stack gap="lg" maw={1400}>
      <div>
        <Title order={1} size="h2">
          Invitations
        </Title>
        <Text c="dimmed" size="sm">
          Who is invited to the platform, its courses and programs; invite one person or a whole cohort from a CSV file.
        </Text>
      </div>
      <Tabs
        value={current}
        onChange={(value) => navigateTo(value === 'import' ? '#/invitations/import' : '#/invitations')}
      >
        <Tabs.List>
          <Tabs.Tab value="list">Invitations</Tabs.Tab>
          <Tabs.Tab value="import">Import from CSV</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="list" pt="md">
          {current === 'list' && (
            <InvitationsList
              key={`${tenant?.id}:${batchJobId ?? ''}`}
              profileId={tenant?.id}
              {...(tab === 'batch' && batchJobId && { batchJobId })}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="import" pt="md">
          {current === 'import' && <ImportWizard profileId={tenant?.id} />}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
