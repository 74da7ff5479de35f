import { Anchor, Group, SegmentedControl, Select, Skeleton, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { DayInput } from '../../components/DayInput';
import { FreshnessNote, OfflineBanner } from '../../components/FreshnessBar';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { notifyError } from '../../components/notify';
import { TraceModal } from '../../components/traces/TraceView';
import { formatLatency, LATENCY_NOTE } from '../../components/traces/units';
import { formatCount, formatDateTime, formatModelCost } from '../../lib/format';
import { useCall, useCallKey } from '../../queries/useCall';

const RANKS = ['slowest', 'costliest', 'recent'] as const;
type Rank = (typeof RANKS)[number];

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
/**
 * The slowest and costliest LLM traces over a range, for one mentor or all: the platform's traces list has no
 * latency or cost, so the engine reads the spans of the latest traces in the range once, keeps that reading, and
 * ranks it (switching the ranking asks the tenant nothing). A row opens the trace as a timeline.
 */
export function TracesScreen() {
  const [rank, setRank] = useState<Rank>('slowest');
  const [mentor, setMentor] = useState<string | null>(null);
  const [from, setFrom] = useState(day(-30));
  const [to, setTo] = useState(day(0));
  const [traceId, setTraceId] = useState<string | null>(null);
  const mentors = useCall('mentors.list', {});
  const names = useMemo(() => new Map((mentors.data?.mentors ?? []).map((m) => [m.uniqueId, m.name])), [mentors.data]);
  const validRange = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const input = { rank, from, to, limit: 50, ...(mentor ? { mentor } : {}) };
  const traces = useCall('review.traces', input, { enabled: validRange });
  const rows = traces.data?.traces ?? [];
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const keyOf = useCallKey();
  const [refreshing, setRefreshing] = useState(false);

  /** Reads the range and its spans again; every ranking of it follows (from the new reading, without a request). */
  async function refresh() {
    setRefreshing(true);
    try {
      const fresh = await bridge.call('review.traces', { ...input, refresh: true });
      queryClient.setQueryData(keyOf('review.traces', input), fresh);
      // The other rankings of the range are of the old reading: ranked again from the new one when shown.
      for (const other of RANKS.filter((r) => r !== rank))
        await queryClient.invalidateQueries({ queryKey: keyOf('review.traces', { ...input, rank: other }) });
    } catch (error) {
      notifyError('Traces not read again', error);
    } finally {
      setRefreshing(false);
    }
  }
  const scanned = traces.data ? formatCount(traces.data.scanned) : '';

  return (
    <Stack gap="sm" data-testid="traces-screen">
      <Title order={2}>Traces</Title>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label="Rank"
          value={rank}
          onChange={(v) => setRank(v as Rank)}
          data={[
            { value: 'slowest', label: 'Slowest' },
            { value: 'costliest', label: 'Costliest' },
            { value: 'recent', label: 'Most recent' },
          ]}
        />
        <Select
          label="Mentor"
          placeholder="All mentors"
          clearable
          searchable
          w={220}
          value={mentor}
          onChange={setMentor}
          data={(mentors.data?.mentors ?? []).map((m) => ({ value: m.uniqueId, label: m.name }))}
        />
        <DayInput label="From" w={170} value={from} onChange={setFrom} maxDay={to} />
        <DayInput label="To" w={170} value={to} onChange={setTo} minDay={from} />
      </Group>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="xs" c="dimmed">
          {rank === 'recent'
            ? 'The latest traces of the range.'
            : 'Ranked among the latest 200 traces of the range, each measured from its spans (the tenant lists ' +
              'traces without their latency or cost). Processing is the time in spans, not the conversation’s length.'}
        </Text>
        {validRange && (
          <div style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            <FreshnessNote
              freshness={traces.data?.freshness ?? undefined}
              refreshing={refreshing}
              onRefresh={() => void refresh()}
              what="traces"
            />
          </div>
        )}
      </Group>
      <OfflineBanner freshness={traces.data?.freshness ?? undefined} />
      {traces.error ? (
        <LoadErrorAlert title="Traces could not be loaded" error={traces.error} onRetry={() => void traces.refetch()} />
      ) : traces.isPending && validRange ? (
        <Stack gap={6} aria-busy>
          <Skeleton height={18} />
          <Skeleton height={18} />
          <Skeleton height={18} width="70%" />
        </Stack>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="traces-empty">
          No trace {mentor ? 'of this mentor ' : ''}in this range
          {traces.data ? ` (${scanned} read from the tenant)` : ''}.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover data-testid="traces-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Trace</Table.Th>
                <Table.Th>Mentor</Table.Th>
                <Table.Th>Learner</Table.Th>
                <Table.Th ta="right">
                  <Tooltip label={LATENCY_NOTE} withArrow multiline w={260}>
                    <span>Processing</span>
                  </Tooltip>
                </Table.Th>
                <Table.Th ta="right">Tokens</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ trace, latencyMs, cost, tokens, measured }) => (
                <Table.Tr key={trace.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(trace.timestamp)}</Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => setTraceId(trace.id)}>
                      {trace.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{(trace.mentorUniqueId && names.get(trace.mentorUniqueId)) ?? '—'}</Table.Td>
                  <Table.Td>{trace.learner ?? '—'}</Table.Td>
                  <Table.Td ta="right">{measured ? formatLatency(latencyMs) : '—'}</Table.Td>
                  <Table.Td ta="right">{measured ? formatCount(tokens) : '—'}</Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {measured ? formatModelCost(cost) : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {traces.data && rows.length > 0 && (
        <Text size="xs" c="dimmed">
          {scanned} traces read from the tenant.
        </Text>
      )}
      <TraceModal traceId={traceId} onClose={() => setTraceId(null)} />
    </Stack>
  );
}
