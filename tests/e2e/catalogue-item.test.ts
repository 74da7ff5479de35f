/**
 * A catalogue item's details in browser mode, on a real engine and sandbox: a course's metadata field changed and a
 * new one added (the platform's refusal of a name shown under that name), and one person enrolled in a program
 * ("Enrol someone…", someone with no account refused at the person) and unenrolled after a confirm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

const COURSE = 'course-v1:northbridge+CS101+2026';
const PROGRAM_KEY = 'northbridge+business-leadership';
let server: Sandbox;
let app: OpenApp;

const metadataOf = () =>
  JSON.parse(
    server.db.prepare('SELECT metadata FROM catalogue_course_extras WHERE course_id = ?').pluck().get(COURSE) as string,
  ) as Record<string, unknown>;
const inProgram = (username: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
       WHERE e.kind = 'program' AND e.target = ? AND u.username = ?`,
    )
    .pluck()
    .get(PROGRAM_KEY, username) as number;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  server.db
    .prepare(
      `INSERT INTO users (username, email, org, role, date_joined) VALUES ('ada', 'ada@example.edu', ?, 'student', '2026-01-01T00:00:00Z')`,
    )
    .run(server.org);
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Catalogue item details', () => {
  it('edits a course’s metadata field, adds one, and shows the platform’s refusal at the name', async () => {
    const { page } = app;
    await app.open(`#/catalogue/courses/${encodeURIComponent(COURSE)}`);
    const section = page.getByTestId('catalogue-metadata');
    const level = section.getByRole('textbox', { name: 'Value of level' });
    await expect.poll(() => level.inputValue()).toBe('intro');
    await level.fill('advanced');
    await section.getByRole('button', { name: 'Save level' }).click();
    await expect.poll(() => metadataOf().level).toBe('advanced');

    await section.getByRole('textbox', { name: 'New field name' }).fill('start-date');
    await section.getByRole('textbox', { name: 'New field value' }).fill('2027-01-10');
    await section.getByRole('button', { name: 'Add field' }).click();
    // Mantine ties the error to its input: the name's description says it.
    await visible(section.getByText('Invalid query parameters'));
    await expect
      .poll(() => section.getByRole('textbox', { name: 'New field name' }).getAttribute('aria-invalid'))
      .toBe('true');
    expect(metadataOf()).not.toHaveProperty('start-date');

    await section.getByRole('textbox', { name: 'New field name' }).fill('start_date');
    await section.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => metadataOf().start_date).toBe('2027-01-10');
    await expect
      .poll(() => section.getByRole('textbox', { name: 'Value of start_date' }).inputValue())
      .toBe('2027-01-10');
  });

  it('enrols one person in a program and unenrols them after a confirm', async () => {
    const { page } = app;
    const id = server.db.prepare('SELECT id FROM programs WHERE program_key = ?').pluck().get(PROGRAM_KEY) as number;
    await app.open(`#/catalogue/programs/${id}`);
    const section = page.getByTestId('catalogue-enrolment');
    await section.getByRole('button', { name: 'Enrol someone…' }).click();
    const dialog = page.getByRole('dialog', { name: /Enrol someone in Business Leadership/ });
    await dialog.getByRole('textbox', { name: 'Person' }).fill('ghost@example.edu');
    await dialog.getByRole('button', { name: 'Enrol' }).click();
    await visible(dialog.getByText('No one on this tenant has the username or email "ghost@example.edu"'));
    await dialog.getByRole('textbox', { name: 'Person' }).fill('ada@example.edu');
    await dialog.getByRole('button', { name: 'Enrol' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(inProgram('ada')).toBe(1);
    await visible(section.getByText('ada', { exact: true }));

    await section.getByRole('button', { name: 'Unenrol ada' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unenrol' });
    await visible(confirm.getByText(/End ada’s enrolment in Business Leadership/));
    await confirm.getByRole('button', { name: 'Unenrol' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(inProgram('ada')).toBe(0);
    await expect.poll(() => section.getByText('ada', { exact: true }).count()).toBe(0);
  });
});
