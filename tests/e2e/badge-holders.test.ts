/**
 * A badge's holders as an admin reads them, in browser mode on a real engine and demo sandbox: the section is
 * "Holders" (not the Open Badges "Assertions"), each holder links to the person's page as licence seat holders do, and
 * the issue dialog names the badge's course by its name, not its raw id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe("a badge's holders", () => {
  it('headed Holders, each linked to the person’s page; the issue dialog names the course', async () => {
    const { page } = app;
    await app.open('#/credentials');
    await page
      .getByTestId('badge-list')
      .getByRole('row', { name: /Data Structures completer/ })
      .click({ timeout: 60_000 });
    const detail = page.getByTestId('badge-detail');
    await visible(detail.getByRole('heading', { name: 'Holders' }), 30_000);
    expect(await detail.getByRole('heading', { name: 'Assertions' }).count()).toBe(0);
    const table = detail.getByTestId('badge-assertions');
    await visible(table);
    const rows = table.locator('tbody tr');
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    const first = rows.first().getByRole('link');
    await visible(first, 30_000);
    const username = await first.getAttribute('title');
    const id = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
    expect(await first.getAttribute('href')).toBe(`#/people-and-access/users/${id}`);
    await expect.poll(() => rows.getByRole('link').count(), { timeout: 30_000 }).toBe(count);

    await detail.getByRole('button', { name: 'Issue to course completers…' }).click();
    const dialog = page.getByRole('dialog', { name: /Issue “Data Structures completer”/ });
    const course = dialog.getByLabel('Course', { exact: true });
    await expect.poll(() => course.inputValue(), { timeout: 30_000 }).toBe('Data Structures');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await first.click();
    await expect.poll(() => page.url()).toContain(`#/people-and-access/users/${id}`);
  }, 180_000);
});
