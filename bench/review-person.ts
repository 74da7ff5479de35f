/**
 * A learner's data export (issue 18), over one person with 50,000 chat messages (2,500 conversations of 20):
 * - `review.person_export_vs_raw`: CPU time of bare paged GETs of their chat history (the same pages the export
 *   reads, each answer parsed) ÷ CPU time of the whole `person-export` job (every dataset, the journal, the CSVs, the
 *   deterministic zip). Each side runs in its own child process; a side's CPU (user + system) is its child's from
 *   the start of its work to its end plus the sandbox's over the same span (the sandbox runs in this process, which
 *   does nothing else then; the child says START and END on its stdout), as the other CPU benches count it: the
 *   platform's work of serving the pages is part of either side. The client-only ratio is logged beside. The pairs
 *   alternate five times; the median ratio stands.
 *
 * `npx tsx bench/review-person.ts` prints one JSON object per line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Engine } from '../src/main/engine';
import { startSandbox } from '../src/server/app';
import type { Db } from '../src/server/db';
import { ROOT } from './lib/large';
import { median, type BenchResult, type Log } from './lib/suite';

export const metrics = ['review.person_export_vs_raw'];

const SELF = fileURLToPath(import.meta.url);
const PERSON = 'bench-learner';
const CONVERSATIONS = 2_500;
const MESSAGES = 20;
/** Conversations per page, as the export reads them. */
const PAGE_SIZE = 100;

