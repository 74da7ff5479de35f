/**
 * Benchmark of licence seats from a CSV file (`npm run bench -- catalogue-seats`, or `npx tsx bench/catalogue-seats.ts`):
 * - `catalogue.seat_assign_vs_raw`: 10,000 bare seat POSTs (`licenses/user/assignment/`, one person each, with the
 *   same concurrency as the job's tenant limit, with fetch) ÷ the app's job giving the same seats from a CSV file
 *   (resources.import on license-assignments; its send phase, from running to completed: the licence and its seats
 *   read, rows marked sending, every answer recorded in the journal), to the same sandbox running as its own process,
 *   in the same run. Rounds alternate, each on a new licence; medians of wall time are compared, as
 *   people.bulk_assign_vs_raw does (the sandbox's work is most of it, in another process). Goal ≥ 0.9.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createEngine, type Engine } from '../src/main/engine';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import type { BenchResult } from './lib/suite';
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

/** The bare baseline: one POST per person, CONCURRENCY at a time; no file, journal or recording. */
async function rawAssign(server: Platform, license: number): Promise<number> {
  const started = performance.now();
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
  return performance.now() - started;
}

/**
 * The app's job: the file read and checked and the job written first (journal first), then timed from running to
 * completed, as invite.send_vs_raw times its send phase.
 */
async function jobAssign(engine: Engine, file: string, license: number, log: (line: string) => void): Promise<number> {
  const written = performance.now();
  let jobId = '';
  let started = 0;
  const ended = new Promise<number>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed') return;
      if (event.state === 'running' && !started) started = performance.now();
      if (event.id === jobId && ['completed', 'failed', 'paused'].includes(event.state)) {
        stop();
        resolve(performance.now());
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
  log(
    `   file read, checked and journalled in ${(started - written).toFixed(0)} ms; sent in ${(finished - started).toFixed(0)} ms`,
  );
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || job.counts.added !== PEOPLE) {
    throw new Error(`the job ended ${job.state} with ${job.counts.added} added: ${job.error}`);
  }
  return finished - started;
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
    const raw: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round gives everyone a seat of a new licence, so every row is a new seat.
      raw.push(await rawAssign(server, await licence(`Raw ${round}`)));
      const license = await licence(`Job ${round}`);
      const file = join(dir, `round${round}.csv`);
      writeFileSync(file, `Email\n${Array.from({ length: PEOPLE }, (_, i) => `bench${i}@example.edu`).join('\n')}\n`);
      ours.push(await jobAssign(engine, file, license, log));
    }
    log(`   rounds: job ${ours.map((v) => v.toFixed(0)).join(' ')}; raw ${raw.map((v) => v.toFixed(0)).join(' ')}`);
    log(
      `   ${PEOPLE.toLocaleString('en-US')} seats: job ${median(ours).toFixed(0)} ms, bare POSTs ${median(raw).toFixed(0)} ms`,
    );
    return {
      name: 'catalogue.seat_assign_vs_raw',
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
  return [await assignRatio(log)];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run((line) => process.stderr.write(`${line}\n`))) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}
