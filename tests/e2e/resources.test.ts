/**
 * The resource kit's generic screens in browser mode, on a real engine and sandbox: Tenant settings → API tokens
 * (create with the key shown once and gone once closed, field errors at their field, revoke with confirmation) and
 * → Domain whitelist (add, the platform's refusal of a duplicate at its field, no removal the platform lacks), and
 * the relation of LTI tools to LTI keys (the tool's key picked by name, the key's details listing its tools).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types
declare const getComputedStyle: any;

let server: Sandbox;
let app: OpenApp;
const framesReceived: string[] = [];

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
  app.page.on('websocket', (socket) =>
    socket.on('framereceived', (frame) => framesReceived.push(String(frame.payload))),
  );
  await app.open('#/tenant-settings/api-tokens');
  await visible(app.page.getByRole('heading', { name: 'Tenant settings' }));
});

afterAll(async () => {
  await app?.close();
});

const table = () => app.page.getByTestId('resource-table');

describe('Tenant settings: API tokens', () => {
  it('lists the tenant’s tokens from its navigation entry', async () => {
    await app.open('#/mentors');
    await app.page.getByRole('link', { name: 'Tenant settings' }).click();
    await visible(app.page.getByRole('tab', { name: 'API tokens', selected: true }));
    await visible(table().getByRole('cell', { name: 'sandbox', exact: true }));
    await expect.poll(() => app.page.getByTestId('resource-count').innerText()).toBe('2 API tokens');
  });

  it('says so when a link names no page of the area, and shows its first one', async () => {
    await app.open('#/tenant-settings/api-tokenz');
    const alert = app.page.getByRole('alert').filter({ hasText: 'Nothing here is called “api-tokenz”' });
    await visible(alert);
    const shown = await app.page.getByRole('tab', { selected: true }).innerText();
    expect(await alert.innerText()).toContain(`${shown} is shown instead`);
    await app.page.getByRole('tab', { name: 'Domain whitelist' }).click();
    await expect.poll(() => app.page.getByRole('alert').filter({ hasText: 'api-tokenz' }).count()).toBe(0);
    // The tests after this one start from the tokens' list.
    await app.open('#/tenant-settings/api-tokens');
    await visible(app.page.getByRole('button', { name: 'New API token' }));
  });

  it('keeps the area’s tabs in one column under their group headings at the smallest window', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      const tabs = page.getByRole('tablist').getByRole('tab');
      await visible(tabs.first());
      const measure = async () => Promise.all((await tabs.all()).map((tab) => tab.boundingBox()));
      // The sidebar narrows with a transition at this width: measure once the tabs stand still (two looks alike).
      const settled = async () => {
        const first = JSON.stringify(await measure());
        await page.waitForTimeout(300);
        return first === JSON.stringify(await measure());
      };
      await expect.poll(settled, { timeout: 10_000 }).toBe(true);
      const boxes = await measure();
      expect(await tabs.allInnerTexts()).toEqual([
        'API tokens',
        'Domain whitelist',
        'Integration keys',
        'LTI keys',
        'LTI tools',
        'Org metadata',
        'Branding',
        'Site config',
        'Billing',
      ]);
      // One column: every tab starts at the same x, each on its own line, the last one inside the window.
      expect(new Set(boxes.map((box) => Math.round(box!.x))).size, JSON.stringify(boxes)).toBe(1);
      expect(new Set(boxes.map((box) => Math.round(box!.y))).size).toBe(boxes.length);
      expect(Math.max(...boxes.map((box) => box!.y + box!.height))).toBeLessThanOrEqual(650);
      await visible(page.getByText('LTI', { exact: true }));
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });

  it('shows field errors at the field: the spec’s rule as typed, the platform’s refusal after sending', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await visible(dialog);
    const name = dialog.getByRole('textbox', { name: 'Name' });
    // The keyboard starts in the first field.
    const nameId = await name.getAttribute('id');
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe(nameId);
    await name.fill('two words');
    await dialog.getByRole('button', { name: 'Create API token' }).click();
    await visible(dialog.getByText('Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    // A name the platform already has: its 400 comes back under the Name field.
    await name.fill('sandbox');
    await dialog.getByRole('button', { name: 'Create API token' }).click();
    await visible(dialog.getByText('platform api key with this name already exists.'));
    const describedBy = (await name.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.includes('error'));
    expect(await page.locator(`[id="${errorId}"]`).innerText()).toBe('platform api key with this name already exists.');
    // What was typed is not lost to a slip of the key: Escape asks first.
    await page.keyboard.press('Escape');
    await visible(dialog.getByText('Discard what you typed?'));
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await name.inputValue()).toBe('sandbox');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('creates a token and shows its key once, with a copy button; closed, it is nowhere on the page', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('e2e-token');
    await dialog.getByRole('textbox', { name: 'Expires in' }).fill('30 00:00:00');
    await dialog.getByRole('button', { name: 'Create API token' }).click();

    const shown = page.getByRole('dialog', { name: 'API token created' });
    await visible(shown);
    const key = (await shown.getByTestId('revealed-value').innerText()).trim();
    expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    await visible(shown.getByRole('button', { name: 'Copy' }));
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(200);

    const framesBefore = framesReceived.length;
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    await visible(table().getByRole('cell', { name: 'e2e-token', exact: true }));
    expect(await page.content()).not.toContain(key);
    // The list read after the create (and a refresh from the tenant) never carries it.
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await expect.poll(() => framesReceived.length).toBeGreaterThan(framesBefore);
    expect(framesReceived.slice(framesBefore).join('\n')).not.toContain(key);
    expect(await page.content()).not.toContain(key);
  });

  it('revokes a token after asking, and the platform no longer knows it', async () => {
    const { page } = app;
    const key = (
      (
        await call(server, 'POST', '/api/core/platform/api-tokens/', {
          json: { name: 'to-revoke', platform_key: server.org },
        })
      ).body as { key: string }
    ).key;
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await visible(table().getByRole('cell', { name: 'to-revoke', exact: true }));
    await page.getByRole('button', { name: 'Revoke to-revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
    await visible(confirm.getByText('Scripts and integrations that use it stop working at once.'));
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await table().getByRole('cell', { name: 'to-revoke', exact: true }).waitFor({ state: 'detached' });
    expect((await call(server, 'GET', '/api/core/platform/users/', { key })).status).toBe(401);
  });

  it('warns before revoking the token whose key the app itself uses for this tenant, and only that one', async () => {
    const { page } = app;
    // The app's key for this tenant is the sandbox's admin key: its token is named "sandbox".
    await page.getByRole('button', { name: 'Revoke sandbox' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
    const note = confirm.getByTestId('app-key-note');
    await visible(note);
    expect(await note.innerText()).toMatch(
      /It is the key Mentor Admin uses for Sandbox University: revoked, the app loses access to Sandbox University/,
    );
    expect(await page.content()).not.toContain(server.apiKey);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Revoke student' }).click();
    await visible(confirm.getByText('Scripts and integrations that use it stop working at once.'));
    // Checked, and not the app's: nothing said.
    await page.waitForTimeout(500);
    expect(await confirm.getByTestId('app-key-note').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});

describe('Tenant settings: domain whitelist', () => {
  it('adds a domain, refuses a duplicate at its field, and offers no removal the platform lacks', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Domain whitelist' }).click();
    await visible(page.getByTestId('resource-note'));
    await visible(page.getByText('No domains added or checked from this app yet.'));

    await page.getByRole('button', { name: 'New domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'New domain' });
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('portal.northbridge.example');
    expect(await dialog.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create domain' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(table().getByRole('cell', { name: 'portal.northbridge.example' }));
    expect(await call(server, 'GET', '/api/core/domains/whitelist/?url=portal.northbridge.example')).toMatchObject({
      status: 200,
      body: { url: 'portal.northbridge.example', is_active: true },
    });

    await page.getByRole('button', { name: 'New domain' }).click();
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('portal.northbridge.example');
    await dialog.getByRole('button', { name: 'Create domain' }).click();
    await visible(dialog.getByText('whitelisted domain with this url already exists.'));
    expect(await dialog.getByRole('textbox', { name: 'Domain' }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();

    expect(
      await table()
        .getByRole('button', { name: /^(Delete|Revoke|Remove|Edit) / })
        .count(),
    ).toBe(0);
  });

  it('checks a domain added elsewhere on the platform, and lists it once found', async () => {
    const { page } = app;
    await call(server, 'POST', '/api/core/domains/whitelist/', {
      json: { url: 'lms.partner.example', is_active: false },
    });
    await page.getByRole('searchbox', { name: 'Search domains' }).fill('lms.partner.example');
    await page.getByRole('button', { name: 'Check on the platform' }).click();
    await visible(table().getByRole('cell', { name: 'lms.partner.example' }));
    await page.getByRole('searchbox', { name: 'Search domains' }).fill('');
    await page.locator('label', { hasText: 'Not active' }).click();
    await expect.poll(() => page.getByTestId('resource-count').innerText()).toBe('1 domain');
  });
});

describe('Tenant settings: LTI keys', () => {
  it('creates a key, shows its public half in the details, renames it and deletes it', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'LTI keys' }).click();
    await visible(page.getByText('No LTI keys yet.'));
    await page.getByRole('button', { name: 'New LTI key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New LTI key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Canvas');
    await dialog.getByRole('button', { name: 'Create LTI key' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await table().getByRole('button', { name: 'Canvas', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'LTI key Canvas' });
    await visible(details.getByText('-----BEGIN PUBLIC KEY-----', { exact: false }));
    await visible(details.getByRole('button', { name: 'Copy public key' }));
    // Fields the list has no column for are named in sentence case, abbreviations in capitals.
    await visible(details.getByText('Public JWK', { exact: true }));
    await details.getByRole('button', { name: 'Edit' }).click();
    // The edit form is titled by the key's name, not its number.
    const edit = page.getByRole('dialog', { name: 'Edit LTI key "Canvas"' });
    await edit.getByRole('textbox', { name: 'Name' }).fill('Canvas production');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await visible(table().getByRole('button', { name: 'Canvas production', exact: true }));
    const id = (await call(server, 'GET', `/api/core/lti/1p3/provider/lti-keys/?platform_key=${server.org}`)).body as {
      id: number;
      name: string;
    }[];
    expect(id.map((k) => k.name)).toEqual(['Canvas production']);

    await page.getByRole('button', { name: 'Delete Canvas production' }).click();
    await visible(page.getByText('Delete the LTI key "Canvas production"?'));
    const confirm = page.getByRole('dialog', { name: 'Delete LTI key' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await visible(page.getByText('No LTI keys yet.'));
  });
});

describe('Tenant settings: relations between kinds', () => {
  it("an LTI tool picks its key from the tenant's LTI keys, and the key's details list the tool", async () => {
    const { page } = app;
    await app.open('#/tenant-settings/lti-keys');
    await page.getByRole('button', { name: 'New LTI key' }).click();
    const newKey = page.getByRole('dialog', { name: 'New LTI key' });
    await newKey.getByRole('textbox', { name: 'Name' }).fill('Moodle signing');
    await newKey.getByRole('button', { name: 'Create LTI key' }).click();
    await newKey.waitFor({ state: 'hidden' });
    const keys = (await call(server, 'GET', `/api/core/lti/1p3/provider/lti-keys/?platform_key=${server.org}`))
      .body as { id: number; name: string }[];
    const key = keys.find((k) => k.name === 'Moodle signing')!;

    await app.open('#/tenant-settings/lti-tools');
    await page
      .getByRole('button', { name: /New LTI tool/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'New LTI tool' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Moodle courses');
    await dialog.getByRole('textbox', { name: 'Issuer' }).fill('https://moodle.example.edu');
    await dialog.getByRole('textbox', { name: 'Client ID' }).fill('moodle-1');
    await dialog.getByRole('textbox', { name: 'OIDC login URL' }).fill('https://moodle.example.edu/auth');
    await dialog.getByRole('textbox', { name: 'OAuth2 token URL' }).fill('https://moodle.example.edu/token');
    // The key is picked by its name from the tenant's keys, searched as typed; the tool keeps its id.
    const picker = dialog.getByRole('combobox', { name: 'LTI key', exact: true });
    await picker.click();
    await page.keyboard.type('Moodle');
    await page.getByRole('option', { name: 'Moodle signing' }).click();
    expect(await picker.inputValue()).toBe('Moodle signing');
    await dialog.getByRole('textbox', { name: 'Deployment IDs' }).click();
    await page.keyboard.type('["1"]');
    await dialog.getByRole('textbox', { name: 'Launch gate' }).click();
    await page.keyboard.type('{"allow_all_within_org": true}');
    await dialog.getByRole('button', { name: 'Create LTI tool' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const tools = (await call(server, 'GET', `/api/core/lti/1p3/provider/lti-tools/?platform_key=${server.org}`))
      .body as { title: string; tool_key: unknown }[];
    expect(tools.find((tool) => tool.title === 'Moodle courses')?.tool_key).toBe(key.id);

    // The key's details list the tools that use it, each a way to that tool.
    await app.open('#/tenant-settings/lti-keys');
    await table().getByRole('button', { name: 'Moodle signing', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'LTI key Moodle signing' });
    const related = details.getByTestId('related-lists');
    await visible(related.getByText('LTI tools that use it'));
    await related.getByRole('button', { name: 'Moodle courses' }).click();
    await visible(page.getByRole('dialog', { name: 'LTI tool Moodle courses' }));
    await page.keyboard.press('Escape');
  });
});

describe('Tenant settings at 1000×650', () => {
  it('keeps a date on one line and a long name aligned with its column', async () => {
    const { page } = app;
    const long = 'a-rather-long-token-name-for-the-ci-pipeline';
    await call(server, 'POST', '/api/core/platform/api-tokens/', { json: { name: long, platform_key: server.org } });
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open('#/tenant-settings/api-tokens');
      await page.getByRole('button', { name: 'Refresh API tokens' }).click();
      const name = table().getByRole('button', { name: long, exact: true });
      await visible(name);
      expect(await name.evaluate((el) => getComputedStyle(el).textAlign)).toBe('left');
      const row = table()
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: long, exact: true }) });
      const created = row.getByRole('cell').nth(2).locator('p');
      const lines = await created.evaluate(
        (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
      );
      expect(lines).toBeLessThan(1.5);
      const header = table().getByRole('columnheader', { name: 'Created by' });
      expect(
        await header.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      ).toBeLessThan(2);
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });
});

describe('the command palette (Ctrl-K)', () => {
  it('jumps to a record by name, to a kind, and to a screen', async () => {
    const { page } = app;
    await app.open('#/mentors');
    // From inside a search box too: the palette is app-wide.
    await page.getByRole('searchbox', { name: 'Search mentors' }).click();
    await page.keyboard.press('Control+K');
    const search = page.getByPlaceholder('Go to a screen, a kind or a record…');
    await visible(search);
    await search.fill('e2e-tok');
    const record = page.getByRole('button', { name: /e2e-token\s*API token/ });
    await visible(record);
    await record.click();
    const details = page.getByRole('dialog', { name: 'API token e2e-token' });
    await visible(details);
    // The details read like the list: the name first, the columns' labels, a close button with a name.
    expect(await details.innerText()).toMatch(/^API token\s+e2e-token\s+Name\s+e2e-token\s+Created by\s+admin\s/);
    await visible(details.getByRole('button', { name: 'Close' }));
    expect(await page.evaluate('window.location.hash')).toBe('#/tenant-settings/api-tokens/e2e-token');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/tenant-settings/api-tokens');

    await page.keyboard.press('Control+K');
    await search.fill('whitelist');
    // A kind says where it lives, in words (not its route's slug).
    await page.getByRole('button', { name: /^Domain whitelist\s*Tenant settings$/ }).click();
    await visible(page.getByRole('tab', { name: 'Domain whitelist', selected: true }));

    await page.keyboard.press('Control+K');
    await search.fill('tick');
    await page.getByRole('button', { name: /Tickets\s*Screen/ }).click();
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/tickets');
  });

  it('opens with its first result highlighted, so Enter goes there at once; found records take the highlight too', async () => {
    const { page } = app;
    await app.open('#/tickets');
    await visible(page.getByRole('heading', { name: 'Tickets', level: 1 }));
    await page.keyboard.press('Control+K');
    const search = page.getByPlaceholder('Go to a screen, a kind or a record…');
    await visible(search);
    const highlighted = page.locator('[data-action][data-selected]');
    await visible(highlighted);
    expect(await highlighted.innerText()).toMatch(/^Mentors\s*Screen$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/mentors');

    // Nothing but a record matches: it is highlighted when it comes in.
    await page.keyboard.press('Control+K');
    await search.fill('e2e-tok');
    await visible(page.getByRole('button', { name: /e2e-token\s*API token/ }));
    await expect.poll(() => highlighted.innerText()).toMatch(/^e2e-token\s*API token$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/tenant-settings/api-tokens/e2e-token');
    await page.keyboard.press('Escape');
  });

  it('takes Enter pressed straight after Ctrl+K: the search has the keys and its first result is chosen', async () => {
    const { page } = app;
    await app.open('#/tickets');
    await visible(page.getByRole('heading', { name: 'Tickets', level: 1 }));
    // Back to back, as a quick hand types them: neither the highlight nor the focus may come later than the key.
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/mentors');
    await page.keyboard.press('Control+K');
    await page.keyboard.type('tick');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/tickets');

    // Both keys in one task, so no frame comes between them to highlight the first result before Enter.
    await page.evaluate(`(async () => {
      const key = (init, target) =>
        target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
      key({ key: 'k', code: 'KeyK', ctrlKey: true }, document.body);
      await Promise.resolve(); // React commits the opened palette in a microtask
      key({ key: 'Enter', code: 'Enter' }, document.activeElement);
    })()`);
    await expect.poll(() => page.evaluate('window.location.hash')).toBe('#/mentors');
  });
});

describe('Tenant settings: columns, selection and export', () => {
  it('hides a column, keeps the choice for this tenant and kind, and shows it again', async () => {
    const { page } = app;
    await app.open('#/tenant-settings/api-tokens');
    await visible(table().getByRole('columnheader', { name: 'Created by' }));
    await page.getByRole('button', { name: 'Columns' }).click();
    // Keyboard only: the columns' boxes take Tab and Space.
    const createdBy = page.getByRole('checkbox', { name: 'Created by', exact: true });
    await createdBy.focus();
    await page.keyboard.press('Space');
    expect(await createdBy.isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await table().getByRole('columnheader', { name: 'Created by' }).waitFor({ state: 'detached' });
    await visible(page.getByRole('button', { name: 'Columns (1 hidden)' }));
    // Kept across a reload, under this tenant's own key; the LTI keys' list is not affected.
    await page.reload();
    await visible(table().getByRole('columnheader', { name: 'Expires' }));
    expect(await table().getByRole('columnheader', { name: 'Created by' }).count()).toBe(0);
    const stored = (await page.evaluate(
      'Object.entries(localStorage).filter(([key]) => key.startsWith("mentor-admin.columns."))',
    )) as [string, string][];
    const hidden = stored.filter(([, value]) => value !== '[]');
    expect(hidden).toEqual([[expect.stringMatching(/^mentor-admin\.columns\.[^.]+\.api-tokens$/), '["username"]']]);
    // The name opens the record: it cannot be hidden.
    await page.getByRole('button', { name: 'Columns (1 hidden)' }).click();
    expect(await page.getByRole('checkbox', { name: 'Name', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Show all columns' }).click();
    await page.keyboard.press('Escape');
    await visible(table().getByRole('columnheader', { name: 'Created by' }));
  });

  it('exports the list as CSV with a BOM and only the columns shown, cells a spreadsheet would run made text', async () => {
    const { page } = app;
    await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: '-danger', platform_key: server.org },
    });
    await app.open('#/tenant-settings/api-tokens');
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await visible(table().getByRole('cell', { name: '-danger', exact: true }));
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Expires', exact: true }).click();
    await page.keyboard.press('Escape');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-api-tokens-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.startsWith('\uFEFFname,username,created\r\n')).toBe(true);
    expect(text).toContain(`"'-danger",admin,`);
    expect(text).not.toContain('9999-12-31');
    await page.getByRole('button', { name: 'Columns (1 hidden)' }).click();
    await page.getByRole('button', { name: 'Show all columns' }).click();
    await page.keyboard.press('Escape');
    await call(server, 'DELETE', `/api/core/platform/api-tokens/-danger?platform_key=${server.org}`);
  });

  it('revokes a selection after a confirmation naming how many and which, by keyboard too', async () => {
    const { page } = app;
    for (const name of ['bulk-1', 'bulk-2', 'bulk-3'])
      await call(server, 'POST', '/api/core/platform/api-tokens/', { json: { name, platform_key: server.org } });
    await app.open('#/tenant-settings/api-tokens');
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await visible(table().getByRole('cell', { name: 'bulk-3', exact: true }));
    await page.getByRole('checkbox', { name: 'Select bulk-1' }).click();
    // Keyboard only: focus the box and press Space.
    await page.getByRole('checkbox', { name: 'Select bulk-2' }).focus();
    await page.keyboard.press('Space');
    const bar = page.getByTestId('bulk-bar');
    await visible(bar.getByText('2 API tokens selected'));
    await bar.getByRole('button', { name: 'Revoke selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke 2 API tokens' });
    await visible(confirm.getByText('Revoke these 2 API tokens? This cannot be undone.'));
    expect(await confirm.getByRole('listitem').allInnerTexts()).toEqual(['bulk-1', 'bulk-2']);
    // Cancel has the focus: Enter alone never revokes.
    await confirm.getByRole('button', { name: 'Revoke 2 API tokens' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await table().getByRole('cell', { name: 'bulk-1', exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
    await table().getByRole('cell', { name: 'bulk-2', exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
    await visible(table().getByRole('cell', { name: 'bulk-3', exact: true }));
    expect(await bar.count()).toBe(0);
    const names = (
      (await call(server, 'GET', `/api/core/platform/api-tokens/?platform_key=${server.org}`)).body as {
        name: string;
      }[]
    ).map((token) => token.name);
    expect(names).toContain('bulk-3');
    expect(names).not.toContain('bulk-1');
    expect(names).not.toContain('bulk-2');
    await call(server, 'DELETE', `/api/core/platform/api-tokens/bulk-3?platform_key=${server.org}`);
  });
});

describe('Tenant settings while the tenant is not answering', () => {
  it('shows the saved list with the offline banner, and a create that fails keeps what was typed', async () => {
    const { page } = app;
    await app.open('#/tenant-settings/api-tokens');
    await visible(table().getByRole('cell', { name: 'e2e-token', exact: true }));
    // Opened while the tenant answered (the saved copy's list turns New off): the tenant stops answering meanwhile.
    await page.getByRole('button', { name: 'New API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('while-offline');
    server.setFaults('error5xx=1');
    try {
      await dialog.getByRole('button', { name: 'Create API token' }).click();
      await visible(dialog.getByText('Not saved'), 30_000);
      expect(await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('while-offline');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.getByRole('button', { name: 'Discard' }).click();

      await page.getByRole('button', { name: 'Refresh API tokens' }).click();
      await visible(page.getByText('Showing the saved copy'), 30_000);
      await visible(table().getByRole('cell', { name: 'e2e-token', exact: true }));
    } finally {
      server.setFaults('');
    }
  });

  it('a bulk revoke is off while the list is the saved copy; one confirmed as the tenant stops waits as a job and runs when it answers', async () => {
    const { page } = app;
    await call(server, 'POST', '/api/core/platform/api-tokens/', {
      json: { name: 'offline-bulk', platform_key: server.org },
    });
    await app.open('#/tenant-settings/api-tokens');
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await visible(table().getByRole('cell', { name: 'offline-bulk', exact: true }));
    const revokeSelected = page.getByTestId('bulk-bar').getByRole('button', { name: 'Revoke selected' });
    server.setFaults('error5xx=1');
    try {
      // The saved copy: the banner says changes cannot be saved, and the bulk revoke agrees.
      await page.getByRole('button', { name: 'Refresh API tokens' }).click();
      await visible(page.getByText('Showing the saved copy'), 30_000);
      await page.getByRole('checkbox', { name: 'Select offline-bulk' }).click();
      await expect.poll(() => revokeSelected.getAttribute('aria-disabled')).toBe('true');
      await revokeSelected.click({ force: true });
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      server.setFaults('');
    }
    await page.getByRole('button', { name: 'Refresh API tokens' }).click();
    await expect.poll(() => page.getByText('Showing the saved copy').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => revokeSelected.getAttribute('aria-disabled')).toBeNull();

    // Asked while the tenant answered, confirmed as it stops: the job is queued, waits, and goes on by itself.
    await revokeSelected.click();
    const confirm = page.getByRole('dialog', { name: 'Revoke 1 API token' });
    await visible(confirm);
    server.setFaults('error5xx=1');
    try {
      await confirm.getByRole('button', { name: 'Revoke 1 API token' }).click();
      await confirm.waitFor({ state: 'hidden' });
      // Nothing is lost: the record is still listed, and on the platform, while the job waits.
      await visible(table().getByRole('cell', { name: 'offline-bulk', exact: true }));
    } finally {
      server.setFaults('');
    }
    await app.open('#/jobs');
    await visible(page.getByText(/Revoke 1 API token on /).first(), 30_000);
    await expect
      .poll(
        async () =>
          (
            (await call(server, 'GET', `/api/core/platform/api-tokens/?platform_key=${server.org}`)).body as {
              name: string;
            }[]
          ).some((token) => token.name === 'offline-bulk'),
        { timeout: 90_000 },
      )
      .toBe(false);
  });
});

describe('Tenant settings: optimistic edits, references and bulk change', () => {
  const KEYS = '/api/core/lti/1p3/provider/lti-keys/';
  const newKey = async (name: string) =>
    String(
      ((await call(server, 'POST', KEYS, { json: { name, platform_key: server.org } })).body as { id: number }).id,
    );
  const keyButton = (name: string) => table().getByRole('button', { name, exact: true });

  it('an edit and a delete show at once, and go back with the platform’s word where they were made', async () => {
    const { page } = app;
    const id = await newKey('Optimist');
    await app.open('#/tenant-settings/lti-keys');
    await page.getByRole('button', { name: 'Refresh LTI keys' }).click();
    await visible(keyButton('Optimist'));
    server.setFaults(`latency=1500ms,refusePath=${KEYS}${id}/:403:You do not have permission to perform this action.`);
    try {
      await page.getByRole('button', { name: 'Edit Optimist' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit LTI key "Optimist"' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Optimist renamed');
      await dialog.getByRole('button', { name: 'Save' }).click();
      // Shown in the list before the platform answers…
      await visible(keyButton('Optimist renamed'));
      // …then back as it was, the refusal in the form, what was typed kept.
      await visible(dialog.getByText('You do not have permission to perform this action.'), 30_000);
      await visible(keyButton('Optimist'));
      expect(await keyButton('Optimist renamed').count()).toBe(0);
      expect(await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Optimist renamed');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.getByRole('button', { name: 'Discard' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Delete Optimist' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete LTI key' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await keyButton('Optimist').waitFor({ state: 'detached' });
      await visible(confirm.getByText('You do not have permission to perform this action.'), 30_000);
      await visible(confirm.getByText('Not deleted'));
      await visible(keyButton('Optimist'));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      server.setFaults('');
    }
    const names = ((await call(server, 'GET', `${KEYS}?platform_key=${server.org}`)).body as { name: string }[]).map(
      (key) => key.name,
    );
    expect(names).toContain('Optimist');
  });

  it('a delete of a key that a tool uses names the tool, single and in a selection', async () => {
    const { page } = app;
    const id = await newKey('Referred e2e');
    await newKey('Unreferred e2e');
    await call(server, 'POST', '/api/core/lti/1p3/provider/lti-tools/', {
      json: {
        platform_key: server.org,
        title: 'Canvas e2e',
        issuer: 'https://canvas.example.edu',
        client_id: 'canvas-e2e',
        auth_login_url: 'https://canvas.example.edu/login',
        auth_token_url: 'https://canvas.example.edu/token',
        tool_key: Number(id),
        deployment_ids: ['1'],
        launch_gate: {},
      },
    });
    await app.open('#/tenant-settings/lti-tools');
    await page.getByRole('button', { name: 'Refresh LTI tools' }).click();
    await visible(table().getByRole('button', { name: 'Canvas e2e', exact: true }));
    await app.open('#/tenant-settings/lti-keys');
    await page.getByRole('button', { name: 'Refresh LTI keys' }).click();
    await page.getByRole('button', { name: 'Delete Referred e2e' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete LTI key' });
    const note = confirm.getByTestId('referrers-note');
    await visible(note.getByText('Other records refer to this'));
    await visible(note.getByText('LTI tool “Canvas e2e” uses it'));
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('checkbox', { name: 'Select Referred e2e' }).click();
    await page.getByRole('checkbox', { name: 'Select Unreferred e2e' }).click();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Delete selected' }).click();
    const bulk = page.getByRole('dialog', { name: 'Delete 2 LTI keys' });
    await visible(bulk.getByTestId('referrers-note').getByText('LTI tool “Canvas e2e” uses “Referred e2e”'));
    await bulk.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Clear selection' }).click();
  });

  it('sets one field on a selection as a job, with the field’s own input', async () => {
    const { page } = app;
    const a = await newKey('Change A');
    const b = await newKey('Change B');
    await app.open('#/tenant-settings/lti-keys');
    await page.getByRole('button', { name: 'Refresh LTI keys' }).click();
    await page.getByRole('checkbox', { name: 'Select Change A' }).click();
    await page.getByRole('checkbox', { name: 'Select Change B' }).click();
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Change selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change 2 LTI keys' });
    expect(await dialog.getByRole('listitem').allInnerTexts()).toEqual(['Change A', 'Change B']);
    // Nothing given: said at the field, nothing started.
    await dialog.getByRole('button', { name: 'Change 2 LTI keys' }).click();
    await visible(dialog.getByText('Give the value to set on 2 LTI keys'));
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Changed together');
    await dialog.getByRole('button', { name: 'Change 2 LTI keys' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => table().getByRole('button', { name: 'Changed together', exact: true }).count(), { timeout: 30_000 })
      .toBe(2);
    const names = Object.fromEntries(
      ((await call(server, 'GET', `${KEYS}?platform_key=${server.org}`)).body as { id: number; name: string }[]).map(
        (key) => [String(key.id), key.name],
      ),
    );
    expect([names[a], names[b]]).toEqual(['Changed together', 'Changed together']);
    await app.open('#/jobs');
    await visible(page.getByText(/Change 2 LTI keys on /).first(), 30_000);
  });
});
