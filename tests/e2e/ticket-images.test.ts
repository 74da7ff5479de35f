/**
 * Remote images in a ticket's description, in browser mode against the sandbox: the browser requests nothing from the
 * image's host when the ticket opens (counted on a real local HTTP server), not even for an <img> slipped into the
 * page (the CSP allows no remote images); after the admin asks, the images arrive (fetched by the engine, shown from
 * data: URLs), each once, with no referrer and no cookies. The images are the tenant's own (the engine reaches the
 * sandbox through a front that also serves them: the tenant's origin is trusted whatever its address); an image on
 * another service of this computer is refused, says so, and is never requested.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { answer, proxy } from '../train/proxy';
import { launchChromium } from './browser';
import { requireBuiltRenderer, ticketsHost } from './tickets-host';

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
/** The tenant's origin: the sandbox behind a front that also serves the tenant's media. */
let tenant: { url: string; close(): Promise<void> };
let imageBase: string;
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
/** Another service on this computer: a ticket's image must never reach it. */
let other: Server;
const otherRequests: string[] = [];
let server: Sandbox;
let engine: Engine;
let host: Host;
let page: Page;

const hits = (path: string) => requests.filter((r) => r.path === path).length;

beforeAll(async () => {
  requireBuiltRenderer();
  other = createServer((req, res) => {
    otherRequests.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;

  server = await sandbox({ seed: 'demo' });
  tenant = await proxy(server.url, async (req, res, _payload, send) => {
    if (!req.url?.startsWith('/media/')) return answer(res, await send());
    requests.push({ path: req.url.slice('/media'.length), headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length, 'Set-Cookie': 'seen=1' });
    res.end(PNG);
  });
  imageBase = `${tenant.url}/media`;
  const id = server.db
    .prepare(`SELECT id FROM support_tickets WHERE org = ? AND status = 'open' ORDER BY id LIMIT 1`)
    .pluck()
    .get(server.org) as number;
  server.db
    .prepare('UPDATE support_tickets SET subject = ?, description = ? WHERE id = ?')
    .run(
      'imagecase screenshot',
      `<p>It breaks here:</p><img src="${imageBase}/x.png" alt="screenshot"><p>and here <img src="${imageBase}/y.png"></p><p>and on the intranet <img src="${otherBase}/z.png" alt="inside"></p>`,
      id,
    );
  ({ engine, host } = await ticketsHost(server, 'tickets-images-', tenant.url));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error));
});

afterAll(async () => {
  await page?.close().catch(() => {});
  await browser?.close();
  await host?.close();
  await engine?.close();
  await tenant?.close();
  await new Promise((done) => other?.close(done));
});

describe('remote images in a description', () => {
  it('are not requested until the admin asks, and then arrive once each', async () => {
    await page.goto(`${host.url}#/tickets`);
    await page.getByTestId('ticket-row').first().waitFor({ timeout: 20_000 });
    await page.keyboard.press('/');
    await page.keyboard.type('imagecase');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => await page.getByTestId('ticket-row').first().innerText(), { timeout: 10_000 })
      .toContain('imagecase');
    await page.keyboard.press('Enter');
    const description = page.getByTestId('ticket-description');
    await description.getByText('It breaks here:').waitFor();

    // Opened and rendered: placeholders, no <img>, and nothing asked of the image host.
    await description.getByRole('button', { name: /Image from 127\.0\.0\.1:\d+ \(screenshot\): show/ }).waitFor();
    expect(await description.locator('img').count()).toBe(0);
    await page.waitForTimeout(1000);
    expect(requests).toEqual([]);

    // The CSP is the second wall: an <img> slipped into the page is not requested either.
    await page.evaluate((src: string) => {
      const img = document.createElement('img');
      img.src = src;
      document.body.appendChild(img);
    }, `${imageBase}/slipped.png`);
    await page.waitForTimeout(1000);
    expect(hits('/slipped.png')).toBe(0);

    // Asked for: the tenant's two images arrive, from data: URLs, each requested once, without referrer or cookies;
    // the one on another service of this computer is refused, and says why.
    await description.getByRole('button', { name: 'Show 3 remote images' }).click();
    await expect.poll(() => description.locator('img').count(), { timeout: 10_000 }).toBe(2);
    await expect
      .poll(() =>
        description
          .locator('img')
          .evaluateAll((all) => all.map((img) => [String(img.getAttribute('src')).slice(0, 22), img.naturalWidth])),
      )
      .toEqual([
        ['data:image/png;base64,', 1],
        ['data:image/png;base64,', 1],
      ]);
    expect(hits('/x.png')).toBe(1);
    expect(hits('/y.png')).toBe(1);
    for (const request of requests) {
      expect(request.headers.referer).toBeUndefined();
      expect(request.headers.cookie).toBeUndefined();
    }
    expect(hits('/slipped.png')).toBe(0);
    await description.getByText(/is a loopback address \(this computer\)/).waitFor();
    expect(otherRequests).toEqual([]);
  });
});
