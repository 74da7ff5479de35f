/**
 * The command line as a user runs it: `mentor-admin` (bin/mentor-admin.mjs, the build with plain Node), each call a
 * whole process, timed from spawn to exit.
 *
 * - cli.start_ms: median wall time of `mentor-admin profile list` (21 runs, alternating with `node -e 0`, whose median
 *   is logged beside it: the floor any Node program pays on this machine at this moment).
 * - cli.train_vs_fetch: `mentor-admin train DIR --mentor ID` of 400 files (1–64 KB notes) with the sandbox adding a
 *   40 ms round trip, as a new user would run it (default options: 4 at a time at first, more while the tenant
 *   answers fast; following training to the end) against a bare loop of 4 concurrent `fetch` uploads of the same
 *   files (3 + 3 alternating runs, summed times) — the definition. Logged beside it, not a metric: the
 *   command held to `--concurrency 4` against the same loop, the command's own cost at equal concurrency (start,
 *   scan, hash, journal, and waiting for the platform to finish training, which the bare loop does not do).
 * - cli.train_vs_sdk: the same command against uploading the files one at a time, as the vendor SDK does.
 *
 * The sandbox is the built one (out/main/sandbox.js) in a process of its own. `npx tsx bench/cli.ts` runs it alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../scripts/ensure-build.mjs';
import type { BenchResult, Log } from './lib/suite';
import { median } from './lib/suite';

export const metrics = ['cli.start_ms', 'cli.train_vs_fetch', 'cli.train_vs_sdk'];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BIN = join(ROOT, 'bin', 'mentor-admin.mjs');
const TREE = join(ROOT, '.bench-data', 'cli-train-tree');
const TREE_SPEC = { files: 400, minBytes: 1024, maxBytes: 64 * 1024, seed: 7 };
const START_RUNS = 21;
const CONCURRENCY = 4;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Wall time of one process, spawn to exit, in ms; throws when it fails. */
function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

function benchEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.MENTOR_ADMIN_API_KEY;
  return {
    ...env,
    MENTOR_ADMIN_HOME: home,
    MENTOR_ADMIN_SANDBOX: 'off',
    MENTOR_ADMIN_KEYCHAIN_SERVICE: `mentor-admin-bench-${process.pid}`,
    ...extra,
  };
}

