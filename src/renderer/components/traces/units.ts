/** How the traces screens write a span's or a trace's time: "300 ms", "9.0 s"; a conversation's length in minutes. */
import { formatDuration } from '../../lib/format';

export const formatLatency = (ms: number | null) =>
  ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** From the first span to the last, the learner's pauses included: "12 min", or as a latency when under a minute. */
export const formatTraceDuration = (ms: number | null) =>
  ms === null ? '—' : ms < 60_000 ? formatLatency(ms) : formatDuration(ms / 1000);

/** What the traces screens call a trace's latency, for their labels and notes. */
export const LATENCY_NOTE =
  "Processing: the time in the trace's spans (the model, retrieval and tools), the learner's pauses between turns left out";
