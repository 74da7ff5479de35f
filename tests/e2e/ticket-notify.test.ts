/**
 * The opt-in desktop notification for new tickets in browser mode, against the sandbox's ticket simulator: the
 * switch is saved in the app's settings, a ticket filed on the server while the admin looks elsewhere raises one
 * notification (the page's Notification API, permission granted by the browser), and clicking it opens the ticket.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { launchChromium } from './browser';
import { requireBuiltRenderer, ticketsHost } from './tickets-host';

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const window: any;
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let browser: Browser;
let context: BrowserContext;
let server: Sandbox;
let engine: Engine;
let host: Host;
let page: Page;

beforeAll(async () => {
  requireBuiltRenderer();
  server = await sandbox({ seed: 'demo', simulateRate: 60 });
  ({ engine, host } = await ticketsHost(server, 'tickets-notify-'));
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['notifications'], { origin: new URL(host.url).origin });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.addInitScript(() => {
    // Record what the page shows (still through the real Notification API), and let the admin look elsewhere.
    const notes: { title: string; body: string; tag: string }[] = [];
    const Real = window.Notification;
    class Recorded extends Real {
      constructor(title: string, options: { body?: string; tag?: string } = {}) {
        super(title, options);
        notes.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
        window.__lastNote = this;
      }
    }
    window.Notification = Recorded;
    window.__notes = notes;
    document.hasFocus = () => false;
  });
});

afterAll(async () => {
  await page?.close().catch(() => {});
  await context?.close().catch(() => {});
  await browser?.close();
  await host?.close();
  await engine?.close();
});

describe('new-ticket notifications in browser mode', () => {
  it('are off until switched on, then announce a ticket filed on the server; a click opens it', async () => {
    await page.goto(`${host.url}#/tickets`);
    await page.getByTestId('ticket-row').first().waitFor({ timeout: 20_000 });
    expect((await engine.invoke('settings.get', {})).notifyNewTickets).toBe(false);
    const lastBefore = Number(
      server.db.prepare('SELECT max(id) FROM support_tickets WHERE org = ?').pluck().get(server.org),
    );

    await page.getByRole('switch', { name: 'Desktop notifications' }).click();
    await expect.poll(async () => (await engine.invoke('settings.get', {})).notifyNewTickets).toBe(true);
    await expect.poll(() => page.getByRole('switch', { name: 'Desktop notifications' }).isChecked()).toBe(true);

    await expect
      .poll(() => page.evaluate(() => (window.__notes as unknown[]).length), { timeout: 45_000, interval: 500 })
      .toBeGreaterThan(0);
    const [note] = (await page.evaluate(() => window.__notes)) as { title: string; body: string; tag: string }[];
    expect(note!.tag).toBe('mentor-admin-tickets');
    expect(note!.title).toMatch(/^(New support ticket|\d+ new support tickets)$/);

    // A click goes to the ticket filed meanwhile (or to the Open view when several were).
    await page.evaluate(() => window.__lastNote.onclick());
    if (note!.title === 'New support ticket') {
      await expect
        .poll(async () => Number(await page.getByTestId('ticket-pane').getAttribute('data-ticket')), {
          timeout: 10_000,
        })
        .toBeGreaterThan(lastBefore);
      const opened = Number(await page.getByTestId('ticket-pane').getAttribute('data-ticket'));
      const subject = server.db.prepare('SELECT subject FROM support_tickets WHERE id = ?').pluck().get(opened);
      expect(String(subject).replace(/\s+/g, ' ')).toContain(note!.body.split('\n')[0]!.replace(/…$/, ''));
    } else {
      await expect.poll(() => page.getByTestId('view-open').getAttribute('aria-current')).toBe('true');
    }
    // Back on the plain route, so the next notification's target works again.
    await expect.poll(() => new URL(page.url()).hash).toBe('#/tickets');
  });
});
