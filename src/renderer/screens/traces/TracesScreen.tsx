import { Anchor, Group, SegmentedControl, Select, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { TraceModal } from '../../components/traces/TraceView';
import { formatDateTime } from '../../lib/format';
import { useCall } from '../../queries/useCall';

type Rank = 'slowest' | 'costliest' | 'recent';

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const money = (n: number) => `$${n.toFixed(n < 0.01 ? 5 : 3)}`;
const duration = (ms: number | null) =>
  ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/**
 * The slowest and costliest LLM traces over a range, for one mentor or all: the platform's traces list has no
 * latency or cost, so the engine reads the spans of the latest traces in the range and ranks them. A row opens the
 * trace as a timeline.
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
  const traces = useCall(
    'review.traces',
    { rank, from, to, limit: 50, ...(mentor ? { mentor } : {}) },
    { enabled: validRange },
  );
  const rows = traces.data?.traces ?? [];

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
        <TextInput label="From" type="date" w={160} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput
          label="To"
          type="date"
          w={160}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={validRange ? undefined : 'The range ends before it starts'}
        />
      </Group>
      {rank !== 'recent' && (
        <Text size="xs" c="dimmed">
          Ranked among the latest 200 traces of the range (the tenant lists traces without their latency or cost: each
          one&apos;s spans are read to measure it).
        </Text>
      )}
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
          No trace {mentor ? 'of this mentor ' : ''}in this range.
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
                <Table.Th ta="right">Latency</Table.Th>
                <Table.Th ta="right">Tokens</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ trace, latencyMs, cost, tokens }) => (
                <Table.Tr key={trace.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(trace.timestamp)}</Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" size="sm" onClick={() => setTraceId(trace.id)}>
                      {trace.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{(trace.mentorUniqueId && names.get(trace.mentorUniqueId)) ?? '—'}</Table.Td>
                  <Table.Td>{trace.learner ?? '—'}</Table.Td>
                  <Table.Td ta="right">{rank === 'recent' ? '—' : duration(latencyMs)}</Table.Td>
                  <Table.Td ta="right">{rank === 'recent' ? '—' : tokens.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{rank === 'recent' ? '—' : money(cost)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {traces.data && (
        <Text size="xs" c="dimmed">
          {traces.data.scanned.toLocaleString()} traces read from the tenant.
        </Text>
      )}
      <TraceModal traceId={traceId} onClose={() => setTraceId(null)} />
    </Stack>
  );
}
