/**
 * Licences in browser mode, on a real engine and sandbox: an admin gives seats of a licence from a CSV file (a dry run
 * first names the row that will not fit and the person with no account; the import reports the platform's own words),
 * and a program licence's the same way (a seat kept for an email with no account, one past its count refused), then
 * works the access-request queue by keyboard only, including a request someone else reviewed meanwhile.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { accessRequestStore } from '../../src/server/areas/licences';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

/** The page's document, inside `page.evaluate` (this file is type-checked without the DOM library). */
declare const document: {
  activeElement: { textContent: string | null; closest(selector: string): unknown } | null;
};

let server: Sandbox;
let app: OpenApp;
let license: number;
let nursingLicence: number;
const people: { id: number; email: string }[] = [];

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
     VALUES (?, ?, ?, 'Learner', ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const name of ['ada', 'ben', 'cy']) {
    const id = Number(insert.run(`e2e-${name}`, `${name}@seats.test`, name.toUpperCase(), server.org).lastInsertRowid);
    people.push({ id, email: `${name}@seats.test` });
  }
  license = (
    (
      await call(server, 'POST', '/api/catalog/licenses/user/create/', {
        json: {
          platform_key: server.org,
          name: 'Cohort seats',
          count: 2,
          expired: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        },
      })
    ).body as { id: number }
  ).id;
  const requests = accessRequestStore(server.db);
  const at = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  requests.add(server.org, people[0]!.id, 'course-v1:main+DS101+2026', at(5));
  requests.add(server.org, people[1]!.id, 'course-v1:main+ML201+2026', at(4));
  requests.add(server.org, people[0]!.id, 'course-v1:main+STATS150+2026', at(3));
  // The catalogue names two of the three courses; the third (ML201) it does not list.
  const course = server.db.prepare('INSERT INTO courses (course_id, org, name, created_at) VALUES (?, ?, ?, ?)');
  course.run('course-v1:main+DS101+2026', server.org, 'Data Science Foundations', at(100));
  course.run('course-v1:main+STATS150+2026', server.org, 'Statistics for Everyone', at(100));
  // A user group of one, who takes a seat when the group does.
  const dee = Number(
    server.db
      .prepare(
        `INSERT INTO users (username, email, org, role, date_joined) VALUES ('e2e-dee', 'dee@seats.test', ?, 'student', '2026-01-01T00:00:00Z')`,
      )
      .run(server.org).lastInsertRowid,
  );
  const group = Number(
    server.db.prepare('INSERT INTO user_groups (org, name) VALUES (?, ?)').run(server.org, 'Night shift')
      .lastInsertRowid,
  );
  server.db.prepare('INSERT INTO user_group_members VALUES (?, ?)').run(group, dee);
  // A program of the catalogue, known before the app first reads it.
  server.db
    .prepare('INSERT INTO programs (program_key, org, name, slug, program_type, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(`${server.org}+nursing`, server.org, 'Nursing Pathway', 'nursing', 'diploma', '2026-01-01T00:00:00Z');
  // Program licences, one of that program and one of a program the catalogue does not list, a seat of the first.
  const create = async (name: string, programKey: string) =>
    (
      (
        await call(server, 'POST', '/api/catalog/licenses/program/create/', {
          json: {
            platform_key: server.org,
            name,
            count: 5,
            program_key: programKey,
            started: '2026-01-01T00:00:00Z',
          },
        })
      ).body as { id: number }
    ).id;
  nursingLicence = await create('Nursing seats', `${server.org}+nursing`);
  await create('Retired program seats', 'program-v1:main+RETIRED+2020');
  const ASSIGN = '/api/catalog/licenses/program/assignment/';
  const seat = await call(server, 'POST', `${ASSIGN}?license_id=${nursingLicence}`, {
    json: { license_id: nursingLicence, user_id: people[2]!.id },
  });
  expect(seat.status).toBe(200);

  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

/** Seats of every licence but the one beforeAll gives (of the nursing program licence). */
const seatsGivenHere = () =>
  server.db.prepare('SELECT count(*) FROM license_assignments WHERE license_id <> ?').pluck().get(nursingLicence);

const request = (id: number) =>
  server.db.prepare('SELECT reviewed, approved FROM access_requests WHERE id = ?').get(id) as {
    reviewed: number;
    approved: number | null;
  };

describe('Licences', () => {
  it('gives seats from a CSV file: dry run, then import; the page shows seats used and the expiry', async () => {
    const { page } = app;
    await app.open(`#/licences/licenses/${license}`);
    await visible(page.getByRole('heading', { name: 'Cohort seats' }));
    await visible(page.getByTestId('expiry-warning').getByText('This licence ends soon'));
    await visible(page.getByTestId('seat-meter').getByText('0 of 2 seats used'));
    // The warning's way out is on the page: the licence's own edit form, with its end date.
    await visible(page.getByTestId('expiry-warning').getByText(/Edit licence, then its Expires date/));
    await page.getByRole('button', { name: 'Edit licence' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit licence "Cohort seats"' });
    const later = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 16);
    await edit.getByLabel('Expires').fill(later);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await page.getByTestId('expiry-warning').waitFor({ state: 'detached' });
    const stored = server.db.prepare('SELECT expired FROM licenses WHERE id = ?').get(license) as { expired: string };
    expect(stored.expired.slice(0, 10)).toBe(later.slice(0, 10));

    await page.getByRole('button', { name: 'Give seats from a CSV file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give seats of Cohort seats from CSV' });
    const csv = ['Email', ...people.map((p) => p.email), 'ghost@seats.test'].join('\r\n');
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'seats.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await visible(dialog.getByTestId('import-rows-empty'));
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    const result = dialog.getByTestId('import-result');
    await visible(result);
    await expect.poll(() => result.innerText()).toMatch(/2 would get a seat[\s\S]*1 won’t fit[\s\S]*1 with problems/);
    await visible(dialog.getByTestId('import-report').getByText('No account for ghost@seats.test on this tenant'));
    await visible(dialog.getByTestId('import-over-seats').getByRole('cell', { name: 'cy@seats.test' }));
    expect(seatsGivenHere()).toBe(0);

    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText())
      .toMatch(/3 given a seat[\s\S]*1 with problems/);
    await visible(dialog.getByTestId('import-report').getByText("Not found - license or user doesn't exist"));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByTestId('seat-meter').getByText('3 of 2 seats used'));
    await visible(page.getByTestId('seat-meter').getByText('1 past its seats'));
    await visible(page.getByRole('cell', { name: 'cy@seats.test' }));

    // A whole user group takes seats, and gives them back with the group (the confirm says so).
    await page.locator('input[aria-label="User group"]').click();
    await page.getByRole('option', { name: 'Night shift' }).click();
    await page.getByRole('button', { name: 'Give the group seats' }).click();
    await visible(page.getByTestId('seat-meter').getByText('4 of 2 seats used'));
    await page
      .getByRole('table', { name: 'User groups holding seats' })
      .getByRole('button', { name: 'Take back' })
      .click();
    const confirm = page.getByRole('dialog', { name: "Take the group's seats back?" });
    await visible(confirm.getByText(/The seats the group gave its people go with it/));
    // A user licence's removal has no remove_user_assignments in the spec: nothing to keep them with.
    expect(await confirm.getByRole('checkbox').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Take back' }).click();
    await visible(page.getByTestId('seat-meter').getByText('3 of 2 seats used'));

    // One person's seat released.
    await page
      .getByRole('row', { name: /cy@seats\.test/ })
      .getByRole('button', { name: 'Release' })
      .click();
    await page.getByRole('dialog', { name: 'Release this seat?' }).getByRole('button', { name: 'Release' }).click();
    await visible(page.getByTestId('seat-meter').getByText('2 of 2 seats used'));
    expect(seatsGivenHere()).toBe(2);
  });

  it('gives a program licence’s seats from a CSV file: the dry run says which rows will not fit; the SDK reads them', async () => {
    const made = await call(server, 'POST', '/api/catalog/licenses/program/create/', {
      json: {
        platform_key: server.org,
        name: 'Analytics program seats',
        count: 2,
        program_key: 'program-v1:main+E2E',
        started: '2026-01-01T00:00:00Z',
      },
    });
    const programLicence = (made.body as { id: number }).id;
    const { page } = app;
    await app.open(`#/licences/program-licenses/${programLicence}`);
    await visible(page.getByRole('heading', { name: 'Analytics program seats' }));
    await visible(page.getByTestId('seat-meter').getByText('0 of 2 seats used'));
    // A program licence is given to user groups too (licence-groups.test.ts).
    await visible(page.getByRole('button', { name: 'Give the group seats' }));

    await page.getByRole('button', { name: 'Give seats from a CSV file' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give seats of Analytics program seats from CSV' });
    const csv = ['Email', 'newcomer@seats.test', people[0]!.email, people[1]!.email].join('\r\n');
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'program-seats.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await visible(dialog.getByTestId('import-rows-empty'));
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    const result = dialog.getByTestId('import-result');
    await expect.poll(() => result.innerText()).toMatch(/2 would get a seat[\s\S]*1 won’t fit/);
    // Which row will not fit: the third new person of a two-seat licence, by line.
    const over = dialog.getByTestId('import-over-seats');
    await visible(over.getByRole('row', { name: /4\s+ben@seats\.test\s+Will not fit: beyond the licence's 2 seats/ }));

    await dialog.getByRole('button', { name: 'Import now' }).click();
    // The platform refuses the program seat past its count; the row says so in its words.
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText())
      .toMatch(/2 given a seat[\s\S]*1 with problems/);
    await visible(dialog.getByTestId('import-report').getByText('The license has no available seats.'));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByTestId('seat-meter').getByText('2 of 2 seats used'));
    await visible(page.getByRole('row', { name: /newcomer@seats\.test/ }).getByText('No account yet'));

    await page
      .getByRole('row', { name: /newcomer@seats\.test/ })
      .getByRole('button', { name: 'Release' })
      .click();
    await page.getByRole('dialog', { name: 'Release this seat?' }).getByRole('button', { name: 'Release' }).click();
    await visible(page.getByTestId('seat-meter').getByText('1 of 2 seats used'));
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await CatalogService.catalogLicensesProgramAssignmentRetrieve({ licenseId: programLicence });
    expect(read.results.map((seat) => seat.email)).toEqual([people[0]!.email]);
  });

  it('the seats tabs list who holds seats of every licence, read from the platform, naming the licence', async () => {
    // A seat given outside this app: the tab shows it too, not only the seats the app gave.
    server.db
      .prepare('INSERT INTO license_assignments (license_id, user_id) VALUES (?, ?)')
      .run(license, people[2]!.id);
    const { page } = app;
    await app.open('#/licences/license-assignments');
    for (const person of people) {
      await visible(page.getByRole('row', { name: new RegExp(`${person.email}.*Cohort seats`) }));
    }
    expect(await page.getByText(/added or checked from this app/).count()).toBe(0);
    await app.open('#/licences/program-license-assignments');
    await visible(page.getByRole('row', { name: new RegExp(`${people[0]!.email}.*Analytics program seats`) }));
  });

  it('imports from a seats tab a CSV file of seats of the licence the admin picks by name', async () => {
    await call(server, 'POST', '/api/catalog/licenses/program/create/', {
      json: {
        platform_key: server.org,
        name: 'Tab program seats',
        count: 3,
        program_key: 'program-v1:main+TAB',
        started: '2026-01-01T00:00:00Z',
      },
    });
    const { page } = app;
    await app.open('#/licences/program-license-assignments');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: /from CSV/ });
    // No file is taken before the licence is chosen; the picker names the licences.
    expect(await dialog.getByTestId('resource-import-file').count()).toBe(0);
    await dialog.getByTestId('resource-import-licence').click();
    await page.getByRole('option', { name: /Tab program seats/ }).click();
    const csv = ['Email', people[2]!.email].join('\r\n');
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'tab-seats.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await visible(dialog.getByTestId('import-rows-empty'));
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => dialog.getByTestId('import-result').innerText()).toMatch(/1 would get a seat/);
  });

  it('works the access-request queue by keyboard; a request handled elsewhere is said so', async () => {
    const { page } = app;
    await app.open('#/licences/access-requests');
    const shown = page.getByTestId('access-request');
    // Newest first: ADA's statistics request, with her other request beside it, by the catalogue's names (the id on
    // hover), the other request's status in full.
    await visible(shown.getByText('Statistics for Everyone'));
    expect(await shown.getByTestId('requested-course').getAttribute('title')).toBe('course-v1:main+STATS150+2026');
    const others = page.getByRole('table', { name: 'Their other requests' });
    await visible(others.getByText('Data Science Foundations'));
    expect(await others.getByText('Data Science Foundations').getAttribute('title')).toBe('course-v1:main+DS101+2026');
    const status = others.getByText('Waiting', { exact: true });
    expect(
      await status.evaluate(
        (label: { scrollWidth: number; clientWidth: number }) => label.scrollWidth <= label.clientWidth,
      ),
    ).toBe(true);
    // The queue has focus from the start; its keys do nothing while focus is elsewhere (a sidebar link here).
    const inQueue = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="access-queue"]'));
    expect(await inQueue()).toBe(true);
    await page.getByRole('link', { name: 'Licences' }).focus();
    await page.keyboard.press('a');
    await page.keyboard.press('d');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect([1, 2, 3].map(request)).toEqual([1, 2, 3].map(() => ({ reviewed: 0, approved: null })));
    await shown.click();
    expect(await inQueue()).toBe(true);
    await page.keyboard.press('?');
    const keys = page.getByRole('dialog', { name: 'Keys of the queue' });
    await visible(keys.getByText('Approve the request shown'));
    await page.keyboard.press('Escape');
    await keys.waitFor({ state: 'hidden' });

    await page.keyboard.press('j');
    // A course the catalogue does not list keeps its id.
    await visible(shown.getByText('course-v1:main+ML201+2026'));
    await page.keyboard.press('a');
    await expect.poll(() => request(2)).toEqual({ reviewed: 1, approved: 1 });

    // Someone else denies the next one before this admin gets to it.
    await visible(shown.getByText(/Data Science Foundations|Statistics for Everyone/));
    const next = (await shown.innerText()).includes('Statistics') ? 3 : 1;
    server.db.prepare('UPDATE access_requests SET reviewed = 1, approved = 0 WHERE id = ?').run(next);
    await page.keyboard.press('a');
    await visible(
      page
        .getByTestId('already-handled')
        .getByText('Someone else already denied this request; the queue was read again'),
    );
    expect(request(next)).toEqual({ reviewed: 1, approved: 0 });

    const last = next === 3 ? 1 : 3;
    await visible(shown.getByText(last === 1 ? 'Data Science Foundations' : 'Statistics for Everyone'));
    // Deny asks first, with Cancel focused: Enter there keeps the request waiting.
    await page.keyboard.press('d');
    const deny = page.getByRole('dialog', { name: 'Deny this request?' });
    await visible(deny);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await deny.waitFor({ state: 'hidden' });
    expect(request(last)).toEqual({ reviewed: 0, approved: null });
    expect(await inQueue()).toBe(true);
    await page.keyboard.press('d');
    await deny.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => request(last)).toEqual({ reviewed: 1, approved: 0 });
    await visible(page.getByText('Every request has been reviewed.'));
  });
  it('the history lists one approved and one denied request, who asked and when each was decided', async () => {
    const { page } = app;
    const requests = accessRequestStore(server.db);
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const cy = people[2]!.id;
    const add = (course: string, minutes: number) => {
      requests.add(server.org, cy, course, at(minutes));
      return server.db
        .prepare('SELECT id FROM access_requests WHERE user_id = ? AND course_id = ?')
        .pluck()
        .get(cy, course) as number;
    };
    const asked = add('course-v1:main+STATS150+2026', 20);
    const newest = add('course-v1:main+DS101+2026', 10);
    await app.open('#/licences/access-requests');
    // Asked since this computer last read the queue (a moment ago): read it again.
    await page.getByRole('button', { name: 'Refresh access requests' }).click();
    const shown = page.getByTestId('access-request');
    // Newest first: CY's data science request is approved by key, the statistics one denied.
    await visible(shown.getByText('Data Science Foundations'));
    await shown.click();
    await page.keyboard.press('a');
    await expect.poll(() => request(newest)).toEqual({ reviewed: 1, approved: 1 });
    await visible(shown.getByText('Statistics for Everyone'));
    await page.keyboard.press('d');
    await page.getByRole('dialog', { name: 'Deny this request?' }).getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => request(asked)).toEqual({ reviewed: 1, approved: 0 });

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('table', { name: 'Reviewed requests' });
    const approved = history.getByRole('row', { name: /CY Learner.*Data Science Foundations.*Approved/ });
    const denied = history.getByRole('row', { name: /CY Learner.*Statistics for Everyone.*Denied/ });
    await visible(approved);
    await visible(denied);
    // When each was decided (a date and time, not a dash); the course's id on hover.
    expect(await approved.getByRole('cell').nth(3).innerText()).toMatch(/\d{1,2}:\d{2}/);
    expect(await approved.getByRole('cell').nth(1).getAttribute('title')).toBe('course-v1:main+DS101+2026');
    // The newest decision first.
    expect(await history.getByRole('row').nth(1).innerText()).toMatch(/Statistics for Everyone.*Denied/s);
    await visible(page.getByText('The platform records when each was decided, not who decided it.'));
    // The queue's keys do nothing here: nothing waits to be approved from the history.
    const before = add('course-v1:main+ML201+2026', 5);
    await page.getByTestId('access-history').click();
    await page.keyboard.press('a');
    await page.keyboard.press('d');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(request(before)).toEqual({ reviewed: 0, approved: null });
    // Back in the queue, the keys are the queue's again.
    await page.getByRole('tab', { name: 'Waiting' }).click();
    await page.getByRole('button', { name: 'Refresh access requests' }).click();
    await visible(shown.getByText('course-v1:main+ML201+2026'));
    await shown.click();
    await page.keyboard.press('a');
    await expect.poll(() => request(before)).toEqual({ reviewed: 1, approved: 1 });
  });

  it('the requester is a link that opens their person page, in the card and in the waiting list', async () => {
    const { page } = app;
    const requests = accessRequestStore(server.db);
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const ben = people[1]!.id;
    requests.add(server.org, people[0]!.id, 'course-v1:main+WRITE110+2026', at(3));
    requests.add(server.org, ben, 'course-v1:main+STATS150+2026', at(1));
    await app.open('#/licences/access-requests');
    await page.getByRole('button', { name: 'Refresh access requests' }).click();
    const shown = page.getByTestId('access-request');
    const requester = shown.getByTestId('requester');
    // The card shows the queue this computer last read until the refresh's answer comes: the request approved at the
    // end of the last test may still be in it.
    await expect.poll(() => requester.innerText()).toBe('BEN Learner');
    expect(await requester.getAttribute('href')).toBe(`#/people-and-access/users/${ben}`);
    // In the list of those waiting, ADA's name links to her page; clicking it opens the page, not the request.
    const waiting = page.getByRole('table', { name: 'Waiting requests' });
    expect(await waiting.getByRole('link', { name: 'ADA Learner' }).first().getAttribute('href')).toBe(
      `#/people-and-access/users/${people[0]!.id}`,
    );
    await requester.click();
    await expect.poll(() => page.url()).toContain(`#/people-and-access/users/${ben}`);
    await visible(
      page
        .getByTestId('person-page')
        .getByText(/e2e-ben/)
        .first(),
    );
  });

  it('names a program licence’s program in the list, on its page and on a seat holder’s page; a missing one says so', async () => {
    const { page } = app;
    await app.open('#/licences/program-licenses');
    // The program, the list's first column, opens the licence: named, its key on hover.
    const nursing = page.getByRole('row', { name: /Nursing seats/ }).getByRole('button', { name: 'Nursing Pathway' });
    await visible(nursing);
    expect(await nursing.getAttribute('title')).toBe(`Nursing Pathway (${server.org}+nursing)`);
    const retired = page
      .getByRole('row', { name: /Retired program seats/ })
      .getByRole('button')
      .first();
    await visible(retired);
    // Said missing only once every program is read, which can be after Nursing's name is known.
    await expect.poll(() => retired.innerText()).toBe('program-v1:main+RETIRED+2020 (not in this tenant’s catalogue)');

    await app.open(`#/licences/program-licenses/${nursingLicence}`);
    const target = page.getByTestId('licence-target');
    await visible(target);
    // Its id first, its name once the catalogue's programs are read.
    await expect.poll(() => target.innerText()).toBe('Nursing Pathway');
    expect(await target.getAttribute('title')).toBe(`${server.org}+nursing`);
    await visible(page.getByText('Program: Nursing Pathway'));

    await app.open(`#/people-and-access/users/${people[2]!.id}`);
    const card = page.getByTestId('person-licences');
    // The card reads every licence's seats: slower than the rest of the page.
    await visible(card.getByRole('link', { name: 'Nursing seats' }), 60_000);
    const held = card.getByTestId('licence-target');
    await visible(held);
    await expect.poll(() => held.innerText()).toBe('· Nursing Pathway');
    expect(await held.getAttribute('title')).toBe(`${server.org}+nursing`);
  });
});
