/**
 * The app in browser mode for the mentor and job e2e tests: the built renderer served by the real host over the real
 * engine, connected to a real sandbox, in Debian's Chromium. Also a real drop from the desktop, which Playwright's
 * own API cannot make.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { launchChromium } from './browser';

const RENDERER_DIR = resolve('out/renderer');

export interface OpenApp {
  host: Host;
  browser: Browser;
  page: Page;
  /** The host's data folder (staging, logs, SQLite). */
  dataDir: string;
  /** Opens a route of the app, e.g. `#/mentors`. */
  open(route: string): Promise<void>;
  close(): Promise<void>;
}

/** A host with one active profile on `server` (its key in the test's keychain) and a page on the app. */
export async function openApp(server: Sandbox): Promise<OpenApp> {
  requireKeychainSession();
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
  const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' };
  delete env.MENTOR_ADMIN_API_KEY;
  const dataDir = tempDir();
  const host = await startHost({ dataDir, rendererDir: RENDERER_DIR, keychainService: uniqueService(), env });
  let browser: Browser | undefined;
  try {
    await host.engine.invoke('profiles.add', {
      name: 'Sandbox University',
      baseUrl: server.url,
      org: server.org,
      username: server.user,
      secret: server.apiKey,
      makeActive: true,
    });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
    page.on('pageerror', (error) => console.error('page error:', error));
    const opened = browser;
    return {
      host,
      browser: opened,
      page,
      dataDir,
      open: async (route) => {
        await page.goto(`${host.url}${route}`);
      },
      close: async () => {
        await opened.close();
        await host.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await host.close();
    throw error;
  }
}

export async function visible(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
}

/**
 * Picks an option of the focused searchable select from the keyboard, as a person does: types, waits for the option,
 * then ArrowDown and Enter. The caller checks the pick took (the name in the box, or what the list shows).
 */
export async function pickByKeyboard(page: Page, typed: string, option: string): Promise<void> {
  await page.keyboard.type(typed);
  await visible(page.getByRole('option', { name: option, exact: true }));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** Toasts sit bottom left, under dialogs; a test that clicks there puts them away first. */
export async function dismissNotifications(page: Page): Promise<void> {
  for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) {
    await close.click({ timeout: 2_000 }).catch(() => undefined);
  }
}

/**
 * Drops files and folders from the disk onto `target` the way a drag from the desktop does: Chromium's own drag
 * (DevTools `Input.dispatchDragEvent`), so the page gets real File System entries and walks real folders. A
 * DataTransfer built in the page, or `setInputFiles`, never carries a folder entry.
 */
export async function dropFromDesktop(page: Page, target: Locator, paths: string[]): Promise<void> {
  // The target may still be coming (the list behind it loading on a busy machine): wait for it, as a user would.
  await target.waitFor({ state: 'visible' });
  const box = await target.boundingBox();
  if (!box) throw new Error('The drop target is not on screen');
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const session = await page.context().newCDPSession(page);
  try {
    const data = { items: [], files: paths, dragOperationsMask: 1 /* copy */ };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
      await session.send('Input.dispatchDragEvent', { type, ...at, data });
    }
  } finally {
    await session.detach();
  }
}

/**
 * How many times the page says that a tenant cannot be reached, in what it shows (closed tooltips are not shown):
 * the app's banner is the one place that says so.
 */
export async function timesSaidUnreachable(page: Page): Promise<number> {
  return ((await page.locator('body').innerText()).match(/cannot be reached/gi) ?? []).length;
}

/**
 * The tenant answers again (its proxy is up): the banner goes, by its Check again or by the app's own next call to the
 * tenant — a read still retrying in the background may answer first, which is as right. Whether Check again itself
 * asks the tenant is seen while the tenant is still down (the proxy's `refused`). The press is awaited here (a short
 * wait if the banner goes under it), so it cannot land on a banner a later step brings.
 */
export async function backInReach(page: Page): Promise<void> {
  const banner = page.getByTestId('tenant-reach-banner');
  if (!(await banner.count())) return;
  await banner
    .getByRole('button', { name: 'Check again' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await banner.waitFor({ state: 'detached', timeout: 30_000 });
}
