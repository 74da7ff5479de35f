/**
 * The browser half of `bench/tickets.ts`: the built renderer in Chromium (browser mode, the real host and engine) over
 * the fully synced 100,000-ticket cache.
 *   tickets.open_ms              key press (Enter) to the ticket and its thread rendered (next frame), median of 20
 *   tickets.scroll_long_task_ms  longest main-thread task while scrolling the whole 100,000-row list: the longest
 *                                PerformanceObserver 'longtask' entry, or (the API reports only tasks of 50 ms and
 *                                more) the longest time the main thread took to answer a message ping, whichever is
 *                                larger
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { createEngine } from '../src/main/engine';
import { startHost } from '../src/main/host/server';
import type { BenchResult } from './lib/suite';
import { median } from './lib/suite';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Polls an expression in the page. (`waitForFunction` builds its predicate with `new Function`, which the app's CSP
 * rightly refuses; a plain evaluation from the DevTools protocol is not affected.)
 */
async function waitInPage(page: Page, expression: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > until) throw new Error(`Timed out waiting for: ${expression}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

export async function browserFigures(
  engineDir: string,
  only: string[],
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const rendererDir = join(ROOT, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('Build the renderer first: npx electron-vite build');
  const engine = await createEngine({
    dataDir: engineDir,
    shell: 'test',
    keychainService: `mentor-admin-bench-${process.pid}`,
    // No tenant behind the cache: every screen reads the local cache (refreshes fail quietly, as when offline).
    env: { MENTOR_ADMIN_API_KEY: 'bench', MENTOR_ADMIN_SANDBOX: 'off' },
  });
  const profile = (await engine.invoke('profiles.list', {}))[0]!;
  await engine.invoke('profiles.update', { id: profile.id, baseUrl: 'http://127.0.0.1:9' });
  const host = await startHost({ dataDir: engineDir, rendererDir, engine });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const results: BenchResult[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${host.url}#/tickets`);
    await page.getByTestId('ticket-row').first().waitFor({ timeout: 60_000 });
    // The All view: 100,000 rows.
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await waitInPage(
      page,
      `/100,000|100000/.test(document.body.innerText) && !!document.querySelector('[data-testid="ticket-row"]')`,
      30_000,
    );
    await page.waitForTimeout(500);

    if (only.includes('open')) {
      const times: number[] = [];
      for (let i = 0; i < 22; i++) {
        await page.keyboard.press('j');
        const target = Number(
          await page.locator('[data-testid="ticket-row"][aria-selected="true"]').getAttribute('data-ticket'),
        );
        // Page-side code travels as text (the bench's own transpiler would add helpers the page does not have).
        // First the watch is set (key press time, then the first frame after the ticket and its thread are in the
        // DOM), then the key is pressed, then the result is collected.
        await page.evaluate(`(() => {
          const probe = { pressedAt: 0, paintedAt: 0 };
          window.__openProbe = probe;
          const onKey = (event) => { if (event.key === 'Enter') probe.pressedAt = event.timeStamp; };
          window.addEventListener('keydown', onKey, { capture: true, once: true });
          const ready = () => {
            const pane = document.querySelector('[data-testid="ticket-pane"]');
            return probe.pressedAt > 0 && pane && pane.getAttribute('data-ticket') === '${target}' &&
              pane.getAttribute('data-ready') === 'true' && !!pane.querySelector('[data-testid="ticket-thread"]');
          };
          const observer = new MutationObserver(() => {
            if (!ready()) return;
            observer.disconnect();
            requestAnimationFrame(() => { probe.paintedAt = performance.now(); });
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        })()`);
        await page.keyboard.press('Enter');
        await waitInPage(page, 'window.__openProbe.paintedAt > 0', 10_000);
        const ms = (await page.evaluate('window.__openProbe.paintedAt - window.__openProbe.pressedAt')) as number;
        if (i >= 2) times.push(ms);
      }
      log(`open: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
      results.push({ name: 'tickets.open_ms', value: Math.round(median(times) * 10) / 10, unit: 'ms', goal: '<= 100' });
    }

    if (only.includes('scroll')) {
      // BENCH_TRACE=file.json records a Chromium trace of the scroll (open it in DevTools' Performance panel).
      const trace = process.env.BENCH_TRACE;
      if (trace) await browser.startTracing(page, { path: trace, screenshots: false });
      const figures = (await page.evaluate(`(async () => {
        const list = document.querySelector('[data-testid="ticket-list"]');
        const longTasks = [];
        const observer = new PerformanceObserver((entries) => {
          for (const entry of entries.getEntries()) longTasks.push(entry.duration);
        });
        observer.observe({ type: 'longtask', buffered: false });
        // The longest stretch the main thread could not answer a message: the longest task, whatever its length
        // (the longtask API only reports tasks of 50 ms or more).
        const channel = new MessageChannel();
        let lastPing = performance.now();
        let longestGap = 0;
        let pinging = true;
        channel.port1.onmessage = () => {
          const now = performance.now();
          longestGap = Math.max(longestGap, now - lastPing);
          lastPing = now;
          if (pinging) channel.port2.postMessage(0);
        };
        channel.port2.postMessage(0);
        const frame = () => new Promise((done) => requestAnimationFrame(done));
        let last = await frame();
        let longestFrame = 0;
        const step = async (to) => {
          list.scrollTop = to;
          const now = await frame();
          longestFrame = Math.max(longestFrame, now - last);
          last = now;
        };
        const max = list.scrollHeight - list.clientHeight;
        // Wheel-like scrolling, then page-sized strides down the whole list, then scrollbar drags to anywhere.
        for (let i = 0; i < 240; i++) await step(i * 120);
        for (let y = 240 * 120; y < max; y += Math.max(2400, Math.floor(max / 1200))) await step(y);
        let seed = 7;
        for (let i = 0; i < 120; i++) {
          seed = (seed * 48271) % 2147483647;
          await step(Math.floor((seed / 2147483647) * max));
        }
        await new Promise((done) => setTimeout(done, 300));
        pinging = false;
        observer.disconnect();
        const rows = document.querySelectorAll('[data-testid="ticket-row"]').length;
        return { longTasks, longestFrame, longestGap, max, rows };
      })()`)) as { longTasks: number[]; longestFrame: number; longestGap: number; max: number; rows: number };
      if (trace) await browser.stopTracing();
      const longest = Math.max(figures.longestGap, ...figures.longTasks);
      log(
        `scroll: ${figures.longTasks.length} long tasks (longest ${figures.longTasks.length ? Math.max(...figures.longTasks).toFixed(1) : '—'} ms), longest main-thread stretch ${figures.longestGap.toFixed(1)} ms, longest frame ${figures.longestFrame.toFixed(1)} ms over ${Math.round(figures.max / 1000)}k px; ${figures.rows} rows in the DOM`,
      );
      results.push({
        name: 'tickets.scroll_long_task_ms',
        value: Math.round(longest * 10) / 10,
        unit: 'ms',
        goal: '<= 50',
      });
    }
  } finally {
    await browser.close();
    await host.close();
    await engine.close();
  }
  return results;
}
