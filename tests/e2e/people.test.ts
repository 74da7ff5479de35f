/**
 * People and access in browser mode, on a real engine and sandbox: a department and an RBAC role created from their
 * lists' forms, each shown in its list and found on the platform; a department's details list its members.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox();
  // A department with a member before the app starts: the departments list reads every department's members for
  // its Members column, so one added behind the app's back later shows after the list's next read (30 s).
  const radiology = (
    (await call(server, 'POST', '/api/core/departments/', { json: { name: 'Radiology' } })).body as { id: number }
  ).id;
  await call(server, 'POST', '/api/core/departments/members/', {
    json: { department_id: radiology, username: server.studentUser },
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const table = () => app.page.getByTestId('resource-table');

describe('People and access', () => {
  it('creates a department from its navigation entry', async () => {
    const { page } = app;
    await app.open('#/mentors');
    await page.getByRole('link', { name: 'People and access' }).click();
    await visible(page.getByRole('heading', { name: 'People and access' }));
    // The area says what it holds (not "Settings of … on the platform", which is Tenant settings' line).
    await visible(page.getByText(/^Who belongs where in .+, and who may do what\.$/));
    // The directory comes first; departments are one tab down.
    await visible(page.getByRole('tab', { name: 'Users', selected: true }));
    await page.getByRole('tab', { name: 'Departments' }).click();
    await visible(page.getByRole('tab', { name: 'Departments', selected: true }));
    await page.getByRole('button', { name: 'New department' }).click();
    const dialog = page.getByRole('dialog', { name: 'New department' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('School of Nursing');
    await dialog.getByRole('button', { name: 'Create department' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(table().getByRole('cell', { name: 'School of Nursing', exact: true }));
    const listed = (await call(server, 'GET', '/api/core/departments/')).body as { name: string }[];
    expect(listed.map((d) => d.name)).toContain('School of Nursing');

    // A department's details list its members.
    await table().getByRole('button', { name: 'Radiology', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Department Radiology' });
    const related = details.getByTestId('related-lists');
    await visible(related.getByText('Members'));
    // The member by name once the directory has answered (username beside it), by username until then.
    const member = related.getByTestId('member-row').filter({ hasText: server.studentUser });
    await visible(member.getByRole('button', { name: new RegExp(`${server.studentUser}$`) }));
    // Each member can be taken out of it from here.
    await visible(member.getByRole('button', { name: /^Remove .+ from Radiology$/ }));
    await page.keyboard.press('Escape');
  });

  it('creates an RBAC role with its actions', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Roles' }).click();
    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Mentor editors');
    await dialog.getByLabel('Actions', { exact: true }).click();
    await page.keyboard.type('["Ibl.Mentor/Settings/read"]');
    await dialog.getByRole('button', { name: 'Create role' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(table().getByRole('cell', { name: 'Mentor editors', exact: true }));
    // Its actions read as what they allow, not as JSON or raw ids.
    await visible(table().getByRole('cell', { name: 'Mentor / Settings: read', exact: true }));
    const roles = (await call(server, 'GET', `/api/core/rbac/roles/?platform_key=${server.org}`)).body as {
      results: { name: string; actions: string[] }[];
    };
    expect(roles.results).toEqual([
      expect.objectContaining({ name: 'Mentor editors', actions: ['Ibl.Mentor/Settings/read'] }),
    ]);
  });
});
