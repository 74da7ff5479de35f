/**
 * User groups holding course and program licences in browser mode, on a real engine and sandbox: on a licence's page
 * an admin picks a user group by name (by keyboard), everyone in it takes a seat, the group is listed, and taking it
 * back says that the people's seats go too — on a program licence the confirm lets the admin keep them (the spec's
 * remove_user_assignments), on a course licence it does not (its call has no such flag). The vendor SDK reads back
 * what the app wrote.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, pickByKeyboard, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

function group(name: string, emails: string[]): number {
  const id = Number(
    server.db.prepare('INSERT INTO user_groups (org, name) VALUES (?, ?)').run(server.org, name).lastInsertRowid,
  );
  for (const email of emails) {
    const user = server.db.prepare('SELECT id FROM users WHERE email = ?').pluck().get(email);
    server.db.prepare('INSERT INTO user_group_members VALUES (?, ?)').run(id, user);
  }
  return id;
}

async function licence(family: 'course' | 'program', name: string): Promise<number> {
  const extra =
    family === 'course'
      ? { course_id: 'course-v1:main+GRPE2E+2027' }
      : { program_key: 'program-v1:main+GRPE2E', started: '2026-01-01T00:00:00Z' };
  const made = await call(server, 'POST', `/api/catalog/licenses/${family}/create/`, {
    json: { platform_key: server.org, name, count: 5, ...extra },
  });
  return (made.body as { id: number }).id;
}

const seatsOf = (license: number) =>
  server.db.prepare('SELECT count(*) FROM license_assignments WHERE license_id = ?').pluck().get(license) as number;

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const name of ['ada', 'ben', 'cy']) insert.run(`grp-${name}`, `${name}@groups.test`, server.org);
  group('Evening cohort', ['ada@groups.test', 'ben@groups.test']);
  group('Weekend cohort', ['cy@groups.test']);
  app = await openApp(server);
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});

afterAll(async () => {
  await app?.close();
});

describe('Licence group seats', () => {
  it('a program licence: a group given seats by keyboard, listed, taken back keeping its people’s seats', async () => {
    const id = await licence('program', 'Data program seats');
    const { page } = app;
    await app.open(`#/licences/program-licenses/${id}`);
    await visible(page.getByRole('heading', { name: 'Data program seats' }));
    await visible(page.getByText('No user group holds this licence.'));

    // The picker by name, by keyboard: type, pick, then the button.
    const picker = page.locator('input[aria-label="User group"]');
    await picker.focus();
    await pickByKeyboard(page, 'Evening', 'Evening cohort');
    await expect.poll(() => picker.inputValue()).toBe('Evening cohort');
    await page.keyboard.press('Tab');
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as { document?: { activeElement?: { textContent?: string } } }).document?.activeElement
              ?.textContent,
        ),
      )
      .toBe('Give the group seats');
    await page.keyboard.press('Enter');

    const groups = page.getByRole('table', { name: 'User groups holding seats' });
    await visible(groups.getByRole('row', { name: /Evening cohort\s+2 of 2 hold a seat/ }));
    await visible(page.getByTestId('seat-meter').getByText('2 of 5 seats used'));
    const sdkGroups = await CatalogService.catalogLicensesProgramAssignmentGroupRetrieve({ licenseId: id });
    expect(sdkGroups.results.map((g) => g.group_name)).toEqual(['Evening cohort']);
    // A group holding the licence is not offered again.
    await picker.click();
    await visible(page.getByRole('option', { name: 'Weekend cohort' }));
    expect(await page.getByRole('option', { name: 'Evening cohort' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    await groups.getByRole('button', { name: 'Take back from Evening cohort' }).click();
    const confirm = page.getByRole('dialog', { name: "Take the group's seats back?" });
    await visible(confirm.getByText(/The seats the group gave its people go with it/));
    await confirm.getByRole('checkbox', { name: /Keep the seats the group gave its people/ }).check();
    await visible(confirm.getByText(/Its people keep the seats the group gave them/));
    await confirm.getByRole('button', { name: 'Take back' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await visible(page.getByText('No user group holds this licence.'));
    await visible(page.getByTestId('seat-meter').getByText('2 of 5 seats used'));
    expect(seatsOf(id)).toBe(2);
    expect((await CatalogService.catalogLicensesProgramAssignmentGroupRetrieve({ licenseId: id })).count).toBe(0);
  });

  it('a course licence: a group given seats and taken back with its people’s seats (no way to keep them)', async () => {
    const id = await licence('course', 'Writing course seats');
    const { page } = app;
    await app.open(`#/licences/course-licenses/${id}`);
    await visible(page.getByRole('heading', { name: 'Writing course seats' }));
    await page.locator('input[aria-label="User group"]').click();
    await page.getByRole('option', { name: 'Evening cohort' }).click();
    await page.getByRole('button', { name: 'Give the group seats' }).click();
    const groups = page.getByRole('table', { name: 'User groups holding seats' });
    await visible(groups.getByRole('row', { name: /Evening cohort/ }));
    await visible(page.getByRole('cell', { name: 'ada@groups.test' }));
    const sdkSeats = await CatalogService.catalogLicensesCourseAssignmentRetrieve({ licenseId: id });
    expect(sdkSeats.results.map((s) => s.email).sort()).toEqual(['ada@groups.test', 'ben@groups.test']);

    await groups.getByRole('button', { name: 'Take back from Evening cohort' }).click();
    const confirm = page.getByRole('dialog', { name: "Take the group's seats back?" });
    await visible(confirm.getByText(/The seats the group gave its people go with it/));
    expect(await confirm.getByRole('checkbox').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Take back' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await visible(page.getByTestId('seat-meter').getByText('0 of 5 seats used'));
    expect(seatsOf(id)).toBe(0);
    expect((await CatalogService.catalogLicensesCourseAssignmentGroupRetrieve({ licenseId: id })).count).toBe(0);
  });
});
