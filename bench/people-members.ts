/**
 * Benchmark of bulk department assignment (`npm run bench -- people`, or `npx tsx bench/people-members.ts`):
 * - `people.bulk_assign_vs_raw`: bare bulk POSTs of 10,000 department assignments (the same people in the same
 *   batches, MEMBERS_BATCH, with the same concurrency as the job's tenant limit, with fetch) ÷ the app's job putting
 *   them there from a CSV file (resources.import on department-members; its send phase, from running to completed:
 *   groups read, rows marked sending, every person's answer recorded in the journal), to the same sandbox running as
 *   its own process, in the same run. Each side is warmed by two rounds first; then 15 rounds alternate, and the
 *   medians of the CPU time both sides cost are compared: this process's (the bare client, or the engine) plus the
 *   sandbox's, which does most of the work. On a shared
 *   machine wall time mostly measures the neighbours (it swung 0.6–0.9 with the load); its ratio is logged beside,
 *   with the file's reading and journalling. Goal ≥ 0.9.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createEngine, type Engine } from '../src/main/engine';
import { MEMBERS_BATCH } from '../src/main/engine/resources/members-import';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import type { BenchResult } from './lib/suite';
import { splitCpuMs } from './lib/cpu';
import { noKeychain } from './lib/keychain';
import { median } from './lib/suite';

export const metrics = ['people.bulk_assign_vs_raw'];

const PEOPLE = 10_000;
/** Enough rounds that one garbage collection or neighbour's burst in a round (≈ 150 ms) does not move the median. */
const ROUNDS = 15;
/** Unmeasured rounds of each side first (the first job round also starts the engine's checkpoint worker). */
const WARM_UPS = 2;
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

/** Wall and CPU milliseconds (this process and the sandbox) of one side of a round; `own`: this process's part. */
interface Cost {
  wall: number;
  cpu: number;
  own: number;
}

/** CPU milliseconds so far: this process's plus the sandbox's, and this process's alone. */
function cpuNow(): { cpu: number; own: number } {
  const { own, children } = splitCpuMs();
  return { cpu: own + children, own };
}

/** The bare baseline: the people in batches, CONCURRENCY requests at a time; no file, journal or recording. */
async function rawAssign(server: Platform, department: number): Promise<Cost> {
  const started = performance.now();
  const cpu = cpuNow();
  const batches: { email: string }[][] = [];
  for (let start = 0; start < PEOPLE; start += MEMBERS_BATCH) {
    batches.push(
      Array.from({ length: Math.min(MEMBERS_BATCH, PEOPLE - start) }, (_, i) => ({
        email: `bench${start + i}@example.edu`,
      })),
    );
  }
  let next = 0;
  let added = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < batches.length) {
        const users = batches[next++]!;
        const answer = (await post(server, '/api/core/departments/members/bulk/', {
          department_id: department,
          users,
          platform_key: server.org,
        })) as { results: { status: string }[] };
        added += answer.results.filter((r) => r.status === 'added').length;
      }
    }),
  );
  if (added !== PEOPLE) throw new Error(`baseline: ${added} of ${PEOPLE} added`);
  const spent = cpuNow();
  return { wall: performance.now() - started, cpu: spent.cpu - cpu.cpu, own: spent.own - cpu.own };
}

/**
 * The app's job: the file read and checked and the job written first (journal first), then timed from running to
 * completed, as invite.send_vs_raw times its send phase.
 */
async function jobAssign(engine: Engine, file: string, log: (line: string) => void): Promise<Cost> {
  const written = performance.now();
  let jobId = '';
  let started = 0;
  let startedCpu = { cpu: 0, own: 0 };
  const ended = new Promise<Cost>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed') return;
      if (event.state === 'running' && !started) {
        started = performance.now();
        startedCpu = cpuNow();
      }
      if (event.id === jobId && ['completed', 'failed', 'paused'].includes(event.state)) {
        stop();
        resolve({ wall: performance.now(), ...cpuNow() });
      }
    });
  });
  const preview = await engine.invoke('resources.import', {
    kind: 'department-members',
    path: file,
    start: true,
    rows: { filter: 'invalid', offset: 0, limit: 0 },
  });
  jobId = preview.job!.id;
  const finished = await ended;
  const cost = {
    wall: finished.wall - started,
    cpu: finished.cpu - startedCpu.cpu,
    own: finished.own - startedCpu.own,
  };
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
  const dir = mkdtempSync(join(tmpdir(), 'people-bench-'));
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
    const department = async (name: string) =>
      Number((await post(server, '/api/core/departments/', { name, platform_key: server.org })).id);
    // Each round moves everyone into a new department, so every row is an assignment.
    const jobRound = async (name: string) => {
      await department(name);
      const file = join(dir, `${name}.csv`);
      writeFileSync(
        file,
        `Email,Department\n${Array.from({ length: PEOPLE }, (_, i) => `bench${i}@example.edu,${name}`).join('\n')}\n`,
      );
      return jobAssign(engine, file, log);
    };
    // Both sides warmed: the bare client's connections, and the engine's first bulk jobs, the first of which starts
    // its checkpoint worker thread (about 70 ms of CPU, once per engine), and which compile the job's code.
    for (let round = 0; round < WARM_UPS; round++) {
      await rawAssign(server, await department(`Warm-up ${round}`));
      await jobRound(`Job warm-up ${round}`);
    }
    const raw: Cost[] = [];
    const ours: Cost[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawAssign(server, await department(`Raw ${round}`)));
      ours.push(await jobRound(`Job ${round}`));
    }
    const of = (costs: Cost[], key: keyof Cost) => costs.map((cost) => cost[key]);
    for (const key of ['wall', 'cpu', 'own'] as const) {
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
      `   ${PEOPLE.toLocaleString('en-US')} assignments: job ${ourCpu.toFixed(0)} ms CPU (${ourWall.toFixed(0)} ms wall), bare bulk POSTs ${rawCpu.toFixed(0)} ms CPU (${rawWall.toFixed(0)} ms wall); wall ratio ${(rawWall / ourWall).toFixed(2)}`,
    );
    return {
      name: 'people.bulk_assign_vs_raw',
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
