/**
 * Benchmarks of CSV invitations (`npm run bench -- invite`, or `npx tsx bench/invite.ts` for JSON lines):
 * - `invite.parse_validate_vs_papaparse`: reading, mapping and validating 100,000 rows ÷ papaparse alone reading
 *   the same file (both streamed from disk; CPU time, median of 9 alternating runs). Goal ≤ 2.0.
 * - `invite.send_vs_raw`: rows per second of the invite job's send phase (journal written, every answer recorded)
 *   ÷ a bare loop posting the same chunks (100 first, then the same adaptive sizes) with fetch, one after the other,
 *   to the sandbox running as its own process. Goal ≥ 0.9.
 * - `invite.peak_rss_mb_1m`: peak RSS of a fresh process (engine + worker) reading and validating 1,000,000 rows into
 *   its import. Goal ≤ 300.
 * Generated files live in `.bench-data/` (re-generated when the generator changes: see FILE_VERSION).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Papa from 'papaparse';
import { createEngine, type Engine } from '../src/main/engine';
import { DEFAULT_CHUNK, MAX_CHUNK } from '../src/main/engine/invitations/import-service';
import { nextChunkSize } from '../src/main/engine/invitations/job';
import { readRows } from '../src/main/engine/invitations/parse';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import type { BenchResult } from './lib/suite';
import { noKeychain } from './lib/keychain';
import { median } from './lib/suite';

export const metrics = ['invite.parse_validate_vs_papaparse', 'invite.send_vs_raw', 'invite.peak_rss_mb_1m'];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DATA = join(ROOT, '.bench-data');
const SEND_ROWS = 20_000;
/** Rounds of baseline and job, alternating; the medians are compared (single rounds vary by half on a busy machine). */
const ROUNDS = 7;
/** Bump when `generate` changes, so stale files are not reused. */
const FILE_VERSION = 2;

