import { Alert, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { chartTable, type Freshness } from '../../../shared/contract';
import { CloudOffIcon } from '../../components/icons';
import { SavedCopyNote } from '../../components/FreshnessBar';
import { useTenantReach as useAppTenantReach } from '../../tenants/useTenantReach';
import { ActivityChart, Donut, HorizontalBars, sentimentColors } from './charts';
import { ChartCard } from './ChartCard';
import { useDashboardFilters } from './DashboardFilters';
import { FilterBar } from './FilterBar';
import { asLabel, formatWhen } from './format';
import { KpiGrid } from './KpiCards';
import { tenantReach, TenantDownBanner, TenantReach } from './PanelState';
import { useCachedFirst, useOverview } from './useOverview';

/** The tenant could not be reached: what is on screen is the last saved answer. */
export function OfflineBanner({ freshness }: { freshness: (Freshness | undefined)[] }) {
  const bannerSaysWhy = useAppTenantReach().unreachable;
  const offline = freshness.find((f) => f?.offline);
  if (!offline) return null;
  const oldest = freshness
    .map((f) => f?.asOf)
    .filter(Boolean)
    .sort()[0];
  // The app's banner says the tenant cannot be reached: the figures only say how old they are.
  if (bannerSaysWhy) return <SavedCopyNote asOf={oldest ?? offline.asOf} data-testid="offline-banner" />;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<CloudOffIcon />}
      title="Offline: showing the last saved figures"
      role="status"
      data-testid="offline-banner"
    >
      {offline.offline} These figures are as of {formatWhen(oldest ?? offline.asOf)}; they refresh once the tenant can
      be reached.
    </Alert>
  );
}

export function AsOf({ freshness }: { freshness: (Freshness | undefined)[] }) {
  const times = freshness.map((f) => f?.asOf).filter(Boolean) as string[];
  if (!times.length) return null;
  const oldest = times.sort()[0];
  return (
    <Text size="xs" c="dimmed" data-testid="as-of">
      As of {formatWhen(oldest)}
    </Text>
  );
}

/** How long the Overview waits for the engine's cached answers before it draws skeletons instead. */
const CACHED_FIRST_MS = 250;

export function OverviewTab() {
  const { input } = useDashboardFilters();
  // A few milliseconds with an empty panel, then the figures in one go (or skeletons, if the engine is slow).
  if (!useCachedFirst(input, CACHED_FIRST_MS)) return <div data-testid="overview" data-state="loading" />;
  return <Overview />;
}

function Overview() {
  const { input } = useDashboardFilters();
  const { kpis, activity, topMentors: mentors, topics, sentiment, costs } = useOverview(input);
  const all = [kpis, activity, mentors, topics, sentiment, costs];
  const ready = all.every((q) => q.data && !q.isPlaceholderData);
  const reach = tenantReach(
    all.map((q) => ({ error: q.error, hasData: !!q.data, offline: q.data?.freshness.offline })),
  );

  return (
    <TenantReach.Provider value={{ down: !!reach.down, exportsOff: reach.exportsOff }}>
      <Stack gap="md" data-testid="overview" data-state={ready ? 'ready' : reach.down ? 'unavailable' : 'loading'}>
        <FilterBar />
        {reach.down ? (
          <TenantDownBanner error={reach.down} />
        ) : (
          <OfflineBanner freshness={all.map((q) => q.data?.freshness)} />
        )}
        <Group justify="space-between">
          <AsOf freshness={all.map((q) => q.data?.freshness)} />
        </Group>
        <KpiGrid kpis={kpis.data?.kpis} loading={kpis.isLoading} error={kpis.error} onRetry={kpis.refetch} />
        {kpis.data?.notes.length ? (
          <Text size="xs" c="dimmed">
            {kpis.data.notes.join(' ')}
          </Text>
        ) : null}
        <ChartCard
          chart="activity"
          loading={activity.isLoading}
          error={activity.error}
          rows={activity.data && (activity.data.empty ? [] : chartTable('activity', activity.data))}
          notes={activity.data?.notes}
          onRetry={activity.refetch}
          height={280}
        >
          {(size) => (activity.data ? <ActivityChart points={activity.data.points} {...size} /> : null)}
        </ChartCard>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ChartCard
            chart="top-mentors"
            loading={mentors.isLoading}
            error={mentors.error}
            rows={mentors.data && (mentors.data.empty ? [] : chartTable('top-mentors', { mentors: mentors.data.rows }))}
            notes={mentors.data?.notes}
            onRetry={mentors.refetch}
          >
            {(size) =>
              mentors.data ? (
                <HorizontalBars rows={mentors.data.rows} label="mentor" value="sessions" name="Sessions" {...size} />
              ) : null
            }
          </ChartCard>
          <ChartCard
            chart="topics"
            loading={topics.isLoading}
            error={topics.error}
            rows={topics.data && (topics.data.empty ? [] : chartTable('topics', { topics: topics.data.rows }))}
            notes={topics.data?.notes}
            onRetry={topics.refetch}
          >
            {(size) =>
              topics.data ? (
                <HorizontalBars
                  rows={topics.data.rows}
                  label="topic"
                  value="conversations"
                  name="Conversations"
                  {...size}
                />
              ) : null
            }
          </ChartCard>
          <ChartCard
            chart="sentiment"
            loading={sentiment.isLoading}
            error={sentiment.error}
            rows={
              sentiment.data &&
              (sentiment.data.empty ? [] : chartTable('sentiment', { sentiment: sentiment.data.rows }))
            }
            notes={sentiment.data?.notes}
            onRetry={sentiment.refetch}
          >
            {(size) =>
              sentiment.data ? (
                <Donut
                  rows={sentiment.data.rows}
                  label="sentiment"
                  value="conversations"
                  colors={sentimentColors}
                  legendLabel={asLabel}
                  {...size}
                />
              ) : null
            }
          </ChartCard>
          <ChartCard
            chart="costs-by-model"
            loading={costs.isLoading}
            error={costs.error}
            rows={costs.data && (costs.data.empty ? [] : chartTable('costs-by-model', costs.data))}
            notes={costs.data?.notes}
            onRetry={costs.refetch}
          >
            {(size) =>
              costs.data ? <Donut rows={costs.data.byModel} label="model" value="cost" money {...size} /> : null
            }
          </ChartCard>
        </SimpleGrid>
        <ChartCard
          chart="costs-by-mentor"
          loading={costs.isLoading}
          error={costs.error}
          rows={costs.data && (costs.data.empty ? [] : chartTable('costs-by-mentor', costs.data))}
          onRetry={costs.refetch}
          height={Math.max(200, Math.min(420, (costs.data?.byMentor.length ?? 8) * 28))}
        >
          {(size) =>
            costs.data ? (
              <HorizontalBars rows={costs.data.byMentor} label="mentor" value="cost" name="Cost" money {...size} />
            ) : null
          }
        </ChartCard>
      </Stack>
    </TenantReach.Provider>
  );
}
