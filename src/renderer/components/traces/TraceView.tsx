import { Alert, Badge, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useRef } from 'react';
import type { TraceDetail, TraceSpan } from '../../../shared/contract';
import { errorMessage } from '../../bridge/errors';
import { useCall } from '../../queries/useCall';
import { formatCount, formatDateTime, formatModelCost } from '../../lib/format';
import { VirtualList, type VirtualListHandle } from '../VirtualList';
import { formatLatency, formatTraceDuration, LATENCY_NOTE } from './units';

const ROW = 30;

function SpanRow({ span, origin, width }: { span: TraceSpan; origin: number; width: number }) {
  const start = Date.parse(span.startTime) - origin;
  const left = width > 0 ? Math.min(100, (start / width) * 100) : 0;
  const bar = width > 0 && span.latencyMs !== null ? Math.max(0.4, (span.latencyMs / width) * 100) : 0.4;
  const tool = span.type === 'TOOL' || span.name.startsWith('tool:');
  const color = span.level === 'ERROR' ? 'red' : span.type === 'GENERATION' ? 'blue' : tool ? 'grape' : 'gray';
  return (
    <Group
      gap={8}
      wrap="nowrap"
      px={6}
      h={ROW}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Text
        size="xs"
        w={170}
        truncate="end"
        title={span.status ?? span.name}
        c={span.level === 'ERROR' ? 'red' : undefined}
      >
        {span.name}
      </Text>
      <Text size="xs" c="dimmed" w={120} truncate="end">
        {span.model ?? span.type}
      </Text>
      <div style={{ flex: 1, position: 'relative', height: 10, minWidth: 80 }} aria-hidden>
        <div
          style={{
            position: 'absolute',
            left: `${left}%`,
            width: `${Math.min(bar, 100 - left)}%`,
            minWidth: 2,
            height: 10,
            borderRadius: 2,
            background: `var(--mantine-color-${color}-filled)`,
          }}
        />
      </div>
      <Text size="xs" w={64} ta="right">
        {formatLatency(span.latencyMs)}
      </Text>
      <Text size="xs" w={70} ta="right" c="dimmed">
        {span.totalTokens === null ? '' : `${formatCount(span.totalTokens)} tok`}
      </Text>
      <Text size="xs" w={72} ta="right" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {span.cost === null ? '' : formatModelCost(span.cost)}
      </Text>
    </Group>
  );
}

/** A trace as a timeline: one row per span, bars on the trace's own clock; only the rows in view are drawn. */
export function TraceTimeline({ detail }: { detail: TraceDetail }) {
  const list = useRef<VirtualListHandle>(null);
  const starts = detail.spans.map((s) => Date.parse(s.startTime)).filter(Number.isFinite);
  const origin = starts.length ? Math.min(...starts) : 0;
  const width = detail.totals.durationMs ?? 0;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge variant="light">{detail.spans.length.toLocaleString()} spans</Badge>
        <Tooltip label={LATENCY_NOTE} withArrow multiline w={260}>
          <Badge variant="light" color="gray" data-testid="trace-processing">
            {formatLatency(detail.totals.latencyMs)} processing
          </Badge>
        </Tooltip>
        <Badge variant="light" color="gray" data-testid="trace-duration" title="From the first span to the last">
          {formatTraceDuration(detail.totals.durationMs)} conversation
        </Badge>
        <Badge variant="light" color="gray">
          {formatCount(detail.totals.tokens)} tokens
        </Badge>
        <Badge variant="light" color="gray" data-testid="trace-cost">
          {formatModelCost(detail.totals.cost)}
        </Badge>
        <Badge variant="light" color="grape">
          {formatCount(detail.totals.tools)} tool calls
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {[detail.trace.name, formatDateTime(detail.trace.timestamp), detail.trace.learner].filter(Boolean).join(' · ')}
      </Text>
      <div style={{ height: 'min(60vh, 520px)' }} data-testid="trace-timeline">
        <VirtualList
          ref={list}
          count={detail.spans.length}
          rowHeight={ROW}
          label="Spans of the trace"
          testId="trace-spans"
          renderRow={(i) => <SpanRow span={detail.spans[i]!} origin={origin} width={width} />}
          onKeyDown={(event) => {
            const el = list.current?.element();
            if (!el) return;
            if (event.key === 'j' || event.key === 'ArrowDown') el.scrollTop += ROW;
            if (event.key === 'k' || event.key === 'ArrowUp') el.scrollTop -= ROW;
          }}
        />
      </div>
    </Stack>
  );
}

export function TraceModal({ traceId, onClose }: { traceId: string | null; onClose(): void }) {
  return (
    <Modal opened={!!traceId} onClose={onClose} title="Trace" size="min(1100px, 95vw)">
      {traceId && <TraceBody id={traceId} />}
    </Modal>
  );
}

function TraceBody({ id }: { id: string }) {
  const trace = useCall('review.trace', { id });
  if (trace.isPending) return <Loader size="sm" aria-label="Loading the trace" />;
  if (trace.error) return <Alert color="red">{errorMessage(trace.error)}</Alert>;
  return <TraceTimeline detail={trace.data} />;
}