/** A cohort file: quoted names with commas now and then, some international domains, a few bad rows. */
async function generate(path: string, rows: number, prefix = 'person'): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(DATA, { recursive: true });
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  out.write('Email,First name,Last name,Company,User group,Group owner email\r\n');
  const domains = ['example.org', 'example.com', 'univ.example.edu', 'Mail.Example.NET'];
  for (let i = 0; i < rows; i++) {
    // One in fifty addresses has an international domain, one in a thousand is broken.
    const domain = i % 50 === 7 ? 'bücher.example' : domains[i % domains.length];
    const email = i % 997 === 0 ? `broken-${i}-at-example.org` : `${prefix}.${i}@${domain}`;
    const company = i % 13 === 0 ? `"Acme, Inc. ${i % 50}"` : `Company ${i % 200}`;
    const group = i % 5 === 0 ? `Cohort ${i % 20},owner${i % 20}@example.org` : ',';
    if (!out.write(`${email},First${i},"Last ${i}",${company},${group}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const { renameSync } = await import('node:fs');
  renameSync(partial, path);
  return path;
}

const SETTINGS = {
  encoding: 'utf-8' as const,
  bomBytes: 0,
  delimiter: ',' as const,
  newline: '\r\n',
  headerRow: 0,
  mapping: ['email', 'first_name', 'last_name', 'company_name', 'user_group', 'user_group_owner_email'] as const,
};

/**
 * CPU milliseconds (user + system, all threads of this process) spent by `work`: on a shared machine wall time
 * mostly measures the neighbours; both sides are measured the same way, one after the other.
 */
async function cpuMs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

function timeOurs(path: string): Promise<number> {
  return cpuMs(async () => {
    let rows = 0;
    await readRows(path, { ...SETTINGS, mapping: [...SETTINGS.mapping] }, (batch) => {
      rows += batch.length;
    });
    if (!rows) throw new Error('no rows read');
  });
}

function timePapa(path: string): Promise<number> {
  return cpuMs(() => papaOnly(path));
}

function papaOnly(path: string): Promise<void> {
  return new Promise((done, fail) => {
    let rows = 0;
    Papa.parse<string[]>(createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 }) as unknown as File, {
      delimiter: ',',
      newline: '\r\n',
      chunk: (results) => {
        rows += results.data.length;
      },
      complete: () => (rows ? done() : fail(new Error('no rows'))),
      error: fail,
    });
  });
}

async function parseRatio(log: (line: string) => void): Promise<BenchResult> {
  const path = await generate(join(DATA, `invite-100k-v${FILE_VERSION}.csv`), 100_000);
  await timeOurs(path);
  await timePapa(path);
  const ours: number[] = [];
  const papa: number[] = [];
  for (let i = 0; i < 9; i++) {
    papa.push(await timePapa(path));
    ours.push(await timeOurs(path));
  }
  log(
    `   parse+map+validate ${median(ours).toFixed(0)} ms, papaparse alone ${median(papa).toFixed(0)} ms of CPU (100,000 rows)`,
  );
  return {
    name: 'invite.parse_validate_vs_papaparse',
    value: +(median(ours) / median(papa)).toFixed(2),
    unit: 'ratio',
    goal: '<= 2.0',
  };
}

interface Platform {
  url: string;
  org: string;
  user: string;
  apiKey: string;
}

async function engineOn(server: Platform, dataDir: string): Promise<Engine> {
  const engine = await createEngine({
    dataDir,
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
  return engine;
}

/**
 * The bare baseline: the same rows in the same chunks (100 first, then the job's adaptive schedule), posted one
 * after the other with fetch; no journal, no validation, no recording of answers.
 */
async function rawSend(server: Platform, prefix: string): Promise<number> {
  const started = performance.now();
  let size = DEFAULT_CHUNK;
  for (let offset = 0; offset < SEND_ROWS;) {
    const count = Math.min(size, SEND_ROWS - offset);
    const invitation_data = Array.from({ length: count }, (_, i) => ({
      email: `${prefix}.${offset + i}@example.org`,
      first_name: `First${offset + i}`,
      last_name: `Last ${offset + i}`,
      platform_key: server.org,
      source: server.user,
      active: true,
    }));
    const sent = performance.now();
    const res = await fetch(`${server.url}/api/catalog/invitations/platform/bulk/`, {
      method: 'POST',
      headers: {
        authorization: `Api-Key ${server.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ platform_key: server.org, invitation_data }),
    });
    const body = (await res.json()) as { successes: number };
    if (body.successes !== invitation_data.length) throw new Error('baseline: not every row was accepted');
    offset += count;
    size = nextChunkSize(size, performance.now() - sent, MAX_CHUNK);
  }
  return performance.now() - started;
}

async function jobSend(engine: Engine, path: string): Promise<number> {
  const draft = await engine.invoke('invitations.importOpen', { path });
  await engine.invoke('invitations.importConfigure', {
    id: draft.id,
    mapping: draft.columns.map((c) => (['email', 'first_name', 'last_name'].includes(c.field ?? '') ? c.field : null)),
  });
  await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
  const ready = await engine.invoke('invitations.importTarget', {
    id: draft.id,
    target: { kind: 'platform' },
    wait: true,
  });
  if (ready.summary.willEmail !== SEND_ROWS)
    throw new Error(`expected ${SEND_ROWS} rows to send, got ${ready.summary.willEmail}`);
  // The send phase only: the job is written first (journal first), then timed from running to completed.
  let jobId = '';
  let started = 0;
  const ended = new Promise<number>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed') return;
      if (event.state === 'running' && !started) started = performance.now();
      if (event.id === jobId && ['completed', 'failed', 'paused', 'cancelled'].includes(event.state)) {
        stop();
        resolve(performance.now());
      }
    });
  });
  ({ jobId } = await engine.invoke('invitations.importStart', { id: draft.id }));
  const finished = await ended;
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || (job.counts.invited ?? 0) !== SEND_ROWS) {
    throw new Error(`the job ended ${job.state} with ${job.counts.invited} invited: ${job.error}`);
  }
  return finished - started;
}

