/** Langfuse traces as the review area shows them: a summary, and a timeline of spans with their totals. */
import type { TraceDetail, TraceSpan, TraceSummary } from '../../../shared/contract';
import type { ApiObservation, ApiTrace } from './api';

/** Usage details arrive as a JSON string (the spec types them `string`) or an object; tolerate both and junk. */
function usageOf(raw: unknown): { input: number | null; output: number | null; total: number | null } {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      value = null;
    }
  }
  const o = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const num = (...keys: string[]) => {
    for (const k of keys) if (typeof o[k] === 'number' && Number.isFinite(o[k])) return o[k];
    return null;
  };
  const input = num('input', 'prompt_tokens', 'input_tokens');
  const output = num('output', 'completion_tokens', 'output_tokens');
  const total =
    num('total', 'total_tokens') ?? (input !== null || output !== null ? (input ?? 0) + (output ?? 0) : null);
  return { input, output, total };
}

const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);

export function toSummary(t: ApiTrace): TraceSummary {
  const meta = t.metadata && typeof t.metadata === 'object' ? (t.metadata as Record<string, unknown>) : {};
  return {
    id: t.id,
    name: t.name,
    timestamp: t.timestamp,
    learner: t.user_id,
    session: t.session_id,
    mentorUniqueId: typeof meta.mentor_unique_id === 'string' ? meta.mentor_unique_id : null,
    input: t.input,
    output: t.output,
  };
}

export function toSpan(o: ApiObservation): TraceSpan {
  const usage = usageOf(o.usage_details);
  const start = ms(o.start_time);
  const end = ms(o.end_time);
  const cost = o.total_cost == null ? null : Number(o.total_cost);
  return {
    id: o.id,
    parentId: o.parent_observation_id,
    type: o.type,
    name: o.name,
    level: o.level,
    status: o.status_message,
    model: o.provided_model_name,
    startTime: o.start_time,
    endTime: o.end_time,
    latencyMs: Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : null,
    inputTokens: usage.input,
    outputTokens: usage.output,
    totalTokens: usage.total,
    cost: cost !== null && Number.isFinite(cost) ? cost : null,
    input: o.input,
    output: o.output,
  };
}

/** A tool call, as Langfuse names them: a TOOL observation or a span named `tool:…`. */
export const isTool = (span: TraceSpan) => span.type === 'TOOL' || span.name.startsWith('tool:');

/**
 * The time a trace's spans took, overlapping spans (a generation inside its chain, tools in parallel) counted once.
 * The spec gives traces and observations no latency field: this is the sum of the spans' own start-to-end times,
 * with the learner's pauses between turns left out.
 */
export function spanTime(spans: readonly TraceSpan[]): number | null {
  const intervals = spans
    .map((s) => [ms(s.startTime), ms(s.endTime)] as const)
    .filter(([start, end]) => Number.isFinite(start) && Number.isFinite(end) && end >= start)
    .sort((a, b) => a[0] - b[0]);
  if (!intervals.length) return null;
  let total = 0;
  let [from, to] = intervals[0]!;
  for (const [start, end] of intervals.slice(1)) {
    if (start > to) {
      total += to - from;
      [from, to] = [start, end];
    } else to = Math.max(to, end);
  }
  return total + (to - from);
}

export function toDetail(trace: ApiTrace, observations: ApiObservation[]): TraceDetail {
  const spans = observations.map(toSpan).sort((a, b) => a.startTime.localeCompare(b.startTime));
  const starts = spans.map((s) => ms(s.startTime)).filter(Number.isFinite);
  const ends = spans.map((s) => ms(s.endTime)).filter(Number.isFinite);
  return {
    trace: toSummary(trace),
    spans,
    totals: {
      latencyMs: spanTime(spans),
      durationMs: starts.length && ends.length ? Math.max(...ends) - Math.min(...starts) : null,
      tokens: spans.reduce((n, s) => n + (s.totalTokens ?? 0), 0),
      cost: Math.round(spans.reduce((n, s) => n + (s.cost ?? 0), 0) * 1e6) / 1e6,
      tools: spans.filter(isTool).length,
    },
  };
}
