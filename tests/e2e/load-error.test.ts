/**
 * Screens whose tenant cannot be reached, in browser mode: a tenant on a loopback port nothing listens on. The app's
 * banner says it once, the same way on every screen ("<tenant> cannot be reached", Check again, "Edit tenant…" that
 * opens that tenant's editor), and the screen itself only that what it shows is not available offline. A field in error keeps its placeholder grey. E2E_SCREENSHOTS=dir keeps a
 * picture of each screen in light and dark at 1400×900 and 1000×650.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { timesSaidUnreachable, visible } from './app';
import { launchChromium } from './browser';
import { requireBuiltRenderer } from './tickets-host';

/** The page's own (the tests are type-checked without the DOM library). */
declare const getComputedStyle: (element: unknown, pseudo?: string) => { color: string };

const SHOTS = process.env.E2E_SCREENSHOTS;
const TENANT = 'Charlie Offline';

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

/** Screens that read the tenant, none of them read before. */
const SCREENS = [
  '#/mentors',
  '#/mentors/no-such-mentor',
  '#/invitations',
  '#/analytics',
  // Nothing saved: not an empty grid that claims there are no roles.
  '#/people-and-access/access-matrix',
  // A chart and a list read from the same tenant: the chart only says it is not loaded.
  '#/credentials',
  // Kit areas: one list per tab.
  '#/catalogue',
  '#/licences',
];

async function go(route: string): Promise<void> {
  await page.goto(`${host.url}${route}`);
}

/** The app's banner: the one place that says the tenant cannot be reached, with Check again and Edit tenant. */
async function bannerSaysItOnce(): Promise<void> {
  const banner = page.getByTestId('tenant-reach-banner');
  await visible(banner, 30_000);
  expect(await banner.innerText()).toContain(`${TENANT} cannot be reached`);
  expect(await banner.getByRole('button', { name: 'Check again' }).count()).toBe(1);
  // The screen's own notice says no more than that it is not available offline (no reason, no next step again).
  await expect.poll(() => timesSaidUnreachable(page), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => page.locator('main').getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
  expect(await page.getByTestId('load-error-next').count()).toBe(0);
  expect(await page.locator('main').getByRole('button', { name: 'Try again' }).count()).toBe(0);

  await banner.getByRole('button', { name: 'Edit tenant…' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
  await visible(dialog);
  expect(await dialog.getByLabel('Base URL').inputValue()).toBe(baseUrl);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('a screen whose tenant cannot be reached', () => {
  for (const route of SCREENS) {
    it(`${route}: the app's banner says so once, the screen only that it is not available offline`, async () => {
      await go(route);
      await visible(page.locator('main').getByText('Not available offline').first(), 30_000);
      await bannerSaysItOnce();
    });
  }

  it('#/tickets: the list says only that it is not available offline, not "no tickets"', async () => {
    await go('#/tickets');
    const list = page.getByTestId('ticket-list');
    await expect.poll(() => list.innerText(), { timeout: 30_000 }).toBe('Not available offline');
    await bannerSaysItOnce();
  });

  it('Check again asks the tenant: still out of reach, the banner stays and the screen says the same', async () => {
    await go('#/mentors');
    const banner = page.getByTestId('tenant-reach-banner');
    await visible(banner, 30_000);
    await banner.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => banner.getByRole('button', { name: 'Check again' }).isEnabled()).toBe(true);
    await visible(banner);
    await visible(page.locator('main').getByText('Not available offline').first());
    expect(await timesSaidUnreachable(page)).toBe(1);
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
        for (const route of [...SCREENS, '#/tickets']) {
          await go(route);
          await page.getByTestId('tenant-reach-banner').waitFor({ timeout: 30_000 });
          await page.locator('main').getByText('Not available offline').first().waitFor({ timeout: 30_000 });
          const name = route.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
          await page.screenshot({ path: join(SHOTS!, `${scheme}-${width}x${height}-${name}.png`) });
        }
      }
    }
  });
});
