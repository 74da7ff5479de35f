import {
  Alert,
  Anchor,
  Card,
  Group,
  Pagination,
  Paper,
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
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Kpi } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { PALETTE } from './charts';
import { useDashboardFilters } from './DashboardFilters';
import { FilterBar } from './FilterBar';
import { formatDecimal, formatInteger, formatPercent, formatSeconds } from './format';
import { KpiGrid } from './KpiCards';
import { AsOf, OfflineBanner } from './OverviewTab';
import { useAnalytics } from './useAnalytics';

const PAGE_SIZE = 25;
export const learnerHref = (username: string) => `#/analytics/learning/${encodeURIComponent(username)}`;

/** Learners, registrations, completions, average grade and the most active courses. */
export function LearningTab() {
  const { input } = useDashboardFilters();
  const learning = useAnalytics('analytics.learning', input);
  const data = learning.data;
  const kpis: Kpi[] | undefined = data && [
    data.activeUsers,
    data.registeredUsers,
    { ...data.completions, key: 'sessions' },
    {
      key: 'avgMessages',
      label: 'Completion rate',
      unit: 'ratio',
      value: data.completionRate,
      previous: null,
      change: null,
    },
    { key: 'ratings', label: 'Average grade', unit: 'ratio', value: data.averageGrade, previous: null, change: null },
  ];
  return (
    <Stack gap="md" data-testid="learning">
      <FilterBar mentor={false} />
      <OfflineBanner freshness={[data?.freshness]} />
      <AsOf freshness={[data?.freshness]} />
      <KpiGrid
        kpis={kpis}
        loading={learning.isLoading}
        error={learning.error}
        onRetry={() => void learning.refetch()}
        count={5}
      />
      {data ? (
        <Text size="xs" c="dimmed">
          Completion rate: completions as a share of enrollments ({formatPercent(data.completionRate)}). Average grade
          over graded enrollments, in percent ({formatDecimal(data.averageGrade)}).
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md">
          <Title order={4} fz="md" mb="xs">
            Course completions per day
          </Title>
          {data ? (
            data.completionSeries.some((p) => p.completions) ? (
              <div style={{ height: 240 }}>
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={data.completionSeries}>
                    <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
                    <XAxis dataKey="date" fontSize={11} minTickGap={16} />
                    <YAxis fontSize={11} width={40} />
                    <Tooltip />
                    <Bar dataKey="completions" name="Completions" fill={PALETTE[1]} isAnimationActive={false} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            ) : (
              <Text c="dimmed">No completions in this range.</Text>
            )
          ) : (
            <Skeleton height={240} />
          )}
        </Card>
        <Card withBorder radius="md">
          <Title order={4} fz="md" mb="xs">
            Most active courses
          </Title>
          {data ? (
            <Table fz="sm" striped aria-label="Most active courses">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Course</Table.Th>
                  <Table.Th>Time spent</Table.Th>
                  <Table.Th>Per learner</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.courses.map((c) => (
                  <Table.Tr key={c.courseId}>
                    <Table.Td>
                      {c.name}{' '}
                      <Text span size="xs" c="dimmed">
                        {c.courseId}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatSeconds(c.timeSpentSeconds)}</Table.Td>
                    <Table.Td>{formatSeconds(c.averageTimeSeconds)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : (
            <Skeleton height={240} />
          )}
        </Card>
      </SimpleGrid>
      <LearnersTable />
    </Stack>
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
      {learners.error && !learners.data ? <Alert color="red">{errorMessage(learners.error)}</Alert> : null}
      <Paper>
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
                <Table.Td>
                  <Anchor href={learnerHref(l.username)} size="sm">
                    {l.name}
                  </Anchor>{' '}
                  <Text span size="xs" c="dimmed">
                    {l.username}
                  </Text>
                </Table.Td>
                <Table.Td>{formatInteger(l.enrollments)}</Table.Td>
                <Table.Td>{formatInteger(l.completions)}</Table.Td>
                <Table.Td>{l.lastActive ?? '—'}</Table.Td>
                <Table.Td>{formatSeconds(l.timeSpentSeconds)}</Table.Td>
                <Table.Td>{formatDecimal(l.engagementIndex)}</Table.Td>
                <Table.Td>{formatDecimal(l.performanceIndex)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {learners.data ? `${formatInteger(learners.data.total)} learners` : ''}
        </Text>
        <Pagination total={pages} value={page} onChange={setPage} size="sm" />
      </Group>
    </Card>
  );
}
