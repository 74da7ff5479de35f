/**
 * Screens whose tenant cannot be reached, in browser mode: a tenant on a loopback port nothing listens on. Each
 * screen says it once, the same way (the platform's words, a "Next:" step, Try again, "Edit tenant…"), and "Edit
 * tenant…" opens that tenant's editor. A field in error keeps its placeholder grey. E2E_SCREENSHOTS=dir keeps a
 * picture of each screen in light and dark at 1400×900 and 1000×650.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { visible } from './app';
import { launchChromium } from './browser';
import { requireBuiltRenderer } from './tickets-host';

/** The page's own (the tests are type-checked without the DOM library). */
declare const getComputedStyle: (element: unknown, pseudo?: string) => { color: string };

const SHOTS = process.env.E2E_SCREENSHOTS;
const TENANT = 'Charlie Offline';
const NEXT = /^Next: Check the tenant's address and that its server is running/;

let host: Host;
let browser: Browser;
let page: Page;
let baseUrl: string;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  requireKeychainSession();
  requireBuiltRenderer();
  const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' };
  delete env.MENTOR_ADMIN_API_KEY;
  host = await startHost({
    dataDir: tempDir('load-error-'),
    rendererDir: 'out/renderer',
    keychainService: uniqueService(),
    env,
  });
  baseUrl = `http://127.0.0.1:${await closedPort()}`;
  await host.engine.invoke('profiles.add', {
    name: TENANT,
    baseUrl,
    org: 'charlie',
    username: 'admin',
    secret: 'charlie-key',
    makeActive: true,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
  page.on('pageerror', (error) => console.error('page error:', error));
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Screens that read the tenant, with the title each gives its failure. */
const SCREENS = [
  { route: '#/mentors', title: 'Mentors could not be loaded' },
  { route: '#/mentors/no-such-mentor', title: 'This mentor has not been read on this computer yet' },
  { route: '#/invitations', title: 'The invitations could not be loaded' },
  { route: '#/analytics', title: 'The tenant cannot be reached' },
  // Nothing saved: not an empty grid that claims there are no roles.
  { route: '#/people-and-access/access-matrix', title: 'The access matrix could not be loaded' },
  // A chart and a list read from the same tenant: one alert, the chart only says it is not loaded.
  { route: '#/credentials', title: 'Badges could not be loaded' },
  // Kit areas: one list per tab, one alert.
  { route: '#/catalogue', title: 'Courses could not be loaded' },
  { route: '#/licences', title: 'Licences could not be loaded' },
];

async function go(route: string): Promise<void> {
  await page.goto(`${host.url}${route}`);
}

describe('a screen whose tenant cannot be reached', () => {
  for (const { route, title } of SCREENS) {
    it(`${route} says so once, with the next step, Try again and Edit tenant`, async () => {
      await go(route);
      const alert = page.locator('main').getByRole('alert').filter({ hasText: title });
      await visible(alert, 30_000);
      // One alert on the screen: the failure is said once, not per panel or twice in other words.
      expect(await page.locator('main').getByRole('alert').count()).toBe(1);
      await expect.poll(() => alert.getByTestId('load-error-next').innerText()).toMatch(NEXT);
      expect(await alert.getByRole('button', { name: 'Try again' }).count()).toBe(1);

      await alert.getByRole('button', { name: 'Edit tenant…' }).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
      await visible(dialog);
      expect(await dialog.getByLabel('Base URL').inputValue()).toBe(baseUrl);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  }

  it('#/tickets says nothing is cached, with the next step, Try again and Edit tenant', async () => {
    await go('#/tickets');
    const list = page.getByTestId('ticket-list');
    await expect.poll(() => list.innerText(), { timeout: 30_000 }).toMatch(`Nothing is cached for ${TENANT} yet`);
    await expect.poll(() => list.getByTestId('load-error-next').innerText()).toMatch(NEXT);
    expect(await list.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await list.getByRole('button', { name: 'Edit tenant…' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('a field in error', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`keeps its placeholder grey, not the error's red (${scheme})`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await go('#/settings');
      await page.getByRole('button', { name: 'Add tenant' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add tenant' });
      await visible(dialog);
      const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
      const placeholderColor = () => name.evaluate((input) => getComputedStyle(input, '::placeholder').color);
      const before = await placeholderColor();
      await dialog.getByRole('button', { name: 'Add tenant' }).click();
      await visible(dialog.getByText('Name is required', { exact: true }));
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      // The same grey as before the error; typed text turns red (Mantine's error colour), the placeholder does not.
      expect(await placeholderColor()).toBe(before);
      expect(await name.evaluate((input) => getComputedStyle(input).color)).not.toBe(before);

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  }
  afterAll(() => page.emulateMedia({ colorScheme: 'light' }));
});

describe.skipIf(!SHOTS)('pictures', () => {
  it('keeps each screen in light and dark at 1400×900 and 1000×650', async () => {
    mkdirSync(SHOTS!, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      for (const [width, height] of [
        [1400, 900],
        [1000, 650],
      ] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        for (const route of [...SCREENS.map((s) => s.route), '#/tickets']) {
          await go(route);
          await page.getByTestId('load-error-next').first().waitFor({ timeout: 30_000 });
          const name = route.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
          await page.screenshot({ path: join(SHOTS!, `${scheme}-${width}x${height}-${name}.png`) });
        }
      }
    }
  });
});
