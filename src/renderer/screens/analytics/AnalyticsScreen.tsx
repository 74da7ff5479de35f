import { Stack, Tabs, Title } from '@mantine/core';
import { navigateTo, useSubRoute } from '../../shell/routes';
import { ConversationsTab } from './ConversationsTab';
import { DashboardFiltersProvider } from './DashboardFilters';
import { ExportsTab } from './ExportsTab';
import { LearnerPage } from './LearnerPage';
import { LearningTab } from './LearningTab';
import { OverviewTab } from './OverviewTab';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'conversations', label: 'Conversations' },
  { id: 'learning', label: 'Learning' },
  { id: 'exports', label: 'Exports' },
] as const;

/** `#/analytics/<tab>`; `#/analytics/learning/<username>` opens one learner. Filters are shared by the tabs. */
export function AnalyticsScreen() {
  const [tab = 'overview', detail] = useSubRoute();
  const current = TABS.some((t) => t.id === tab) ? tab : 'overview';
  return (
    <DashboardFiltersProvider>
      <Stack gap="md">
        <Title order={2}>Analytics</Title>
        <Tabs value={current} onChange={(value) => value && navigateTo(`#/analytics/${value}`)} keepMounted={false}>
          <Tabs.List>
            {TABS.map((t) => (
              <Tabs.Tab key={t.id} value={t.id}>
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="overview" pt="md">
            <OverviewTab />
          </Tabs.Panel>
          <Tabs.Panel value="conversations" pt="md">
            <ConversationsTab />
          </Tabs.Panel>
          <Tabs.Panel value="learning" pt="md">
            {detail ? <LearnerPage key={detail} username={detail} /> : <LearningTab />}
          </Tabs.Panel>
          <Tabs.Panel value="exports" pt="md">
            <ExportsTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </DashboardFiltersProvider>
  );
}
