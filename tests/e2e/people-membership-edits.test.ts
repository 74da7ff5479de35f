/**
 * People and access in browser mode, on a real engine and sandbox: the Users list narrowed by its Admin and Active
 * filters (with search and pages); a department's whole member list (searched, paged), a person added to it and
 * removed from it by name; and a person put into a user group and a department from their own page, and taken out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let cohort: number;
let nursing: number;
let tutors: number;
const LEARNERS = 27;
const INACTIVE = 3;
/** The platform lists a department's active people only. */
const ACTIVE = LEARNERS - INACTIVE;

const departmentOf = (username: string) =>
  server.db.prepare('SELECT department_id FROM users WHERE username = ?').pluck().get(username) as number | null;
const userIdOf = (username: string) =>
  server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
const inGroup = (group: number, username: string) =>
  server.db
    .prepare('SELECT count(*) FROM user_group_members WHERE group_id = ? AND user_id = ?')
    .pluck()
    .get(group, userIdOf(username)) as number;

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, is_active, department_id, date_joined)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  const now = new Date().toISOString();
  insert.run('ines-admin', 'ines@northbridge.example', 'Ines', 'Okafor', server.org, 'admin', 1, now);
  insert.run('priya-k', 'priya@northbridge.example', 'Priya', 'Kapoor', server.org, 'student', 1, now);
  for (let i = 1; i <= LEARNERS; i++) {
    const n = String(i).padStart(2, '0');
    insert.run(
      `learner${n}`,
      `learner${n}@northbridge.example`,
      'Learner',
      `Number${n}`,
      server.org,
      'student',
      i <= INACTIVE ? 0 : 1,
      now,
    );
  }
  const department = async (name: string) =>
    ((await call(server, 'POST', '/api/core/departments/', { json: { name } })).body as { id: number }).id;
  cohort = await department('Big Cohort');
  nursing = await department('Nursing');
  server.db
    .prepare(`UPDATE users SET department_id = ? WHERE username GLOB 'learner[0-9][0-9]' AND org = ?`)
    .run(cohort, server.org);
  tutors = (
    (await call(server, 'POST', '/api/core/user_groups/', { json: { name: 'Peer tutors' } })).body as { id: number }
  ).id;
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const count = () => app.page.getByTestId('resource-count').innerText();

describe('Users: Admin, Staff and Active filters', () => {
  it('narrows the list, with search and pages, and counts what is left', async () => {
    const { page } = app;
    const everyone = server.db.prepare('SELECT count(*) FROM users WHERE org = ?').pluck().get(server.org) as number;
    await app.open('#/people-and-access/users');
    await expect.poll(count, { timeout: 30_000 }).toBe(`${everyone} users`);
    // Two pages of people before any filter.
    await visible(page.getByRole('button', { name: '2', exact: true }));

    const admin = page.getByRole('radiogroup', { name: 'Admin' });
    await admin.getByText('Admin', { exact: true }).click();
    await expect.poll(count).toBe('2 users');
    await visible(page.getByTestId('resource-table').getByRole('button', { name: 'Ines Okafor', exact: true }));
    expect(await page.getByRole('button', { name: '2', exact: true }).count()).toBe(0);

    await admin.getByText('Not admin', { exact: true }).click();
    await expect.poll(count).toBe(`${everyone - 2} users`);
    // With the search beside it (their surnames): only those learners who are not admins.
    await page.getByRole('searchbox', { name: 'Search users' }).fill('Number');
    await expect.poll(count).toBe(`${LEARNERS} users`);
    await page.getByRole('radiogroup', { name: 'Active' }).getByText('Not active', { exact: true }).click();
    await expect.poll(count).toBe(`${INACTIVE} users`);
    await visible(page.getByTestId('resource-table').getByRole('button', { name: 'Learner Number01', exact: true }));

    await page.getByRole('radiogroup', { name: 'Active' }).getByText('All', { exact: true }).click();
    await admin.getByText('All', { exact: true }).click();
    await page.getByRole('radiogroup', { name: 'Staff' }).getByText('Staff', { exact: true }).click();
    // Staff and admin are the same two people in the sandbox; the search still holds: no learner is staff.
    await visible(page.getByText('No user matches.'));
    await page.getByRole('searchbox', { name: 'Search users' }).fill('');
    await expect.poll(count).toBe('2 users');
    await page.getByRole('radiogroup', { name: 'Staff' }).getByText('All', { exact: true }).click();
    await expect.poll(count).toBe(`${everyone} users`);
  });
});

