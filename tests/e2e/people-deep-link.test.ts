/**
 * A deep link into People and access opened on a fresh data folder, while the local sandbox is still being started
 * and made the tenant: the window waits (a loading state) and then shows the page; it never says "No active tenant"
 * in between. Browser mode on a real host and engine, its own sandbox started as on a first run.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { launchChromium } from './browser';
import { visible } from './app';

const RENDERER_DIR = resolve('out/renderer');
let host: Host | undefined;
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('a deep link on a first start', () => {
  it('waits while the sandbox becomes the tenant, then shows the page, never "No active tenant"', async () => {
    requireKeychainSession();
    expect(existsSync(resolve(RENDERER_DIR, 'index.html')), 'run `npx electron-vite build` first').toBe(true);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.MENTOR_ADMIN_API_KEY;
    delete env.MENTOR_ADMIN_SANDBOX;
    host = await startHost({ dataDir: tempDir(), rendererDir: RENDERER_DIR, keychainService: uniqueService(), env });
    // The sandbox is on its way, and no tenant is there yet: the state the link is opened in.
    expect((await host.engine.invoke('app.info', {})).sandbox.state).toBe('starting');
    expect(await host.engine.invoke('profiles.list', {})).toEqual([]);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1000, height: 650 } });
    // Everything the page ever says is recorded as it happens, so a message shown for a moment is caught too.
    await page.addInitScript({
      content: `window.seenTexts = [];
        new MutationObserver(() => {
          const text = document.body ? document.body.innerText : '';
          if (text.includes('No active tenant')) window.seenTexts.push(text.slice(0, 200));
        }).observe(document, { childList: true, subtree: true, characterData: true });`,
    });
    await page.goto(`${host.url}#/people-and-access/departments`);
    await visible(page.getByRole('tab', { name: 'Departments', selected: true }), 60_000);
    await visible(page.getByTestId('resource-table'), 60_000);
    expect((await host.engine.invoke('app.info', {})).sandbox.state).toBe('running');
    expect(await page.evaluate('window.seenTexts')).toEqual([]);
  }, 120_000);
});
