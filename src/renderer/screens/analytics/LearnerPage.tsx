import { Alert, Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { chartTable } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ArrowLeftIcon } from '../../components/icons';
import { ChartCard } from './ChartCard';
import { NameCell } from './DataTable';
import { PALETTE } from './charts';
import { useDashboardFilters } from './DashboardFilters';
import { FilterBar } from './FilterBar';
import {
  formatDay,
  formatDayRange,
  formatDayShort,
  formatDecimal,
  formatInteger,
  formatPercent,
  formatSeconds,
  formatWhen,
} from './format';
import { AsOf, OfflineBanner } from './OverviewTab';
import { isTenantDown, TenantDownBanner, TenantReach, tenantReach } from './PanelState';
import { useAnalytics } from './useAnalytics';

/** Axis ticks: hours or minutes, short enough for the axis. */
const axisTime = (seconds: number) =>
  seconds >= 3600 ? `${Math.round((seconds / 3600) * 10) / 10} h` : `${Math.round(seconds / 60)} min`;

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0} miw={0} data-testid={`fact-${label.toLowerCase().replace(/\W+/g, '-')}`}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {/* Whole, never cut: a long address wraps within its column. */}
      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * One learner: who they are, their grades and time per course, and their time per day over the range chosen in the
 * filter bar, as far as the tenant's API offers them (what it does not is said, not left blank).
 */
export function LearnerPage({ username }: { username: string }) {
  const { input } = useDashboardFilters();
  const learner = useAnalytics('analytics.learner', { username, range: input.range, timeZone: input.timeZone });
  const data = learner.data;
  const timeZone = data?.range.timeZone ?? input.timeZone;
  const reach = tenantReach([{ error: learner.error, hasData: !!data, offline: data?.freshness.offline }]);
  return (
    <TenantReach.Provider value={{ down: !!reach.down, exportsOff: reach.exportsOff }}>
      <Stack gap="md" data-testid="learner-page" data-state={data ? 'ready' : learner.error ? 'error' : 'loading'}>
        <Anchor href="#/analytics/learning" size="sm">
          <Group gap={4}>
            <ArrowLeftIcon size={14} /> Learning
          </Group>
        </Anchor>
        <Title order={3}>{data?.info?.name ?? username}</Title>
        <FilterBar mentor={false} department={false} />
        {learner.error && !data && isTenantDown(learner.error) ? (
          <TenantDownBanner error={learner.error} />
        ) : (
          <OfflineBanner freshness={[data?.freshness]} />
        )}
        <AsOf freshness={[data?.freshness]} />
        {learner.error && !data && !isTenantDown(learner.error) ? (
          <Alert color="red">{errorMessage(learner.error)}</Alert>
        ) : null}
        {!data ? (
          <Skeleton height={160} />
        ) : (
          <>
            {!data.info && !data.email ? (
              <Alert color="yellow">No learner named {username} on this tenant.</Alert>
            ) : null}
            {data.notes.length ? (
              <Text size="xs" c="dimmed" data-testid="learner-notes">
                {data.notes.join(' ')}
              </Text>
            ) : null}
            <Card withBorder radius="md">
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Fact label="Username" value={data.info?.username ?? username} />
                <Fact label="Email" value={data.email ?? '—'} />
                <Fact label="Registered" value={formatWhen(data.joined, timeZone)} />
                <Fact
                  label="Last active"
                  value={
                    data.info?.lastActive ? formatDay(data.info.lastActive) : formatWhen(data.lastActivity, timeZone)
                  }
                />
                <Fact label="Enrollments" value={formatInteger(data.info?.enrollments)} />
                <Fact label="Completions" value={formatInteger(data.info?.completions)} />
                <Fact label="Average grade" value={formatPercent(data.averageGrade)} />
                <Fact label="Time spent" value={formatSeconds(data.totalTimeSeconds ?? data.info?.timeSpentSeconds)} />
                <Fact label="Engagement index" value={formatDecimal(data.info?.engagementIndex)} />
                <Fact label="Performance index" value={formatDecimal(data.info?.performanceIndex)} />
              </SimpleGrid>
            </Card>
            <Card withBorder radius="md">
              <Title order={4} fz="md" mb="xs">
                Grades and time per course
              </Title>
              {data.grades?.length ? (
                <Table fz="sm" striped aria-label="Grades and time per course">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Course</Table.Th>
                      <Table.Th>Grade</Table.Th>
                      <Table.Th>Class average</Table.Th>
                      <Table.Th>Time spent</Table.Th>
                      <Table.Th>Days active</Table.Th>
                      <Table.Th>Last access</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.grades.map((g) => (
                      <Table.Tr key={g.courseId || g.course}>
                        <NameCell name={g.course} id={g.courseId} />
                        <Table.Td>{formatPercent(g.grade)}</Table.Td>
                        <Table.Td>{formatPercent(g.classAverage)}</Table.Td>
                        <Table.Td>{formatSeconds(g.timeSpentSeconds)}</Table.Td>
                        <Table.Td>{formatInteger(g.daysAccessed)}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(g.lastAccess)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text c="dimmed" size="sm">
                  {data.grades ? 'No courses.' : 'Not available from this tenant.'}
                </Text>
              )}
            </Card>
            <ChartCard
              chart="learner-time"
              learner={username}
              loading={false}
              error={null}
              rows={data.empty ? [] : chartTable('learner-time', data)}
              notes={
                data.timeTotalSeconds !== null
                  ? [`${formatSeconds(data.timeTotalSeconds)} in ${formatDayRange(data.range.from, data.range.to)}`]
                  : undefined
              }
              onRetry={() => void learner.refetch()}
              empty={data.time ? 'No time recorded in this range.' : 'Not available from this tenant.'}
              hint={data.time ? 'Try a longer range.' : null}
              height={240}
            >
              {(size) => (
                <BarChart data={data.time ?? []} {...size}>
                  <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
                  <XAxis dataKey="date" fontSize={11} minTickGap={16} tickFormatter={formatDayShort} />
                  <YAxis fontSize={11} width={56} tickFormatter={axisTime} />
                  <Tooltip
                    formatter={(v) => formatSeconds(Number(v))}
                    labelFormatter={(day) => formatDay(String(day))}
                  />
                  <Bar dataKey="seconds" name="Time spent" fill={PALETTE[0]} isAnimationActive={false} />
                </BarChart>
              )}
            </ChartCard>
          </>
        )}
      </Stack>
    </TenantReach.Provider>
  );
}
