/**
 * Training benchmarks (issue 4), each a ratio against a bare baseline measured in this same process:
 *
 * - train.vs_raw: upload-phase throughput of a real `train` job (5,000 files of 1 KB–1 MB, ~250 MB) ÷ plain
 *   concurrent `fetch` uploads of the same files at the same concurrency (4), each against a fresh sandbox.
 * - train.vs_sequential: with the sandbox adding a 40 ms round trip, the job's upload phase (concurrency 8) against
 *   uploading the same 200 files one at a time, as the vendor SDK does.
 * - scan.vs_find: walking and classifying a 100,000-entry tree (the preview's first stage: names, types, globs;
 *   sizes come from the hashing pass that opens each file anyway) ÷ `find` on it.
 * - hash.vs_sha256sum: the preview's hashing pass (SHA-256, 4 files at once) ÷ `sha256sum` on the same files.
 * - train.cpu_per_file_vs_raw: the engine's CPU time per uploaded file in those same runs ÷ the plain `fetch` loop's,
 *   both by `process.cpuUsage()` (CPU time does not swing with other load the way wall time does).
 * - train.loop_lag_p99_ms: event-loop delay p99 of this process (the engine's) during the 250 MB job.
 * - train.resume_duplicates: documents uploaded twice after `mentor-admin train` is SIGKILLed mid-job and the job
 *   is finished with `mentor-admin jobs resume`.
 *
 * The sandbox runs as its own process so it does not share the engine's event loop. The trees are generated once
 * into .bench-data/ (gitignored) and reused. `npx tsx bench/train.ts` runs it alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../src/main/engine';
import type { SecretStore } from '../src/main/engine/secrets/keychain';
import { classifyByName, globFilter } from '../src/main/engine/train/classify';
import { HASH_BUFFER_BYTES, inspectFile } from '../src/main/engine/train/hash';
import { TaskPool } from '../src/main/engine/train/pool';
import { HASH_CONCURRENCY, resolveRoots } from '../src/main/engine/train/preview';
import { scanRoots } from '../src/main/engine/train/scan';
import type { BenchResult, Log } from './lib/suite';
import { median } from './lib/suite';

export const metrics = [
  'train.vs_raw',
  'train.cpu_per_file_vs_raw',
  'train.vs_sequential',
  'scan.vs_find',
  'hash.vs_sha256sum',
  'train.loop_lag_p99_ms',
  'train.resume_duplicates',
];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const BENCH = join(ROOT, '.bench-data');
const TREE = join(BENCH, 'train-tree');
const SCAN_TREE = join(BENCH, 'scan-tree');
const TREE_SPEC = { files: 5000, units: 50, minBytes: 1024, maxBytes: 1024 * 1024, exponent: 3.2, seed: 4 };
const SCAN_SPEC = { folders: 1000, filesPerFolder: 99, seed: 1 };
const CONCURRENCY = 4;
const SEQUENTIAL_UNITS = ['unit-00', 'unit-01'];
const RESUME_UNITS = ['unit-02', 'unit-03', 'unit-04'];

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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

interface TreeFile {
  path: string;
  relativePath: string;
  type: string;
  size: number;
}

/** 5,000 course-note files of 1 KB–1 MB (most small, a few large; ~250 MB), generated once. */
function trainTree(log: Log): TreeFile[] {
  const marker = join(TREE, '.spec.json');
  const listing = join(BENCH, 'train-tree.json');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === JSON.stringify(TREE_SPEC) && existsSync(listing)) {
    return JSON.parse(readFileSync(listing, 'utf8')) as TreeFile[];
  }
  log('generating .bench-data/train-tree (once)…');
  const random = rng(TREE_SPEC.seed);
  const words = (
    'limit derivative integral series sequence function continuity theorem proof lemma vector matrix eigenvalue ' +
    'probability variance estimate sample hypothesis gradient optimum convex lecture exercise solution example ' +
    'chapter review notes week mentor student course syllabus reading assignment quiz exam answer question'
  ).split(' ');
  const lines: string[] = [];
  let textLength = 0;
  while (textLength < 4 * 1024 * 1024) {
    const count = 6 + Math.floor(random() * 12);
    const line = `${Array.from({ length: count }, () => words[Math.floor(random() * words.length)]).join(' ')}.\n`;
    lines.push(line);
    textLength += line.length;
  }
  const text = Buffer.from(lines.join(''));
  const temp = `${TREE}.partial`;
  rmSync(temp, { recursive: true, force: true });
  const files: TreeFile[] = [];
  for (let i = 0; i < TREE_SPEC.files; i++) {
    const unit = `unit-${String(i % TREE_SPEC.units).padStart(2, '0')}`;
    const type = i % 3 === 0 ? 'txt' : 'md';
    const name = `notes-${String(i).padStart(4, '0')}.${type}`;
    const span = TREE_SPEC.maxBytes / TREE_SPEC.minBytes;
    const size = Math.round(TREE_SPEC.minBytes * span ** (random() ** TREE_SPEC.exponent));
    const header = Buffer.from(`# ${unit} note ${i}\n`);
    const offset = Math.floor(random() * (text.length - size));
    const body = Buffer.concat([header, text.subarray(offset, offset + Math.max(0, size - header.length))]);
    mkdirSync(join(temp, unit), { recursive: true });
    writeFileSync(join(temp, unit, name), body);
    files.push({ path: join(TREE, unit, name), relativePath: `train-tree/${unit}/${name}`, type, size: body.length });
  }
  rmSync(TREE, { recursive: true, force: true });
  renameSync(temp, TREE);
  writeFileSync(marker, JSON.stringify(TREE_SPEC));
  writeFileSync(listing, JSON.stringify(files));
  log(`  ${files.length} files, ${mb(files.reduce((sum, f) => sum + f.size, 0))}`);
  return files;
}

