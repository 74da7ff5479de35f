/** Badges issued per day over the last 30 days (assertions-over-time), drawn as the Learning tab draws completions. */
import { Card, Group, Skeleton, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { formatCount, formatDay, formatDayShort } from '../../lib/format';
import { useCall } from '../../queries/useCall';
import { evenTicks } from './evenTicks';

const DAY_MS = 86_400_000;
/** The chart's margins and its Y axis, around the bars. */
const MARGIN = { top: 4, right: 24, bottom: 0, left: 0 };
const Y_AXIS_WIDTH = 40;
/** The analytics charts' violet. */
const BAR_COLOR = '#7950f2';
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `failureSaid`: the screen says the tenant's failure elsewhere (its badge list, read from the same tenant, has not
 * loaded), so a failed chart only says it is not loaded, rather than a second full alert with the same words.
 */
export function IssuanceChart({ width, failureSaid = false }: { width: number; failureSaid?: boolean }) {
  // The range is fixed when the screen opens (a render must not read the clock).
  const [today] = useState(() => Date.now());
  const range = { startDate: day(today - 29 * DAY_MS), endDate: day(today) };
  const overTime = useCall('badges.overTime', range);
  const chartWidth = Math.max(width, 240);
  const series = overTime.data?.series ?? [];
  const ticks = evenTicks(
    series.map((point) => point.date),
    chartWidth - MARGIN.left - MARGIN.right - Y_AXIS_WIDTH,
  );
  return (
    <Card withBorder padding="sm" data-testid="badge-issuance">
      <Group justify="space-between" mb={4}>
        <Title order={4}>Badges issued, last 30 days</Title>
        {overTime.data && (
          <Text size="sm" c="dimmed" data-testid="badge-issuance-total">
            {formatCount(overTime.data.total)} issued
          </Text>
        )}
      </Group>
      {overTime.isLoading ? (
        <Skeleton h={160} />
      ) : overTime.error && failureSaid ? (
        <Text size="sm" c="dimmed" data-testid="badge-issuance-not-loaded">
          Issuance could not be loaded.
        </Text>
      ) : overTime.error ? (
        <LoadErrorAlert
          title="Issuance could not be loaded"
          error={overTime.error}
          onRetry={() => void overTime.refetch()}
        />
      ) : overTime.data && overTime.data.total === 0 ? (
        <Text size="sm" c="dimmed" h={160}>
          No badges were issued in the last 30 days.
        </Text>
      ) : (
        <BarChart data={series} width={chartWidth} height={160} margin={MARGIN}>
          <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
          <XAxis dataKey="date" fontSize={11} ticks={ticks} interval={0} tickFormatter={formatDayShort} />
          <YAxis fontSize={11} width={Y_AXIS_WIDTH} allowDecimals={false} />
          <Tooltip labelFormatter={(label) => formatDay(String(label))} />
          <Bar dataKey="issued" name="Issued" fill={BAR_COLOR} isAnimationActive={false} />
        </BarChart>
      )}
    </Card>
  );
}
