/**
 * The user directory in browser mode, on a real engine and sandbox: a person found by email in the users list, their
 * page opened from the row (their department and user group, their ticket), and their removal from the tenant, which
 * waits for their username typed out and then says what went with them. Offline, the page says nothing its saved copy
 * does not know and keeps its changes off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { seedUsers } from '../../src/server/areas/core-users';
import { call, sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;
const PERSON = 'northbridge-person00042';
const EMAIL = `${PERSON}@northbridge.example`;

beforeAll(async () => {
  server = await sandbox();
  // More people than one page of the platform's list: the person is found from the engine's cache, not page one.
  seedUsers(server.db, server.org, 300);
  const id = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(PERSON) as number;
  const department = server.db.prepare("INSERT INTO departments (org, name) VALUES (?, 'Nursing')").run(server.org);
  server.db.prepare('UPDATE users SET department_id = ? WHERE id = ?').run(department.lastInsertRowid, id);
  const group = server.db.prepare("SELECT id FROM user_groups WHERE name = 'Cohort 2026'").pluck().get() as number;
  server.db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(group, id);
  // The app reaches the tenant through a proxy that can refuse it (the tenant offline).
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
});

afterAll(async () => {
  await app?.close();
});

describe('the user directory', () => {
  it('finds a person by email, opens their page, and removes them once their username is typed', async () => {
    const { page } = app;
    await app.open('#/mentors');
    await page.getByRole('link', { name: 'People and access' }).click();
    await visible(page.getByRole('tab', { name: 'Users', selected: true }));
    await page.getByRole('searchbox', { name: 'Search users' }).fill(EMAIL.toUpperCase());
    const table = page.getByTestId('resource-table');
    await visible(table.getByRole('cell', { name: EMAIL, exact: true }));
    expect(await table.locator('tbody tr').count()).toBe(1);

    await table.locator('tbody tr').first().getByRole('button').first().click();
    const person = page.getByTestId('person-page');
    await visible(person.getByRole('heading', { level: 2 }));
    expect(page.url()).toMatch(/#\/people-and-access\/users\/\d+$/);
    await visible(person.getByText(`${PERSON} · ${EMAIL}`));
    const memberships = person.getByTestId('person-memberships');
    await visible(memberships.getByText('Nursing', { exact: true }));
    await visible(memberships.getByText('Cohort 2026', { exact: true }));
    await visible(person.getByTestId('person-tickets').getByText('No ticket from this person.'));

    await person.getByRole('button', { name: 'Remove from tenant' }).click();
    const dialog = page.getByRole('dialog', { name: /^Remove .+ from the tenant$/ });
    const remove = dialog.getByRole('button', { name: 'Remove', exact: true });
    const typed = dialog.getByRole('textbox', { name: /to confirm$/ });
    // Someone else's name does not do.
    await typed.fill('northbridge-person00043');
    expect(await remove.isDisabled()).toBe(true);
    await typed.fill(PERSON);
    await remove.click();

    const report = page.getByTestId('removal-report');
    // Its memberships are read and the removal sent first: slow on a loaded machine, not a failure.
    await visible(report.getByRole('heading', { name: `${PERSON} was removed from the tenant` }), 60_000);
    await visible(report.getByText('Department Nursing'));
    await visible(report.getByText('User group Cohort 2026'));
    const left = (await call(server, 'GET', `/api/core/platform/users/?query=${PERSON}`)).body as { count: number };
    expect(left.count).toBe(0);

    await report.getByRole('button', { name: 'Back to users' }).click();
    await page.getByRole('searchbox', { name: 'Search users' }).fill(EMAIL);
    await visible(page.getByText('No user matches.'));
  });

  it('offline, a person’s page says only what its saved copy knows and keeps its changes off, with the reason', async () => {
    const { page } = app;
    const other = 'northbridge-person00043';
    const id = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(other) as number;
    await app.open(`#/people-and-access/users/${id}`);
    const person = page.getByTestId('person-page');
    await visible(person.getByText(`${other} · ${other}@northbridge.example`));
    const memberships = person.getByTestId('person-memberships');
    await visible(memberships.getByText('In no department and no user group.'));
    await visible(person.getByTestId('person-tickets').getByText('No ticket from this person.'));
    // Put in a department on the tenant after this computer saved its copy: the copy does not know.
    const nursing = server.db.prepare("SELECT id FROM departments WHERE name = 'Nursing'").pluck().get() as number;
    server.db.prepare('UPDATE users SET department_id = ? WHERE id = ?').run(nursing, id);
    proxy.down();
    try {
      await page.reload();
      await visible(person.getByText(`${other} · ${other}@northbridge.example`));
      // The app's banner alone says the tenant cannot be reached.
      await visible(page.getByTestId('tenant-reach-banner'), 30_000);
      // Absent from a saved copy is not "in no department", nor "no ticket".
      await visible(memberships.getByTestId('section-unavailable'));
      expect(await memberships.getByText('In no department and no user group.').count()).toBe(0);
      const tickets = person.getByTestId('person-tickets');
      await visible(tickets.getByTestId('section-unavailable'));
      expect(await tickets.getByText('No ticket from this person.').count()).toBe(0);
      expect(await tickets.getByTestId('section-unavailable').innerText()).toBe('Not available offline');
      await expect.poll(() => timesSaidUnreachable(page), { timeout: 30_000 }).toBe(1);

      // Remove, erase and export are off, the reason on each reached by the keyboard too.
      for (const name of ['Export data…', 'Remove from tenant', 'Erase person…']) {
        expect(await person.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
      }
      // Joining a department or a user group from the page is off too.
      for (const name of ['Add to department', 'Add to user group']) {
        expect(await memberships.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
      }
      const exportData = person.getByRole('button', { name: 'Export data…' });
      await person.getByRole('button', { name: '← All users' }).focus();
      await page.keyboard.press('Tab');
      expect(await exportData.evaluate((element) => element.matches(':focus'))).toBe(true);
      await visible(
        page.getByRole('tooltip').filter({ hasText: 'Changes cannot be saved until the tenant can be reached.' }),
      );
      const remove = person.getByRole('button', { name: 'Remove from tenant' });
      await remove.focus();
      await page.keyboard.press('Enter');
      await remove.click({ force: true });
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      proxy.up();
    }
    const still = (await call(server, 'GET', `/api/core/platform/users/?query=${other}`)).body as { count: number };
    expect(still.count).toBe(1);
  });
});
