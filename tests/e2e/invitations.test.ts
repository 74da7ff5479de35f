/**
 * The Invitations screen and the CSV import wizard in browser mode: the built renderer, the real host and engine,
 * a real sandbox. A bad email is fixed in place before the invitations are sent.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/main/engine';
import type { SecretStore } from '../../src/main/engine/secrets/keychain';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { invitationsArea } from '../../src/server/areas/invitations';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { launchChromium } from './browser';

const RENDERER_DIR = resolve('out/renderer');
const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};

let server: Sandbox;
let engine: Engine;
let host: Host;
let browser: Browser;
let page: Page;

const invitations = (email: string) =>
  (
    server.db.prepare(`SELECT count(*) AS n FROM catalog_invitations WHERE email = ? COLLATE NOCASE`).get(email) as {
      n: number;
    }
  ).n;

beforeAll(async () => {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
  server = await sandbox({ seed: 'demo', areas: [invitationsArea] });
  const dataDir = tempDir();
  // The key comes from the environment: this test needs no keychain.
  engine = await createEngine({
    dataDir,
    shell: 'browser',
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
  host = await startHost({ dataDir, rendererDir: RENDERER_DIR, engine });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error));
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await engine?.close();
});

describe('importing people from a CSV file', () => {
  it('reads the file, shows problems, fixes a bad email in place, and sends after confirming', async () => {
    await page.goto(`${host.url}#/invitations/import`);
    await page.getByText('Drop a CSV file of people to invite').waitFor({ timeout: 15_000 });
    const csv = [
      'Spring cohort 2026,,,',
      'Email,First name,Last name,Phone',
      'e2e-ann@example.org,Ann,Lee,555-1',
      'e2e-bob@example,Bob,Ray,555-2',
      'e2e-cara@example.org,Cara,Diaz,555-3',
      'E2E-ANN@example.org,Ann,Again,555-4',
    ].join('\r\n');
    await page
      .getByTestId('invite-file-input')
      .setInputFiles({ name: 'cohort.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    // Columns: the title line is skipped, the columns are matched, the unknown one is ignored with a notice.
    await page.getByRole('table', { name: 'Column mapping' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('input[aria-label="Field for column Email"]').inputValue()).toBe('Email');
    expect(await page.locator('input[aria-label="Field for column Last name"]').inputValue()).toBe('Last name');
    expect(await page.locator('input[aria-label="Field for column Phone"]').inputValue()).toBe('Ignore');
    expect(await page.getByTestId('import-notices').innerText()).toContain(
      'Column "Phone" is not used and will be ignored.',
    );
    await page.getByRole('button', { name: 'Next' }).click();

    // Where: the platform.
    await page.getByRole('radiogroup', { name: 'Invite to' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // Review: one invalid address, one duplicate; nothing sent yet.
    const summary = page.getByTestId('import-summary');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toContain('2 will be emailed');
    expect(await summary.textContent()).toContain('1 invalid');
    expect(await summary.textContent()).toContain('1 duplicate');
    expect(invitations('e2e-ann@example.org')).toBe(0);

    await page.getByText('Problems', { exact: true }).click();
    const badCell = page.getByRole('gridcell', {
      name: /Edit Email of row 4: e2e-bob@example \(Not a valid email address\)/,
    });
    await badCell.waitFor();
    await badCell.click();
    const input = page.getByLabel('Email of row 4');
    await input.fill('e2e-bob@example.org');
    await input.press('Enter');
    await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toContain('3 will be emailed');
    await page.getByText('All rows', { exact: true }).click();
    await expect.poll(() => page.getByTestId('row-4').getByTestId('row-status').textContent()).toBe('ready');

    // Confirm: the summary names how many people will be emailed.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(() => page.getByTestId('confirm-summary').innerText())
      .toBe('3 people will be emailed an invitation to the platform.');
    await page.getByRole('button', { name: 'Send 3 invitations' }).click();

    await expect.poll(() => page.getByTestId('send-result').innerText(), { timeout: 20_000 }).toContain('3 invited');
    expect(invitations('e2e-ann@example.org')).toBe(1);
    expect(invitations('e2e-bob@example.org')).toBe(1);
    expect(invitations('e2e-bob@example')).toBe(0);
    expect(invitations('e2e-cara@example.org')).toBe(1);
  }, 90_000);

  it('refuses a file that is not a CSV with what to do', async () => {
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page.getByTestId('invite-file-input').setInputFiles({
      name: 'people.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 1)]),
    });
    const alert = page.getByRole('alert').filter({ hasText: 'This file cannot be imported' });
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.innerText()).toContain('This file is an Excel workbook or a zip archive, not a CSV file.');
    expect(await alert.innerText()).toContain('save it as "CSV UTF-8"');
  }, 30_000);
});

describe('the invitations list', () => {
  it('filters by email, invites one person, and revokes with a confirm', async () => {
    await page.getByRole('tab', { name: 'Invitations' }).click();
    const table = page.getByRole('table', { name: 'Invitations' });
    await table.waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Invite someone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill('e2e-single@example.org');
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Sol');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(invitations('e2e-single@example.org')).toBe(1);

    await page.getByRole('textbox', { name: 'Email' }).fill('e2e-single@example.org');
    const row = page.getByTestId('invitation-e2e-single@example.org');
    await row.waitFor({ timeout: 10_000 });
    expect((await row.innerText()).toLowerCase()).toContain('pending');

    await row.getByRole('button', { name: 'Revoke the invitation of e2e-single@example.org' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke invitation' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    expect(invitations('e2e-single@example.org')).toBe(0);
  }, 60_000);
});
