/**
 * A learner's data requests in browser mode, on a real engine and sandbox (issue 18): from a person's page, "Export
 * data…" writes the zip (a job, the path said); "Erase person…" shows what would go, waits for the username typed
 * out, erases, and shows the signed-off report, which the Erasure reports tab keeps. A tenant access administrator's
 * erasure is refused with that reason before anything is typed.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { mentorOf, personData, seedPerson, type Seeded } from '../person/fixture';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let ada: Seeded;
let boss: Seeded;

beforeAll(async () => {
  server = await sandbox();
  const mentor = await mentorOf(server);
  ada = await seedPerson(server, 'ada-learner', mentor, { conversations: 2, messages: 2 });
  boss = await seedPerson(server, 'bo-admin', mentor, { conversations: 1, messages: 2 });
  const post = async (path: string, json: Record<string, unknown>) =>
    (await call(server, 'POST', `/api/core/rbac/${path}`, { json: { platform_key: server.org, ...json } })).body as {
      id: number;
    };
  const role = await post('roles/', {
    name: 'Access admins',
    actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
  });
  await post('policies/', { name: 'Bo administers', role_id: role.id, resources: ['/'], users_to_add: [boss.userId] });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('a person’s data requests', () => {
  it('exports a person’s data, then erases them after the preview and the typed username, and keeps the report', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${ada.userId}`);
    const person = page.getByTestId('person-page');
    await visible(person.getByText(`${ada.username} · ${ada.email}`));

    await person.getByRole('button', { name: 'Export data…' }).click();
    const exportDialog = page.getByRole('dialog', { name: `Export everything about ${ada.username}` });
    await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();
    const saved = exportDialog.getByTestId('export-path');
    await visible(saved);
    await visible(exportDialog.getByText('Completed'));
    const path = (await saved.locator('code').textContent())!;
    expect(path).toMatch(/ada-learner-data-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(existsSync(path)).toBe(true);
    await exportDialog.getByRole('button', { name: 'Done' }).click();

    await person.getByRole('button', { name: 'Erase person…' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${ada.username}` });
    const preview = dialog.getByTestId('erase-preview');
    await visible(preview.getByRole('row', { name: 'Chat history (conversations) 2' }));
    await visible(preview.getByRole('row', { name: 'Memory entries 2' }));
    const erase = dialog.getByRole('button', { name: 'Erase', exact: true });
    const typed = dialog.getByRole('textbox', { name: /to confirm$/ });
    await typed.fill('bo-admin');
    expect(await erase.isDisabled()).toBe(true);
    await typed.fill(ada.username);
    await erase.click();

    const report = page.getByTestId('erasure-report');
    await visible(report.getByText(/Signed off: SHA-256/));
    const after = await personData(server, ada.username);
    expect((after.chats.body as { count: number }).count).toBe(0);
    expect(JSON.stringify(after.users.body)).not.toContain(ada.username);

    await page.getByRole('button', { name: 'Back to users' }).click();
    await page.getByRole('tab', { name: 'Erasure reports' }).click();
    const reports = page.getByTestId('erasure-reports');
    await reports.getByRole('button', { name: ada.username }).click();
    await visible(page.getByTestId('erasure-report').getByText(`Asked by ${server.user}`, { exact: false }));
  });

  it('refuses to erase a person who administers the tenant’s access, saying why', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${boss.userId}`);
    const person = page.getByTestId('person-page');
    await person.getByRole('button', { name: 'Erase person…' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${boss.username}` });
    await visible(dialog.getByTestId('erase-refusal').getByText(/bo-admin administers this tenant's access/));
    await dialog.getByRole('textbox', { name: /to confirm$/ }).fill(boss.username);
    expect(await dialog.getByRole('button', { name: 'Erase', exact: true }).isDisabled()).toBe(true);
    expect(((await personData(server, boss.username)).chats.body as { count: number }).count).toBe(1);
  });
});
