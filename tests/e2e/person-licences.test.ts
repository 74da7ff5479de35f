/**
 * A person's licences in browser mode, on a real engine and sandbox: their page lists the seats they hold of each
 * licence family (a user licence and a course licence here; another person's seat not), each a link to its licence's
 * page, where the seat holders are links back to their own pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
const people: Record<string, number> = {};
const licences: Record<'user' | 'course', number> = { user: 0, course: 0 };

async function post(path: string, json: Record<string, unknown>): Promise<number> {
  const made = await call(server, 'POST', path, { json });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return (made.body as { id: number }).id;
}

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
     VALUES (?, ?, ?, 'Seatholder', ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const name of ['ada', 'ben']) {
    people[name] = Number(
      insert.run(`e2e-${name}`, `${name}@seats.test`, name.toUpperCase(), server.org).lastInsertRowid,
    );
  }
  licences.user = await post('/api/catalog/licenses/user/create/', {
    platform_key: server.org,
    name: 'Cohort seats',
    count: 5,
  });
  licences.course = await post('/api/catalog/licenses/course/create/', {
    platform_key: server.org,
    name: 'Statistics seats',
    count: 5,
    course_id: 'course-v1:main+STATS+2027',
  });
  const unused = await post('/api/catalog/licenses/user/create/', {
    platform_key: server.org,
    name: 'Night school seats',
    count: 5,
  });
  await post(`/api/catalog/licenses/user/assignment/?license_id=${licences.user}`, {
    license_id: licences.user,
    user_id: people.ada,
  });
  await post(`/api/catalog/licenses/course/assignment/?license_id=${licences.course}`, {
    license_id: licences.course,
    user_id: people.ada,
  });
  // Another person's seat is not Ada's.
  await post(`/api/catalog/licenses/user/assignment/?license_id=${unused}`, {
    license_id: unused,
    user_id: people.ben,
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('a person’s licences', () => {
  it('lists the seats they hold of every family, each linking to its licence, whose holders link back', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${people.ada}`);
    const card = page.getByTestId('person-licences');
    const user = card.getByRole('link', { name: 'Cohort seats' });
    await visible(user);
    await visible(card.getByRole('link', { name: 'Statistics seats' }));
    await visible(card.getByText('Course licence', { exact: true }));
    expect(await card.getByText('Night school seats').count()).toBe(0);
    expect(await card.getByRole('link').count()).toBe(2);

    await user.click();
    expect(page.url()).toMatch(new RegExp(`#/licences/licenses/${licences.user}$`));
    const holders = page.getByRole('table', { name: 'People holding seats' });
    const holder = holders.getByRole('link', { name: 'e2e-ada' });
    await visible(holder);
    await holder.click();
    expect(page.url()).toMatch(new RegExp(`#/people-and-access/users/${people.ada}$`));
    await visible(page.getByTestId('person-page').getByText('e2e-ada · ada@seats.test'));

    // And from a course licence's page.
    await page.getByTestId('person-licences').getByRole('link', { name: 'Statistics seats' }).click();
    expect(page.url()).toMatch(new RegExp(`#/licences/course-licenses/${licences.course}$`));
    await visible(page.getByRole('table', { name: 'People holding seats' }).getByRole('link', { name: 'e2e-ada' }));
  });

  it('says so when a person holds no seat', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${people.ben}`);
    const card = page.getByTestId('person-licences');
    await visible(card.getByRole('link', { name: 'Night school seats' }));
    const other = await call(server, 'GET', `/api/core/platform/users/?query=admin`);
    const admin = (other.body as { results: { user_id: number }[] }).results[0]!.user_id;
    await app.open(`#/people-and-access/users/${admin}`);
    await visible(page.getByTestId('person-licences').getByText('Holds no seat of a licence.'));
  });
});
