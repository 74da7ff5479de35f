/**
 * Remote images in a ticket's description, in browser mode against the sandbox: the browser requests nothing from the
 * image's host when the ticket opens (counted on a real local HTTP server), not even for an <img> slipped into the
 * page (the CSP allows no remote images); after the admin asks, the images arrive (fetched by the engine, shown from
 * data: URLs), each once, with no referrer and no cookies.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
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
let images: Server;
let imageBase: string;
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
let server: Sandbox;
let engine: Engine;
let host: Host;
let page: Page;

const hits = (path: string) => requests.filter((r) => r.path === path).length;

beforeAll(async () => {
  requireBuiltRenderer();
  images = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length, 'Set-Cookie': 'seen=1' });
    res.end(PNG);
  });
  await new Promise<void>((done) => images.listen(0, '127.0.0.1', done));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;

  server = await sandbox({ seed: 'demo' });
  const id = server.db
    .prepare(`SELECT id FROM support_tickets WHERE org = ? AND status = 'open' ORDER BY id LIMIT 1`)
    .pluck()
    .get(server.org) as number;
  server.db
    .prepare('UPDATE support_tickets SET subject = ?, description = ? WHERE id = ?')
    .run(
      'imagecase screenshot',
      `<p>It breaks here:</p><img src="${imageBase}/x.png" alt="screenshot"><p>and here <img src="${imageBase}/y.png"></p>`,
      id,
    );
  ({ engine, host } = await ticketsHost(server, 'tickets-images-'));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error));
});

afterAll(async () => {
  await page?.close().catch(() => {});
  await browser?.close();
  await host?.close();
  await engine?.close();
  await new Promise((done) => images?.close(done));
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

    // Asked for: both images arrive, from data: URLs, each requested once, without referrer or cookies.
    await description.getByRole('button', { name: 'Show 2 remote images' }).click();
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
  });
});
