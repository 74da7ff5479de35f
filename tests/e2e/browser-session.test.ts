/**
 * Browser mode's sign-in, end to end in Chromium against the built renderer: the printed address's token is
 * exchanged for an HttpOnly, SameSite=Strict session cookie as the page loads and leaves the address bar at once;
 * no later request carries it, a reload keeps working on the cookie alone, and a browser without the cookie gets
 * the "open the printed address" page. The page's <meta> CSP is the one src/shared/csp.ts builds.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import { cspMetaTag } from '../../src/shared/csp';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { launchChromium } from './browser';

const RENDERER_DIR = resolve('out/renderer');

let host: Host;
let browser: Browser;

beforeAll(async () => {
  requireKeychainSession();
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
  host = await startHost({
    dataDir: tempDir(),
    rendererDir: RENDERER_DIR,
    keychainService: uniqueService(),
    env: { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('browser-mode session', () => {
  it('exchanges the token for an HttpOnly cookie and drops it from the address; the app runs on the cookie', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('websocket', (socket) => requested.push(socket.url()));
    await page.goto(`${host.url}#/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: 15_000 });

    // Out of the address bar (and this history entry), the route kept.
    expect(page.url()).toBe(`${host.origin}/#/settings`);
    expect(await page.evaluate('location.search')).toBe('');
    // Only the first request carried it.
    expect(requested.filter((url) => url.includes(host.token))).toEqual([`${host.url}#/settings`.replace(/#.*/, '')]);
    expect(requested.some((url) => url.startsWith(`ws://127.0.0.1:${host.port}/bridge`))).toBe(true);

    const cookies = await context.cookies(host.origin);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: `mentor_admin_session_${host.port}`,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    expect(`${cookies[0]!.name}=${cookies[0]!.value}`).toBe(host.sessionCookie);
    // Scripts in the page cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');

    // A reload has no token any more: the cookie alone keeps the app working.
    requested.length = 0;
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: 15_000 });
    await page
      .getByRole('link', { name: /Tenants|Mentors|Tickets/ })
      .first()
      .click();
    expect(requested.filter((url) => url.includes('token='))).toEqual([]);
    expect(page.url()).not.toContain('token');
    await context.close();
  });

  it('shows how to open the app to a browser without the session, and the address with a wrong token too', async () => {
    for (const address of [`${host.origin}/`, `${host.origin}/?token=${'x'.repeat(32)}`]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(address);
      await page.getByRole('heading', { name: 'Open Mentor Admin from the address it printed' }).waitFor();
      expect(await context.cookies(host.origin)).toEqual([]);
      expect(page.url()).toBe(`${host.origin}/`);
      await context.close();
    }
  });

  it('carries the CSP <meta> the build wrote from the shared policy', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(host.url);
    const meta = await page.evaluate(
      `document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')`,
    );
    expect(meta).toBe(cspMetaTag({ dev: false }).attrs.content);
    await context.close();
  });
});
