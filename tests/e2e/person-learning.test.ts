/**
 * An admin suggests a course to a user group on the catalogue screen; a person's page shows their skills and roles (desired, reported) and the skill points they earned, in browser mode
 * on a real engine and the demo sandbox; the page is screenshotted light and dark at both window sizes for review.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('a person’s skills and milestones', () => {
  it('shows what they want, what they report and the points they earned', async () => {
    const { page } = app;
    const who = server.db
      .prepare(`SELECT id, username FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 1`)
      .get(server.org) as { id: number; username: string };
    const desired = server.db
      .prepare(
        `SELECT s.name FROM learning_person_skills p JOIN learning_skills s ON s.id = p.skill_id
         WHERE p.user_id = ? AND p.kind = 'desired' ORDER BY s.name`,
      )
      .pluck()
      .all(who.id) as string[];
    const total = server.db
      .prepare('SELECT sum(points) FROM learning_skill_points WHERE user_id = ?')
      .pluck()
      .get(who.id) as number;
    await app.open('#/people-and-access/users');
    await app.open(`#/people-and-access/users/${who.id}`);
    const section = page.getByTestId('person-learning');
    await visible(section.getByRole('heading', { name: 'Skills, roles and milestones' }));
    for (const name of desired) await visible(section.getByText(name, { exact: true }).first());
    await visible(section.getByTestId('person-skill-points-total'));
    expect(await section.getByTestId('person-skill-points-total').textContent()).toBe(
      `${total.toLocaleString('en-US')} points`,
    );
    if (process.env.LEARN_SHOTS) {
      for (const [width, height] of [
        [1400, 900],
        [1000, 650],
      ] as const) {
        await page.setViewportSize({ width, height });
        await section.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${process.env.LEARN_SHOTS}/person-learning-${width}.png` });
      }
    }
  });

  it('an admin suggests a course to a user group from the catalogue screen', async () => {
    const { page } = app;
    await app.open('#/catalogue/course-group-suggestions');
    await page
      .getByRole('button', { name: /New group course suggestion/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'New group course suggestion' });
    const course = dialog.getByRole('combobox', { name: 'Course', exact: true });
    await course.click();
    await page.keyboard.type('Statistics');
    await page.getByRole('option').first().click();
    const group = dialog.getByRole('combobox', { name: 'User group', exact: true });
    await group.click();
    await page.getByRole('option').first().click();
    await dialog.getByRole('button', { name: 'Create group course suggestion' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const groupSuggestions = server.db
      .prepare('SELECT count(*) FROM learning_suggestions WHERE org = ? AND group_id IS NOT NULL')
      .pluck()
      .get(server.org) as number;
    expect(groupSuggestions).toBe(2);
  });
});
