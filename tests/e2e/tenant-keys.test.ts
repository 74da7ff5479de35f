/**
 * A machine without an OS keychain, in browser mode: the app (its own process, pointed at a Secret Service that is not
 * there) warns in one line, tests a tenant inside the Add dialog before saving (the address without a key, then the
 * typed key), keeps the key for this session only, and works with it; the key never comes back to the page nor
 * lands on disk. With MENTOR_ADMIN_API_KEY supplying the key, the warning stays away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { filesContaining, requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { dismissNotifications, visible } from './app';
import { launchChromium } from './browser';
import { requireBuiltRenderer } from './tickets-host';

const NO_SECRET_SERVICE = 'unix:path=/nonexistent/mentor-admin-test-bus';

interface AppProcess {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** `npm run web`'s program as its own process (its environment decides the keychain), on a fresh data folder. */
async function startApp(
  env: NodeJS.ProcessEnv,
  dataDir = tempDir('tenant-keys-'),
  service = uniqueService(),
): Promise<AppProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [resolve('node_modules/tsx/dist/cli.mjs'), 'src/main/host/main.ts', '--data-dir', dataDir],
    {
      env: {
        ...env,
        MENTOR_ADMIN_SANDBOX: 'off',
        MENTOR_ADMIN_KEYCHAIN_SERVICE: service,
        DBUS_SESSION_BUS_ADDRESS: NO_SECRET_SERVICE,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the app printed no address:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += String(chunk);
      const found = /https?:\/\/127\.0\.0\.1:\d+\/\S*/.exec(output);
      if (found) {
        clearTimeout(timer);
        done(found[0]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => fail(new Error(`the app exited (${code}):\n${output}`)));
  });
  return {
    url,
    dataDir,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

let server: Sandbox;
let app: AppProcess;
let browser: Browser;
let page: Page;
const framesReceived: string[] = [];

beforeAll(async () => {
  requireBuiltRenderer();
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
  const env = { ...process.env };
  delete env.MENTOR_ADMIN_API_KEY;
  // A tenant whose key went into the keychain earlier, on a day the Secret Service was running.
  const dataDir = tempDir('tenant-keys-');
  const service = uniqueService();
  const before = await createEngine({ dataDir, shell: 'test', keychainService: service, env: {} });
  await before.invoke('profiles.add', {
    name: 'Stored Key University',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    secret: server.apiKey,
  });
  await before.close();
  app = await startApp(env, dataDir, service);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 650 } });
  page.on('pageerror', (error) => console.error('page error:', error));
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => framesReceived.push(String(frame.payload))));
  await page.goto(`${app.url}#/settings`);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const dialog = () => page.getByRole('dialog', { name: 'Add tenant' });

