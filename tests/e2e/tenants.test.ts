/**
 * Browser mode end to end: the built renderer, served by the real host over the real engine and OS keychain,
 * driven like a user would. The key typed into the form must never come back to the page in any form.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { launchChromium } from './browser';

const RENDERER_DIR = resolve('out/renderer');
const TENANT = 'E2E University';
const SECRET = `e2e-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;

let host: Host;
let browser: Browser;
let page: Page;
/** Every WebSocket frame the page received from the host, and sent to it, as text. */
const framesReceived: string[] = [];
const framesSent: string[] = [];

beforeAll(async () => {
  requireKeychainSession();
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
  const env = { ...process.env };
  // A key from the environment would mask the keychain's answer.
  delete env.MENTOR_ADMIN_API_KEY;
  host = await startHost({ dataDir: tempDir(), rendererDir: RENDERER_DIR, keychainService: uniqueService(), env });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('websocket', (socket) => {
    socket.on('framereceived', (frame) => framesReceived.push(String(frame.payload)));
    socket.on('framesent', (frame) => framesSent.push(String(frame.payload)));
  });
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${host.url}#/settings`);
  await page.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: 10_000 });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Runs in the page (tests are type-checked without DOM types, so it travels as source text). */
const BROWSER_STORAGE_DUMP = `(async () => {
  const dump = (storage) =>
    Array.from({ length: storage.length }, (_, i) => storage.key(i) + '=' + storage.getItem(storage.key(i))).join('\\n');
  const databases = await indexedDB.databases();
  return [dump(localStorage), dump(sessionStorage), databases.map((db) => db.name).join('\\n'), document.cookie];
})()`;

const tenantRow = () => page.getByTestId(`tenant-row-${TENANT}`);

async function visible(locator: ReturnType<Page['locator']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 10_000 });
}

