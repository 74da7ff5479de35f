/**
 * The resource kit's CSV import in browser mode, on a real engine and sandbox: Tenant settings → Domain whitelist →
 * Import CSV, through the shared drop zone; the columns matched by synonym, the unknown one named, a bad cell fixed
 * in place, a bad row left invalid; the job creates the rest, and the list shows them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
  await app.open('#/tenant-settings/domains');
  await visible(app.page.getByRole('heading', { name: 'Tenant settings' }));
});

afterAll(async () => {
  await app?.close();
});

describe('Tenant settings: import domains from CSV', () => {
  it('reads the file, fixes a cell in place, imports the good rows and reports the bad one', async () => {
    const { page } = app;
    // API tokens are never imported (each new key is shown once, to the call that creates it): no button offers it.
    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'New API token' }).waitFor();
    expect(await page.getByRole('button', { name: 'Import CSV' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Domain whitelist' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import domains from CSV' });
    await visible(dialog.getByText('Drop a CSV file of domains'));
    const csv = [
      'Website;Enabled;Notes',
      'https://e2e-one.example.edu;yes;main',
      'https://e2e-two.example.edu;maybe;typo',
      ';true;no address',
      'https://e2e-three.example.edu;no;old',
    ].join('\r\n');
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'domains.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    // Columns matched by their usual names; the unknown one is named and ignored.
    await visible(dialog.getByTestId('import-rows'));
    expect(await dialog.locator('input[aria-label="Field for column Website"]').inputValue()).toBe('Domain (required)');
    expect(await dialog.locator('input[aria-label="Field for column Enabled"]').inputValue()).toBe('Active');
    expect(await dialog.locator('input[aria-label="Field for column Notes"]').inputValue()).toBe('Ignore');
    expect(await dialog.getByTestId('import-notices').innerText()).toContain('ignored: Notes.');
    const counts = dialog.getByTestId('import-counts');
    await expect.poll(() => counts.innerText()).toMatch(/2 ready[\s\S]*2 with problems/);
    await visible(dialog.getByText('Active: Must be a valid boolean.'));
    await visible(dialog.getByText('Domain: This field is required.'));

    // The bad cell fixed in place: the row is checked again and becomes ready.
    const cell = dialog.getByRole('textbox', { name: 'Active, row 3' });
    await cell.fill('yes');
    await cell.press('Enter');
    await expect.poll(() => counts.innerText()).toMatch(/3 ready[\s\S]*1 with problems/);

    await dialog.getByRole('button', { name: 'Import 3 domains' }).click();
    const result = dialog.getByTestId('import-result');
    await visible(result);
    await expect.poll(() => result.innerText()).toMatch(/3 created[\s\S]*1 invalid/);

    expect(
      await call(
        server,
        'GET',
        `/api/core/domains/whitelist/?url=${encodeURIComponent('https://e2e-two.example.edu')}`,
      ),
    ).toMatchObject({
      status: 200,
      body: { url: 'https://e2e-two.example.edu', is_active: true },
    });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByTestId('resource-table');
    for (const url of ['https://e2e-one.example.edu', 'https://e2e-two.example.edu', 'https://e2e-three.example.edu'])
      await visible(table.getByRole('cell', { name: url }));
  });
});
