/**
 * A 1,000,000-row import in the browser: the review grid reaches and shows the very last row. A single scroller a
 * million rows tall (40 M px) would pass Chromium's ~33.5 M px element limit and leave rows past ~840,000 out of
 * reach; the grid pages by 100,000 rows, each page virtualized.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type Engine, shellPreset } from '../../src/main/engine';
import type { SecretStore } from '../../src/main/engine/secrets/keychain';
import { startHost, type Host } from '../../src/main/host/server';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { launchChromium } from './browser';

const ROWS = 1_000_000;
/** Chromium lays out no element taller than this (2^25 px). */
const CHROMIUM_MAX_PX = 33_554_432;
const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};

let engine: Engine;
let host: Host;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const renderer = resolve('out/renderer');
  if (!existsSync(join(renderer, 'index.html')))
    throw new Error('The renderer is not built: run `npx electron-vite build`');
  const server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
  const dataDir = tempDir();
  engine = await createEngine({
    ...shellPreset('browser'),
    dataDir,
    env: { MENTOR_ADMIN_API_KEY: server.apiKey },
    secrets: noKeychain,
    sandbox: 'off',
  });
  await engine.invoke('profiles.add', {
    name: 'Sandbox',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  host = await startHost({ dataDir, rendererDir: renderer, engine });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await engine?.close();
});

it('reaches and shows the last row of a 1,000,000-row file', async () => {
  const path = join(tempDir(), 'million.csv');
  const out = createWriteStream(path);
  out.write('Email,First name\n');
  for (let i = 0; i < ROWS; i++) if (!out.write(`m${i}@x.org,N${i}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');

  await page.goto(`${host.url}#/invitations/import`);
  await page.getByTestId('invite-file-input').setInputFiles(path);
  await page.getByRole('table', { name: 'Column mapping' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radiogroup', { name: 'Invite to' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect
    .poll(
      () =>
        page
          .getByTestId('import-summary')
          .textContent()
          .catch(() => ''),
      { timeout: 240_000, interval: 500 },
    )
    .toContain('1,000,000 will be emailed');

  const viewport = page.getByTestId('rows-viewport');
  await page.getByTestId('row-2').waitFor();
  expect(await page.getByTestId('rows-range').innerText()).toMatch(/^Rows 1–100,000 of 1,000,000/);
  // The last page, then the bottom of it.
  await page.getByRole('button', { name: 'last page of rows' }).click();
  await expect.poll(() => page.getByTestId('rows-range').innerText()).toMatch(/^Rows 900,001–1,000,000 of 1,000,000/);
  const height = await viewport.evaluate((el) => el.scrollHeight);
  expect(height).toBeLessThan(CHROMIUM_MAX_PX);
  await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));

  const last = page.getByTestId(`row-${ROWS + 1}`);
  await last.waitFor({ timeout: 30_000 });
  expect(await last.getByRole('gridcell', { name: /^Edit Email of row 1000001: / }).innerText()).toBe(
    `m${ROWS - 1}@x.org`,
  );
  // Shown: inside the grid's visible box, not just in the DOM.
  const box = (await viewport.boundingBox())!;
  const row = (await last.boundingBox())!;
  expect(row.y).toBeGreaterThanOrEqual(box.y);
  expect(row.y + row.height).toBeLessThanOrEqual(box.y + box.height + 1);
  expect(await last.getAttribute('aria-rowindex')).toBe(String(ROWS + 1));
}, 360_000);