/** The platform is another machine in real life: the sandbox runs as its own process, as the app starts it. */
async function sendRatio(log: (line: string) => void): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'invite-bench-'));
  const platform = await launchSandbox({ dataDir: join(dir, 'sandbox'), parentEnv: process.env, seed: 'none' });
  const server = { url: platform.url, org: platform.org, user: platform.user, apiKey: platform.apiKey };
  const engine = await engineOn(server, join(dir, 'app'));
  try {
    const files = Array.from({ length: ROUNDS }, (_, round) => join(dir, `round${round}.csv`));
    for (const [round, file] of files.entries()) {
      const out = createWriteStream(file);
      out.write('Email,First name,Last name\n');
      for (let i = 0; i < SEND_ROWS; i++) out.write(`job${round}.${i}@example.org,First${i},Last ${i}\n`);
      out.end();
      await once(out, 'finish');
    }
    await rawSend(server, 'warmup');
    const raw: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawSend(server, `raw${round}`));
      ours.push(await jobSend(engine, files[round]!));
    }
    log(`   rounds: job ${ours.map((v) => v.toFixed(0)).join(' ')}; raw ${raw.map((v) => v.toFixed(0)).join(' ')}`);
    log(`   send ${SEND_ROWS} rows: job ${median(ours).toFixed(0)} ms, bare fetch loop ${median(raw).toFixed(0)} ms`);
    return {
      name: 'invite.send_vs_raw',
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

/** In the child process: an engine that opens and reads the file, then reports its peak RSS. */
async function rssChild(path: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'invite-rss-'));
  try {
    const engine = await createEngine({
      dataDir: dir,
      shell: 'test',
      secrets: noKeychain,
      env: { MENTOR_ADMIN_API_KEY: 'unused' },
    });
    await engine.invoke('profiles.add', {
      name: 'Offline',
      baseUrl: 'http://127.0.0.1:9',
      org: 'bench',
      username: 'bench',
      makeActive: true,
    });
    const draft = await engine.invoke('invitations.importOpen', { path });
    process.stderr.write(
      `before parse rss ${Math.round(process.memoryUsage().rss / 1e6)} MB, max ${Math.round(process.resourceUsage().maxRSS / 1e3)}\n`,
    );
    const parsed = await engine.invoke('invitations.importParse', { id: draft.id, wait: true });
    await engine.close();
    process.stdout.write(
      `${JSON.stringify({ rows: parsed.summary.rows, maxRssKb: process.resourceUsage().maxRSS, state: parsed.state })}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function peakRss(log: (line: string) => void): Promise<BenchResult> {
  const path = await generate(join(DATA, `invite-1m-v${FILE_VERSION}.csv`), 1_000_000);
  const started = performance.now();
  const output = execFileSync(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), fileURLToPath(import.meta.url), '--rss-child', path],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1024 * 1024 },
  );
  const result = JSON.parse(output.trim().split('\n').pop()!) as { rows: number; maxRssKb: number; state: string };
  if (result.rows < 990_000) throw new Error(`the child read ${result.rows} rows (${result.state})`);
  log(`   1,000,000 rows read and validated in ${((performance.now() - started) / 1000).toFixed(1)} s (whole process)`);
  return { name: 'invite.peak_rss_mb_1m', value: Math.round(result.maxRssKb / 1024), unit: 'MB', goal: '<= 300' };
}

export async function run(log: (line: string) => void = () => {}, only?: string[]): Promise<BenchResult[]> {
  const wanted = (name: string) => !only || only.includes(name);
  const results: BenchResult[] = [];
  if (wanted(metrics[0]!)) results.push(await parseRatio(log));
  if (wanted(metrics[1]!)) results.push(await sendRatio(log));
  if (wanted(metrics[2]!)) results.push(await peakRss(log));
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const child = process.argv.indexOf('--rss-child');
  if (child !== -1) {
    await rssChild(process.argv[child + 1]!);
  } else {
    const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
    for (const result of await run((line) => process.stderr.write(`${line}\n`), only.length ? only : undefined)) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
  }
}
