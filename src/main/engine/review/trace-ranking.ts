/**
 * The slowest, costliest or most recent traces of a range. The tenant lists traces without their latency or cost,
 * so the latest traces of the range are read with their spans once (two requests each) and that reading is kept
 * per tenant and range (the analytics answers' cache: SQLite, refreshed in the background when stale, the saved
 * copy when the tenant cannot be reached); every ranking of it is then made here, without a request.
 */
import type { TraceRanking } from '../../../shared/contract';
import { AnswerCache, type Db } from '../store';
import type { EngineServices } from '../context';
import type { ReviewApi } from './api';
import { toDetail, toSummary } from './traces';

/** Traces read (their spans too) to rank over a range. */
export const RANK_SCAN = 200;
/** Spans of this many traces are read at once. */
const CONCURRENCY = 4;
const CALL = 'review.traces';

export type Rank = 'recent' | 'slowest' | 'costliest';

export interface Range {
  search?: string | undefined;
  mentor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

interface Reading {
  traces: TraceRanking[];
  scanned: number;
}

/** The latest `target` traces of the range, newest first, and how many the tenant listed to find them. */
async function latest(api: ReviewApi, range: Range, target: number) {
  const { search, mentor, from, to } = range;
  const inRange = (day: string) => (!from || day >= from) && (!to || day <= to);
  const picked: ReturnType<typeof toSummary>[] = [];
  let scanned = 0;
  for (let offset = 0; picked.length < target && offset < 20_000;) {
    const page = await api.traces({ ...(search ? { search } : {}), ordering: '-timestamp', limit: 500, offset });
    scanned += page.results.length;
    for (const t of page.results.map(toSummary))
      if (inRange(t.timestamp.slice(0, 10)) && (!mentor || t.mentorUniqueId === mentor) && picked.length < target)
        picked.push(t);
    const oldest = page.results[page.results.length - 1];
    if (!page.next || !oldest || (from && oldest.timestamp.slice(0, 10) < from)) break;
    offset += page.results.length;
  }
  return { picked, scanned };
}

/** The latest traces of the range measured from their spans: the reading every ranking is made from. */
async function measure(api: ReviewApi, range: Range): Promise<Reading> {
  const { picked, scanned } = await latest(api, range, RANK_SCAN);
  const traces: TraceRanking[] = [];
  for (let i = 0; i < picked.length; i += CONCURRENCY) {
    const details = await Promise.all(
      picked
        .slice(i, i + CONCURRENCY)
        .map(async (t) => toDetail(await api.trace(t.id), await api.observationsOf(t.id))),
    );
    for (const { trace, totals } of details)
      traces.push({
        trace,
        latencyMs: totals.latencyMs,
        durationMs: totals.durationMs,
        cost: totals.cost,
        tokens: totals.tokens,
        measured: true,
      });
  }
  return { traces, scanned };
}

const ORDER: Record<Rank, (a: TraceRanking, b: TraceRanking) => number> = {
  recent: (a, b) => b.trace.timestamp.localeCompare(a.trace.timestamp),
  slowest: (a, b) => (b.latencyMs ?? -1) - (a.latencyMs ?? -1),
  costliest: (a, b) => b.cost - a.cost,
};

export function rank(traces: readonly TraceRanking[], by: Rank, limit: number): TraceRanking[] {
  return [...traces].sort(ORDER[by]).slice(0, limit);
}

export class TraceRankings {
  private readonly readings: AnswerCache;

  constructor(db: Db, services: Pick<EngineServices, 'emit' | 'log'>) {
    this.readings = new AnswerCache(db, services, Date.now, (profileId, _call, offline) =>
      services.emit('review.tracesChanged', { profileId, offline }),
    );
  }

  async answer(
    profileId: string,
    api: () => Promise<ReviewApi>,
    request: Range & { rank: Rank; limit: number; refresh?: boolean | undefined },
  ) {
    const { rank: by, limit, refresh } = request;
    const params = {
      search: request.search ?? '',
      mentor: request.mentor ?? '',
      from: request.from ?? '',
      to: request.to ?? '',
    };
    const read = async () => measure(await api(), request);
    if (by === 'recent' && !refresh) {
      // The most recent need no spans: a saved reading serves them, else one page of the list does (nothing kept).
      const saved = this.readings.cached<Reading>({ profileId, call: CALL, params }, read);
      if (saved)
        return {
          traces: rank(saved.value.traces, by, limit),
          scanned: saved.value.scanned,
          freshness: saved.freshness,
        };
      const { picked, scanned } = await latest(await api(), request, limit);
      const traces = picked.map((trace) => ({
        trace,
        latencyMs: null,
        durationMs: null,
        cost: 0,
        tokens: 0,
        measured: false,
      }));
      return { traces, scanned, freshness: null };
    }
    const { value, freshness } = await this.readings.answer<Reading>({ profileId, call: CALL, params, refresh }, read);
    return { traces: rank(value.traces, by, limit), scanned: value.scanned, freshness };
  }

  /** Waits for background refreshes (tests, shutdown). */
  settle(): Promise<void> {
    return this.readings.settle();
  }
}
