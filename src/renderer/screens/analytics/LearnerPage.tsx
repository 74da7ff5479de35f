import { Alert, Anchor, Card, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { errorMessage } from '../../bridge/errors';
import { ArrowLeftIcon } from '../../train/icons';
import { PALETTE } from './charts';
import { formatDecimal, formatInteger, formatSeconds } from './format';
import { AsOf, OfflineBanner } from './OverviewTab';
import { useAnalytics } from './useAnalytics';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** One learner: information, grades per course and time over time, as far as the tenant's API offers them. */
export function LearnerPage({ username }: { username: string }) {
  const learner = useAnalytics('analytics.learner', { username });
  const data = learner.data;
  return (
    <Stack gap="md" data-testid="learner-page">
      <Anchor href="#/analytics/learning" size="sm">
        <Group gap={4}>
          <ArrowLeftIcon size={14} /> Learning
        </Group>
      </Anchor>
      <Title order={3}>{data?.info?.name ?? username}</Title>
      <OfflineBanner freshness={[data?.freshness]} />
      <AsOf freshness={[data?.freshness]} />
      {learner.error && !data ? <Alert color="red">{errorMessage(learner.error)}</Alert> : null}
      {!data ? (
        <Skeleton height={160} />
      ) : (
        <>
          {!data.info ? <Alert color="yellow">No learner named {username} on this tenant.</Alert> : null}
          <Card withBorder radius="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Fact label="Username" value={username} />
              <Fact label="Enrollments" value={formatInteger(data.info?.enrollments)} />
              <Fact label="Completions" value={formatInteger(data.info?.completions)} />
              <Fact
                label="Average grade"
                value={data.averageGrade === null ? '—' : `${formatDecimal(data.averageGrade)} %`}
              />
              <Fact label="Last active" value={data.info?.lastActive ?? '—'} />
              <Fact label="Time spent" value={formatSeconds(data.info?.timeSpentSeconds)} />
              <Fact label="Engagement index" value={formatDecimal(data.info?.engagementIndex)} />
              <Fact label="Performance index" value={formatDecimal(data.info?.performanceIndex)} />
            </SimpleGrid>
          </Card>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder radius="md">
              <Title order={4} fz="md" mb="xs">
                Grades per course
              </Title>
              {data.grades ? (
                <Table fz="sm" aria-label="Grades per course">
                  <Table.Tbody>
                    {data.grades.map((g) => (
                      <Table.Tr key={g.courseId || g.course}>
                        <Table.Td>{g.course}</Table.Td>
                        <Table.Td>{formatDecimal(g.grade)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : (
                <Text c="dimmed" size="sm">
                  Not available from this tenant.
                </Text>
              )}
            </Card>
            <Card withBorder radius="md">
              <Title order={4} fz="md" mb="xs">
                Time spent over time
              </Title>
              {data.time?.length ? (
                <div style={{ height: 220 }}>
                  <ResponsiveContainer width="100%" height="100%">
                    <LineChart data={data.time}>
                      <XAxis dataKey="date" fontSize={11} />
                      <YAxis fontSize={11} width={48} tickFormatter={(v: number) => formatSeconds(v)} />
                      <Tooltip formatter={(v) => formatSeconds(Number(v))} />
                      <Line dataKey="seconds" stroke={PALETTE[0]} dot={false} isAnimationActive={false} />
                    </LineChart>
                  </ResponsiveContainer>
                </div>
              ) : (
                <Text c="dimmed" size="sm">
                  {data.time ? 'No time recorded.' : 'Not available from this tenant.'}
                </Text>
              )}
            </Card>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
