/**
 * The Invitations screen and the CSV import wizard in browser mode: the built renderer, the real host and engine,
 * a real sandbox. A bad email is fixed in place before the invitations are sent.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, shellPreset } from '../../src/main/engine';
import type { SecretStore } from '../../src/main/engine/secrets/keychain';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { launchChromium } from './browser';

const RENDERER_DIR = resolve('out/renderer');
/** The page's document, inside `page.evaluate` (this file is type-checked without the DOM library). */
declare const document: {
  activeElement: { getAttribute(name: string): string | null; closest(selector: string): unknown } | null;
};
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

/** Focus as the keyboard gives it (tooltips open on focus-visible): onto the element, then Shift+Tab and Tab. */
async function keyboardFocus(target: Locator): Promise<void> {
  await target.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
}

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
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
  const dataDir = tempDir();
  // The key comes from the environment: this test needs no keychain.
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

    // Where: the platform. A redirect that is not a full address is said under its box, and the step stays.
    await page.getByRole('radiogroup', { name: 'Invite to' }).waitFor();
    const redirect = page.getByRole('textbox', { name: 'Redirect to' });
    await redirect.fill('example.org/welcome');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Use a full http(s) address').waitFor();
    expect(await redirect.getAttribute('aria-invalid')).toBe('true');
    await redirect.fill('');
    await page.getByRole('button', { name: 'Next' }).click();

    // Review: one invalid address, one duplicate; nothing sent yet.
    const summary = page.getByTestId('import-summary');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toContain('2 will be emailed');
    expect(await summary.textContent()).toContain('1 invalid');
    expect(await summary.textContent()).toContain('1 duplicate');
    expect(await summary.textContent()).toContain('of 4 rows');
    expect(invitations('e2e-ann@example.org')).toBe(0);

    await page.getByText('Problems', { exact: true }).click();
    const badCell = page.getByRole('gridcell', {
      name: /Edit Email of row 4: e2e-bob@example \(Not a valid email address\)/,
    });
    await badCell.waitFor();
    // Every invalid cell says why: on keyboard focus as on hover, and so does its row's status.
    await keyboardFocus(badCell);
    await expect.poll(() => page.getByRole('tooltip').innerText()).toBe('Not a valid email address');
    expect(await page.getByTestId('row-4').getByTestId('row-status').getAttribute('aria-label')).toBe(
      'Row 4: invalid. Email: Not a valid email address',
    );
    expect(await page.getByTestId('row-6').getByTestId('row-status').getAttribute('aria-label')).toBe(
      'Row 6: duplicate. The same address as row 3',
    );
    // Keyboard only: the grid is one tab stop; arrow keys move between cells, Enter edits.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Edit Email of row 6: E2E-ANN@example.org');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Row 6: duplicate. The same address as row 3');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="rows-viewport"]'))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Row 6: duplicate. The same address as row 3');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatch(/^Edit Email of row 4: /);
    await page.keyboard.press('Enter');
    const input = page.getByLabel('Email of row 4');
    await input.fill('e2e-bob@example.org');
    await input.press('Enter');
    await expect.poll(() => summary.textContent(), { timeout: 10_000 }).toContain('3 will be emailed');
    await page.getByText('All rows', { exact: true }).click();
    await expect.poll(() => page.getByTestId('row-4').getByTestId('row-status').textContent()).toBe('Ready');

    // Confirm: the summary names how many people will be emailed.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(() => page.getByTestId('confirm-summary').innerText())
      .toBe('3 people will be emailed an invitation to the platform.');
    await page.getByRole('button', { name: 'Send 3 invitations' }).click();

    // The result counts as the review did (the duplicate is a duplicate), and the last step gets its check.
    await expect.poll(() => page.getByTestId('send-result').innerText(), { timeout: 20_000 }).toContain('3 invited');
    expect(await page.getByTestId('send-result').innerText()).toMatch(/^3 invited\s+1 duplicate$/);
    const steps = page.getByTestId('wizard-steps').locator('.mantine-Stepper-step');
    expect(await steps.count()).toBe(6);
    await expect.poll(() => steps.and(page.locator('[data-completed]')).count()).toBe(6);
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
  it('opens the batch an import sent (plurals right): its person with their name, found again by their tag', async () => {
    // The wizard is back on its first step (the last test left a refused file there).
    await page.goto(`${host.url}#/invitations/import`);
    const csv = 'Email,First name,Last name\r\ne2e-batch1@example.org,Bea,Tran\r\n';
    await page
      .getByTestId('invite-file-input')
      .setInputFiles({ name: 'batch.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('table', { name: 'Column mapping' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radiogroup', { name: 'Invite to' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    // One of everything, in the singular.
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toContain('of 1 row');
    expect(await page.getByTestId('import-summary').textContent()).not.toContain('rows');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByTestId('confirm-summary').innerText()).toBe(
      '1 person will be emailed an invitation to the platform.',
    );
    await page.getByRole('button', { name: 'Send 1 invitation', exact: true }).click();
    await page.getByRole('button', { name: 'See these invitations' }).click({ timeout: 20_000 });

    const table = page.getByRole('table', { name: 'Invitations' });
    await table.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('invitations-count').innerText()).toBe('1 invitation');
    const row = page.getByTestId('invitation-e2e-batch1@example.org');
    expect(await row.getByTestId('invitation-name').innerText()).toBe('Bea Tran');
    expect(await row.innerText()).toContain('CSV import');
    expect(
      await page
        .locator('input')
        .and(page.getByLabel('Import batch', { exact: true }))
        .inputValue(),
    ).toMatch(/^batch\.csv · /);
    // The state explains itself on keyboard focus.
    await keyboardFocus(row.getByLabel(/^Pending: /));
    await expect
      .poll(() => page.getByRole('tooltip').innerText())
      .toBe('Sent and not used yet. The link does not expire.');
  }, 60_000);

  it('searches part of an address, invites one person, and revokes with a confirm', async () => {
    await page.goto(`${host.url}#/invitations`);
    const table = page.getByRole('table', { name: 'Invitations' });
    await table.waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Invite someone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill('e2e-single@example.org');
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Sol');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(invitations('e2e-single@example.org')).toBe(1);

    // Part of an address: matched in the app's copy of the list, and said so.
    await page.getByRole('textbox', { name: 'Search' }).fill('2e-singl');
    const row = page.getByTestId('invitation-e2e-single@example.org');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId('invitation-name').innerText()).toBe('Sol');
    expect((await row.innerText()).toLowerCase()).toContain('pending');
    expect(await page.getByTestId('search-note').innerText()).toMatch(/^Matched in this app's copy of the list, read/);
    expect(await page.getByTestId('invitations-count').innerText()).toBe('1 invitation');

    await row.getByRole('button', { name: 'Revoke the invitation of e2e-single@example.org' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke invitation' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    expect(invitations('e2e-single@example.org')).toBe(0);
  }, 60_000);

  it('says a refused redirect under its box, sends nothing, and opens empty again after Cancel', async () => {
    await page.goto(`${host.url}#/invitations`);
    await page.getByRole('table', { name: 'Invitations' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Invite someone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill('e2e-redirect@example.org');
    const redirect = dialog.getByRole('textbox', { name: 'Redirect to' });
    await redirect.fill('example.org/welcome');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.getByText('Use a full http(s) address').waitFor();
    expect(await redirect.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(invitations('e2e-redirect@example.org')).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Invite someone' }).click();
    expect(await dialog.getByRole('textbox', { name: 'Email' }).inputValue()).toBe('');
    expect(await redirect.inputValue()).toBe('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);
});
