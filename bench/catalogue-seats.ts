/**
 * Benchmark of licence seats from a CSV file (`npm run bench -- catalogue-seats`, or `npx tsx bench/catalogue-seats.ts`):
 * - `catalogue.seat_assign_vs_raw`: 10,000 bare seat POSTs (`licenses/user/assignment/`, one person each, with the
 *   same concurrency as the job's tenant limit, with fetch) ÷ the app's job giving the same seats from a CSV file
 *   (resources.import on license-assignments; its send phase, from running to completed: the licence and its seats
 *   read, rows marked sending, every answer recorded in the journal), to the same sandbox running as its own process,
 *   in the same run. Rounds alternate, each on a new licence; the medians of the CPU time each side costs are compared,
 *   this process's (the bare client, or the engine) plus the sandbox's (bench/lib/cpu.ts, as people.bulk_assign_vs_raw).
 *   Wall time mostly measured the neighbours (rounds varied 2×) and rewarded the job's learnt concurrency (the limiter
 *   may run more than the bare loop's 4 at once), which buys wall time but not work; CPU time counts the work either
 *   side makes, whatever runs at once. The wall ratio is logged beside. Goal ≥ 0.9.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createEngine, type Engine } from '../src/main/engine';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import type { BenchResult } from './lib/suite';
import { familyCpuMs } from './lib/cpu';
import { noKeychain } from './lib/keychain';
import { median } from './lib/suite';

export const metrics = ['catalogue.seat_assign_vs_raw'];

const PEOPLE = 10_000;
const ROUNDS = 5;
/** The tenant's default concurrency, which the job's requests share (jobs/limiter.ts). */
const CONCURRENCY = 4;

interface Platform {
  url: string;
  org: string;
  user: string;
  apiKey: string;
}

const post = async (server: Platform, path: string, body: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Api-Key ${server.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};

/** Wall and CPU milliseconds (this process, the bare client or the engine, plus the sandbox) of one side of a round. */
interface Cost {
  wall: number;
  cpu: number;
}

/** The bare baseline: one POST per person, CONCURRENCY at a time; no file, journal or recording. */
async function rawAssign(server: Platform, license: number): Promise<Cost> {
  const started = performance.now();
  const cpu = familyCpuMs();
  let next = 0;
  let given = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PEOPLE) {
        const i = next++;
        await post(server, `/api/catalog/licenses/user/assignment/?license_id=${license}&platform_key=${server.org}`, {
          license_id: license,
          email: `bench${i}@example.edu`,
          platform_key: server.org,
        });
        given++;
      }
    }),
  );
  if (given !== PEOPLE) throw new Error(`baseline: ${given} of ${PEOPLE} given`);
  return { wall: performance.now() - started, cpu: familyCpuMs() - cpu };
}

/**
 * The app's job: the file read and checked and the job written first (journal first), then timed from running to
 * completed, as invite.send_vs_raw times its send phase.
 */
async function jobAssign(engine: Engine, file: string, license: number, log: (line: string) => void): Promise<Cost> {
  const written = performance.now();
  let jobId = '';
  let started = 0;
  let startedCpu = 0;
  const ended = new Promise<Cost>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed') return;
      if (event.state === 'running' && !started) {
        started = performance.now();
        startedCpu = familyCpuMs();
      }
      if (event.id === jobId && ['completed', 'failed', 'paused'].includes(event.state)) {
        stop();
        resolve({ wall: performance.now(), cpu: familyCpuMs() });
      }
    });
  });
  const preview = await engine.invoke('resources.import', {
    kind: 'license-assignments',
    licenseId: license,
    path: file,
    start: true,
    rows: { filter: 'invalid', offset: 0, limit: 0 },
  });
  jobId = preview.job!.id;
  const finished = await ended;
  const cost = { wall: finished.wall - started, cpu: finished.cpu - startedCpu };
  log(
    `   file read, checked and journalled in ${(started - written).toFixed(0)} ms; sent in ${cost.wall.toFixed(0)} ms (${cost.cpu.toFixed(0)} ms CPU)`,
  );
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || job.counts.added !== PEOPLE) {
    throw new Error(`the job ended ${job.state} with ${job.counts.added} added: ${job.error}`);
  }
  return cost;
}

async function assignRatio(log: (line: string) => void): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'seats-bench-'));
  const platform = await launchSandbox({ dataDir: join(dir, 'sandbox'), parentEnv: process.env, seed: 'none' });
  const server = { url: platform.url, org: platform.org, user: platform.user, apiKey: platform.apiKey };
  // The tenant's 10,000 people, written straight into the sandbox's database (it runs in WAL mode).
  const db = new Database(join(dir, 'sandbox', 'sandbox.sqlite'));
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) insert.run(`bench${i}`, `bench${i}@example.edu`, server.org);
  })();
  db.close();

  const engine = await createEngine({
    dataDir: join(dir, 'app'),
    shell: 'test',
    secrets: noKeychain,
    env: { MENTOR_ADMIN_API_KEY: server.apiKey },
  });
  await engine.invoke('profiles.add', {
    name: 'Bench',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  try {
    const licence = async (name: string) =>
      Number(
        (await post(server, '/api/catalog/licenses/user/create/', { name, count: PEOPLE, platform_key: server.org }))
          .id,
      );
    await rawAssign(server, await licence('Warm-up'));
    const raw: Cost[] = [];
    const ours: Cost[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round gives everyone a seat of a new licence, so every row is a new seat.
      raw.push(await rawAssign(server, await licence(`Raw ${round}`)));
      const license = await licence(`Job ${round}`);
      const file = join(dir, `round${round}.csv`);
      writeFileSync(file, `Email\n${Array.from({ length: PEOPLE }, (_, i) => `bench${i}@example.edu`).join('\n')}\n`);
      ours.push(await jobAssign(engine, file, license, log));
    }
    const of = (costs: Cost[], key: keyof Cost) => costs.map((cost) => cost[key]);
    for (const key of ['wall', 'cpu'] as const) {
      log(
        `   rounds (${key} ms): job ${of(ours, key)
          .map((v) => v.toFixed(0))
          .join(' ')}; raw ${of(raw, key)
          .map((v) => v.toFixed(0))
          .join(' ')}`,
      );
    }
    const [rawCpu, ourCpu] = [median(of(raw, 'cpu')), median(of(ours, 'cpu'))];
    const [rawWall, ourWall] = [median(of(raw, 'wall')), median(of(ours, 'wall'))];
    log(
      `   ${PEOPLE.toLocaleString('en-US')} seats: job ${ourCpu.toFixed(0)} ms CPU (${ourWall.toFixed(0)} ms wall), bare POSTs ${rawCpu.toFixed(0)} ms CPU (${rawWall.toFixed(0)} ms wall); wall ratio ${(rawWall / ourWall).toFixed(2)}`,
    );
    return {
      name: 'catalogue.seat_assign_vs_raw',
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
  return [await assignRatio(log)];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run((line) => process.stderr.write(`${line}\n`))) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
