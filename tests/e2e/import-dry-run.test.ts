/**
 * A licence's seats dry run in browser mode, on a real engine and sandbox: 48 rows for a licence with one free seat.
 * The preview warns of the repeated row (never refuses it); the dry run's counts are parts that add up to the file's
 * rows in a seat's words; the job is named by the licence; the rows that will not go in are listed without a target
 * column (one licence); and only one button is the primary one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let license: number;
const emails: string[] = [];

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (let i = 0; i < 46; i++) {
    emails.push(`dry${i}@seats.test`);
    insert.run(`dry-${i}`, emails[i], server.org);
  }
  license = (
    (
      await call(server, 'POST', '/api/catalog/licenses/user/create/', {
        json: {
          platform_key: server.org,
          name: 'Spring cohort',
          count: 2,
          expired: new Date(Date.now() + 90 * 86_400_000).toISOString(),
        },
      })
    ).body as { id: number }
  ).id;
  // One of the two seats is taken by the file's first person: one seat is free.
  await call(
    server,
    'POST',
    `/api/catalog/licenses/user/assignment/?license_id=${license}&platform_key=${server.org}`,
    {
      json: { license_id: license, platform_key: server.org, email: emails[0] },
    },
  );
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('a seats dry run', () => {
  it('48 rows, one free seat: the summary adds up, the repeat is named, the job is the licence’s', async () => {
    const { page } = app;
    await app.open(`#/licences/licenses/${license}`);
    await visible(page.getByTestId('seat-meter').getByText('1 of 2 seats used'));
    await page.getByRole('button', { name: 'Give seats from a CSV file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give seats of Spring cohort from CSV' });
    // 48 rows: the seat holder, 45 others, someone with no account, and row 3's person again.
    const rows = [...emails, 'ghost@seats.test', emails[1]!.toUpperCase()];
    expect(rows).toHaveLength(48);
    await dialog.getByTestId('resource-import-file').setInputFiles({
      name: 'cohort.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['Email', ...rows].join('\r\n')),
    });

    // The preview warns of the repeat: the row is sent once (with row 3), not a problem. Its chips are parts that add
    // up to the file's rows, and the button counts the people that will be sent.
    const counts = dialog.getByTestId('import-counts');
    await expect.poll(() => counts.innerText()).toMatch(/^47 ready\s+1 repeated in the file$/);
    await visible(dialog.getByRole('button', { name: /^Import 47 / }));
    expect(await dialog.getByRole('button', { name: /^Import \d+ / }).innerText()).not.toMatch(/48/);
    expect(await dialog.getByTestId('import-rows').getByRole('columnheader').first().innerText()).toBe('Row');
    await visible(dialog.getByTestId('import-rows').getByText('Repeated in the file (row 3): sent once'));
    await visible(dialog.getByText(/1 row has the same person as an earlier row: each is sent once/));

    await dialog.getByRole('button', { name: 'Dry run' }).click();
    const result = dialog.getByTestId('import-result');
    await visible(result);
    await expect
      .poll(() => result.innerText())
      .toBe('1 would get a seat\n1 already holds a seat\n1 repeated in the file\n44 won’t fit\n1 with problems');
    // The items' line says the same parts, and they add up to the file's rows.
    await expect
      .poll(() => dialog.getByTestId('job-files').innerText())
      .toContain(
        '48 rows: 1 would get a seat · 1 already holds a seat · 1 repeated in the file · 44 won’t fit · 1 with problems',
      );
    // Named by the licence, not its number.
    await visible(dialog.getByText('Dry run: give 48 seats of Spring cohort (cohort.csv)'));

    // The rows that would add nobody: by person, no target column (the licence is the file's one), the result, why.
    const report = dialog.getByTestId('import-report');
    await visible(dialog.getByText('Rows that would add nobody', { exact: true }));
    expect(await report.getByRole('columnheader').allInnerTexts()).toEqual(['Row', 'Person', 'Result', 'Why']);
    await visible(
      report.getByRole('row', { name: /49\s+DRY1@SEATS\.TEST\s+Repeated\s+Repeated in the file \(row 3\)/ }),
    );
    await visible(
      report.getByRole('row', {
        name: /48\s+ghost@seats\.test\s+No such person\s+No account for ghost@seats\.test on this tenant/,
      }),
    );
    expect(await dialog.getByTestId('import-over-seats').getByRole('columnheader').allInnerTexts()).toEqual([
      'Row',
      'Person',
      'Why',
    ]);

    // One primary button: "Import now"; "Done" is not.
    expect(await dialog.getByRole('button', { name: 'Import now' }).getAttribute('data-variant')).toBe('filled');
    expect(await dialog.getByRole('button', { name: 'Done' }).getAttribute('data-variant')).toBe('default');
    expect(server.db.prepare('SELECT count(*) FROM license_assignments').pluck().get()).toBe(1);

    // Sent: the seats past the free one go too (the spec does not say the platform refuses them), said beside.
    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText(), { timeout: 60_000 })
      .toMatch(/^45 given a seat\n1 already holds a seat\n1 repeated in the file\n1 with problems\n+44 of them beyond/);
    expect(await dialog.getByRole('button', { name: 'Done' }).getAttribute('data-variant')).toBe('filled');
    await expect(dialog.getByRole('button', { name: 'Import now' }).count()).resolves.toBe(0);
    await visible(dialog.getByText('Rows that added nobody', { exact: true }));
  });

  it('each job’s own page says what its rows came to in the same words, not "done" and "skipped"', async () => {
    const { jobs } = await app.host.engine.invoke('jobs.list', { kind: 'licence-seats' });
    const dryRun = jobs.find((job) => job.title.startsWith('Dry run'));
    const sent = jobs.find((job) => !job.title.startsWith('Dry run'));
    expect([dryRun?.dryRun, sent?.dryRun]).toEqual([true, false]);
    await app.open(`#/jobs/${dryRun!.id}`);
    await expect
      .poll(() => app.page.getByTestId('job-files').innerText())
      .toContain(
        '48 rows: 1 would get a seat · 1 already holds a seat · 1 repeated in the file · 44 won’t fit · 1 with problems',
      );
    await app.open(`#/jobs/${sent!.id}`);
    await expect
      .poll(() => app.page.getByTestId('job-files').innerText())
      .toContain('48 rows: 45 given a seat · 1 already holds a seat · 1 repeated in the file · 1 with problems');
    expect(await app.page.getByTestId('job-files').innerText()).not.toMatch(/done|skipped/);
  });

  it('the job’s items say each row’s step in words, not codes', async () => {
    const { jobs } = await app.host.engine.invoke('jobs.list', { kind: 'licence-seats' });
    const dryRun = jobs.find((job) => job.title.startsWith('Dry run'))!;
    await app.open(`#/jobs/${dryRun.id}`);
    const items = app.page.getByTestId('job-items');
    await expect.poll(() => items.getByRole('row').count()).toBe(49);
    const steps = (await items.locator('tbody tr td:nth-child(3)').allInnerTexts()).map((step) => step.trim());
    expect(new Set(steps)).toEqual(
      new Set(['Would get a seat', 'Already holds a seat', 'Repeated in the file', 'Won’t fit', 'No such person']),
    );
    const sent = jobs.find((job) => !job.title.startsWith('Dry run'))!;
    await app.open(`#/jobs/${sent.id}`);
    await visible(items.getByText('Given a seat').first());
    expect(await items.innerText()).not.toMatch(/wouldAdd|overSeats|already\b|repeated\b|unknown|\badded\b/);
  });
});
