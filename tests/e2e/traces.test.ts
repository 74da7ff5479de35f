/**
 * The Traces screen by keyboard only (browser mode, real engine, demo sandbox): Tab reaches the rank control, the
 * arrow keys switch slowest ↔ costliest and the table follows (ranked by latency, then by cost), and Enter on a
 * trace's name opens its timeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  app = await openApp(server);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** Tab until the focused element matches `test` (evaluated in the page), at most `limit` presses. */
async function tabTo(page: Page, test: string, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate(test)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached: ${test}`);
}

/** A column of the table as numbers (latency in ms, cost in dollars). */
async function column(page: Page, index: number): Promise<number[]> {
  const cells = await page.getByTestId('traces-table').locator(`tbody tr td:nth-child(${index})`).allInnerTexts();
  return cells.map((text) => {
    const n = Number(text.replace(/[^0-9.]/g, ''));
    return text.endsWith(' s') ? n * 1000 : n;
  });
}

const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! >= v);

describe('Traces (browser mode)', () => {
  it('switches between slowest and costliest by keyboard only, and opens a trace with Enter', async () => {
    const { page } = app;
    await app.open('#/traces');
    const table = page.getByTestId('traces-table');
    await visible(table, 90_000);
    const rank = page.getByRole('radiogroup', { name: 'Rank' });
    const checked = () =>
      rank.locator('input:checked').evaluate((input) => (input as unknown as { value: string }).value);
    expect(await checked()).toBe('slowest');
    expect(descending(await column(page, 5))).toBe(true);

    await page.locator('body').focus();
    await tabTo(page, `document.activeElement?.closest('[role="radiogroup"]')?.getAttribute('aria-label') === 'Rank'`);
    await page.keyboard.press('ArrowRight');
    await expect.poll(checked).toBe('costliest');
    // The table is the costliest ranking once it has loaded: cost descending, and what the engine ranks first.
    const costliest = await app.host.engine.invoke('review.traces', {
      rank: 'costliest',
      from: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
      to: new Date().toISOString().slice(0, 10),
      limit: 50,
    });
    const top = costliest.traces[0]!.cost;
    await expect
      .poll(
        async () => {
          const costs = await column(page, 7);
          return descending(costs) && Math.abs(costs[0]! - top) < (top < 0.01 ? 1e-5 : 1e-3);
        },
        { timeout: 90_000 },
      )
      .toBe(true);

    await page.keyboard.press('ArrowLeft');
    await expect.poll(checked).toBe('slowest');
    await expect.poll(async () => descending(await column(page, 5)), { timeout: 90_000 }).toBe(true);

    // On to the first trace's name, and Enter opens its timeline.
    await tabTo(page, `document.activeElement?.closest('[data-testid="traces-table"] tbody tr') !== null`);
    await page.keyboard.press('Enter');
    const trace = page.getByRole('dialog', { name: 'Trace' });
    await visible(trace.getByTestId('trace-spans'), 60_000);
    await page.keyboard.press('Escape');
    await expect.poll(() => trace.count()).toBe(0);
  }, 240_000);
});
