import { Stack, Text, Title } from '@mantine/core';
import { TicketSlaSection } from '../../components/TicketSlaTargets';
import { AppearanceSection } from './AppearanceSection';
import { JobsSection } from './JobsSection';
import { NotificationsSection } from './NotificationsSection';
import { TenantsSection } from './TenantsSection';

export function SettingsScreen() {
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1} size="h2">
          Settings
        </Title>
        <Text c="dimmed" size="sm">
          Tenant connections, how the app looks, what it tells you on the desktop and how long jobs wait.
        </Text>
      </div>
      <TenantsSection />
      <AppearanceSection />
      <NotificationsSection />
      <JobsSection />
      <TicketSlaSection />
    </Stack>
  );
}