/** 1,000 folders × 99 files (+ the folders: 100,000 entries): notes, some images, some hidden files. */
function scanTree(log: Log): void {
  const marker = join(SCAN_TREE, '.spec.json');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === JSON.stringify(SCAN_SPEC)) return;
  log('generating .bench-data/scan-tree (once)…');
  const temp = `${SCAN_TREE}.partial`;
  rmSync(temp, { recursive: true, force: true });
  for (let d = 0; d < SCAN_SPEC.folders; d++) {
    const dir = join(temp, `part-${Math.floor(d / 50)}`, `folder-${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < SCAN_SPEC.filesPerFolder; f++) {
      const name =
        f % 20 === 19 ? `.hidden-${f}.md` : f % 10 === 7 ? `figure-${f}.png` : `notes-${f}.${f % 2 ? 'md' : 'txt'}`;
      writeFileSync(join(dir, name), `${d}/${f}\n`);
    }
  }
  rmSync(SCAN_TREE, { recursive: true, force: true });
  renameSync(temp, SCAN_TREE);
  writeFileSync(marker, JSON.stringify(SCAN_SPEC));
}

interface ServerProcess {
  url: string;
  org: string;
  user: string;
  apiKey: string;
  stop(): Promise<void>;
}

async function startServer(faults?: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-train-sandbox-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/server/main.ts',
      '--port',
      '0',
      '--seed',
      'none',
      '--data',
      dataDir,
      ...(faults ? ['--faults', faults] : []),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let info: Omit<ServerProcess, 'stop'> | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    info = JSON.parse(line) as Omit<ServerProcess, 'stop'>;
    break;
  }
  if (!info) throw new Error(`the sandbox did not start: ${stderr}`);
  return {
    ...info,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const authOf = (server: ServerProcess) => ({ authorization: `Api-Key ${server.apiKey}` });
const documentsUrl = (server: ServerProcess) =>
  `${server.url}/api/ai-index/orgs/${server.org}/users/${server.user}/documents/`;

async function createMentor(server: ServerProcess, name: string): Promise<string> {
  const response = await fetch(`${server.url}/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    method: 'POST',
    headers: { ...authOf(server), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`creating a mentor failed: ${response.status}`);
  return ((await response.json()) as { unique_id: string }).unique_id;
}

async function listDocuments(server: ServerProcess, pathway: string) {
  const documents: { id: number; document_name: string; content_hash: string | null }[] = [];
  for (let offset = 0; ; offset += 100) {
    const response = await fetch(`${documentsUrl(server)}pathways/${pathway}/?limit=100&offset=${offset}`, {
      headers: authOf(server),
    });
    const page = (await response.json()) as { results: typeof documents; next: string | null };
    documents.push(...page.results);
    if (!page.next) return documents;
  }
}

async function documentCount(server: ServerProcess, pathway: string): Promise<number> {
  const response = await fetch(`${documentsUrl(server)}pathways/${pathway}/?limit=1`, { headers: authOf(server) });
  return ((await response.json()) as { count: number }).count;
}

/** The baseline: plain `fetch` multipart uploads, `concurrency` at a time; answers seconds. */
async function plainUploads(server: ServerProcess, pathway: string, files: TreeFile[], concurrency: number) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        const form = new FormData();
        form.set('file', await openAsBlob(file.path), file.relativePath);
        form.set('pathway', pathway);
        form.set('type', file.type);
        const response = await fetch(`${documentsUrl(server)}train/`, {
          method: 'POST',
          headers: authOf(server),
          body: form,
        });
        const body = await response.text();
        if (!response.ok) throw new Error(`upload answered ${response.status}: ${body}`);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

function memorySecrets(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    status: async () => ({ available: true, message: 'in memory (benchmark)' }),
  };
}