describe('tenants in browser mode', () => {
  it('adds a tenant with a key and lists it', async () => {
    await page.getByRole('button', { name: 'Add tenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tenant' });
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(TENANT);
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9');
    await dialog.getByRole('textbox', { name: 'Org (tenant key)' }).fill('e2e-org');
    await dialog.getByRole('textbox', { name: 'Username' }).fill('e2e-admin');
    await dialog.getByLabel('API key or token').fill(SECRET);
    await dialog.getByRole('button', { name: 'Add tenant' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await visible(tenantRow());
    await expect.poll(() => tenantRow().innerText()).toContain('Key in keychain');
    const text = await tenantRow().innerText();
    expect(text).toContain('http://127.0.0.1:9');
    expect(text).toContain('e2e-org');
    expect(text).toContain('e2e-admin');
    expect(text).toContain('Api-Key');
    // The form let go of the key once it was sent.
    expect(await page.content()).not.toContain(SECRET);
  });

  it('still lists it after a reload', async () => {
    await page.reload();
    await visible(tenantRow());
    expect(await tenantRow().innerText()).toContain('Key in keychain');
  });

  it('shows a connection test result inline', async () => {
    await tenantRow().getByRole('button', { name: 'Test' }).click();
    const panel = page.getByTestId(`tenant-test-${TENANT}`);
    await visible(panel);
    // Port 9 refuses connections: whatever the engine calls it, the panel must end with a verdict and a hint.
    await expect.poll(() => panel.innerText(), { timeout: 15_000 }).toContain('Next:');
  });

  it('edits it while keeping the stored key', async () => {
    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    const keyInput = dialog.getByLabel('API key or token');
    expect(await keyInput.inputValue()).toBe('');
    expect(await keyInput.getAttribute('placeholder')).toBe('Leave empty to keep the stored key');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.1:9/dm');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await expect.poll(() => tenantRow().innerText()).toContain('http://127.0.0.1:9/dm');
    expect(await tenantRow().innerText()).toContain('Key in keychain');
  });

  it('sends only the fields the edit changed', async () => {
    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    const sentBefore = framesSent.length;
    await dialog.getByRole('textbox', { name: 'Username' }).fill('e2e-admin-2');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => tenantRow().innerText()).toContain('e2e-admin-2');
    const updates = framesSent
      .slice(sentBefore)
      .map((frame) => JSON.parse(frame) as { name?: string; input?: Record<string, unknown> })
      .filter((request) => request.name === 'profiles.update');
    expect(updates).toHaveLength(1);
    expect(Object.keys(updates[0]!.input!).sort()).toEqual(['id', 'username']);

    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    await visible(dialog);
    const username = dialog.getByRole('textbox', { name: 'Username' });
    await username.fill('e2e-admin');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => tenantRow().innerText()).not.toContain('e2e-admin-2');
  });

  it('shows what the engine refuses under its field, and saves nothing', async () => {
    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    const org = dialog.getByRole('textbox', { name: 'Org (tenant key)' });
    // A space is only unusual (the form says so); a '/' can never travel inside the API's paths.
    await org.fill('e2e org');
    await visible(dialog.getByText(/Contains a space/));
    await org.fill('e2e/org');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await visible(dialog.getByText("Org (tenant key) must not contain '/': it travels inside the API's paths"));
    // Under the field, not in the form's alert.
    expect(await org.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText('Not saved').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await tenantRow().innerText()).toContain('e2e-org');
  });

  it("checks the contract's rules before sending: the same message under its field, and no call", async () => {
    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    const sentBefore = framesSent.length;
    const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await visible(dialog.getByText('Name is required'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(framesSent.slice(sentBefore).filter((frame) => frame.includes('profiles.update'))).toEqual([]);
    // Typing clears the message; the field is fine again.
    await name.fill(TENANT);
    expect(await dialog.getByText('Name is required').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('moving the base URL to another server asks for its key: the stored key does not follow', async () => {
    await page.getByRole('button', { name: `Edit ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${TENANT}` });
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill('http://127.0.0.2:9/dm');
    await visible(dialog.getByText(/The address moves to another server: enter its key, or remove the stored key/));
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    // The engine refuses, under the key field, and saves nothing.
    await visible(dialog.getByText(/never sent elsewhere/));
    const keyInput = dialog.locator('input[autocomplete="new-password"]');
    expect(await keyInput.getAttribute('data-invalid')).toBe('true');
    expect(await keyInput.getAttribute('aria-describedby')).toMatch(/-error/);
    await dialog.getByRole('checkbox', { name: 'Remove stored key' }).check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => tenantRow().innerText()).toContain('http://127.0.0.2:9/dm');
    expect(await tenantRow().innerText()).toContain('No key');
  });

  it('shows every badge whole in the tenant switcher, however long a name is', async () => {
    await host.engine.invoke('profiles.add', {
      name: 'Northbridge University of Applied Sciences — Main Campus (production)',
      baseUrl: 'https://northbridge.example.org/dm',
      org: 'northbridge',
      username: 'admin',
    });
    await page.reload();
    await page.getByTestId('tenant-switcher').click();
    const listbox = page.getByRole('listbox');
    await visible(listbox);
    await visible(listbox.getByText('Sandbox', { exact: true }));
    const badges = await page.evaluate<{ text: string; whole: boolean; inside: boolean }[]>(`(() => {
      const list = document.querySelector('[role=listbox]').getBoundingClientRect();
      return Array.from(document.querySelectorAll('[role=listbox] .mantine-Badge-root'), (badge) => {
        const label = badge.querySelector('.mantine-Badge-label') || badge;
        const box = badge.getBoundingClientRect();
        return {
          text: label.textContent,
          whole: label.scrollWidth <= label.clientWidth,
          inside: box.left >= list.left && box.right <= list.right + 0.5,
        };
      });
    })()`);
    expect(badges.map((b) => b.text)).toEqual(expect.arrayContaining(['Sandbox', 'Active']));
    for (const badge of badges) expect(badge, badge.text).toMatchObject({ whole: true, inside: true });
    // The long name gives way instead, cut with an ellipsis inside the list.
    const name = listbox.getByText(/^Northbridge University of Applied Sciences/);
    await visible(name);
    const cut = await page.evaluate<boolean>(`(() => {
      const el = Array.from(document.querySelectorAll('[role=listbox] p')).find((p) => p.textContent.startsWith('Northbridge'));
      return el.scrollWidth > el.clientWidth;
    })()`);
    expect(cut).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('removes it after confirming', async () => {
    await page.getByRole('button', { name: `Remove ${TENANT}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove tenant?' });
    await visible(dialog);
    const warning = await dialog.innerText();
    expect(warning).toContain(TENANT);
    expect(warning).toContain('keychain');
    await dialog.getByRole('button', { name: 'Remove tenant' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await tenantRow().waitFor({ state: 'detached' });
  });

  it('never gave the key back to the page', async () => {
    expect(await page.content()).not.toContain(SECRET);
    const stored = await page.evaluate<string[]>(BROWSER_STORAGE_DUMP);
    for (const text of stored) expect(text).not.toContain(SECRET);
    // The key did travel out once (proving the frames were watched), and never back in.
    expect(framesSent.filter((frame) => frame.includes(SECRET))).toHaveLength(1);
    expect(framesReceived.length).toBeGreaterThan(0);
    for (const frame of framesReceived) expect(frame).not.toContain(SECRET);
  });
});
