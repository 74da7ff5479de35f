/**
 * The admin resource kit with 50,000 records of one kind (API tokens) in the sandbox, read once into the engine's
 * cache:
 *   resources.list_open_ms           the Tenant settings link clicked to the API tokens list's first row painted
 *                                    (browser mode, the built renderer in Chromium, from the cache), median of 10
 *   resources.search_p95_ms          one resources.list call with a search (a page of 25) over the 50,000 cached
 *                                    records, p95 of 200
 *   resources.declaration_lines_p50  median line count of the files of src/shared/resources/ that declare exactly
 *                                    one kind (simpleDeclarationFiles)
 *   resources.import_vs_raw          a CSV file of 10,000 domains imported (resources.import with start: read,
 *                                    checked, journalled, sent, recorded) against the same 10,000 POSTs sent bare
 *                                    (4 concurrent fetch loops, no reading, checking or journal), on one sandbox
 *                                    running as its own process; bare time / import time, medians of 5 rounds
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createEngine, type Engine } from '../src/main/engine';
import { startHost } from '../src/main/host/server';
import { launchSandbox } from '../src/main/engine/sandbox/launcher';
import { startSandbox } from '../src/server/app';
import { percentile, type BenchResult, type Log, median } from './lib/suite';
import { noKeychain } from './lib/keychain';

export const metrics = [
  'resources.list_open_ms',
  'resources.search_p95_ms',
  'resources.declaration_lines_p50',
  'resources.import_vs_raw',
];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RECORDS = 50_000;
const WORDS = ['deploy', 'nightly', 'analytics', 'export', 'lms', 'canvas', 'moodle', 'sync', 'report', 'backup'];

/**
 * A simple kind's declaration: a file beside kit.ts that declares exactly one kind (one `satisfies
 * ResourceDeclaration`). Helper modules (secrets.ts, history.ts, membership.ts, spec.ts…) declare none and files of
 * several kinds (groups.ts, rbac.ts, credentials.ts…) are not one simple kind, so neither is counted.
 */
export function simpleDeclarationFiles(folder = join(ROOT, 'src/shared/resources')): Map<string, number> {
  const files = new Map<string, number>();
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .sort()) {
    const text = readFileSync(join(folder, file), 'utf8');
    if (text.match(/satisfies ResourceDeclaration\b/g)?.length === 1)
      files.set(file, text.trimEnd().split('\n').length);
  }
  return files;
}

function declarationLines(log: Log): number {
  const files = simpleDeclarationFiles();
  log(`declaration_lines: ${[...files].map(([file, lines]) => `${file} ${lines}`).join(', ')}`);
  return median([...files.values()]);
}

async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > until) throw new Error(`Timed out waiting for: ${expression}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

export async function run(log: Log, only: string[] = metrics): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (only.includes('resources.declaration_lines_p50')) {
    results.push({
      name: 'resources.declaration_lines_p50',
      value: declarationLines(log),
      unit: 'lines',
      goal: '<= 60',
    });
  }
  if (only.includes('resources.import_vs_raw')) results.push(await importRatio(log));
  if (!only.some((name) => name === 'resources.search_p95_ms' || name === 'resources.list_open_ms')) return results;

  const dir = mkdtempSync(join(tmpdir(), 'bench-resources-'));
  const server = await startSandbox({ dataDir: join(dir, 'sandbox'), seed: 'none', log: () => {} });
  try {
    const insert = server.db.prepare('INSERT INTO api_keys (name, key, org, username, created) VALUES (?, ?, ?, ?, ?)');
    server.db.transaction(() => {
      for (let i = 0; i < RECORDS; i++) {
        const name = `${WORDS[i % WORDS.length]}-${WORDS[(i * 7) % WORDS.length]}-${String(i).padStart(5, '0')}`;
        insert.run(
          name,
          `bench-key-${i}`,
          server.org,
          server.user,
          new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        );
      }
    })();
    const engineDir = join(dir, 'engine');
    const engine = await createEngine({
      dataDir: engineDir,
      shell: 'test',
      secrets: noKeychain,
      env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
    });
    try {
      await engine.invoke('profiles.add', {
        name: 'Bench',
        baseUrl: server.url,
        org: server.org,
        username: server.user,
        makeActive: true,
      });
      const started = performance.now();
      const first = await engine.invoke('resources.list', { kind: 'api-tokens', refresh: true });
      log(`read ${first.total} API tokens into the cache in ${(performance.now() - started).toFixed(0)} ms`);

      if (only.includes('resources.search_p95_ms')) {
        const times: number[] = [];
        for (let i = 0; i < 220; i++) {
          const word = WORDS[i % WORDS.length]!;
          const search =
            i % 2
              ? word.slice(0, 3 + (i % 3))
              : `${word}-${String(i * 37)
                  .padStart(5, '0')
                  .slice(0, 3)}`;
          const at = performance.now();
          await engine.invoke('resources.list', { kind: 'api-tokens', search, pageSize: 25 });
          if (i >= 20) times.push(performance.now() - at);
        }
        const p95 = percentile(times, 95);
        log(`search: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
        results.push({ name: 'resources.search_p95_ms', value: Math.round(p95 * 10) / 10, unit: 'ms', goal: '<= 50' });
      }

      if (only.includes('resources.list_open_ms')) {
        const rendererDir = join(ROOT, 'out', 'renderer');
        if (!existsSync(join(rendererDir, 'index.html')))
          throw new Error('Build the renderer first: npx electron-vite build');
        const host = await startHost({ dataDir: engineDir, rendererDir, engine });
        const browser = await chromium.launch({
          executablePath: '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
        });
        try {
          const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
          await page.goto(`${host.url}#/jobs`);
          await page.getByRole('link', { name: 'Tenant settings' }).waitFor({ timeout: 30_000 });
          const times: number[] = [];
          for (let i = 0; i < 12; i++) {
            await page.evaluate(`(() => {
              const probe = { clickedAt: 0, paintedAt: 0 };
              window.__openProbe = probe;
              window.addEventListener('click', (event) => { probe.clickedAt = event.timeStamp; }, { capture: true, once: true });
              const observer = new MutationObserver(() => {
                if (!document.querySelector('[data-testid="resource-table"] tbody tr')) return;
                observer.disconnect();
                requestAnimationFrame(() => { probe.paintedAt = performance.now(); });
              });
              observer.observe(document.body, { subtree: true, childList: true });
            })()`);
            await page.getByRole('link', { name: 'Tenant settings' }).click();
            await waitInPage(page, 'window.__openProbe.paintedAt > 0', 30_000);
            const ms = (await page.evaluate('window.__openProbe.paintedAt - window.__openProbe.clickedAt')) as number;
            if (i >= 2) times.push(ms);
            await page.getByRole('link', { name: 'Jobs' }).click();
            await page.getByTestId('resource-table').waitFor({ state: 'detached' });
          }
          log(`list open: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
          results.push({
            name: 'resources.list_open_ms',
            value: Math.round(median(times) * 10) / 10,
            unit: 'ms',
            goal: '<= 150',
          });
        } finally {
          await browser.close();
          await host.close();
        }
      }
    } finally {
      await engine.close();
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const IMPORT_ROWS = 10_000;
const IMPORT_ROUNDS = 5;
const RAW_CONCURRENCY = 4;

interface Platform {
  url: string;
  org: string;
  user: string;
  apiKey: string;
}

/** The bare baseline: the same domains POSTed by 4 fetch loops; no file, no checks, no journal, answers unread. */
async function rawImport(server: Platform, prefix: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < IMPORT_ROWS; i = next++) {
      const res = await fetch(`${server.url}/api/core/domains/whitelist/`, {
        method: 'POST',
        headers: {
          authorization: `Api-Key ${server.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ url: `https://${prefix}-${i}.example.edu`, is_active: i % 3 !== 0 }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`baseline: ${res.status} for row ${i}`);
    }
  };
  await Promise.all(Array.from({ length: RAW_CONCURRENCY }, loop));
  return performance.now() - started;
}

