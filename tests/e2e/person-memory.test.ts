/**
 * A person's profile memory on their page (browser mode, real engine and sandbox): an entry is added, its detail
 * changed and it is deleted after a confirmation naming the tag and the person; the platform keeps what the page says;
 * a blank detail is refused at its field with the platform's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { rememberCourse } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let id: number;
const LEARNER = 'mia-memory';
const entries = async () =>
  (await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/users/${LEARNER}/ai-user-profile-memory/`)).body;

beforeAll(async () => {
  server = await sandbox();
  id = Number(
    server.db
      .prepare(
        `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
         VALUES (?, 'mia@northbridge.example', 'Mia', 'Moreau', ?, 'student', NULL, ?, ?)`,
      )
      .run(LEARNER, server.org, '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z').lastInsertRowid,
  );
  rememberCourse(server.db, server.org, {
    username: LEARNER,
    student: 7,
    course_id: 'course-v1:main+CALC+2026',
    data: { position: 3 },
    at: '2026-11-05T10:00:00.000Z',
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Person page: profile memory', () => {
  it('adds, changes and deletes an entry; a blank detail is refused at its field', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${id}`);
    const section = page.getByTestId('person-profile-memory');
    await visible(section.getByText('No entries.'));
    // The card names the person as the directory does, not by their username.
    await visible(section.getByText('What mentors know of Mia Moreau, by tag.'));

    await section.getByRole('textbox', { name: 'Tag' }).fill('favorite-subject');
    await section.getByRole('textbox', { name: 'Detail' }).fill('   ');
    await section.getByRole('button', { name: 'Save entry' }).click();
    await visible(section.getByText('This field may not be blank.'));
    expect(await entries()).toEqual([]);

    await section.getByRole('textbox', { name: 'Detail' }).fill('organic chemistry');
    await section.getByRole('button', { name: 'Save entry' }).click();
    await visible(section.getByRole('cell', { name: 'organic chemistry' }));
    expect(await entries()).toEqual([{ tag: 'favorite-subject', detail: 'organic chemistry' }]);

    await section.getByRole('button', { name: 'Edit favorite-subject' }).click();
    await section.getByRole('textbox', { name: 'Detail' }).fill('physics');
    await section.getByRole('button', { name: 'Save entry' }).click();
    await visible(section.getByRole('cell', { name: 'physics' }));
    expect(await entries()).toEqual([{ tag: 'favorite-subject', detail: 'physics' }]);

    await section.getByRole('button', { name: 'Delete favorite-subject' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete favorite-subject of ${LEARNER}?` });
    await dialog.getByRole('button', { name: 'Delete entry' }).click();
    await visible(section.getByText('No entries.'));
    expect(await entries()).toEqual([]);
  });

  it('shows the edX memory and deletes a course after a confirmation naming it', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${id}`);
    const section = page.getByTestId('person-edx-memory');
    await visible(section.getByText('course-v1:main+CALC+2026'));
    expect(await section.innerText()).toContain('"position": 3');
    await section.getByRole('button', { name: 'Delete course-v1:main+CALC+2026' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${LEARNER}'s memory of course-v1:main+CALC+2026?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await visible(section.getByText('No course kept for mentors.'));
    const left = await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/users/${LEARNER}/edx-memory/`);
    expect((left.body as { count: number }).count).toBe(0);
  });
});
