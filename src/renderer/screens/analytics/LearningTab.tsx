import {
  Alert,
  Anchor,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { chartTable, type CourseActivity, type Kpi } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { ChartCard } from './ChartCard';
import { NameCell } from './DataTable';
import { PALETTE } from './charts';
import { useDashboardFilters } from './DashboardFilters';
import { FilterBar } from './FilterBar';
import { formatDay, formatDayShort, formatDecimal, formatInteger, formatPercent, formatSeconds } from './format';
import { KpiGrid } from './KpiCards';
import { AsOf, OfflineBanner } from './OverviewTab';
import {
  isTenantDown,
  LoadError,
  panelState,
  tenantReach,
  TenantDownBanner,
  TenantReach,
  Unavailable,
  useTenantReach,
} from './PanelState';
import { useAnalytics } from './useAnalytics';

const PAGE_SIZE = 25;
export const learnerHref = (username: string) => `#/analytics/learning/${encodeURIComponent(username)}`;

/** Learners, registrations, completions, average grade and the most active courses. */
export function LearningTab() {
  const { input } = useDashboardFilters();
  const learning = useAnalytics('analytics.learning', input);
  const data = learning.data;
  const retry = () => void learning.refetch();
  const kpis: Kpi[] | undefined = data?.kpis;
  const reach = tenantReach([{ error: learning.error, hasData: !!data, offline: data?.freshness.offline }]);
  return (
    <TenantReach.Provider value={{ down: !!reach.down, exportsOff: reach.exportsOff }}>
      <Stack gap="md" data-testid="learning">
        <FilterBar mentor={false} />
        {reach.down ? <TenantDownBanner error={reach.down} /> : <OfflineBanner freshness={[data?.freshness]} />}
        <AsOf freshness={[data?.freshness]} />
        <KpiGrid kpis={kpis} loading={learning.isLoading} error={learning.error} onRetry={retry} count={5} />
        {data ? (
          <Text size="xs" c="dimmed">
            Completion rate: completions as a share of enrollments ({formatPercent(data.completionRate)}). Average grade
            over graded enrollments, in percent ({formatDecimal(data.averageGrade)}).
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <ChartCard
            chart="completions"
            loading={learning.isLoading}
            error={learning.error}
            rows={data && (data.empty ? [] : chartTable('completions', data))}
            onRetry={retry}
            empty="No completions in this range."
            hint="Try a longer range or another department."
            height={240}
          >
            {(size) =>
              data ? (
                <BarChart data={data.completionSeries} {...size}>
                  <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
                  <XAxis dataKey="date" fontSize={11} minTickGap={16} tickFormatter={formatDayShort} />
                  <YAxis fontSize={11} width={40} allowDecimals={false} />
                  <Tooltip labelFormatter={(day) => formatDay(String(day))} />
                  <Bar dataKey="completions" name="Completions" fill={PALETTE[1]} isAnimationActive={false}>
                    {/* Today's bar is not over yet: drawn faint, not read as a drop. */}
                    {data.completionSeries.map((p) => (
                      <Cell key={p.date} fillOpacity={p.partial ? 0.4 : 1} />
                    ))}
                  </Bar>
                </BarChart>
              ) : null
            }
          </ChartCard>
          <MostActiveCourses
            courses={data?.courses}
            loading={learning.isLoading}
            error={learning.error}
            onRetry={retry}
          />
        </SimpleGrid>
        <LearnersTable />
      </Stack>
    </TenantReach.Provider>
  );
}

/** The courses with the most time spent in the range; empty when no course had any. */
function MostActiveCourses({
  courses,
  loading,
  error,
  onRetry,
}: {
  courses: CourseActivity[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry(): void;
}) {
  const title = 'Most active courses';
  const state = panelState(
    loading,
    error,
    courses && (courses.some((c) => c.timeSpentSeconds > 0) ? courses : []),
    useTenantReach().down,
  );
  return (
    <Card withBorder radius="md" data-testid="most-active-courses" data-state={state} aria-busy={state === 'loading'}>
      <Title order={4} fz="md" mb="xs">
        {title}
      </Title>
      {state === 'loading' ? (
        <Skeleton height={240} />
      ) : state === 'unavailable' ? (
        <Unavailable height={160} />
      ) : state === 'error' ? (
        <LoadError title={`${title} could not be loaded`} error={error} onRetry={onRetry} />
      ) : state === 'empty' ? (
        <Stack h={160} align="center" justify="center" gap={4}>
          <Text c="dimmed" size="sm">
            No time spent in any course in this range.
          </Text>
          <Text c="dimmed" size="xs">
            Try a longer range or another department.
          </Text>
        </Stack>
      ) : (
        <Table fz="sm" striped aria-label={title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Course</Table.Th>
              <Table.Th style={{ whiteSpace: 'nowrap' }}>Time spent</Table.Th>
              <Table.Th style={{ whiteSpace: 'nowrap' }}>Per learner</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {courses!.map((c) => (
              <Table.Tr key={c.courseId}>
                <NameCell name={c.name} id={c.courseId} />
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSeconds(c.timeSpentSeconds)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSeconds(c.averageTimeSeconds)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

function LearnersTable() {
  const { input } = useDashboardFilters();
  const [kind, setKind] = useState<'registered' | 'active'>('registered');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 400);
  const [page, setPage] = useState(1);
  const learners = useAnalytics('analytics.learners', {
    kind,
    range: input.range,
    timeZone: input.timeZone,
    ...(input.department ? { department: input.department } : {}),
    ...(debounced && kind === 'registered' ? { search: debounced } : {}),
    page,
    pageSize: PAGE_SIZE,
  });
  const pages = Math.max(1, Math.ceil((learners.data?.total ?? 0) / PAGE_SIZE));
  const reach = useTenantReach();
  return (
    <Card withBorder radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={4} fz="md">
          Learners
        </Title>
        <Group gap="sm">
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(v) => {
              setKind(v as 'registered');
              setPage(1);
            }}
            data={[
              { value: 'registered', label: 'Registered users' },
              { value: 'active', label: 'Active in range' },
            ]}
          />
          <TextInput
            size="xs"
            placeholder="Search"
            aria-label="Search learners"
            value={search}
            disabled={kind !== 'registered'}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
        </Group>
      </Group>
      {learners.error && !learners.data && !(reach.down && isTenantDown(learners.error)) ? (
        <Alert color="red">{errorMessage(learners.error)}</Alert>
      ) : null}
      {learners.error && !learners.data && reach.down && isTenantDown(learners.error) ? (
        <Unavailable height={80} />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table fz="sm" highlightOnHover aria-label="Learners" data-testid="learners">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Learner</Table.Th>
                <Table.Th>Enrollments</Table.Th>
                <Table.Th>Completions</Table.Th>
                <Table.Th>Last active</Table.Th>
                <Table.Th>Time spent</Table.Th>
                <Table.Th>Engagement</Table.Th>
                <Table.Th>Performance</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(learners.data?.rows ?? []).map((l) => (
                <Table.Tr key={l.username}>
                  <NameCell
                    name={
                      <Anchor href={learnerHref(l.username)} size="sm">
                        {l.name}
                      </Anchor>
                    }
                    id={l.username}
                  />
                  <Table.Td>{formatInteger(l.enrollments)}</Table.Td>
                  <Table.Td>{formatInteger(l.completions)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDay(l.lastActive)}</Table.Td>
                  <Table.Td>{formatSeconds(l.timeSpentSeconds)}</Table.Td>
                  <Table.Td>{formatDecimal(l.engagementIndex)}</Table.Td>
                  <Table.Td>{formatDecimal(l.performanceIndex)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {learners.data ? `${formatInteger(learners.data.total)} learners` : ''}
        </Text>
        <Pagination total={pages} value={page} onChange={setPage} size="sm" />
      </Group>
    </Card>
  );
}
