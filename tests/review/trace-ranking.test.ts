/**
 * Ranking traces through a real engine against a real sandbox: a trace's latency is the time its spans took (not the
 * conversation's length), the range is read once and every ranking after is made without a request, a refresh reads
 * it again, and the saved reading stands in when the tenant cannot be reached.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import { spanTime } from '../../src/main/engine/review/traces';
import type { TraceSpan } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { sandbox } from '../helpers/sandbox';
import { tempDir, uniqueService } from '../helpers/temp';

let server: Sandbox;
let engine: Engine;
let profileId: string;
/** Requests to the trace endpoints the sandbox received. */
const traceRequests: string[] = [];

beforeAll(async () => {
  server = await sandbox({
    seed: 'demo',
    areas: [mentorsArea, analyticsArea, reviewArea],
    onRequest: (_method, path) => {
      if (/\/(traces|observations)\//.test(path)) traceRequests.push(path);
    },
  });
  engine = await createEngine({
    dataDir: tempDir('trace-ranking-'),
    shell: 'test',
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_API_KEY: server.apiKey },
  });
  const profile = await engine.invoke('profiles.add', {
    name: 'Sandbox',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  profileId = profile.id;
  return () => engine.close();
});

const span = (start: number, end: number): TraceSpan => ({
  id: `s${start}`,
  parentId: null,
  type: 'SPAN',
  name: 'step',
  level: 'DEFAULT',
  status: null,
  model: null,
  startTime: new Date(start).toISOString(),
  endTime: new Date(end).toISOString(),
  latencyMs: end - start,
  inputTokens: null,
  outputTokens: null,
  totalTokens: null,
  cost: null,
  input: null,
  output: null,
});

/** The spans' busy time from the sandbox's own rows: each interval once, gaps left out. */
function busyTimeOnServer(traceId: string): { busy: number; wall: number } {
  const rows = server.db
    .prepare('SELECT start_time, end_time FROM review_observations WHERE org = ? AND trace_id = ? ORDER BY start_time')
    .all(server.org, traceId) as { start_time: string; end_time: string | null }[];
  let busy = 0;
  let reach = -Infinity;
  for (const r of rows) {
    if (!r.end_time) continue;
    const start = Date.parse(r.start_time);
    const end = Date.parse(r.end_time);
    busy += Math.max(0, end - Math.max(start, reach));
    reach = Math.max(reach, end);
  }
  const ends = rows.filter((r) => r.end_time).map((r) => Date.parse(r.end_time!));
  return { busy, wall: Math.max(...ends) - Date.parse(rows[0]!.start_time) };
}

describe('trace latency', () => {
  it('counts the time spans took, each overlap once, and leaves the pauses between them out', () => {
    expect(spanTime([span(0, 1000), span(5000, 5500)])).toBe(1500);
    // A generation inside its chain, and a tool running alongside it.
    expect(spanTime([span(0, 1000), span(200, 800), span(900, 1400), span(10_000, 10_100)])).toBe(1500);
    expect(spanTime([])).toBeNull();
  });

  it('ranks the slowest by the time their spans took, with the conversation length kept as the duration', async () => {
    const slowest = await engine.invoke('review.traces', { profileId, rank: 'slowest', limit: 10 });
    expect(slowest.traces).toHaveLength(10);
    const latencies = slowest.traces.map((t) => t.latencyMs!);
    expect([...latencies].sort((a, b) => b - a)).toEqual(latencies);
    for (const t of slowest.traces) {
      const { busy, wall } = busyTimeOnServer(t.trace.id);
      expect(t.latencyMs).toBe(busy);
      expect(t.durationMs).toBe(wall);
    }
    // The demo's conversations have learners' pauses: the duration is far longer than the spans' time.
    expect(slowest.traces.some((t) => t.durationMs! > 3 * t.latencyMs!)).toBe(true);
    const detail = await engine.invoke('review.trace', { profileId, id: slowest.traces[0]!.trace.id });
    expect(detail.totals.latencyMs).toBe(latencies[0]);
    expect(detail.totals.durationMs).toBe(slowest.traces[0]!.durationMs);
  }, 120_000);
});

describe('ranking a range read once', () => {
  const range = { from: '2026-10-01', to: '2026-11-30' };

  it('ranks the same reading the other way, and the most recent, without a request', async () => {
    const slowest = await engine.invoke('review.traces', { profileId, ...range, rank: 'slowest', limit: 20 });
    expect(slowest.freshness?.source).toBe('api');
    expect(traceRequests.length).toBeGreaterThan(0);

    traceRequests.length = 0;
    const costliest = await engine.invoke('review.traces', { profileId, ...range, rank: 'costliest', limit: 20 });
    const recent = await engine.invoke('review.traces', { profileId, ...range, rank: 'recent', limit: 20 });
    const again = await engine.invoke('review.traces', { profileId, ...range, rank: 'slowest', limit: 20 });
    expect(traceRequests).toEqual([]);

    const costs = costliest.traces.map((t) => t.cost);
    expect([...costs].sort((a, b) => b - a)).toEqual(costs);
    expect(costliest.freshness).toMatchObject({ source: 'cache', offline: null, asOf: slowest.freshness!.asOf });
    const times = recent.traces.map((t) => t.trace.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(recent.traces.every((t) => t.measured)).toBe(true);
    expect(again.traces).toEqual(slowest.traces);
    expect(costliest.scanned).toBe(slowest.scanned);
  }, 120_000);

  it('reads the range again when asked', async () => {
    traceRequests.length = 0;
    const fresh = await engine.invoke('review.traces', {
      profileId,
      ...range,
      rank: 'costliest',
      limit: 5,
      refresh: true,
    });
    expect(fresh.freshness?.source).toBe('api');
    expect(traceRequests.some((p) => p.endsWith('/observations/'))).toBe(true);
  }, 120_000);

  it('lists the most recent of a range never read without reading their spans', async () => {
    traceRequests.length = 0;
    const recent = await engine.invoke('review.traces', { profileId, from: '2026-11-20', to: '2026-11-30', limit: 5 });
    expect(recent.freshness).toBeNull();
    expect(recent.traces.every((t) => !t.measured && t.latencyMs === null)).toBe(true);
    expect(traceRequests.every((p) => p.endsWith('/traces/'))).toBe(true);
  });

  it('shows the saved reading, marked offline, when the tenant cannot be reached', async () => {
    const saved = await engine.invoke('review.traces', { profileId, ...range, rank: 'costliest', limit: 5 });
    await server.close();
    const offline = await engine.invoke('review.traces', {
      profileId,
      ...range,
      rank: 'slowest',
      limit: 5,
      refresh: true,
    });
    expect(offline.freshness?.source).toBe('cache');
    expect(offline.freshness?.offline).toMatch(/reach/i);
    expect(offline.freshness?.asOf).toBe(saved.freshness?.asOf);
    expect(offline.traces.length).toBe(5);
  }, 120_000);
});