async function benchEngine(server: ServerProcess): Promise<{ engine: Engine; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-train-engine-'));
  const engine = await createEngine({ dataDir, shell: 'test', env: {}, secrets: memorySecrets() });
  await engine.invoke('profiles.add', {
    name: 'Bench',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    secret: server.apiKey,
    makeActive: true,
  });
  return { engine, dataDir };
}

/**
 * A real training job over `paths`: preview (not timed; the admin's confirmation), then the upload phase from
 * train.start until every file is acknowledged. The job is then cancelled (the platform keeps training).
 */
async function engineUploads(
  server: ServerProcess,
  mentor: string,
  paths: string[],
  concurrency: number,
  expected: number,
  log: Log,
) {
  const { engine, dataDir } = await benchEngine(server);
  try {
    const preview = await engine.invoke('train.preview', { mentor, paths });
    if (preview.toSend.files !== expected) {
      throw new Error(`the preview would send ${preview.toSend.files} files, expected ${expected}`);
    }
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpu = cpuMs();
    const started = performance.now();
    const { jobId } = await engine.invoke('train.start', { previewId: preview.id, concurrency });
    // Journalling (train.start) plus the job's own measure of its upload phase, which it records when the last
    // file is answered; looked at twice a second so that watching costs the engine nothing worth counting.
    const journalled = performance.now() - started;
    let job = await engine.invoke('jobs.get', { id: jobId });
    while (job.counts.uploadMs === undefined) {
      if (['failed', 'cancelled', 'paused'].includes(job.state)) {
        throw new Error(`the job ended ${job.state}: ${job.error ?? job.reason}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await engine.invoke('jobs.get', { id: jobId });
    }
    lag.disable();
    const seconds = (journalled + job.counts.uploadMs) / 1000;
    if ((job.counts.uploaded ?? 0) < expected) log(`  warning: ${job.counts.uploaded} of ${expected} uploaded`);
    if (job.counts.failed) log(`  warning: ${job.counts.failed} uploads failed`);
    await engine.invoke('jobs.cancel', { id: jobId });
    return { seconds, cpuMs: cpuMs() - cpu, lagP99Ms: lag.percentile(99) / 1e6, lagMaxMs: lag.max / 1e6 };
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU time of this process (engine or baseline) in ms. */
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * Baseline and job alternate (baseline, job, job, baseline, baseline, job), each against a fresh sandbox, so that a
 * drift in what else the machine is doing weighs on both alike; the ratio is of the summed times.
 */
async function measureRawVsEngine(files: TreeFile[], log: Log, results: BenchResult[], only: string[]) {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const rawRun = async () => {
    const server = await startServer();
    try {
      const pathway = await createMentor(server, 'Raw baseline');
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const cpu = cpuMs();
      const seconds = await plainUploads(server, pathway, files, CONCURRENCY);
      lag.disable();
      return { seconds, cpuMs: cpuMs() - cpu, lagP99Ms: lag.percentile(99) / 1e6 };
    } finally {
      await server.stop();
    }
  };
  const engineRun = async () => {
    const server = await startServer();
    try {
      return await engineUploads(server, await createMentor(server, 'Engine'), [TREE], CONCURRENCY, files.length, log);
    } finally {
      await server.stop();
    }
  };
  // Three of each in the order R J J R R J: each side runs early, in the middle and late alike.
  const raws = [await rawRun()];
  const jobs = [await engineRun(), await engineRun()];
  raws.push(await rawRun(), await rawRun());
  jobs.push(await engineRun());
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const rawSeconds = sum(raws.map((r) => r.seconds));
  const jobSeconds = sum(jobs.map((r) => r.seconds));
  const perFile = (ms: number) => (ms / files.length / raws.length).toFixed(2);
  log(
    `  ${files.length} files, ${mb(bytes)}, ${CONCURRENCY} at once: plain fetch ${raws.map((r) => r.seconds.toFixed(1)).join(' + ')} s ` +
      `(${mb((raws.length * bytes) / rawSeconds)}/s, ${perFile(sum(raws.map((r) => r.cpuMs)))} ms CPU per file); ` +
      `train job ${jobs.map((r) => r.seconds.toFixed(1)).join(' + ')} s (${mb((jobs.length * bytes) / jobSeconds)}/s, ` +
      `${perFile(sum(jobs.map((r) => r.cpuMs)))} ms CPU per file)`,
  );
  const lagP99 = Math.max(...jobs.map((r) => r.lagP99Ms));
  log(
    `  event loop p99 during the jobs ${jobs.map((r) => r.lagP99Ms.toFixed(1)).join(', ')} ms (max ` +
      `${jobs.map((r) => r.lagMaxMs.toFixed(0)).join(', ')} ms); during the plain uploads, for scale, ` +
      `${raws.map((r) => r.lagP99Ms.toFixed(1)).join(', ')} ms`,
  );
  if (only.includes('train.vs_raw')) {
    results.push({ name: 'train.vs_raw', value: round(rawSeconds / jobSeconds), unit: 'ratio', goal: '>= 0.9' });
  }
  if (only.includes('train.cpu_per_file_vs_raw')) {
    const cpuOf = (runs: { cpuMs: number }[]) => sum(runs.map((r) => r.cpuMs)) / runs.length / files.length;
    results.push({
      name: 'train.cpu_per_file_vs_raw',
      value: round(cpuOf(jobs) / cpuOf(raws)),
      unit: 'ratio',
      goal: '<= 1.3',
    });
  }
  if (only.includes('train.loop_lag_p99_ms')) {
    results.push({ name: 'train.loop_lag_p99_ms', value: round(lagP99, 1), unit: 'ms', goal: '<= 50' });
  }
}

async function measureSequential(files: TreeFile[], log: Log, results: BenchResult[]) {
  const subset = files.filter((file) => SEQUENTIAL_UNITS.some((unit) => file.relativePath.includes(`/${unit}/`)));
  const server = await startServer('latency=40-40ms');
  try {
    const sequential = await plainUploads(server, await createMentor(server, 'Sequential'), subset, 1);
    const engineMentor = await createMentor(server, 'Concurrent');
    const run = await engineUploads(
      server,
      engineMentor,
      SEQUENTIAL_UNITS.map((unit) => join(TREE, unit)),
      8,
      subset.length,
      log,
    );
    log(
      `  40 ms round trip, ${subset.length} files: one at a time ${sequential.toFixed(1)} s, train job (concurrency 8) ${run.seconds.toFixed(1)} s`,
    );
    results.push({ name: 'train.vs_sequential', value: round(sequential / run.seconds), unit: 'x', goal: '>= 4' });
  } finally {
    await server.stop();
  }
}

async function measureScan(log: Log, results: BenchResult[]) {
  scanTree(log);
  const findOnce = () => {
    const started = performance.now();
    const run = spawnSync('find', [SCAN_TREE], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) throw new Error('find failed');
    return performance.now() - started;
  };
  const filter = globFilter({ include: [], exclude: [] });
  const scanOnce = async () => {
    const started = performance.now();
    const roots = await resolveRoots([SCAN_TREE]);
    let entries = 0;
    const classes = new Map<string, number>();
    await scanRoots(roots, (batch) => {
      for (const entry of batch) {
        entries++;
        const verdict = entry.kind === 'file' ? classifyByName(entry.relativePath, entry.name, filter) : null;
        const name = verdict?.class ?? (entry.kind === 'file' ? 'candidate' : entry.kind);
        classes.set(name, (classes.get(name) ?? 0) + 1);
      }
    });
    return { ms: performance.now() - started, entries, classes };
  };
  findOnce();
  await scanOnce();
  const finds: number[] = [];
  const scans: number[] = [];
  let last: Awaited<ReturnType<typeof scanOnce>> | undefined;
  for (let i = 0; i < 5; i++) {
    finds.push(findOnce());
    last = await scanOnce();
    scans.push(last.ms);
  }
  log(
    `  ${last!.entries} entries (${[...last!.classes].map(([k, v]) => `${k} ${v}`).join(', ')}): ` +
      `scan+classify median ${median(scans).toFixed(0)} ms, find ${median(finds).toFixed(0)} ms`,
  );
  results.push({ name: 'scan.vs_find', value: round(median(scans) / median(finds)), unit: 'ratio', goal: '<= 3' });
}

async function measureHash(files: TreeFile[], log: Log, results: BenchResult[]) {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const sha256sum = () => {
    const started = performance.now();
    const run = spawnSync(
      'sha256sum',
      files.map((file) => file.path),
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (run.status !== 0) throw new Error('sha256sum failed');
    return performance.now() - started;
  };
  const engine = async () => {
    const started = performance.now();
    const pool = new TaskPool(HASH_CONCURRENCY);
    const buffers: Buffer[] = [];
    for (const file of files) {
      await pool.add(async () => {
        const buffer = buffers.pop() ?? Buffer.allocUnsafe(HASH_BUFFER_BYTES);
        try {
          await inspectFile(file.path, () => true, buffer);
        } finally {
          buffers.push(buffer);
        }
      });
    }
    await pool.drain();
    return performance.now() - started;
  };
  sha256sum();
  await engine();
  const theirs: number[] = [];
  const ours: number[] = [];
  for (let i = 0; i < 3; i++) {
    theirs.push(sha256sum());
    ours.push(await engine());
  }
  const rate = (ms: number) => `${mb((bytes / ms) * 1000)}/s`;
  log(`  ${files.length} files, ${mb(bytes)}: engine ${rate(median(ours))}, sha256sum ${rate(median(theirs))}`);
  results.push({
    name: 'hash.vs_sha256sum',
    value: round(median(theirs) / median(ours)),
    unit: 'ratio',
    goal: '>= 0.8',
  });
}

/** `mentor-admin train` as a real process, SIGKILLed mid-job, then `mentor-admin jobs resume`. */
async function measureResume(files: TreeFile[], log: Log, results: BenchResult[]) {
  const subset = files.filter((file) => RESUME_UNITS.some((unit) => file.relativePath.includes(`/${unit}/`)));
  const server = await startServer('latency=20-20ms');
  const home = mkdtempSync(join(tmpdir(), 'bench-train-cli-'));
  try {
    const mentor = await createMentor(server, 'Resume');
    const env = {
      ...process.env,
      MENTOR_ADMIN_HOME: home,
      MENTOR_ADMIN_API_KEY: server.apiKey,
      MENTOR_ADMIN_SANDBOX: 'off',
      MENTOR_ADMIN_KEYCHAIN_SERVICE: `mentor-admin-bench-${process.pid}`,
    };
    const cli = (args: string[]) =>
      spawn(process.execPath, ['bin/mentor-admin.mjs', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const finish = (child: ChildProcess) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const added = await finish(
      cli(['profile', 'add', 'Bench', '--url', server.url, '--org', server.org, '--user', server.user, '--activate']),
    );
    if (added.code !== 0) throw new Error(`profile add failed: ${added.stderr}`);

    const train = cli(['--json', 'train', ...RESUME_UNITS.map((unit) => join(TREE, unit)), '--mentor', mentor]);
    const trained = finish(train);
    let jobId = '';
    const lines = createInterface({ input: train.stdout! });
    lines.on('line', (line) => {
      const event = JSON.parse(line) as { event?: string; job?: string };
      if (event.event === 'started') jobId = event.job!;
    });
    const killAt = Math.round(subset.length / 3);
    for (;;) {
      if (jobId && (await documentCount(server, mentor)) >= killAt) break;
      if (train.exitCode !== null) throw new Error(`train ended before it could be killed: ${(await trained).stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    train.kill('SIGKILL');
    await trained;
    const atKill = await documentCount(server, mentor);
    const resumed = await finish(cli(['--json', 'jobs', 'resume', jobId]));
    const summary = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    const documents = await listDocuments(server, mentor);
    const unique = new Set(documents.map((doc) => `${doc.document_name} ${doc.content_hash}`));
    const duplicates = documents.length - unique.size;
    log(
      `  killed with ${atKill} of ${subset.length} documents on the platform; resumed: exit ${resumed.code}, ` +
        `${JSON.stringify(summary)}; ${documents.length} documents, ${duplicates} duplicates`,
    );
    if (documents.length !== subset.length) log(`  warning: expected ${subset.length} documents`);
    results.push({ name: 'train.resume_duplicates', value: duplicates, unit: 'documents', goal: '== 0' });
  } finally {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function run(
  log: Log = (line) => process.stderr.write(`${line}\n`),
  only: string[] = metrics,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const failures: string[] = [];
  const wants = (...names: string[]) => names.some((name) => only.includes(name));
  // A part that fails is reported and the others still run.
  const part = async (names: string[], measure: () => Promise<void>) => {
    if (!wants(...names)) return;
    try {
      await measure();
    } catch (error) {
      failures.push(names.join(', '));
      log(`  ${names.join(', ')} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  await part(['scan.vs_find'], () => measureScan(log, results));
  const files = wants(...metrics.filter((name) => name !== 'scan.vs_find')) ? trainTree(log) : [];
  await part(['hash.vs_sha256sum'], () => measureHash(files, log, results));
  await part(['train.vs_raw', 'train.cpu_per_file_vs_raw', 'train.loop_lag_p99_ms'], () =>
    measureRawVsEngine(files, log, results, only),
  );
  await part(['train.vs_sequential'], () => measureSequential(files, log, results));
  await part(['train.resume_duplicates'], () => measureResume(files, log, results));
  if (failures.length) process.exitCode = 1;
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const result of await run()) process.stdout.write(`${JSON.stringify(result)}\n`);
}
