/**
 * The access matrix in browser mode, on a real engine and sandbox: a role's action ticked in the grid (from the
 * keyboard), the change reviewed and saved through the role's update, and the learner's key, refused before, allowed
 * by the sandbox after; what the learner may do then names the policy; a change that leaves no access administrator
 * is shown refused and cannot be saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { NO_ADMIN_LEFT } from '../../src/shared/access';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types
declare const getComputedStyle: any;

let server: Sandbox;
let app: OpenApp;
type Row = Record<string, unknown>;
const RBAC = '/api/core/rbac';

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const made = async (path: string, json: Row) =>
  (await call(server, 'POST', path, { json: { platform_key: server.org, ...json } })).body as Row;

describe('the access matrix', () => {
  it('ticks an action, shows the change, saves it, and the sandbox then allows the learner’s key', async () => {
    const { page } = app;
    const studentId = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.studentUser);
    const role = await made(`${RBAC}/roles/`, { name: 'Learner readers', actions: [] });
    await made(`${RBAC}/policies/`, {
      name: 'Learners read roles',
      role_id: role.id,
      resources: ['/rbac/roles/'],
      users_to_add: [studentId],
    });
    const learnerReads = async () =>
      (await call(server, 'GET', `${RBAC}/roles/?platform_key=${server.org}`, { key: server.studentKey })).status;
    expect(await learnerReads()).toBe(403);

    await app.open('#/people-and-access/access-matrix');
    const grid = page.getByTestId('access-matrix');
    await visible(grid);
    const cell = grid.getByRole('checkbox', { name: 'Learner readers: read Roles' });
    // One tab stop for the grid; arrow keys move within it.
    await visible(cell);
    expect(await grid.locator('input[tabindex="0"]').count()).toBe(1);
    await cell.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe(
      'Learner readers: write Roles',
    );
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    expect(await cell.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Review 1 role' }).click();
    const review = page.getByRole('dialog', { name: 'Review changes to roles' });
    await visible(review.getByText('+ Roles: read'));
    await review.getByRole('button', { name: 'Save 1 role' }).click();
    await review.waitFor({ state: 'hidden' });

    expect((await call(server, 'GET', `${RBAC}/roles/${role.id}/`)).body).toMatchObject({
      actions: ['Ibl.Core/Roles/read'],
    });
    expect(await learnerReads()).toBe(200);

    // What can this person do: the grant and the policy behind it.
    await page.getByPlaceholder('Search the directory by name, username or email').click();
    await page
      .getByRole('option', { name: new RegExp(`\\b${server.studentUser}\\b`) })
      .first()
      .click();
    const effective = page.getByTestId('effective-permissions');
    await visible(effective.getByRole('row', { name: /Roles: read.*Learners read roles/ }));
  });

  it('finds a learner no policy names by searching the directory, and says no policy grants them anything', async () => {
    const { page } = app;
    server.db
      .prepare(
        `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
         VALUES ('plainlearner', 'plain@example.edu', 'Plain', 'Learner', ?, 'student', '2026-01-01T00:00:00Z')`,
      )
      .run(server.org);
    await app.open('#/people-and-access/users');
    await page
      .getByRole('button', { name: /Refresh|Try again/ })
      .first()
      .click()
      .catch(() => undefined);
    await app.open('#/people-and-access/access-matrix');
    const picker = page.getByPlaceholder('Search the directory by name, username or email');
    await visible(picker);
    await picker.fill('plain@example');
    await page.getByRole('option', { name: /Plain Learner · plainlearner/ }).click();
    await visible(page.getByTestId('effective-permissions').getByText('No policy grants this person anything.'));
  });

  it('shows a change that leaves no access administrator refused, and offers no save', async () => {
    const { page } = app;
    const adminId = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.user);
    const role = await made(`${RBAC}/roles/`, {
      name: 'Access admins',
      actions: ['Ibl.Core/Roles/write', 'Ibl.Core/Policies/write'],
    });
    await made(`${RBAC}/policies/`, { role_id: role.id, resources: ['/'], users_to_add: [adminId] });
    // Made behind the app's back: read again.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const cell = page.getByTestId('access-matrix').getByRole('checkbox', { name: 'Access admins: write Roles' });
    await visible(cell);
    await page.waitForFunction(`document.querySelector('[aria-label="Access admins: write Roles"]')?.checked === true`);
    await cell.focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Review 1 role' }).click();
    const review = page.getByRole('dialog', { name: 'Review changes to roles' });
    await visible(review.getByText(NO_ADMIN_LEFT));
    expect(await review.getByRole('button', { name: 'Save 1 role' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
  });
});

/** WCAG's contrast ratio of two CSS colours given as `rgb(r, g, b)` / `rgba(r, g, b, a)` (alpha ignored). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = css
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => Number(v) / 255);
    const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(bl!);
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('the access matrix in the dark theme', () => {
  it('keeps its disabled actions legible: their words stand out from the page at 3:1 or more', async () => {
    await made(`${RBAC}/roles/`, { name: 'Night readers', actions: [] });
    const page = await app.browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' });
    try {
      await page.goto(`${app.host.url}#/people-and-access/access-matrix`);
      await visible(page.getByTestId('access-matrix'));
      expect(await page.evaluate('document.documentElement.getAttribute("data-mantine-color-scheme")')).toBe('dark');
      for (const name of ['Discard changes', 'Review changes']) {
        const button = page.getByRole('button', { name });
        expect(await button.isDisabled()).toBe(true);
        // The words against what is behind them: the button's own fill, or the first ancestor's that has one.
        const colours = await button.evaluate((el) => {
          let back = el;
          let background = getComputedStyle(back).backgroundColor as string;
          while (/rgba\(.*, 0\)|transparent/.test(background) && back.parentElement) {
            back = back.parentElement;
            background = getComputedStyle(back).backgroundColor as string;
          }
          return { text: getComputedStyle(el).color as string, background };
        });
        expect(
          contrast(colours.text, colours.background),
          `${name}: ${JSON.stringify(colours)}`,
        ).toBeGreaterThanOrEqual(3);
      }
    } finally {
      await page.close();
    }
  });
});