interface Target {
  url: string;
  org: string;
  user: string;
  key: string;
}
interface ChildResult {
  cpuMs: number;
  messages: number;
  /** The sandbox's CPU between the child's START and END (this process). */
  sandboxMs: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function child(mode: 'export' | 'baseline', target: Target): Promise<ChildResult> {
  return new Promise((resolveChild, reject) => {
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const proc = spawn(process.execPath, [tsx, SELF, '--child', mode, JSON.stringify(target)], {
      cwd: ROOT,
      env: { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    let since: NodeJS.CpuUsage | null = null;
    let sandboxMs = 0;
    proc.stdout.on('data', (c) => {
      out += c;
      if (!since && out.includes('START\n')) since = process.cpuUsage();
      if (since && !sandboxMs && out.includes('END\n')) sandboxMs = cpuMs(since);
    });
    proc.on('error', reject);
    proc.on('close', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line || !sandboxMs) return reject(new Error(`${mode} child failed (${code}): ${out}`));
      resolveChild({ ...(JSON.parse(line) as Omit<ChildResult, 'sandboxMs'>), sandboxMs });
    });
  });
}

/** The bare baseline: the person's chat history, page by page, each answer parsed; nothing kept. */
async function childBaseline(target: Target): Promise<Omit<ChildResult, 'sandboxMs'>> {
  const get = async (page: number) => {
    const url = `${target.url}/api/ai-analytics/orgs/${target.org}/users/${target.user}/chat-history/?filter_user_id=${PERSON}&page=${page}&page_size=${PAGE_SIZE}`;
    const answer = await fetch(url, { headers: { authorization: `Api-Key ${target.key}` } });
    return (await answer.json()) as { next: string | null; results: { messages: string }[] };
  };
  await get(1); // warm-up, as the export's child does one
  process.stdout.write('START\n');
  const since = process.cpuUsage();
  let messages = 0;
  await profiled('baseline', async () => {
    for (let page = 1; ; page++) {
      const body = await get(page);
      for (const conversation of body.results) messages += (JSON.parse(conversation.messages) as unknown[]).length;
      if (!body.next) break;
    }
  });
  const used = cpuMs(since);
  process.stdout.write('END\n');
  return { cpuMs: used, messages };
}

/**
 * BENCH_PROFILE=DIR writes each child's V8 CPU profile of its timed span to DIR/<side>-<pid>.cpuprofile (open it in
 * DevTools' Performance panel or speedscope); the readings are then not comparable.
 */
async function profiled<T>(side: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  const result = await work();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(dir, `${side}-${process.pid}.cpuprofile`), JSON.stringify(profile));
  session.disconnect();
  return result;
}

function settle(engine: Engine, id: string): Promise<string> {
  return new Promise((done) => {
    const timer = setInterval(
      () =>
        void engine.invoke('jobs.get', { id }).then((job) => {
          if (!['completed', 'failed', 'cancelled'].includes(job.state)) return;
          clearInterval(timer);
          done(job.state === 'completed' ? job.state : `${job.state}: ${job.error ?? ''}`);
        }),
      20,
    );
  });
}

async function childExport(target: Target): Promise<Omit<ChildResult, 'sandboxMs'>> {
  const { createEngine, shellPreset } = await import('../src/main/engine');
  const dir = mkdtempSync(join(tmpdir(), 'mentor-admin-bench-'));
  try {
    const engine = await createEngine({
      ...shellPreset('cli'),
      dataDir: dir,
      resumeJobs: false,
      env: { MENTOR_ADMIN_API_KEY: target.key, MENTOR_ADMIN_SANDBOX: 'off' },
    });
    await engine.invoke('profiles.add', {
      name: 'Bench',
      baseUrl: target.url,
      org: target.org,
      username: target.user,
      makeActive: true,
    });
    // A warm-up export of someone with little data: the timed one pays no one-off costs of a fresh process.
    const warm = await engine.invoke('person.export', { user: 'bench-warm', path: join(dir, 'warm.zip') });
    await settle(engine, warm.jobId);
    process.stdout.write('START\n');
    const since = process.cpuUsage();
    const { started, state } = await profiled('export', async () => {
      const started = await engine.invoke('person.export', { user: PERSON, path: join(dir, 'person.zip') });
      return { started, state: await settle(engine, started.jobId) };
    });
    const used = cpuMs(since);
    process.stdout.write('END\n');
    if (state !== 'completed') throw new Error(`the export ended ${state}`);
    const job = await engine.invoke('jobs.get', { id: started.jobId });
    process.stderr.write(`  zip ${(statSync(join(dir, 'person.zip')).size / 1e6).toFixed(1)} MB\n`);
    await engine.close();
    return { cpuMs: used, messages: (job.counts.rows ?? 0) as number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The person: 2,500 conversations of 20 messages with one mentor; and a learner with one, for the warm-up. */
function seed(db: Db, org: string): void {
  const at = (i: number) => new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString();
  const user = db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
     VALUES (?, ?, 'Bench', 'Learner', ?, 'student', ?)`,
  );
  const session = db.prepare(
    `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, user_id, username, email, started_at, ended_at,
       model, provider, message_count, user_message_count)
     VALUES (?, ?, '00000000-0000-4000-8000-00000000beef', ?, ?, ?, ?, ?, 'gpt-4o', 'openai', ?, ?)`,
  );
  const message = db.prepare('INSERT INTO chat_messages (session_pk, role, content, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const [username, conversations] of [
      [PERSON, CONVERSATIONS],
      ['bench-warm', 1],
    ] as const) {
      const email = `${username}@example.org`;
      const id = Number(user.run(username, email, org, at(0)).lastInsertRowid);
      for (let c = 0; c < conversations; c++) {
        const sessionId = `${String(id).padStart(8, '0')}-0000-4000-8000-${String(c).padStart(12, '0')}`;
        const pk = session.run(
          sessionId,
          org,
          id,
          username,
          email,
          at(c),
          at(c + 1),
          MESSAGES,
          MESSAGES / 2,
        ).lastInsertRowid;
        for (let m = 0; m < MESSAGES; m++)
          message.run(
            pk,
            m % 2 ? 'assistant' : 'user',
            `Message ${m} of conversation ${c}: how do fractions add?`,
            at(c),
          );
      }
    }
  })();
}

export async function run(log: Log): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mentor-admin-bench-sandbox-'));
  const server = await startSandbox({ dataDir, seed: 'none', log: () => {} });
  try {
    seed(server.db, server.org);
    const target = { url: server.url, org: server.org, user: server.user, key: server.apiKey };
    const ratios: number[] = [];
    const clientRatios: number[] = [];
    for (let pair = 0; pair < 5; pair++) {
      const bare = await child('baseline', target);
      const ours = await child('export', target);
      if (bare.messages !== CONVERSATIONS * MESSAGES) throw new Error(`the baseline saw ${bare.messages} messages`);
      ratios.push((bare.cpuMs + bare.sandboxMs) / (ours.cpuMs + ours.sandboxMs));
      clientRatios.push(bare.cpuMs / ours.cpuMs);
      log(
        `pair ${pair + 1}: export ${Math.round(ours.cpuMs)} + sandbox ${Math.round(ours.sandboxMs)} ms CPU ` +
          `(${ours.messages} rows), bare GETs ${Math.round(bare.cpuMs)} + sandbox ${Math.round(bare.sandboxMs)} ms CPU`,
      );
    }
    log(`client CPU only: median ratio ${median(clientRatios).toFixed(2)}`);
    return [
      {
        name: 'review.person_export_vs_raw',
        value: Math.round(median(ratios) * 100) / 100,
        unit: 'ratio',
        goal: '>= 0.8',
      },
    ];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const index = process.argv.indexOf('--child');
  if (index >= 0) {
    const mode = process.argv[index + 1];
    const target = JSON.parse(process.argv[index + 2]!) as Target;
    const result = mode === 'baseline' ? await childBaseline(target) : await childExport(target);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  } else {
    for (const result of await run((line) => process.stderr.write(`${line}\n`))) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    }
  }
}
