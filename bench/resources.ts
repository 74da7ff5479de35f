/**
 * The admin resource kit with 50,000 records of one kind (API tokens) in the sandbox, read once into the engine's
 * cache:
 *   resources.list_open_ms           the Tenant settings link clicked to the API tokens list's first row painted
 *                                    (browser mode, the built renderer in Chromium, from the cache), median of 10
 *   resources.search_p95_ms          one resources.list call with a search (a page of 25) over the 50,000 cached
 *                                    records, p95 of 200
 *   resources.declaration_lines_p50  median line count of the declaration files (src/shared/resources/<kind>.ts)
 * (resources.import_vs_raw waits for the kit's CSV import.)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createEngine } from '../src/main/engine';
import type { SecretStore } from '../src/main/engine/secrets/keychain';
import { startHost } from '../src/main/host/server';
import { startSandbox } from '../src/server/app';
import { percentile, type BenchResult, type Log } from './lib/suite';

export const metrics = ['resources.list_open_ms', 'resources.search_p95_ms', 'resources.declaration_lines_p50'];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RECORDS = 50_000;
const WORDS = ['deploy', 'nightly', 'analytics', 'export', 'lms', 'canvas', 'moodle', 'sync', 'report', 'backup'];

/** The key comes from MENTOR_ADMIN_API_KEY: the bench needs no keychain. */
const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Declarations are the files beside kit.ts that declare one kind each. */
function declarationLines(): number {
  const folder = join(ROOT, 'src/shared/resources');
  const kit = new Set(['kit.ts', 'spec.ts', 'index.ts', 'images.ts']);
  const counts = readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !kit.has(file))
    .map((file) => readFileSync(join(folder, file), 'utf8').trimEnd().split('\n').length);
  return median(counts);
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
    results.push({ name: 'resources.declaration_lines_p50', value: declarationLines(), unit: 'lines', goal: '<= 60' });
  }
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