async function measureStart(log: Log, results: BenchResult[]) {
  const home = mkdtempSync(join(tmpdir(), 'bench-cli-start-'));
  try {
    const env = benchEnv(home);
    timed(
      [BIN, 'profile', 'add', 'Main campus', '--url', 'https://api.example.org/dm', '--org', 'main', '--user', 'a'],
      env,
    );
    const node: number[] = [];
    const cli: number[] = [];
    for (let i = 0; i < 2; i++) {
      timed(['-e', '0'], env);
      timed([BIN, 'profile', 'list'], env);
    }
    for (let i = 0; i < START_RUNS; i++) {
      node.push(timed(['-e', '0'], env));
      cli.push(timed([BIN, 'profile', 'list'], env));
    }
    log(
      `  mentor-admin profile list: median ${median(cli).toFixed(0)} ms (min ${Math.min(...cli).toFixed(0)}); ` +
        `node -e 0: median ${median(node).toFixed(0)} ms (min ${Math.min(...node).toFixed(0)}); ` +
        `difference of the medians ${(median(cli) - median(node)).toFixed(0)} ms`,
    );
    results.push({ name: 'cli.start_ms', value: round(median(cli), 0), unit: 'ms', goal: '<= 250' });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 400 course notes of 1–64 KB (most small), generated once into .bench-data/. */
function notesTree(log: Log): string[] {
  const marker = join(TREE, '.spec.json');
  const names = Array.from({ length: TREE_SPEC.files }, (_, i) => `week-${Math.floor(i / 40)}/note-${i}.md`);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === JSON.stringify(TREE_SPEC)) return names;
  log('  generating .bench-data/cli-train-tree (once)…');
  rmSync(TREE, { recursive: true, force: true });
  const random = rng(TREE_SPEC.seed);
  const words = 'limit series proof lemma vector matrix gradient sample lecture exercise mentor course'.split(' ');
  for (const [i, name] of names.entries()) {
    const size = Math.round(TREE_SPEC.minBytes * (TREE_SPEC.maxBytes / TREE_SPEC.minBytes) ** (random() ** 3));
    let text = `# Note ${i}\n`;
    while (text.length < size) text += `${words[Math.floor(random() * words.length)]} `;
    mkdirSync(join(TREE, name, '..'), { recursive: true });
    writeFileSync(join(TREE, name), text.slice(0, size));
  }
  writeFileSync(marker, JSON.stringify(TREE_SPEC));
  return names;
}

interface Sandbox {
  url: string;
  org: string;
  user: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** The built sandbox server (what `npm run server` runs) in a process of its own. */
async function startSandbox(faults: string): Promise<Sandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-cli-sandbox-'));
  const child = spawn(
    process.execPath,
    ['out/main/sandbox.js', '--port', '0', '--seed', 'none', '--data', dataDir, '--faults', faults],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for await (const line of createInterface({ input: child.stdout })) {
    return {
      ...(JSON.parse(line) as Omit<Sandbox, 'stop'>),
      async stop() {
        child.kill('SIGTERM');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  throw new Error(`the sandbox did not start: ${stderr}`);
}

async function createMentor(sandbox: Sandbox, name: string): Promise<string> {
  const response = await fetch(`${sandbox.url}/api/ai-mentor/orgs/${sandbox.org}/users/${sandbox.user}/`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`creating a mentor failed: ${response.status}`);
  return ((await response.json()) as { unique_id: string }).unique_id;
}

/** The baseline: plain `fetch` multipart uploads, `concurrency` at a time; answers ms. */
async function plainUploads(sandbox: Sandbox, pathway: string, names: string[], concurrency: number) {
  const url = `${sandbox.url}/api/ai-index/orgs/${sandbox.org}/users/${sandbox.user}/documents/train/`;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const form = new FormData();
        form.set('file', await openAsBlob(join(TREE, name)), name);
        form.set('pathway', pathway);
        form.set('type', 'md');
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Api-Key ${sandbox.apiKey}` },
          body: form,
        });
        const body = await response.text();
        if (!response.ok) throw new Error(`upload answered ${response.status}: ${body}`);
      }
    }),
  );
  return performance.now() - started;
}

/** `mentor-admin train TREE --mentor ID` as a whole process (spawn to exit); answers ms and its summary. */
function cliTrain(
  mentor: string,
  env: NodeJS.ProcessEnv,
  options: string[] = [],
): Promise<{ ms: number; summary: Record<string, number> }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, '--json', 'train', TREE, '--mentor', mentor, ...options], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return fail(new Error(`mentor-admin train exited ${code}: ${stderr.slice(-2000)}`));
      done({ ms, summary: JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number> });
    });
  });
}

async function measureTrain(log: Log, results: BenchResult[]) {
  const names = notesTree(log);
  const sandbox = await startSandbox('latency=40-40ms');
  const home = mkdtempSync(join(tmpdir(), 'bench-cli-train-'));
  try {
    const env = benchEnv(home, { MENTOR_ADMIN_API_KEY: sandbox.apiKey });
    timed(
      [
        BIN,
        'profile',
        'add',
        'Bench',
        '--url',
        sandbox.url,
        '--org',
        sandbox.org,
        '--user',
        sandbox.user,
        '--activate',
      ],
      env,
    );
    let mentors = 0;
    const fetchRun = async () =>
      plainUploads(sandbox, await createMentor(sandbox, `Fetch ${mentors++}`), names, CONCURRENCY);
    const cliRun = async (options: string[] = []) => {
      const { ms, summary } = await cliTrain(await createMentor(sandbox, `CLI ${mentors++}`), env, options);
      if (summary.uploaded !== names.length || summary.failed) log(`  warning: ${JSON.stringify(summary)}`);
      return ms;
    };
    const fixedRun = () => cliRun(['--concurrency', String(CONCURRENCY)]);
    // F X C C X F F X C (X: the command at the loop's concurrency): each runs early, in the middle and late alike.
    const fetches = [await fetchRun()];
    const fixed = [await fixedRun()];
    const clis = [await cliRun(), await cliRun()];
    fixed.push(await fixedRun());
    fetches.push(await fetchRun(), await fetchRun());
    fixed.push(await fixedRun());
    clis.push(await cliRun());
    const sequential = await plainUploads(sandbox, await createMentor(sandbox, 'One at a time'), names, 1);
    const seconds = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(2)).join(' + ');
    log(
      `  ${names.length} files, 40 ms round trip: mentor-admin train ${seconds(clis)} s, ` +
        `with --concurrency ${CONCURRENCY} ${seconds(fixed)} s; ${CONCURRENCY} fetches at once ${seconds(fetches)} s; ` +
        `one at a time ${(sequential / 1000).toFixed(1)} s`,
    );
    log(`  at equal concurrency (${CONCURRENCY}): fetch ÷ command ${round(sum(fetches) / sum(fixed))}`);
    results.push(
      { name: 'cli.train_vs_fetch', value: round(sum(fetches) / sum(clis)), unit: 'ratio', goal: '>= 0.9' },
      { name: 'cli.train_vs_sdk', value: round(sequential / median(clis)), unit: 'x', goal: '>= 4' },
    );
  } finally {
    await sandbox.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run(
  log: Log = (line) => process.stderr.write(`${line}\n`),
  only: string[] = metrics,
): Promise<BenchResult[]> {
  // What users run is the build: made (or found current) before anything is timed.
  await ensureBuilt(['main'], { log });
  const results: BenchResult[] = [];
  if (only.includes('cli.start_ms')) await measureStart(log, results);
  if (only.some((name) => name.startsWith('cli.train'))) await measureTrain(log, results);
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run()) process.stdout.write(`${JSON.stringify(result)}\n`);
}
