/**
 * Wide kit tables at the smallest window (1000×650), in browser mode on a real engine and sandbox: the users table
 * keeps a person's name on one line (a long one cut with an ellipsis, whole in its title), and a table whose last
 * columns are clipped says so above itself, with buttons that scroll it sideways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { seedUsers } from '../../src/server/areas/core-users';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
const FIRST = 'Maximiliana Josefina Alexandra';
const LAST = 'Featherstonehaugh-Wolfeschlegelstein';

beforeAll(async () => {
  server = await sandbox();
  seedUsers(server.db, server.org, 20);
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
       VALUES ('maxi', 'maxi@example.edu', ?, ?, ?, 'student', '2026-11-01T12:00:00Z')`,
    )
    .run(FIRST, LAST, server.org);
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('wide kit tables at 1000×650', () => {
  it('names stay on one line with an ellipsis and a title; clipped columns are said and scrolled by buttons', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    await app.open('#/people-and-access/users');
    await visible(page.getByRole('tab', { name: 'Users', selected: true }));
    await page.getByRole('searchbox', { name: 'Search users' }).fill('maxi@example.edu');
    const table = page.getByTestId('resource-table');
    const name = table.getByRole('button', { name: new RegExp(`^${FIRST}`) });
    await visible(name);
    const look = await name.evaluate((el) => {
      const element = el as unknown as {
        title: string;
        clientHeight: number;
        clientWidth: number;
        scrollWidth: number;
        ownerDocument: { defaultView: { getComputedStyle(e: unknown): { whiteSpace: string; lineHeight: string } } };
      };
      const style = element.ownerDocument.defaultView.getComputedStyle(el);
      return {
        title: element.title,
        whiteSpace: style.whiteSpace,
        lines: Math.round(element.clientHeight / parseFloat(style.lineHeight)),
        cut: element.scrollWidth > element.clientWidth,
      };
    });
    expect(look).toEqual({ title: `${FIRST} ${LAST}`, whiteSpace: 'nowrap', lines: 1, cut: true });

    // The users table is wider than its box at this size: said above it, and scrolled by its buttons.
    const area = page.getByTestId('list-table-area');
    await expect.poll(() => area.getAttribute('data-clipped-end')).toBe('true');
    const note = page.getByTestId('list-scroll-note');
    await visible(note.getByText('More columns to the right'));
    const left = page.getByRole('button', { name: 'Scroll Users left' });
    const right = page.getByRole('button', { name: 'Scroll Users right' });
    expect(await left.isDisabled()).toBe(true);
    for (let press = 0; press < 10 && (await area.getAttribute('data-clipped-end')); press++) {
      await right.click();
      await page.waitForTimeout(400);
    }
    await expect.poll(() => area.getAttribute('data-clipped-end')).toBeNull();
    expect(await area.getAttribute('data-clipped-start')).toBe('true');
    await visible(note.getByText('More columns to the left'));
    expect(await right.isDisabled()).toBe(true);
    await left.click();
    await expect.poll(() => area.getAttribute('data-clipped-end')).toBe('true');
  }, 90_000);
});
