/**
 * A mentor's settings in browser mode, on a real engine and sandbox: Mentors → a mentor → Settings. A model the
 * platform no longer offers is flagged; a setting is edited and saved (the platform keeps it); what the platform
 * refuses shows at its field; the history lists the saves, compares two field by field, and reverts to how the
 * settings were found (itself a save the platform keeps).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: { unique_id: string };
let other: { unique_id: string };
const settingsPath = () =>
  `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mentors/${mentor.unique_id}/settings/`;
const onPlatform = async () => (await call(server, 'GET', settingsPath())).body as Record<string, unknown>;

/** Where the keyboard is in the settings form: its field, its box, the header's and the save bar's, any open list. */
interface FocusProbe {
  field: string;
  done: boolean;
  top: number;
  bottom: number;
  headerBottom: number;
  barTop: number;
  listOpen: boolean;
}
const FOCUS_PROBE = `new Promise((answer) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const focused = document.activeElement;
  const bar = document.querySelector('[data-testid="settings-save-bar"]');
  const box = focused.getBoundingClientRect();
  answer({
    field: focused.closest('[data-field]')?.getAttribute('data-field') ?? focused.tagName,
    done: bar.contains(focused) || !focused.closest('form'),
    top: box.top,
    bottom: box.bottom,
    headerBottom: document.querySelector('header').getBoundingClientRect().bottom,
    barTop: bar.getBoundingClientRect().top,
    listOpen: [...document.querySelectorAll('[role="listbox"]')].some(
      (list) => list.getBoundingClientRect().height > 0 && getComputedStyle(list).visibility !== 'hidden',
    ),
  });
})))`;

