/**
 * Single-record settings in browser mode, on a real engine and sandbox: Tenant settings → Org metadata (read view,
 * a JSON editor that refuses text that does not parse at its field, an unsaved-change guard, a save the platform
 * keeps) and → Branding (an upload refused before it is sent when the file is not an image; a PNG uploaded with its
 * preview), → Billing (its subscriptions as a table). Then → LTI tools: the JSON editor underlines what the spec's schema refuses;
 * → Site config: a setting saved as JSON, read back by the vendor SDK, and read offline from the cache.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { seedSingles } from '../../src/server/areas/resources/single';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { openApp, visible, type OpenApp } from './app';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: Sandbox;
let app: OpenApp;
let files: string;
const requests: string[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
  app.page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  files = tempDir('settings-files-');
  writeFileSync(join(files, 'logo.png'), PNG);
  writeFileSync(join(files, 'favicon.ico'), 'this is a text file named like an icon');
});

afterAll(async () => {
  await app?.close();
});

// Last: the editors and previews above ran under the app's CSP without breaking it.
afterAll(() => {
  expect(cspViolations).toEqual([]);
});

async function metadataOnPlatform() {
  return (await call(server, 'GET', `/api/core/orgs/${server.org}/metadata/`)).body as { metadata: unknown };
}

describe('Tenant settings: org metadata', () => {
  it('edits the metadata as JSON: bad JSON refused at the field, changes guarded, the save kept', async () => {
    const { page } = app;
    await app.open('#/tenant-settings/org-metadata');
    const card = page.getByTestId('single-org-metadata');
    await visible(card.getByText(server.org, { exact: true }));
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit org metadata' });
    await visible(dialog);
    const editor = dialog.getByRole('textbox', { name: 'Metadata' });
    // The keyboard starts in the editor.
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Metadata');

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('{"support": help@example.edu}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText(/^Not valid JSON: /));
    expect(await metadataOnPlatform()).toMatchObject({ metadata: {} });

    // Escape with changes made asks first; keeping on editing keeps the text.
    await page.keyboard.press('Escape');
    await visible(dialog.getByRole('alertdialog'));
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await editor.innerText()).toContain('help@example.edu');

    // Tab leaves the editor for the next control (no keyboard trap).
    await editor.click();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('{"support": "help@example.edu", "seats": 40}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await metadataOnPlatform()).toMatchObject({ metadata: { support: 'help@example.edu', seats: 40 } });
    await visible(card.getByText('"support": "help@example.edu"'));
  });

  it('reads offline from the saved copy with Edit off, and a save that cannot reach the tenant keeps what was typed', async () => {
    const { page } = app;
    const card = page.getByTestId('single-org-metadata');
    const edit = card.getByRole('button', { name: 'Edit' });
    server.setFaults('error5xx=1');
    try {
      await card.getByRole('button', { name: /^Refresh / }).click();
      await visible(card.getByText('Showing the saved copy'), 30_000);
      await visible(card.getByText('"support": "help@example.edu"'));
      if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, 'offline-card.png') });
      // Nothing can be saved while the tenant does not answer: Edit says so rather than opening a form.
      expect(await edit.getAttribute('aria-disabled')).toBe('true');
    } finally {
      server.setFaults('');
    }
    await card.getByRole('button', { name: /^Refresh / }).click();
    await card.getByText('Showing the saved copy').waitFor({ state: 'detached', timeout: 30_000 });

    // The tenant stops answering while the form is open: the save says so and keeps what was typed.
    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Edit org metadata' });
    await visible(dialog);
    server.setFaults('error5xx=1');
    try {
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('{"offline": true}');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await visible(dialog.getByText(/^Sandbox University is not answering \(.+\): nothing was saved/), 30_000);
      if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, 'offline-save.png') });
      expect(await dialog.getByRole('textbox', { name: 'Metadata' }).innerText()).toBe('{"offline": true}');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.getByRole('button', { name: 'Discard' }).click();
    } finally {
      server.setFaults('');
    }
    expect(await metadataOnPlatform()).toMatchObject({ metadata: { support: 'help@example.edu' } });
  });
});

describe('Tenant settings: branding', () => {
  it('refuses a file that is not an image at its field before any upload; uploads a PNG with its preview', async () => {
    const { page } = app;
    page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
    await app.open('#/tenant-settings/branding');
    const card = page.getByTestId('single-branding');
    await visible(card.getByText('None uploaded').first());
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit branding' });
    await visible(dialog);

    let chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose favicon' }).click();
    await (await chooser).setFiles(join(files, 'favicon.ico'));
    await visible(dialog.getByText(/^favicon\.ico: Not an image: the file is none of PNG, JPEG/));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText('Nothing changed.'));
    expect((await call(server, 'GET', `/api/core/orgs/${server.org}/favicon/`, { key: null })).body).toEqual({});

    chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose logo' }).click();
    await (await chooser).setFiles(join(files, 'logo.png'));
    await visible(dialog.getByText(/^logo\.png \(PNG, \d+ B\): uploaded when you save/));
    await visible(dialog.getByRole('img', { name: 'Logo' }));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await call(server, 'GET', `/api/core/orgs/${server.org}/logo/`, { key: null })).body).toEqual({
      file: `data:image/png;base64,${PNG.toString('base64')}`,
    });
    expect(await card.getByRole('img', { name: 'Logo' }).getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // The page itself fetched nothing from the platform: every call went through the app's own bridge.
    expect(requests.filter((r) => r.includes(server.url))).toEqual([]);
  });
});

describe('Tenant settings: billing', () => {
  it('shows a list of records the platform answers (the subscriptions) as a table, not as JSON', async () => {
    const { page } = app;
    // The platform's billing has no write call: the sandbox's demo subscriptions stand in for a paying tenant.
    seedSingles(server.db);
    await app.open('#/tenant-settings/billing');
    const table = page.getByTestId('single-billing').getByRole('table', { name: 'Subscriptions' });
    await visible(table);
    const headers = await table.getByRole('columnheader').allInnerTexts();
    expect(headers).toEqual(['Plan', 'Status', 'Seats', 'Current period end']);
    const cells = await table.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual(['Campus', 'active', '500']);
    // The date as the app writes dates, not the platform's ISO text.
    expect(cells[3]).toMatch(/2027/);
    expect(cells[3]).not.toContain('T00:00');
    expect(await page.getByTestId('single-billing').innerText()).not.toContain('"plan"');
    // Credits: no billing call of the platform reports them, and the card says so in one line.
    expect(await page.getByTestId('single-billing').getByTestId('resource-note').innerText()).toBe(
      "Credits are not shown: none of the platform's billing calls reports a tenant's credit balance.",
    );
  });
});

describe('Tenant settings: LTI tools', () => {
  it("underlines in the JSON editor what does not parse and what the spec's schema of the field refuses, and nothing in an empty field", async () => {
    const { page } = app;
    await app.open('#/tenant-settings/lti-tools');
    await page
      .getByRole('button', { name: /New LTI tool/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'New LTI tool' });
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'Deployment IDs' }).click();
    // Text that does not parse is marked; emptied again, the field is an optional value left out, not an error.
    const marked = dialog.locator('.cm-lint-marker-error, .cm-lintRange-error, .cm-lintPoint-error');
    await page.keyboard.type('[');
    await visible(marked.first());
    await page.keyboard.press('Backspace');
    await expect.poll(() => marked.count()).toBe(0);
    await page.keyboard.type('["1", 2]');
    await visible(dialog.locator('.cm-lintRange-error').first());
    // Valid JSON, so this is the schema's refusal (an item that is not a string), not the parser's.
    await page.keyboard.press('Home');
    await dialog.locator('.cm-lintRange-error').first().hover();
    await visible(page.locator('.cm-tooltip-lint').getByText(/^1: /));
  });
});

describe('Tenant settings: site config', () => {
  it('saves a setting as JSON, the vendor SDK reads it back, and the card reads it offline from the saved copy', async () => {
    const { page } = app;
    await app.open('#/tenant-settings/site-config');
    const card = page.getByTestId('single-site-config');
    await visible(card.getByRole('button', { name: 'Edit' }));
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit site config' });
    await visible(dialog);
    await dialog.getByLabel('Setting').fill('welcome_banner');
    await dialog.getByRole('textbox', { name: 'Value' }).click();
    await page.keyboard.type('{"text": "Welcome back", "show": true}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(card.getByText('"text": "Welcome back"'));

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    expect(await CoreService.corePlatformConfigSiteRetrieve({ key: server.org })).toMatchObject({
      welcome_banner: { text: 'Welcome back', show: true },
    });

    server.setFaults('error5xx=1');
    try {
      await card.getByRole('button', { name: /^Refresh / }).click();
      await visible(card.getByText('Showing the saved copy'), 30_000);
      await visible(card.getByText('"text": "Welcome back"'));
      // Reopened with the tenant still down, the screen reads the cache alone.
      await page.reload();
      await visible(card.getByText('"text": "Welcome back"'), 30_000);
    } finally {
      server.setFaults('');
    }
  });
});