describe('without an OS keychain', () => {
  it('says so in one line in the sidebar, with a link to what to do in Settings', async () => {
    // At 1000 px the sidebar is a rail of icons: the warning is one icon, a link to the same help.
    const icon = page.getByTestId('keychain-warning');
    await visible(icon);
    expect(await icon.getAttribute('aria-label')).toBe('Keychain unavailable: help');
    // With the warning in its foot the rail still shows every screen without scrolling.
    const links = page.locator('.mantine-AppShell-navbar .mantine-ScrollArea-viewport');
    const scroll = await links.evaluate((element) => element.scrollHeight - element.clientHeight);
    expect(scroll, 'the rail scrolls').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1400, height: 900 });
    try {
      const warning = page.getByTestId('keychain-warning');
      await expect.poll(() => warning.innerText()).toBe('Keychain unavailable · help');
      const box = (await warning.boundingBox())!;
      expect(box.height).toBeLessThan(24);
      await warning.getByRole('link', { name: 'help' }).click();
      await visible(page.getByTestId('keychain-help'));
      expect(await page.getByTestId('keychain-help').innerText()).toMatch(/for this session only/);
    } finally {
      await page.setViewportSize({ width: 1000, height: 650 });
    }
  });

  it('tests a tenant whose stored key cannot be read: the address is checked and the verdict says why no key went', async () => {
    const row = page.getByTestId('tenant-row-Stored Key University');
    await expect.poll(() => row.innerText()).toContain('Keychain unavailable');
    await row.getByRole('button', { name: 'Test' }).click();
    const panel = page.getByTestId('tenant-test-Stored Key University');
    await expect.poll(() => panel.innerText(), { timeout: 15_000 }).toMatch(/No key to send/);
    expect(await panel.innerText()).toMatch(
      /answers at this address.*OS keychain could not be read, so the stored key was not sent/s,
    );
    expect(await panel.innerText()).toMatch(/keep it for this session only/);
  });

  it('tests the address without a key inside the Add dialog, before anything is saved', async () => {
    await page.getByRole('button', { name: 'Add tenant' }).click();
    await visible(dialog());
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('Keyless College');
    await dialog().getByRole('textbox', { name: 'Base URL' }).fill(server.url);
    await dialog().getByRole('textbox', { name: 'Org (tenant key)' }).fill(server.org);
    await dialog().getByRole('textbox', { name: 'Username' }).fill(server.user);
    await dialog().getByRole('button', { name: 'Test connection' }).click();
    const verdict = dialog().getByRole('status');
    await expect.poll(() => verdict.innerText(), { timeout: 15_000 }).toMatch(/No key to send/);
    expect(await verdict.innerText()).toMatch(/answers at this address .*host name, TLS and the path are right/s);
  });

  it('tests with the typed key, then keeps it for this session only, and the tenant works with it', async () => {
    await dialog().getByLabel('API key or token').fill(server.apiKey);
    const sessionOnly = dialog().getByRole('checkbox', { name: 'Use this key for this session only' });
    expect(await sessionOnly.isChecked()).toBe(true);
    await dialog().getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => dialog().getByRole('status').innerText(), { timeout: 15_000 }).toMatch(/Connection works/);
    await dialog().getByRole('checkbox', { name: 'Make this the active tenant' }).check();
    await dialog().getByRole('button', { name: 'Add tenant' }).click();
    await dialog().waitFor({ state: 'hidden' });
    const row = page.getByTestId('tenant-row-Keyless College');
    await expect.poll(() => row.innerText()).toContain('Key for this session');
    await expect.poll(() => page.getByTestId('tenant-switcher').inputValue()).toBe('Keyless College');

    await dismissNotifications(page);
    await page.getByRole('link', { name: 'Mentors' }).click();
    await expect.poll(() => page.locator('main').innerText(), { timeout: 20_000 }).toContain('Calculus Coach');
  });

  it('keeps the typed key in the field when a save fails, to try again', async () => {
    await page.goto(`${app.url}#/settings`);
    await page.getByRole('button', { name: 'Add tenant' }).click();
    await visible(dialog());
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('keyless college');
    await dialog().getByRole('textbox', { name: 'Base URL' }).fill(server.url);
    await dialog().getByRole('textbox', { name: 'Org (tenant key)' }).fill(server.org);
    await dialog().getByRole('textbox', { name: 'Username' }).fill(server.user);
    await dialog().getByLabel('API key or token').fill('second-typed-key');
    await dialog().getByRole('button', { name: 'Add tenant' }).click();
    await visible(dialog().getByText(/already exists/));
    expect(await dialog().getByLabel('API key or token').inputValue()).toBe('second-typed-key');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('never gave the key back to the page, and wrote it nowhere', async () => {
    expect(await page.content()).not.toContain(server.apiKey);
    expect(framesReceived.length).toBeGreaterThan(0);
    for (const frame of framesReceived) expect(frame).not.toContain(server.apiKey);
    await app.stop();
    expect(filesContaining(app.dataDir, server.apiKey)).toEqual([]);
  });
});

describe('without an OS keychain but with MENTOR_ADMIN_API_KEY', () => {
  it('shows no keychain warning: the environment supplies the key', async () => {
    const withKey = await startApp({ ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey });
    try {
      const other = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await other.goto(`${withKey.url}#/settings`);
      await visible(other.getByRole('heading', { name: 'Settings' }));
      await visible(other.getByText(/Version .* browser mode/));
      expect(await other.getByTestId('keychain-warning').count()).toBe(0);
      // Nor in the rail of a narrow window.
      await other.setViewportSize({ width: 1000, height: 650 });
      await visible(other.getByRole('button', { name: 'Expand sidebar' }));
      expect(await other.getByTestId('keychain-warning').count()).toBe(0);
      await other.close();
    } finally {
      await withKey.stop();
    }
  });
});
