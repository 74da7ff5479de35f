/**
 * The ticket queue over the sandbox seeded `large` (100,000 tickets, ~620,000 messages):
 *   tickets.sync_100k_s          first sync of every ticket into an empty cache (the sandbox in its own process)
 *   tickets.search_p95_ms        p95 of `tickets.list` with a search over the full cache (tickets and threads)
 *   tickets.open_ms              key press to a cached ticket and its thread rendered in Chromium (median of 20)
 *   tickets.scroll_long_task_ms  longest main-thread task while scrolling the 100,000-row list (PerformanceObserver)
 *
 * The large data set is generated once and reused: `.bench-data/tickets-large` (copied from `.bench-data/large` when
 * another suite made it). The fully synced engine cache (threads too, which take a minute or two to backfill) is
 * kept in `.bench-data/tickets-engine` for the search and browser measurements.
 *
 * `npx tsx bench/tickets.ts [--only sync,search,open,scroll]` prints one JSON object per line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createEngine } from '../src/main/engine';
import { defaultMigrationsDir } from '../src/main/engine/store/database';
import { loadMigrations } from '../src/main/engine/store/migrations';
import { BENCH_DATA, generateLarge, LARGE_DATA_DIR, ROOT } from './lib/large';
import { percentile, type BenchResult, type Log } from './lib/suite';
import { searchQueries } from './tickets-queries';

const DATA_DIR = join(BENCH_DATA, 'tickets-large');
const ENGINE_DIR = join(BENCH_DATA, 'tickets-engine');
const ENGINE_MARKER = join(ENGINE_DIR, 'complete.json');

/** The large sandbox data: ours, else a copy of the shared one, else generated once. */
async function largeData(log: Log): Promise<void> {
  if (existsSync(join(DATA_DIR, 'generated.json'))) return;
  rmSync(DATA_DIR, { recursive: true, force: true });
  if (existsSync(join(LARGE_DATA_DIR, 'generated.json'))) {
    log('copying .bench-data/large to .bench-data/tickets-large (once)…');
    cpSync(LARGE_DATA_DIR, DATA_DIR, { recursive: true });
    return;
  }
  const seconds = await generateLarge(DATA_DIR, log);
  writeFileSync(join(DATA_DIR, 'generated.json'), JSON.stringify({ seconds }));
}

interface ServerProcess {
  url: string;
  org: string;
  user: string;
  apiKey: string;
  child: ChildProcess;
}

/** The sandbox as the app runs it: its own process (so the engine and the server do not share a thread). */
async function startServer(): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--data', DATA_DIR, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`the sandbox exited (${code})`)));
  });
  const info = JSON.parse(first) as Omit<ServerProcess, 'child'>;
  return { ...info, child };
}

async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  await exited;
}