/** The whole import: from the call that reads the file to the job's completion. */
async function kitImport(engine: Engine, path: string): Promise<number> {
  let jobId = '';
  const ended = new Promise<void>((resolve) => {
    const stop = engine.onEvent((name, payload) => {
      const event = payload as { id: string; state: string };
      if (name !== 'jobs.changed' || event.id !== jobId) return;
      if (['completed', 'failed', 'paused', 'cancelled'].includes(event.state)) {
        stop();
        resolve();
      }
    });
  });
  const started = performance.now();
  const preview = await engine.invoke('resources.import', { kind: 'domains', path, start: true });
  jobId = preview.job!.id;
  if ((await engine.invoke('jobs.get', { id: jobId })).state !== 'completed') await ended;
  const elapsed = performance.now() - started;
  const job = await engine.invoke('jobs.get', { id: jobId });
  if (job.state !== 'completed' || job.counts.created !== IMPORT_ROWS) {
    throw new Error(`the import ended ${job.state} with ${JSON.stringify(job.counts)}: ${job.error}`);
  }
  return elapsed;
}

/** The platform is another machine in real life: the sandbox runs as its own process, as the app starts it. */
async function importRatio(log: Log): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-resources-import-'));
  const platform = await launchSandbox({ dataDir: join(dir, 'sandbox'), parentEnv: process.env, seed: 'none' });
  const server: Platform = { url: platform.url, org: platform.org, user: platform.user, apiKey: platform.apiKey };
  const engine = await createEngine({
    dataDir: join(dir, 'app'),
    shell: 'test',
    secrets: noKeychain,
    env: { MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
  });
  try {
    await engine.invoke('profiles.add', {
      name: 'Bench',
      baseUrl: server.url,
      org: server.org,
      username: server.user,
      makeActive: true,
    });
    const files = Array.from({ length: IMPORT_ROUNDS }, (_, round) => {
      const path = join(dir, `domains${round}.csv`);
      const rows = Array.from(
        { length: IMPORT_ROWS },
        (_, i) => `https://kit${round}-${i}.example.edu,${i % 3 !== 0 ? 'yes' : 'no'}`,
      );
      writeFileSync(path, `Domain,Active\n${rows.join('\n')}\n`);
      return path;
    });
    await rawImport(server, 'warmup');
    const raw: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < IMPORT_ROUNDS; round++) {
      raw.push(await rawImport(server, `raw${round}`));
      ours.push(await kitImport(engine, files[round]!));
    }
    log(`   rounds: import ${ours.map((v) => v.toFixed(0)).join(' ')}; raw ${raw.map((v) => v.toFixed(0)).join(' ')}`);
    log(`   ${IMPORT_ROWS} domains: import ${median(ours).toFixed(0)} ms, bare POSTs ${median(raw).toFixed(0)} ms`);
    return {
      name: 'resources.import_vs_raw',
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
