/**
 * The app's shell in browser mode: the sidebar becomes a rail of icons in a narrow window and keeps the admin's
 * choice, actions keep their colours in the dark scheme, and the date and number format chosen in Settings is the
 * one every screen writes in.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  app = await openApp(server);
  await app.host.engine.invoke('mentors.create', { name: 'Physics 110' });
});
afterAll(async () => {
  await app?.close();
});

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Screens' });

/** The width the sidebar takes on screen. */
async function sidebarWidth(page: Page): Promise<number> {
  return (await navigation(page).boundingBox())?.width ?? 0;
}

/** The hue-free test for "has a colour": the spread between the strongest and weakest of R, G and B. */
function saturation(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  return Math.max(r, g, b) - Math.min(r, g, b);
}

describe('the sidebar', () => {
  it('is a rail of named icons at 1000 px and shows labels at 1400 px', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 1000, height: 650 });
    await app.open('#/mentors');
    await visible(page.getByTestId('mentor-row-Physics 110'));
    expect(await sidebarWidth(page)).toBeLessThan(80);
    const tickets = navigation(page).getByRole('link', { name: 'Tickets' });
    await visible(tickets);
    expect((await tickets.innerText()).trim()).toBe('');
    await tickets.click();
    await page.waitForURL(/#\/tickets/);

    await page.setViewportSize({ width: 1400, height: 900 });
    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    expect((await navigation(page).getByRole('link', { name: 'Tickets' }).innerText()).trim()).toMatch(/^Tickets/);
  });

  it('shows every screen’s icon whole in a 1000×650 window, with no scrollbar over the rail', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 1000, height: 650 });
    await app.open('#/mentors');
    await visible(page.getByTestId('mentor-row-Physics 110'));
    // The rail follows the resize on a render after it; the cached mentors show before that.
    await expect.poll(() => sidebarWidth(page)).toBeLessThan(80);
    const links = navigation(page).getByRole('link');
    const viewport = navigation(page).locator('xpath=ancestor::*[contains(@class, "mantine-ScrollArea-viewport")][1]');
    // Nothing to scroll: the last link (Settings) is not cut off under the foot.
    const scroll = await viewport.evaluate((element) => ({
      height: element.scrollHeight,
      client: element.clientHeight,
    }));
    expect(scroll.height, 'the rail scrolls').toBeLessThanOrEqual(scroll.client);
    const shown = (await viewport.boundingBox())!;
    expect(await links.count()).toBeGreaterThanOrEqual(15);
    for (const link of await links.all()) {
      const icon = (await link.locator('svg').first().boundingBox())!;
      const name = await link.getAttribute('aria-label');
      expect(icon.y, `${name}'s icon`).toBeGreaterThanOrEqual(shown.y);
      expect(icon.y + icon.height, `${name}'s icon`).toBeLessThanOrEqual(shown.y + shown.height);
    }
  });

  it('keeps the admin’s choice: expanded in a narrow window, saved in the settings', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 1000, height: 650 });
    await app.open('#/mentors');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    await expect.poll(async () => (await app.host.engine.invoke('settings.get', {})).navigation).toBe('full');
    await page.reload();
    await visible(page.getByRole('button', { name: 'Collapse sidebar' }));
    expect(await sidebarWidth(page)).toBeGreaterThan(200);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(() => sidebarWidth(page)).toBeLessThan(80);
    expect((await app.host.engine.invoke('settings.get', {})).navigation).toBe('rail');
    await app.host.engine.invoke('settings.set', { navigation: 'auto' });
  });
});

describe('the dark scheme', () => {
  it('keeps the colour of delete buttons and subtle actions', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    try {
      await page.goto(`${app.host.url}#/mentors`);
      const remove = page.getByRole('button', { name: 'Delete Physics 110' });
      await visible(remove);
      const color = await remove.evaluate(
        (element) => element.ownerDocument.defaultView!.getComputedStyle(element).color,
      );
      const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number) as [number, number, number];
      expect(saturation(color), color).toBeGreaterThan(60);
      expect(r, color).toBeGreaterThan(g + 40);
      expect(r, color).toBeGreaterThan(b + 40);
    } finally {
      await page.close();
    }
  });

  it('writes page titles in the strong text colour, white, not in the body’s gray', async () => {
    const page = await app.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    try {
      await page.goto(`${app.host.url}#/mentors`);
      const title = page.getByRole('heading', { level: 1, name: 'Mentors' });
      await visible(title);
      const colour = (locator: typeof title) =>
        locator.evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).color);
      expect(await colour(title)).toBe('rgb(255, 255, 255)');
      // The body's text stays the softer gray: the title stands out from it.
      expect(await colour(page.locator('main p').first())).not.toBe('rgb(255, 255, 255)');
    } finally {
      await page.close();
    }
  });
});

describe('dates and numbers', () => {
  it('are written in the locale chosen in Settings on every screen', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 1400, height: 900 });
    await app.open('#/settings');
    const select = page.getByRole('combobox', { name: 'Dates and numbers' });
    await visible(select);
    await select.click();
    await page.getByRole('option', { name: /^de-DE/ }).click();
    await expect.poll(async () => (await app.host.engine.invoke('settings.get', {})).formatLocale).toBe('de-DE');
    await app.open('#/mentors');
    const row = page.getByTestId('mentor-row-Physics 110');
    await visible(row);
    // German dates: "25.11.2026, 19:31".
    await expect.poll(async () => await row.innerText()).toMatch(/\d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}/);
    await app.host.engine.invoke('settings.set', { formatLocale: 'system' });
  });

  it('leave no screen in another format: with demo data in German, no English date, time or count is left', async () => {
    const demo = await sandbox({ seed: 'demo' });
    const other = await openApp(demo);
    try {
      await other.host.engine.invoke('settings.set', { formatLocale: 'de-DE' });
      // A job for the Jobs screen to list.
      await other.host.engine.invoke('analytics.exportStart', {
        dataset: 'topics',
        range: { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
        timeZone: 'UTC',
        folder: tempDir(),
      });
      const page = other.page;
      const english = [
        /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/, // Nov 25, 2026
        /\b\d{1,2}:\d{2} ?(AM|PM)\b/, // 7:31 PM
        /\b\d+ (minutes?|hours?|days?) ago\b|\byesterday\b/, // relative times
        /\b\d{1,3},\d{3}\b/, // 12,480
      ];
      for (const route of ['#/mentors', '#/analytics', '#/tickets', '#/invitations', '#/jobs', '#/settings']) {
        await other.open(route);
        await page.waitForLoadState('networkidle');
        // Each screen has drawn its data (not only a skeleton) before it is read.
        await expect.poll(() => page.locator('main').innerText(), { timeout: 20_000 }).toMatch(/\d/);
        await page.waitForTimeout(1000);
        const text = await page.locator('main').innerText();
        for (const pattern of english) expect(text, `${route}: ${pattern}`).not.toMatch(pattern);
      }
    } finally {
      await other.close();
    }
  });
});