describe("A department's members", () => {
  it('lists them all, searched and by pages', async () => {
    const { page } = app;
    await app.open('#/people-and-access/departments');
    await page.getByTestId('resource-table').getByRole('button', { name: 'Big Cohort', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Department Big Cohort' });
    const members = details.getByTestId('members-list');
    await expect.poll(() => members.getByTestId('member-row').count(), { timeout: 30_000 }).toBe(20);
    // Named by their full name, the username beside it.
    await visible(members.getByRole('button', { name: /Learner Number\d\d · learner\d\d/ }).first());
    await expect
      .poll(() => members.getByTestId('members-total').innerText(), { timeout: 30_000 })
      .toBe(`${ACTIVE} members`);
    await members.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => members.getByTestId('member-row').count()).toBe(ACTIVE - 20);
    await members.getByRole('textbox', { name: 'Search the members of Big Cohort' }).fill('learner07');
    await expect.poll(() => members.getByTestId('member-row').count()).toBe(1);
    await visible(members.getByRole('button', { name: 'Learner Number07 · learner07' }));
    // By full name too (the directory's; the members' records hold usernames and emails alone).
    const search = members.getByRole('textbox', { name: 'Search the members of Big Cohort' });
    await search.fill('Learner Number07');
    await visible(members.getByRole('button', { name: 'Learner Number07 · learner07' }));
    await expect.poll(() => members.getByTestId('member-row').count()).toBe(1);
    // A part of the name many share: every one of them, counted across the pages.
    await search.fill('number');
    await expect
      .poll(() => members.getByTestId('members-total').innerText(), { timeout: 30_000 })
      .toBe(`${ACTIVE} members`);
    expect(await members.getByTestId('member-row').count()).toBe(20);
    // A person of that name who is not a member is not listed.
    await search.fill('Priya Kapoor');
    await visible(members.getByText('No member matches.'));
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });
  });

  it('adds a person picked by name, then removes them after asking', async () => {
    const { page } = app;
    await app.open('#/people-and-access/departments');
    await page.getByTestId('resource-table').getByRole('button', { name: 'Nursing', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'Department Nursing' });
    const members = details.getByTestId('members-list');
    await visible(members.getByText('No members yet.'), 30_000);

    await members.getByRole('combobox', { name: 'Person to add to Nursing' }).fill('Priya');
    await page.getByRole('option', { name: 'Priya Kapoor · priya-k (priya@northbridge.example)' }).click();
    await members.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => departmentOf('priya-k'), { timeout: 30_000 }).toBe(nursing);
    const row = members.getByTestId('member-row');
    await visible(row.getByRole('button', { name: 'Priya Kapoor · priya-k' }), 30_000);

    await row.getByRole('button', { name: 'Remove Priya Kapoor from Nursing' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove member' });
    await visible(confirm.getByText('Remove Priya Kapoor from the department Nursing? They stay on the tenant.'));
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => departmentOf('priya-k'), { timeout: 30_000 }).toBeNull();
    await visible(members.getByText('No members yet.'), 30_000);
    await page.keyboard.press('Escape');
  });
});

describe('A person page', () => {
  it('puts the person into a user group and a department by name, and takes them out of the group', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${userIdOf('priya-k')}`);
    const section = page.getByTestId('person-memberships');
    await visible(section.getByText('In no department and no user group.'), 30_000);

    await section.getByRole('combobox', { name: 'User group to add Priya Kapoor to' }).click();
    await page.getByRole('option', { name: 'Peer tutors' }).click();
    await section.getByRole('button', { name: 'Add to user group' }).click();
    await expect.poll(() => inGroup(tutors, 'priya-k'), { timeout: 30_000 }).toBe(1);
    await visible(section.getByTestId('person-membership').getByText('Peer tutors', { exact: true }), 30_000);

    await section.getByRole('combobox', { name: 'Department to add Priya Kapoor to' }).click();
    await page.getByRole('option', { name: 'Big Cohort' }).click();
    await section.getByRole('button', { name: 'Add to department' }).click();
    await expect.poll(() => departmentOf('priya-k'), { timeout: 30_000 }).toBe(cohort);
    await visible(section.getByTestId('person-membership').getByText('Big Cohort', { exact: true }), 30_000);

    await section.getByRole('button', { name: 'Remove Priya Kapoor from Peer tutors' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove from group' });
    await visible(confirm.getByText('Remove Priya Kapoor from the user group Peer tutors? They stay on the tenant.'));
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => inGroup(tutors, 'priya-k'), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => section.getByText('Peer tutors', { exact: true }).count(), { timeout: 30_000 }).toBe(0);
    expect(departmentOf('priya-k')).toBe(cohort);
  });
});