async function engineFor(dataDir: string, server: Pick<ServerProcess, 'url' | 'org' | 'user' | 'apiKey'>) {
  const engine = await createEngine({
    dataDir,
    shell: 'test',
    keychainService: `mentor-admin-bench-${process.pid}`,
    env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
  });
  const existing = (await engine.invoke('profiles.list', {}))[0];
  if (existing) {
    await engine.invoke('profiles.update', { id: existing.id, baseUrl: server.url });
    return { engine, profileId: existing.id };
  }
  const profile = await engine.invoke('profiles.add', {
    name: 'Large sandbox',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  return { engine, profileId: profile.id };
}

/** The kept cache is usable while the tickets migration it was made with is unchanged. */
function keptCacheUsable(): boolean {
  if (!existsSync(ENGINE_MARKER)) return false;
  const ours = loadMigrations(defaultMigrationsDir()).find((m) => m.name === 'tickets');
  const db = new Database(join(ENGINE_DIR, 'mentor-admin.sqlite'), { readonly: true });
  try {
    const recorded = db.prepare(`SELECT version, sha256 FROM schema_migrations WHERE name = 'tickets'`).get() as
      { version: number; sha256: string } | undefined;
    return !!ours && !!recorded && recorded.sha256 === ours.sha256 && recorded.version === ours.version;
  } finally {
    db.close();
  }
}

/**
 * A working copy of the kept cache for this build: a fresh engine database (every current migration; other areas'
 * change while the app is developed) with the tickets tables — the search index's own tables included — copied in.
 */
export async function workingCache(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tickets-bench-copy-'));
  const fresh = await createEngine({
    dataDir: dir,
    shell: 'test',
    keychainService: `mentor-admin-bench-${process.pid}`,
    env: { MENTOR_ADMIN_SANDBOX: 'off' },
  });
  await fresh.close();
  const db = new Database(join(dir, 'mentor-admin.sqlite'));
  // The search index's own tables are read-only in SQLite's defensive mode.
  db.unsafeMode(true);
  try {
    db.prepare('ATTACH DATABASE ? AS kept').run(join(ENGINE_DIR, 'mentor-admin.sqlite'));
    const tables = (
      db
        .prepare(
          `SELECT name FROM kept.sqlite_master WHERE type = 'table'
           AND (name = 'profiles' OR (name LIKE 'ticket%' AND name <> 'ticket_fts'))`,
        )
        .pluck()
        .all() as string[]
    ).sort((a, b) => (a === 'profiles' ? -1 : b === 'profiles' ? 1 : a.localeCompare(b)));
    db.transaction(() => {
      for (const table of tables) {
        const columns = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[])
          .map((c) => `"${c}"`)
          .join(', ');
        db.exec(
          `DELETE FROM main."${table}"; INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM kept."${table}"`,
        );
      }
    })();
    db.exec('DETACH DATABASE kept');
  } catch (error) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  db.close();
  return dir;
}

/** First sync into an empty cache; then (once) the threads are backfilled and the cache kept for the other figures. */
async function measureSync(server: ServerProcess, log: Log): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'tickets-bench-'));
  const { engine } = await engineFor(dir, server);
  let keep = false;
  try {
    const started = performance.now();
    const status = await engine.invoke('tickets.sync', { wait: true });
    const seconds = (performance.now() - started) / 1000;
    if (status.state !== 'idle' || status.total < 100_000)
      throw new Error(`sync ended ${status.state}: ${status.message}`);
    const count = (await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'all')!.count;
    log(`synced ${count} tickets in ${seconds.toFixed(1)} s`);
    if (!keptCacheUsable()) {
      log('backfilling every thread for the search and browser figures (once, a minute or two)…');
      for (;;) {
        const now = await engine.invoke('tickets.status', {});
        if (now.threadsCached >= 0.999) break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      keep = true;
    }
    return seconds;
  } finally {
    await engine.close();
    if (keep) {
      rmSync(ENGINE_DIR, { recursive: true, force: true });
      renameSync(dir, ENGINE_DIR);
      writeFileSync(ENGINE_MARKER, JSON.stringify({ at: new Date().toISOString() }));
    } else rmSync(dir, { recursive: true, force: true });
  }
}

async function measureSearch(dir: string, log: Log): Promise<number> {
  const { engine } = await engineFor(dir, { url: 'http://127.0.0.1:9', org: 'x', user: 'x', apiKey: 'x' });
  try {
    const views = ['open', 'all', 'in_progress', 'closed'] as const;
    const queries = searchQueries();
    for (const q of queries.slice(0, 10)) await engine.invoke('tickets.list', { view: 'all', search: q, limit: 100 });
    const times: number[] = [];
    let i = 0;
    for (const search of queries) {
      const started = performance.now();
      await engine.invoke('tickets.list', { view: views[i++ % views.length]!, search, limit: 100 });
      times.push(performance.now() - started);
    }
    log(
      `search: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
    return percentile(times, 95);
  } finally {
    await engine.close();
  }
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The figures this suite reports (`npm run bench -- open_ms` runs only that part). */
export const metrics = [
  'tickets.sync_100k_s',
  'tickets.search_p95_ms',
  'tickets.open_ms',
  'tickets.scroll_long_task_ms',
];
const PARTS = ['sync', 'search', 'open', 'scroll'];

export async function run(
  log: Log = (line) => process.stderr.write(`${line}\n`),
  wanted: string[] = PARTS,
): Promise<BenchResult[]> {
  // Parts by short name (sync, search, open, scroll) or by metric name.
  const only = PARTS.filter((part) => wanted.some((w) => w === part || (w.startsWith('tickets.') && w.includes(part))));
  await largeData(log);
  const results: BenchResult[] = [];
  if (only.includes('sync') || !keptCacheUsable()) {
    const server = await startServer();
    try {
      const seconds = await measureSync(server, log);
      if (only.includes('sync'))
        results.push({ name: 'tickets.sync_100k_s', value: round(seconds), unit: 's', goal: '<= 15' });
    } finally {
      await stopServer(server);
    }
  }
  if (!only.some((name) => ['search', 'open', 'scroll'].includes(name))) return results;
  const dir = await workingCache();
  try {
    if (only.includes('search')) {
      results.push({
        name: 'tickets.search_p95_ms',
        value: round(await measureSearch(dir, log)),
        unit: 'ms',
        goal: '<= 30',
      });
    }
    if (only.includes('open') || only.includes('scroll')) {
      const { browserFigures } = await import('./tickets-browser.js');
      results.push(...(await browserFigures(dir, only, log)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--only');
  const only = at > 0 ? process.argv[at + 1]!.split(',') : undefined;
  for (const result of await run(undefined, only)) process.stdout.write(`${JSON.stringify(result)}\n`);
}
