/**
 * Benchmark of a bulk change of mentor settings (`npm run bench -- mentors`, or `npx tsx bench/mentors-bulk.ts`):
 * - `mentors.bulk_set_vs_raw`: bare settings PUTs of one setting to 200 mentors (with fetch, the same concurrency as
 *   the job's tenant limit) ÷ the app's `mentor-bulk-set` job setting it (mentors.bulkSet to completed: the job and
 *   its items written, each mentor compared, marked sending, PUT, its answer checked, cached and kept as a history
 *   snapshot), to the same sandbox running as its own process, in the same run, after unmeasured warm-up rounds of both. Measured in CPU time (this process,
 *   which runs the engine and the baseline, and the sandbox's: bench/lib/cpu.ts), since on a shared machine wall time
 *   mostly measures the neighbours; wall time is logged beside. The admin's review before it (mentors.bulkPreview,
 *   which reads every mentor's settings) is not measured; it is logged. Rounds alternate; medians compared.
 *   Goal ≥ 0.9.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../src/main/engine';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import { splitCpuMs } from './lib/cpu';
import type { BenchResult } from './lib/suite';
import { noKeychain } from './lib/keychain';
import { median } from './lib/suite';

export const metrics = ['mentors.bulk_set_vs_raw'];

const MENTORS = 200;
/** Enough rounds that one garbage collection or neighbour's burst in a round (≈ 150 ms) does not move the median. */
const ROUNDS = 15;
/** Unmeasured rounds of each side first: both the engine's and the sandbox's code compiled, as in a running app. */
const WARM_UPS = 4;
/** The tenant's default concurrency, which the job's requests share (jobs/limiter.ts). */
const CONCURRENCY = 4;

interface Platform {
  url: string;
  org: string;
  user: string;
  apiKey: string;
}

async function send(server: Platform, method: string, path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Api-Key ${server.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

const base = (server: Platform) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

/** Wall and CPU milliseconds (this process and the sandbox) of one side of a round; `own`: this process's part. */
interface Cost {
  wall: number;
  cpu: number;
  own: number;
}

function cpuNow(): { cpu: number; own: number } {
  const { own, children } = splitCpuMs();
  return { cpu: own + children, own };
}

/** The bare baseline: one PUT per mentor, CONCURRENCY at a time; no journal, cache or history. */
async function rawSet(server: Platform, mentors: string[], value: string): Promise<Cost> {
  const started = performance.now();
  const cpu = cpuNow();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < mentors.length) {
        const mentor = mentors[next++]!;
        const answer = await send(server, 'PUT', `${base(server)}mentors/${mentor}/settings/`, { disclaimer: value });
        if (answer.disclaimer !== value) throw new Error(`baseline: ${mentor} answered ${String(answer.disclaimer)}`);
      }
    }),
  );
  const spent = cpuNow();
  return { wall: performance.now() - started, cpu: spent.cpu - cpu.cpu, own: spent.own - cpu.own };
}

/** The admin's review (untimed), then the job from mentors.bulkSet to completed. */
async function jobSet(engine: Engine, mentors: string[], value: string, log: (line: string) => void): Promise<Cost> {
  const values = { disclaimer: value };
  const reviewed = performance.now();
  const preview = await engine.invoke('mentors.bulkPreview', { mentors, values });
  const changing = preview.mentors.filter((row) => row.changes.length).length;
  if (changing !== mentors.length) throw new Error(`the preview shows ${changing} of ${mentors.length} changing`);
  const started = performance.now();
  const startedCpu = cpuNow();
  let jobId = '';
  const ended = new Promise<{ wall: number; cpu: number; own: number }>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed' || event.id !== jobId) return;
      if (['completed', 'failed', 'paused'].includes(event.state)) {
        stop();
        resolve({ wall: performance.now(), ...cpuNow() });
      }
    });
  });
  const { job: begun } = await engine.invoke('mentors.bulkSet', { mentors, values });
  jobId = begun.id;
  const done =
    (await engine.invoke('jobs.get', { id: jobId })).state === 'completed'
      ? { wall: performance.now(), ...cpuNow() }
      : await ended;
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || job.counts.updated !== mentors.length) {
    throw new Error(
      `the job ended ${job.state} with ${JSON.stringify(job.counts)} ${JSON.stringify(job.progress)}: ${job.error}`,
    );
  }
  const cost = { wall: done.wall - started, cpu: done.cpu - startedCpu.cpu, own: done.own - startedCpu.own };
  log(
    `   reviewed in ${(started - reviewed).toFixed(0)} ms; applied in ${cost.wall.toFixed(0)} ms (${cost.cpu.toFixed(0)} ms CPU)`,
  );
  return cost;
}

async function bulkSetRatio(log: (line: string) => void): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mentors-bulk-bench-'));
  const platform = await launchSandbox({ dataDir: join(dir, 'sandbox'), parentEnv: process.env, seed: 'none' });
  const server = { url: platform.url, org: platform.org, user: platform.user, apiKey: platform.apiKey };
  const engine = await createEngine({
    dataDir: join(dir, 'app'),
    shell: 'test',
    secrets: noKeychain,
    env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
  });
  await engine.invoke('profiles.add', {
    name: 'Bench',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  try {
    const mentors: string[] = [];
    for (let i = 0; i < MENTORS; i++) {
      const made = await send(server, 'POST', base(server), { name: `Bench ${i}`, description: 'Bulk bench' });
      mentors.push(String(made.unique_id));
    }
    for (let round = 0; round < WARM_UPS; round++) {
      await rawSet(server, mentors, `Raw warm-up ${round}`);
      await jobSet(engine, mentors, `Job warm-up ${round}`, () => {});
    }
    const raw: Cost[] = [];
    const ours: Cost[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawSet(server, mentors, `Raw ${round}`));
      ours.push(await jobSet(engine, mentors, `Job ${round}`, log));
    }
    const of = (costs: Cost[], key: keyof Cost) => costs.map((cost) => cost[key]);
    for (const key of ['wall', 'cpu', 'own'] as const) {
      const line = (costs: Cost[]) =>
        of(costs, key)
          .map((v) => v.toFixed(0))
          .join(' ');
      log(
        `   rounds (${key === 'own' ? 'CPU of this process, the rest is the sandbox' : key} ms): job ${line(ours)}; raw ${line(raw)}`,
      );
    }
    const [rawCpu, ourCpu] = [median(of(raw, 'cpu')), median(of(ours, 'cpu'))];
    const [rawWall, ourWall] = [median(of(raw, 'wall')), median(of(ours, 'wall'))];
    log(
      `   ${MENTORS} mentors: job ${ourCpu.toFixed(0)} ms CPU (${ourWall.toFixed(0)} ms wall), bare PUTs ${rawCpu.toFixed(0)} ms CPU (${rawWall.toFixed(0)} ms wall); wall ratio ${(rawWall / ourWall).toFixed(2)}`,
    );
    return {
      name: 'mentors.bulk_set_vs_raw',
      value: +(rawCpu / ourCpu).toFixed(2),
      unit: 'ratio',
      goal: '>= 0.9',
    };
  } finally {
    await engine.close();
    await platform.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(log: (line: string) => void = () => {}, only?: string[]): Promise<BenchResult[]> {
  if (only && !only.includes(metrics[0]!)) return [];
  return [await bulkSetRatio(log)];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run((line) => process.stderr.write(`${line}\n`))) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
