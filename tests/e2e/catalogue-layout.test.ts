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

  it('at 1000×650 shows a licence’s flag whole, the users’ Added header whole and a column’s field whole', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });

    // Licences: the "Ends soon" and "Expired" flags are not cut by the row's actions, and every column is in view.
    await app.open('#/licences/licenses');
    const area = page.getByTestId('list-table-area');
    const flags = page.getByTestId('resource-table').getByText(/^(Ends soon|Expired)$/);
    await expect.poll(() => flags.count()).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await hiddenParts(area, flags)).toEqual([]);
    expect(await area.getAttribute('data-clipped-end')).toBeNull();
    await visible(page.getByRole('columnheader', { name: 'Active' }));
    expect(await hiddenParts(area, page.getByRole('columnheader', { name: 'Active' }))).toEqual([]);

    // Users, administrators only: the last column's header is whole, not "A" under the edge's shade.
    await app.open('#/people-and-access/users');
    await page.getByTestId('list-toolbar').getByText('Admin', { exact: true }).click();
    await expect.poll(() => page.getByTestId('list-count').innerText()).toBe('1 user');
    await page.waitForTimeout(300);
    expect(await hiddenParts(area, page.getByRole('columnheader', { name: 'Added' }))).toEqual([]);

    // A department's members from a file: the column's field reads whole ("Email or username (required)").
    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.getByTestId('resource-table').getByRole('button', { name: 'Business', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Department Business' });
    await details.getByTestId('related-lists').getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import members of Business from CSV' });
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'dept.csv', mimeType: 'text/csv', buffer: Buffer.from('username\nlearner0100\n') });
    const field = dialog.locator('input[aria-label="Field for column username"]');
    await visible(field);
    expect(await field.inputValue()).toBe('Email or username (required)');
    const look = await field.evaluate((element) => {
      const input = element as unknown as { scrollWidth: number; clientWidth: number; title: string };
      return { whole: input.scrollWidth <= input.clientWidth, title: input.title };
    });
    expect(look.whole || look.title === 'Email or username (required)').toBe(true);
  }, 90_000);
});

/**
 * What of each element is out of sight: text cut inside it (its content wider than its box), or its box not wholly
 * within the table's scroller or under the row's sticky actions column. Empty when all of it shows.
 */
const hiddenParts = async (area: Locator, elements: Locator) =>
  elements.evaluateAll(
    (all, scroller) => {
      const view = (
        scroller as unknown as { getBoundingClientRect(): { left: number; right: number } }
      ).getBoundingClientRect();
      const actions = (
        scroller as unknown as {
          querySelector(s: string): { getBoundingClientRect(): { left: number; right: number } } | null;
        }
      ).querySelector('thead th:last-child');
      const actionsLeft = actions ? actions.getBoundingClientRect().left : Infinity;
      const hidden: string[] = [];
      for (const element of all) {
        const box = element.getBoundingClientRect();
        const text = element.textContent ?? '';
        if (element.scrollWidth > element.clientWidth) hidden.push(`${text}: cut inside`);
        if (box.left < view.left - 0.5 || box.right > view.right + 0.5) hidden.push(`${text}: outside the table's box`);
        const underActions = !element.closest('th:last-child, td:last-child') && box.right > actionsLeft + 0.5;
        if (underActions) hidden.push(`${text}: under the row's actions`);
      }
      return hidden;
    },
    await area.elementHandle(),
  );
