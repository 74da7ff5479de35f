/**
 * Benchmark of a bulk change of mentor settings (`npm run bench -- mentors`, or `npx tsx bench/mentors-bulk.ts`):
 * - `mentors.bulk_set_vs_raw`: bare settings PUTs of one setting to 200 mentors (with fetch, the same concurrency as
 *   the job's tenant limit) ÷ the app's `mentor-bulk-set` job setting it (mentors.bulkSet to completed: the job and
 *   its items written, each mentor compared, marked sending, PUT, its answer cached and kept as a history snapshot),
 *   to the same sandbox running as its own process, in the same run. The admin's review before it (mentors.bulkPreview,
 *   which reads every mentor's settings) is not timed; it is logged beside. Rounds alternate; medians compared.
 *   Goal ≥ 0.9.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../src/main/engine';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import type { BenchResult } from './lib/suite';
import { noKeychain } from './lib/keychain';
import { median } from './lib/suite';

export const metrics = ['mentors.bulk_set_vs_raw'];

const MENTORS = 200;
const ROUNDS = 7;
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

/** The bare baseline: one PUT per mentor, CONCURRENCY at a time; no journal, cache or history. */
async function rawSet(server: Platform, mentors: string[], value: string): Promise<number> {
  const started = performance.now();
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
  return performance.now() - started;
}

/** The admin's review (untimed), then the job from mentors.bulkSet to completed. */
async function jobSet(engine: Engine, mentors: string[], value: string, log: (line: string) => void) {
  const values = { disclaimer: value };
  const reviewed = performance.now();
  const preview = await engine.invoke('mentors.bulkPreview', { mentors, values });
  const changing = preview.mentors.filter((row) => row.changes.length).length;
  if (changing !== mentors.length) throw new Error(`the preview shows ${changing} of ${mentors.length} changing`);
  const started = performance.now();
  let jobId = '';
  const ended = new Promise<number>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed' || event.id !== jobId) return;
      if (['completed', 'failed', 'paused'].includes(event.state)) {
        stop();
        resolve(performance.now());
      }
    });
  });
  const { job: begun } = await engine.invoke('mentors.bulkSet', { mentors, values });
  jobId = begun.id;
  const done = (await engine.invoke('jobs.get', { id: jobId })).state === 'completed' ? performance.now() : await ended;
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || job.counts.updated !== mentors.length) {
    throw new Error(
      `the job ended ${job.state} with ${JSON.stringify(job.counts)} ${JSON.stringify(job.progress)}: ${job.error}`,
    );
  }
  log(`   reviewed in ${(started - reviewed).toFixed(0)} ms; applied in ${(done - started).toFixed(0)} ms`);
  return done - started;
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
    await rawSet(server, mentors, 'Warm-up');
    const raw: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawSet(server, mentors, `Raw ${round}`));
      ours.push(await jobSet(engine, mentors, `Job ${round}`, log));
    }
    log(`   rounds: job ${ours.map((v) => v.toFixed(0)).join(' ')}; raw ${raw.map((v) => v.toFixed(0)).join(' ')}`);
    log(`   ${MENTORS} mentors: job ${median(ours).toFixed(0)} ms, bare PUTs ${median(raw).toFixed(0)} ms`);
    return {
      name: 'mentors.bulk_set_vs_raw',
      value: +(median(raw) / median(ours)).toFixed(2),
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
