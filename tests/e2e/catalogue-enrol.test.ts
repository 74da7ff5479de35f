/**
 * The Catalogue in browser mode, on a real engine and sandbox: an admin enrols a cohort in a program from a CSV file
 * through Enrol from CSV… (the dialog says which columns it needs; a dry run first changes nothing), then sees the
 * cohort on the program enrolments list; the row naming a person who is not on the tenant is reported as such.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

const cohort = ['cohort-ada', 'cohort-grace', 'cohort-alan'];
const inProgram = (username: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
       WHERE e.kind = 'program' AND e.target = 'northbridge+business-leadership' AND u.username = ?`,
    )
    .pluck()
    .get(username) as number;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const username of cohort) insert.run(username, `${username}@example.edu`, server.org);
  app = await openApp(server);
  await app.open('#/catalogue/enrollments');
  await visible(app.page.getByRole('heading', { name: 'Catalogue' }));
});

afterAll(async () => {
  await app?.close();
});

describe('Catalogue: enrol a cohort from a CSV', () => {
  it('dry run, then enrol: the cohort shows on the program enrolments list', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Enrol from CSV…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enrol from CSV' });
    await visible(dialog.getByText(/Two columns: each person’s email or username, and the program or pathway/));
    const csv = [
      'Email,Program',
      ...cohort.map((u) => `${u}@example.edu,Business Leadership`),
      'ghost@example.edu,Business Leadership',
    ].join('\r\n');
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'cohort.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await visible(dialog.getByTestId('import-rows-empty'));
    expect(await dialog.locator('input[aria-label="Field for column Program"]').inputValue()).toBe(
      'Program or pathway (required)',
    );

    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText())
      .toMatch(/3 would be enrolled[\s\S]*1 with problems/);
    expect(cohort.map(inProgram)).toEqual([0, 0, 0]);
    await visible(
      dialog.getByTestId('import-report').getByText('No person with the email ghost@example.edu on this tenant'),
    );
    await visible(dialog.getByTestId('import-report').getByRole('columnheader', { name: 'Program or pathway' }));

    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText())
      .toMatch(/3 enrolled[\s\S]*1 with problems/);
    expect(cohort.map(inProgram)).toEqual([1, 1, 1]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: 'Program enrolments' }).click();
    const table = page.getByTestId('resource-table');
    for (const username of cohort) await visible(table.getByRole('cell', { name: username, exact: true }));
  });
});
