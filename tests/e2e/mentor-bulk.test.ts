/**
 * Settings across mentors in browser mode, on a real engine and sandbox: Mentors → select all matching a search →
 * Change settings… → pick a setting and its value → review each mentor's before and after (one already set) → apply
 * as a job, which the Jobs screen shows; the platform keeps the value, and each mentor's history has the change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

/** The page's document, as `page.evaluate` sees it (these tests type-check against Node, not the DOM). */
declare const document: {
  activeElement: { closest(selector: string): { getAttribute(name: string): string | null } | null } | null;
};

let server: Sandbox;
let app: OpenApp;
const ids: Record<string, string> = {};
const base = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const settingsOf = async (name: string) =>
  (await call(server, 'GET', `${base()}mentors/${ids[name]}/settings/`)).body as Record<string, unknown>;

beforeAll(async () => {
  server = await sandbox();
  for (const name of ['Chem Lab', 'Chem Theory', 'Chem Review', 'History Tutor']) {
    ids[name] = ((await call(server, 'POST', base(), { json: { name } })).body as { unique_id: string }).unique_id;
  }
  await call(server, 'PUT', `${base()}mentors/${ids['Chem Review']}/settings/`, {
    json: { enable_moderation: true },
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Mentors: change settings across mentors', () => {
  it('selects the mentors matching a search, reviews each one, applies as a job', async () => {
    const { page } = app;
    await app.open('#/mentors');
    await visible(page.getByTestId('mentor-row-History Tutor'));
    await page.getByRole('searchbox', { name: 'Search mentors' }).fill('chem');
    await expect.poll(() => page.getByTestId('mentors-table').locator('tbody tr').count()).toBe(3);
    await page.getByRole('checkbox', { name: 'Select all mentors matching the search' }).check();
    const bar = page.getByRole('region', { name: 'Selected mentors' });
    await visible(bar.getByText('3 mentors selected (all matching the search)'));
    await bar.getByRole('button', { name: 'Change settings…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Change settings of 3 mentors' });
    await visible(dialog);
    // Nothing picked: said, nothing read.
    await dialog.getByRole('button', { name: 'Review changes' }).click();
    await visible(dialog.getByText('Pick at least one setting to change.'));

    await dialog.getByRole('combobox', { name: 'Settings to change' }).fill('Moder');
    await page.getByRole('option', { name: 'Moderation', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('switch', { name: 'Moderation' }).check();
    // A picked setting left blank (a name the spec does not allow empty) is asked for, not read as "already set".
    await dialog.getByRole('combobox', { name: 'Settings to change' }).fill('Name');
    await page.getByRole('option', { name: 'Name', exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Review changes' }).click();
    await visible(dialog.getByText('Give the value every mentor gets'));
    expect(await dialog.getByTestId('bulk-review').count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field')))
      .toBe('mentor_name');
    // Taken back out of the picked settings (the last pill), the change goes on without it.
    await dialog.getByRole('combobox', { name: 'Settings to change' }).focus();
    await page.keyboard.press('Backspace');
    await expect.poll(() => dialog.locator('[data-field="mentor_name"]').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Review changes' }).click();

    const review = dialog.getByTestId('bulk-review');
    await visible(review);
    await visible(dialog.getByText('mentors change', { exact: false }));
    expect(await review.getByTestId('bulk-review-Chem Lab').innerText()).toMatch(/Moderation:\s*Off\s*→\s*On/);
    expect(await review.getByTestId('bulk-review-Chem Review').innerText()).toContain('Already set');
    expect(await review.locator('tbody tr').count()).toBe(3);
    expect(await settingsOf('Chem Lab')).toMatchObject({ enable_moderation: false });

    await dialog.getByRole('button', { name: 'Apply to 2 mentors' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(async () => (await settingsOf('Chem Theory')).enable_moderation, { timeout: 20_000 }).toBe(true);
    expect(await settingsOf('Chem Lab')).toMatchObject({ enable_moderation: true });
    expect(await settingsOf('History Tutor')).toMatchObject({ enable_moderation: false });

    // The Jobs screen shows the job.
    await app.open('#/jobs');
    await visible(page.getByText('Change Moderation on 3 mentors', { exact: false }));

    // Each mentor changed has the change in its own history.
    await app.open(`#/mentors/${ids['Chem Lab']}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const rows = page.getByTestId('settings-history').getByRole('table', { name: 'Snapshots' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Saved[\s\S]*Moderation/);
  });
});
