/**
 * A mentor's page with its settings, from the engine's cache:
 *   mentors.page_open_ms  the mentor page opened from another screen, its Settings tab chosen as soon as the tabs
 *                         show, to the settings form (every group) and its history painted (browser mode, the built
 *                         renderer in Chromium; the mentor, its settings, history and the offered models already
 *                         read), median of 10 after 2 warm-ups
 *   mentors.copy_docs_vs_train  a mentor with 500 documents copied to another tenant (with documents) against
 *                         training the same 500 files from disk there (bench/mentor-copy.ts)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createEngine } from '../src/main/engine';
import { startHost } from '../src/main/host/server';
import { startSandbox } from '../src/server/app';
import type { BenchResult, Log } from './lib/suite';
import { noKeychain } from './lib/keychain';
import { copyDocsVsTrain } from './mentor-copy';
import { median } from './lib/suite';

export const metrics = ['mentors.page_open_ms', 'mentors.copy_docs_vs_train'];

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > until) throw new Error(`Timed out waiting for: ${expression}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

export async function run(log: Log, only?: string[]): Promise<BenchResult[]> {
  const wanted = (metric: string) => !only || only.includes(metric);
  return [
    ...(wanted('mentors.page_open_ms') ? await pageOpen(log) : []),
    ...(wanted('mentors.copy_docs_vs_train') ? [await copyDocsVsTrain(log)] : []),
  ];
}

async function pageOpen(log: Log): Promise<BenchResult[]> {
  const rendererDir = join(ROOT, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('Build the renderer first: npx electron-vite build');
  const dir = mkdtempSync(join(tmpdir(), 'bench-mentors-'));
  const server = await startSandbox({ dataDir: join(dir, 'sandbox'), seed: 'none', log: () => {} });
  try {
    const created = await fetch(`${server.url}/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Mentor', description: 'A mentor with a history of saves.' }),
    });
    const { unique_id: uniqueId } = (await created.json()) as { unique_id: string };
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
      // Read once into the cache, with a few saves in its history.
      await engine.invoke('mentors.list', {});
      await engine.invoke('resources.getSingle', { kind: 'mentor-settings', key: uniqueId });
      for (let i = 0; i < 5; i++) {
        await engine.invoke('resources.updateSingle', {
          kind: 'mentor-settings',
          key: uniqueId,
          values: { display_name: `Bench ${i}`, llm_temperature: i / 10 },
        });
      }
      await engine.invoke('resources.list', { kind: 'mentor-llms', refresh: true });

      const host = await startHost({ dataDir: engineDir, rendererDir, engine });
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(`${host.url}#/jobs`);
        await page.getByRole('link', { name: 'Mentors' }).waitFor({ timeout: 30_000 });
        const times: number[] = [];
        for (let i = 0; i < 12; i++) {
          await page.evaluate(`(() => {
            const probe = { startedAt: performance.now(), paintedAt: 0 };
            window.__openProbe = probe;
            const observer = new MutationObserver(() => {
              const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent === 'Settings');
              if (tab && tab.getAttribute('aria-selected') !== 'true') tab.click();
              const rows = document.querySelectorAll('[data-testid="settings-history"] tbody tr').length;
              if (!document.querySelector('form[aria-label="Mentor settings"] section[aria-label="Other"]') || !rows) return;
              observer.disconnect();
              requestAnimationFrame(() => { probe.paintedAt = performance.now(); });
            });
            observer.observe(document.body, { subtree: true, childList: true, attributes: true });
            location.hash = '#/mentors/${uniqueId}';
          })()`);
          await waitInPage(page, 'window.__openProbe.paintedAt > 0', 30_000);
          const ms = (await page.evaluate('window.__openProbe.paintedAt - window.__openProbe.startedAt')) as number;
          if (i >= 2) times.push(ms);
          await page.getByRole('link', { name: 'Jobs' }).click();
          await page.getByTestId('mentor-settings').waitFor({ state: 'detached' });
        }
        log(`mentor page open: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
        return [
          { name: 'mentors.page_open_ms', value: Math.round(median(times) * 10) / 10, unit: 'ms', goal: '<= 200' },
        ];
      } finally {
        await browser.close();
        await host.close();
      }
    } finally {
      await engine.close();
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
