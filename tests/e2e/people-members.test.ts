/**
 * People and access in browser mode, on a real engine and sandbox: department members imported from a CSV through
 * the kit's import dialog, a dry run first (nothing changes, the report says what each row would do), then the
 * import, whose report names the rows that added nobody and why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let nursing: number;

const departmentOf = (username: string) =>
  server.db.prepare('SELECT department_id FROM users WHERE username = ?').pluck().get(username) as number | null;

beforeAll(async () => {
  server = await sandbox();
  nursing = (
    (await call(server, 'POST', '/api/core/departments/', { json: { name: 'Nursing' } })).body as { id: number }
  ).id;
  app = await openApp(server);
  await app.open('#/people-and-access/department-members');
  await visible(app.page.getByRole('heading', { name: 'People and access' }));
});

afterAll(async () => {
  await app?.close();
});

describe('People and access: department members from a CSV', () => {
  it('dry run, then import: the report names the unknown person and department', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import department members from CSV' });
    const email = String(
      server.db.prepare('SELECT email FROM users WHERE username = ?').pluck().get(server.studentUser),
    );
    const csv = [
      'Email,Department',
      `${email},Nursing`,
      `${server.user},nursing`,
      'ghost@example.edu,Nursing',
      `${server.studentUser},Dentistry`,
    ].join('\r\n');
    // The file step says which columns the file needs.
    await visible(
      dialog.getByText(
        'Two columns: each person’s email or username, and the department’s name or id. Headers are matched without case or punctuation, as in the invitations import: “Email”, “Username”, “User” for the person; “Department”, “Department name”, “Department id” for the department.',
        { exact: false },
      ),
    );
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await visible(dialog.getByTestId('import-rows-empty'));
    expect(await dialog.locator('input[aria-label="Field for column Email"]').inputValue()).toBe(
      'Email or username (required)',
    );
    expect(await dialog.locator('input[aria-label="Field for column Department"]').inputValue()).toBe(
      'Department (required)',
    );

    const before = [departmentOf(server.studentUser), departmentOf(server.user)];
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    const result = dialog.getByTestId('import-result');
    await visible(result);
    await expect.poll(() => result.innerText()).toMatch(/2 would be added[\s\S]*2 with problems/);
    const report = dialog.getByTestId('import-report');
    // The rejected rows' column is headed by what the file's rows name.
    await visible(report.getByRole('columnheader', { name: 'Department' }));
    await visible(report.getByText('No person with the email ghost@example.edu on this tenant'));
    await visible(report.getByText('No department "Dentistry" on this tenant'));
    expect([departmentOf(server.studentUser), departmentOf(server.user)]).toEqual(before);

    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect.poll(() => dialog.getByTestId('import-result').innerText()).toMatch(/2 added[\s\S]*2 with problems/);
    expect(departmentOf(server.studentUser)).toBe(nursing);
    expect(departmentOf(server.user)).toBe(nursing);
    await visible(dialog.getByTestId('import-report').getByText('No department "Dentistry" on this tenant'));

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByTestId('resource-table');
    await visible(table.getByRole('cell', { name: email }));
  });

  it('imports people into a department from its details: a file that names people alone', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.getByTestId('resource-table').getByRole('button', { name: 'Nursing', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Department Nursing' });
    await details.getByTestId('related-lists').getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import members of Nursing from CSV' });
    // A file naming people alone: they go into Nursing (the learner is in it already, from the import above).
    const people = ['Username', server.studentUser, 'nobody-here@example.edu'].join('\n');
    await visible(dialog.getByText(/A department column \(name or id\) is optional: rows without one go into Nursing/));
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'nursing.csv', mimeType: 'text/csv', buffer: Buffer.from(people) });
    await visible(dialog.getByTestId('import-rows-empty'));
    await dialog.getByRole('button', { name: /^Import \d+ department members?$/ }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText())
      .toMatch(/0 added[\s\S]*1 already a member[\s\S]*1 with problems/);
    expect(departmentOf(server.studentUser)).toBe(nursing);
    // The report names the department the rows went into by its name, not its id.
    const report = dialog.getByTestId('import-report');
    const unknown = report.getByRole('row', { name: /nobody-here@example\.edu/ });
    await visible(unknown.getByRole('cell', { name: 'Nursing', exact: true }));
    expect(await report.getByRole('cell', { name: String(nursing), exact: true }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
  });

  it('a department’s delete says how many members it has before anything goes', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Departments' }).click();
    await page.getByRole('button', { name: 'Delete Nursing' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete department' });
    await visible(confirm.getByText('Delete the department Nursing? Its people stay on the tenant, in no department.'));
    await visible(confirm.getByTestId('referrer-counts').getByText('It has 2 department members'));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(departmentOf(server.user)).toBe(nursing);
  });
});