beforeAll(async () => {
  server = await sandbox();
  const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
  mentor = (await call(server, 'POST', base, { json: { name: 'Algebra Coach' } })).body as { unique_id: string };
  other = (await call(server, 'POST', base, { json: { name: 'Geometry Coach' } })).body as { unique_id: string };
  // A model the platform's mentor-llms/ does not offer (the sandbox offers gpt-4o, gpt-4o-mini, o3-mini).
  await call(server, 'PUT', settingsPath(), { json: { llm_provider: 'openai', llm_name: 'gpt-3.5-legacy' } });
  app = await openApp(server);
  // A second tenant on the same platform: the same mentor, under another tenant's name.
  await app.host.engine.invoke('profiles.add', {
    name: 'Second Campus',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    secret: server.apiKey,
  });
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: settings', () => {
  it('leaves a small window to the fields until there is something to save, then keeps the save bar in view', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open(`#/mentors/${mentor.unique_id}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      const form = page.getByTestId('mentor-settings').getByRole('form', { name: 'Mentor settings' });
      await visible(form.getByRole('textbox', { name: 'Display name' }));
      const bar = form.getByTestId('settings-save-bar');
      const inView = async () => {
        const box = (await bar.boundingBox())!;
        return box.y + box.height <= 650;
      };
      expect(await inView()).toBe(false);
      await form.getByRole('textbox', { name: 'Display name' }).fill('Ms. Algebra (draft)');
      await expect.poll(inView).toBe(true);
      await form.getByRole('button', { name: 'Discard changes' }).click();
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });

  it('edits a setting, shows a refusal at its field, lists the history, compares two saves and reverts', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const panel = page.getByTestId('mentor-settings');
    const form = panel.getByRole('form', { name: 'Mentor settings' });
    await visible(form);

    // The model the platform no longer offers is flagged, with what it offers now.
    await visible(panel.getByTestId('model-not-offered'));
    expect(await panel.getByTestId('model-not-offered').innerText()).toMatch(
      /no longer offers “gpt-3\.5-legacy” from openai.*gpt-4o, gpt-4o-mini, o3-mini/,
    );

    // Settings the platform's read does not answer are said once above the groups; nothing to save yet.
    expect(await panel.getByTestId('settings-unread-note').innerText()).toMatch(
      /^\d+ settings are not read back from the tenant/,
    );
    expect(await form.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    // Tools, built-in abilities and MCP servers are the Knowledge tab's alone; one Featured switch, not two.
    // (The group is painted only when scrolled to: its text, not its rendering.)
    expect(await form.getByTestId('tools-elsewhere').textContent()).toBe(
      'Tools, image generation, web browsing, code interpreter and MCP servers are chosen on the Knowledge tab.',
    );
    expect(await form.getByLabel('Tool slugs').count()).toBe(0);
    for (const ability of ['Image generation', 'Web browsing', 'Code interpreter']) {
      expect(await form.getByLabel(ability, { exact: true }).count()).toBe(0);
    }
    expect(await form.getByLabel('Is featured').count()).toBe(0);
    expect(await form.getByLabel('Featured', { exact: true }).count()).toBe(1);

    // Edit the display name and the safety prompt; save.
    const displayName = form.getByRole('textbox', { name: 'Display name' });
    await displayName.fill('Ms. Algebra');
    await form.getByRole('textbox', { name: 'Safety prompt' }).fill('Stay on algebra.');
    // The theme offers the values the platform answers with; a colour has a swatch and takes hex typed in.
    const theme = form.getByLabel('Theme', { exact: true });
    await theme.fill('');
    await theme.click();
    await page.getByRole('option', { name: 'dark' }).click();
    await form.getByLabel('User message colour', { exact: true }).fill('#112233');
    await expect.poll(() => form.getByText('Unsaved changes.').isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Save settings' }).click();
    await visible(form.getByText('Saved.'));
    expect(await form.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    expect(await onPlatform()).toMatchObject({
      display_name: 'Ms. Algebra',
      theme: 'dark',
      user_message_color: '#112233',
    });
    await expect.poll(() => displayName.inputValue()).toBe('Ms. Algebra');

    // A name another mentor has: the platform refuses it, at the Name field; nothing is saved.
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Geometry Coach');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await visible(form.getByText('a mentor with this name already exists'));
    expect(await form.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await onPlatform()).toMatchObject({ mentor_name: 'Algebra Coach' });
    await form.getByRole('button', { name: 'Discard changes' }).click();

    // The history: the save, and the settings as they were found before it.
    const history = panel.getByTestId('settings-history');
    const rows = history.getByRole('table', { name: 'Snapshots' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Saved[\s\S]*Display name, Safety prompt/);
    expect(await rows.nth(1).innerText()).toMatch(/As found/);

    // Compare the two, field by field.
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    const diff = history.getByTestId('settings-diff');
    const changed = diff.locator('tr[data-field="display_name"]');
    await visible(changed);
    expect(await changed.innerText()).toMatch(/Display name\s+Algebra Coach\s+Ms\. Algebra/);

    // Revert to how it was found: asked first, saved to the platform, itself kept.
    await rows.nth(1).getByRole('button', { name: 'Revert to this' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revert the settings' });
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Revert' }).click();
    await expect.poll(async () => (await onPlatform()).display_name).toBe('Algebra Coach');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toMatch(/Reverted[\s\S]*Display name/);
    await expect.poll(() => form.getByRole('textbox', { name: 'Display name' }).inputValue()).toBe('Algebra Coach');

    // A new name and description head the page at once: the save's mentors.changed makes the mentor read again.
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Algebra Coach Pro');
    await form.getByRole('textbox', { name: 'Description' }).fill('Equations, step by step.');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await visible(form.getByText('Saved.'));
    const heading = page.getByRole('heading', { level: 1, name: 'Algebra Coach' });
    await expect.poll(() => heading.innerText()).toBe('Algebra Coach Pro');
    await visible(page.locator('p', { hasText: /^Equations, step by step\.$/ }));
  });

  it('picks categories and the department by name, not as ids; the platform keeps their ids', async () => {
    const { page } = app;
    const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
    const made = [];
    for (const name of ['Life sciences', 'Ancient history', 'Languages']) {
      made.push((await call(server, 'POST', `${base}mentor/categories/`, { json: { name } })).body as { id: number });
    }
    const nursing = (await call(server, 'POST', '/api/core/departments/', { json: { name: 'Nursing' } })).body as {
      id: number;
    };
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const form = page.getByTestId('mentor-settings').getByRole('form', { name: 'Mentor settings' });
    await visible(form);
    expect(await form.getByText('Category IDs').count()).toBe(0);

    const categories = form.locator('[data-field="categories"] input:not([type=hidden])');
    await categories.click();
    await page.keyboard.type('hist');
    await page.getByRole('option', { name: 'Ancient history' }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Life');
    await page.getByRole('option', { name: 'Life sciences' }).click();
    await page.keyboard.press('Escape');
    const department = form.locator('[data-field="department_id"] input:not([type=hidden])');
    await department.click();
    await page.keyboard.type('Nurs');
    await page.getByRole('option', { name: 'Nursing' }).click();

    await form.getByRole('button', { name: 'Save settings' }).click();
    await visible(form.getByText('Saved.'));
    const saved = await onPlatform();
    expect((saved.categories as { id: number }[]).map((category) => category.id).sort()).toEqual(
      [made[0]!.id, made[1]!.id].sort(),
    );
    // The platform's settings read does not answer the department: its id is in the mentor's stored settings.
    const stored = server.db.prepare('SELECT settings FROM mentors WHERE unique_id = ?').pluck().get(mentor.unique_id);
    expect(JSON.parse(String(stored))).toMatchObject({ department_id: nursing.id });
    // Read again, the categories show by name.
    await page.reload();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await visible(form);
    await visible(form.locator('[data-field="categories"]').getByText('Ancient history'));
    await visible(form.locator('[data-field="categories"]').getByText('Life sciences'));
  });
  it('keeps unsaved settings as a draft of this tenant’s mentor while the admin is elsewhere, and says what the platform changed meanwhile', async () => {
    const { page } = app;
    const form = page.getByTestId('mentor-settings').getByRole('form', { name: 'Mentor settings' });
    const displayName = form.getByRole('textbox', { name: 'Display name' });
    const openSettings = async (uniqueId: string) => {
      // A change of hash, not a reload: the draft lives in this window.
      await page.evaluate(`location.hash = ${JSON.stringify(`#/mentors/${uniqueId}`)}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      await visible(displayName);
    };
    await openSettings(mentor.unique_id);
    const saved = await onPlatform();
    await displayName.fill('Ms. Algebra (draft)');
    await form.getByRole('textbox', { name: 'Safety prompt' }).fill('Only algebra, please.');

    // Another screen from the sidebar, then Back: the edits are there, unsaved.
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await visible(page.getByRole('heading', { name: 'Catalogue', level: 1 }));
    await page.goBack();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect.poll(() => displayName.inputValue()).toBe('Ms. Algebra (draft)');
    expect(await form.getByRole('textbox', { name: 'Safety prompt' }).inputValue()).toBe('Only algebra, please.');
    await visible(form.getByText('Unsaved changes.'));

    // Never under another mentor, nor under another tenant with the same mentor.
    await openSettings(other.unique_id);
    await expect.poll(() => displayName.inputValue()).toBe('Geometry Coach');
    await visible(form.getByText('No changes.'));
    const switchTo = async (name: string) => {
      await dismissNotifications(page);
      await page.getByTestId('tenant-switcher').click();
      await page.getByRole('option').filter({ hasText: name }).first().click();
      await expect.poll(() => page.getByTestId('tenant-switcher').inputValue()).toBe(name);
    };
    await switchTo('Second Campus');
    await openSettings(mentor.unique_id);
    await expect.poll(() => displayName.inputValue()).toBe(saved.display_name);
    await visible(form.getByText('No changes.'));
    await switchTo('Sandbox University');

    // Meanwhile the platform's display name and description change: coming back (and reading again), the admin's
    // display name is kept and said to replace the platform's; the description they did not touch is the platform's.
    await call(server, 'PUT', settingsPath(), {
      json: { display_name: 'Changed elsewhere', mentor_description: 'Described elsewhere.' },
    });
    await openSettings(mentor.unique_id);
    await expect.poll(() => displayName.inputValue()).toBe('Ms. Algebra (draft)');
    await page.getByTestId('mentor-settings').getByRole('button', { name: 'Refresh the settings' }).click();
    const meanwhile = form.getByTestId('settings-changed-meanwhile');
    await visible(meanwhile);
    expect(await meanwhile.innerText()).toMatch(/Changed on the platform since you edited it: Display name\. Saving/);
    expect(await form.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Described elsewhere.');
    expect(await displayName.inputValue()).toBe('Ms. Algebra (draft)');
    await visible(form.getByText('Unsaved changes.'));

    // Discard changes shows the platform's settings and forgets the draft.
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => displayName.inputValue()).toBe('Changed elsewhere');
    expect(await meanwhile.count()).toBe(0);
    await page.getByRole('link', { name: 'Catalogue' }).click();
    await visible(page.getByRole('heading', { name: 'Catalogue', level: 1 }));
    await openSettings(mentor.unique_id);
    await expect.poll(() => displayName.inputValue()).toBe('Changed elsewhere');
    await visible(form.getByText('No changes.'));
    expect(await onPlatform()).toMatchObject({
      display_name: 'Changed elsewhere',
      mentor_description: 'Described elsewhere.',
    });
  });

  it('keeps the field the keyboard is on clear of the save bar and the header at 1000×650, and opens no list on focus', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open(`#/mentors/${mentor.unique_id}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      const form = page.getByTestId('mentor-settings').getByRole('form', { name: 'Mentor settings' });
      const displayName = form.getByRole('textbox', { name: 'Display name' });
      await visible(displayName);
      // An edit makes the save bar sticky; then the keyboard walks every field to the bar.
      await displayName.fill('Ms. Algebra (tabbed)');
      await visible(form.getByText('Unsaved changes.'));
      const hidden: string[] = [];
      const opened: string[] = [];
      let categoriesReached = false;
      for (let step = 0; step < 300; step++) {
        await page.keyboard.press('Tab');
        const at = await page.evaluate<FocusProbe>(FOCUS_PROBE);
        if (at.done) break;
        // A field taller than the space left (a long prompt) shows its top at least.
        const fits = at.bottom - at.top <= at.barTop - at.headerBottom;
        if (at.top < at.headerBottom || (fits && at.bottom > at.barTop)) hidden.push(JSON.stringify(at));
        if (at.listOpen) opened.push(at.field);
        if (at.field === 'categories') categoriesReached = true;
      }
      expect(categoriesReached).toBe(true);
      expect(hidden).toEqual([]);
      expect(opened).toEqual([]);

      // The multi-select opens when asked: ArrowDown.
      const categories = form.locator('[data-field="categories"] input:not([type=hidden])');
      await categories.focus();
      await page.waitForTimeout(300);
      expect(await page.getByRole('listbox').count()).toBe(0);
      await page.keyboard.press('ArrowDown');
      await visible(page.getByRole('listbox'));
      await page.keyboard.press('Escape');
      await form.getByRole('button', { name: 'Discard changes' }).click();
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  });
});
