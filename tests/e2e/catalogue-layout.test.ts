/**
 * Layout of the catalogue's, licences' and credentials' screens on the demo data, in browser mode on a real engine
 * and sandbox: a few words in a cell keep to one line (a review's title, a licence's name), a course's panel leaves
 * out the tenant's own org, Credentials says whose badges it shows, and the issuance chart's date labels are evenly
 * spaced in a 1000-pixel window.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

/** How many lines a cell's text takes. */
const lines = (cell: Locator) =>
  cell.evaluate((element) => {
    const document = element.ownerDocument;
    const walker = document.createTreeWalker(element, 4 /* text nodes */);
    const tops = new Set<number>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
    }
    return tops.size;
  });

describe('catalogue, licences and credentials layout', () => {
  it('keeps a review’s title and a licence’s name on one line at 1400', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.open('#/catalogue/course-reviews');
    const title = page.getByRole('cell', { name: 'Clear and practical' }).first();
    await visible(title);
    expect(await lines(title)).toBe(1);
    await app.open('#/licences/course-licenses');
    const name = page.getByRole('cell', { name: 'Data science seats' });
    await visible(name);
    expect(await lines(name)).toBe(1);
  });

  it('leaves the tenant’s own org out of a course’s panel', async () => {
    const { page } = app;
    await app.open('#/catalogue/courses');
    await page.getByRole('button', { name: 'Career Readiness' }).first().click();
    const panel = page.getByRole('dialog');
    await visible(panel.getByText('Course ID'));
    expect(await panel.getByText('Org', { exact: true }).count()).toBe(0);
    expect(await panel.getByText(server.org, { exact: true }).count()).toBe(0);
  });

  it('says whose badges Credentials shows, and labels the chart’s days evenly at 1000', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    await app.open('#/credentials');
    await visible(page.getByTestId('credentials-subtitle'));
    expect(await page.getByTestId('credentials-subtitle').innerText()).toMatch(/^The badges of \S.*, and whom/);
    const ticks = page
      .getByTestId('badge-issuance')
      .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await visible(page.getByTestId('badge-issuance-total'));
    await expect.poll(() => ticks.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    const days = (await ticks.evaluateAll((all) => all.map((tick) => tick.textContent ?? ''))).map((text) =>
      Date.parse(`${text} 2026`),
    );
    const gaps = new Set(days.slice(1).map((day, i) => Math.round((day - days[i]!) / 86_400_000)));
    expect([...gaps].filter((gap) => gap > 0)).toHaveLength(1);
  });
});
