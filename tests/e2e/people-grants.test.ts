/**
 * People and access in browser mode, on a real engine and sandbox: a policy's list row says the role it grants and
 * to how many people and groups (names and ids in the tooltip), its panel names each; a department's row says how
 * many members it has (counted from the department members the engine reads: the platform's list gives no count);
 * deleting a department that a policy refers to names the policy; a role change that leaves no access administrator
 * is refused with that reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { NO_ADMIN_LEFT } from '../../src/shared/access';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

const RBAC = '/api/core/rbac';
type Row = Record<string, unknown>;

let server: Sandbox;
let app: OpenApp;
let studentId: number;
let adminId: number;
let groupId: number;
let roleId: number;
let nursing: number;

const post = async (path: string, json: Row) => {
  const answer = await call(server, 'POST', path, { json: { platform_key: server.org, ...json } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as Row;
};

beforeAll(async () => {
  server = await sandbox();
  const idOf = (username: string) =>
    server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(username) as number;
  studentId = idOf(server.studentUser);
  adminId = idOf(server.user);
  nursing = ((await call(server, 'POST', '/api/core/departments/', { json: { name: 'Nursing' } })).body as Row)
    .id as number;
  await call(server, 'POST', '/api/core/departments/', { json: { name: 'Empty ward' } });
  for (const username of [server.studentUser, server.user]) {
    await call(server, 'POST', '/api/core/departments/members/', { json: { department_id: nursing, username } });
  }
  const role = await post(`${RBAC}/roles/`, {
    name: 'Ward managers',
    actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write', 'Ibl.Core/Departments/write'],
  });
  roleId = role.id as number;
  const group = await post(`${RBAC}/groups/`, { unique_id: 'ward-leads', name: 'Ward leads' });
  groupId = group.id as number;
  await post(`${RBAC}/policies/`, {
    name: 'Ward managers run Nursing',
    role_id: roleId,
    resources: ['/', `/departments/${nursing}/`],
    users_to_add: [studentId, adminId],
    groups_to_add: [groupId],
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const table = () => app.page.getByTestId('resource-table');

describe('a policy says what it grants and to whom', () => {
  it('in its list row, "role · N people, M groups" with names and ids in the tooltip; in full in its panel', async () => {
    const { page } = app;
    await app.open('#/people-and-access/rbac-policies');
    await visible(page.getByRole('columnheader', { name: 'Grants' }));
    const row = table().getByRole('row').filter({ hasText: 'Ward managers run Nursing' });
    const cell = row.getByTestId('grant-cell');
    await expect.poll(() => cell.innerText()).toBe('Ward managers · 2 people, 1 group');
    expect(await cell.getAttribute('title')).toBe(
      [
        `Role: Ward managers (id ${roleId})`,
        `People: ${server.studentUser} (id ${studentId}), ${server.user} (id ${adminId})`,
        `Groups: Ward leads (id ${groupId})`,
      ].join('\n'),
    );

    await row.getByRole('button', { name: 'Ward managers run Nursing', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Policy Ward managers run Nursing' });
    const grant = panel.getByTestId('grant-details');
    // Each name with its id beside it (and in its tooltip).
    const named = async (title: string) => (await grant.getByTitle(title, { exact: true }).innerText()).split(/\s+/);
    expect(await named(`Role id ${roleId}`)).toEqual(['Ward', 'managers', 'id', String(roleId)]);
    await visible(grant.getByTestId('grant-users').getByText('People (2)'));
    expect(await named(`User id ${studentId}`)).toEqual([server.studentUser, 'id', String(studentId)]);
    expect(await named(`User id ${adminId}`)).toEqual([server.user, 'id', String(adminId)]);
    await visible(grant.getByTestId('grant-groups').getByText('Groups (1)'));
    expect(await named(`Group id ${groupId}`)).toEqual(['Ward', 'leads', 'id', String(groupId)]);
    // Not also as raw records further down the panel.
    expect(await panel.getByText(/"username"/).count()).toBe(0);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });
});

describe('departments', () => {
  it('each row says how many members it has, counted from the department members', async () => {
    const { page } = app;
    await app.open('#/people-and-access/departments');
    await visible(page.getByRole('columnheader', { name: 'Members' }));
    const countOf = (name: string) =>
      table().getByRole('row').filter({ hasText: name }).getByTestId('count-cell').innerText();
    await expect.poll(() => countOf('Nursing')).toBe('2');
    await expect.poll(() => countOf('Empty ward')).toBe('0');
  });

  it('deleting one that a policy refers to names the policy, and says how many members it has', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Delete Nursing' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete department' });
    await visible(confirm.getByText('Ward managers run Nursing'));
    await visible(confirm.getByTestId('referrer-counts').getByText('It has 2 department members'));
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
  });
});

describe('a role change that leaves no access administrator', () => {
  it('is refused with that reason, and the role is unchanged', async () => {
    const { page } = app;
    // Only this policy's people administer access here: the sandbox's admins hold no policy over it otherwise.
    await app.open('#/people-and-access/rbac-roles');
    await page.getByRole('button', { name: 'Edit Ward managers' }).click();
    const dialog = page.getByRole('dialog', { name: /Edit role/ });
    const actions = dialog.getByLabel('Actions', { exact: true });
    await actions.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('["Ibl.Core/Departments/write"]');
    await dialog.getByRole('button', { name: /^Save/ }).click();
    await visible(page.getByText(NO_ADMIN_LEFT.slice(0, 60), { exact: false }).first());
    const role = (await call(server, 'GET', `${RBAC}/roles/${roleId}/`)).body as Row;
    expect(role.actions).toEqual(['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write', 'Ibl.Core/Departments/write']);
  });
});

describe('5,000 people into departments from a CSV, in the app', () => {
  it('the import dialog adds every row and says so; the departments then count them', async () => {
    const { page } = app;
    const insert = server.db.prepare(
      `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
    );
    server.db.transaction(() => {
      for (let i = 0; i < 5_000; i++) insert.run(`bulk${i}`, `bulk${i}@example.edu`, server.org);
    })();
    for (const name of ['East wing', 'West wing'])
      await call(server, 'POST', '/api/core/departments/', { json: { name } });
    await app.open('#/people-and-access/department-members');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import department members from CSV' });
    const csv = `Email,Department\n${Array.from({ length: 5_000 }, (_, i) => `bulk${i}@example.edu,${i % 2 ? 'West wing' : 'East wing'}`).join('\n')}\n`;
    await dialog
      .getByTestId('resource-import-file')
      .setInputFiles({ name: 'five-thousand.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: /^Import 5,000 department members$/ }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText(), { timeout: 60_000 })
      .toMatch(/5,000 added/);
    const inWing = server.db
      .prepare(
        `SELECT count(*) FROM users u JOIN departments d ON d.id = u.department_id WHERE d.name IN ('East wing', 'West wing')`,
      )
      .pluck()
      .get() as number;
    expect(inWing).toBe(5_000);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Departments' }).click();
    const countOf = (name: string) =>
      table().getByRole('row').filter({ hasText: name }).getByTestId('count-cell').innerText();
    await expect.poll(() => countOf('East wing'), { timeout: 20_000 }).toBe('2,500');
    await expect.poll(() => countOf('West wing'), { timeout: 20_000 }).toBe('2,500');
  }, 120_000);
});

describe('the erasure reports’ empty state', () => {
  it('names the way to a person’s page as the navigation says it', async () => {
    const { page } = app;
    await app.open('#/people-and-access/erasure-reports');
    const empty = page.getByTestId('erasure-reports-empty');
    await visible(empty);
    const nav = await page.getByRole('link', { name: 'People and access' }).innerText();
    const tab = await page.getByRole('tab', { name: 'Users' }).innerText();
    expect(await empty.innerText()).toContain(`(${nav.trim()} → ${tab.trim()})`);
  });
});
