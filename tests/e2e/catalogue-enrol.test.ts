/**
 * The Catalogue in browser mode, on a real engine and sandbox: an admin enrols a cohort in a program from a CSV file
 * through Program enrolments' Enrol from CSV… (the dialog says which columns it needs; a dry run first changes
 * nothing), then sees the cohort on the list; the row naming a person who is not on the tenant is reported as such.
 * Course enrolments offer no import or enrol (the platform enrols in programs and pathways only): the tab and a
 * course's details say how people get into a course, with links that go there; a pathway's details enrol from a CSV
 * file as a program's do.
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
  await app.open('#/catalogue/program-enrollments');
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

    await page.getByRole('button', { name: 'Refresh program enrolments' }).click();
    const table = page.getByTestId('resource-table');
    for (const username of cohort) await visible(table.getByRole('cell', { name: username, exact: true }));
  });
});

const pathwayEnrolled = (username: string, pathwayId: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalogue_pathway_enrollments e JOIN catalogue_pathways p ON p.id = e.pathway_pk
       JOIN users u ON u.id = e.user_id WHERE p.pathway_id = ? AND u.username = ? AND e.active = 1`,
    )
    .pluck()
    .get(pathwayId, username) as number;

describe('Course enrolments: how people get into a course', () => {
  it('the Enrolments tab lists who is enrolled, offers no import, and says how, with links that work', async () => {
    const { page } = app;
    await app.open('#/catalogue/enrollments');
    await visible(page.getByTestId('resource-table'));
    const note = page.getByTestId('course-way-in');
    await visible(note);
    expect(await note.innerText()).toMatch(
      /Courses can’t be enrolled in directly: people get into a course through a program or pathway that contains it/,
    );
    expect(await page.getByRole('button', { name: /Enrol from CSV|Import CSV|Enrol someone/ }).count()).toBe(0);
    await note.getByRole('link', { name: 'program' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/catalogue/programs');
    await visible(page.getByRole('tab', { name: 'Programs', selected: true }));
    await page.goBack();
    await page.getByTestId('course-way-in').getByRole('link', { name: 'invitation to the course' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/invitations');
  });

  it('a course no program or pathway contains says how its people got in, with the links to add it or invite', async () => {
    const { page } = app;
    const courseId = 'course-v1:northbridge+HUM101+2026';
    expect(server.db.prepare('SELECT name FROM courses WHERE course_id = ?').pluck().get(courseId)).toBeTruthy();
    await app.open(`#/catalogue/courses/${encodeURIComponent(courseId)}`);
    const note = page.getByTestId('course-way-in');
    await visible(note.getByRole('link', { name: 'invitation' }));
    expect(await note.innerText()).toBe(
      'No program or pathway of this tenant contains this course now; people come into it by invitation or were ' +
        'enrolled earlier. To enrol people, add it to one of the programs or pathways.',
    );
    expect(await note.getByRole('link', { name: 'programs' }).getAttribute('href')).toBe('#/catalogue/programs');
    expect(await note.getByRole('link', { name: 'pathways' }).getAttribute('href')).toBe('#/catalogue/pathways');
    expect(await note.getByRole('link', { name: 'invitation' }).getAttribute('href')).toBe('#/invitations');
  });

  it('a course’s details name the programs and pathways that contain it, each a link to its enrolment', async () => {
    const { page } = app;
    await app.open(`#/catalogue/courses/${encodeURIComponent('course-v1:northbridge+CS101+2026')}`);
    const note = page.getByTestId('course-way-in');
    await visible(note.getByRole('link', { name: 'Data foundations' }));
    expect(await note.innerText()).toMatch(
      /Courses can’t be enrolled in directly: enrol people in the program .+ and the pathway Data foundations, which contain this course/,
    );
    const drawer = page.getByRole('dialog');
    expect(await drawer.getByRole('button', { name: /Enrol from CSV|Import CSV|Enrol someone/ }).count()).toBe(0);

    // The pathway's details enrol from a CSV file, as a program's do.
    await note.getByRole('link', { name: 'Data foundations' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/catalogue/pathways/data-foundations');
    const section = page.getByTestId('catalogue-enrolment');
    await visible(section.getByRole('button', { name: 'Enrol someone…', exact: true }));
    await section.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enrol in Data foundations from CSV' });
    await visible(dialog.getByText(/each is enrolled in Data foundations/));
    await dialog.getByTestId('resource-import-file').setInputFiles({
      name: 'pathway.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Email\r\ncohort-ada@example.edu\r\nnobody@example.edu\r\n'),
    });
    await dialog.getByRole('button', { name: 'Enrol 2 rows' }).click();
    // The parts add up to the file's rows (shared/import-summary.ts); the unknown person is named in the report.
    await expect.poll(() => dialog.getByTestId('import-result').innerText()).toBe('1 enrolled\n1 with problems');
    await visible(
      dialog
        .getByTestId('import-report')
        .getByText(/nobody@example\.edu/)
        .first(),
    );
    expect(pathwayEnrolled('cohort-ada', 'data-foundations')).toBe(1);
  });
});
