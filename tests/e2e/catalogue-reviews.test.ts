/**
 * Review moderation in browser mode, on a real engine and sandbox: two people reviewed the same course; the admin
 * hides one and corrects its title from the reviews list. Only that reviewer's review changes (a review is addressed
 * by course and reviewer: the app once sent the course alone, and an edit landed on the wrong review or lost the
 * reviewer), and the vendor SDK reads both back as the app left them.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let COURSE: string;
let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  COURSE = server.db
    .prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id LIMIT 1')
    .pluck()
    .get(server.org) as string;
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  const review = server.db.prepare(
    `INSERT INTO learning_reviews (item_type, item, org, user_id, rating, title, content, visible, created, modified)
     VALUES ('course', ?, ?, ?, ?, ?, ?, 1, '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')`,
  );
  for (const [name, rating, title] of [
    ['rev-ada', 5, 'Loved every unit'],
    ['rev-ben', 1, 'Spam spam spam'],
  ] as const) {
    const id = Number(insert.run(name, `${name}@reviews.test`, server.org).lastInsertRowid);
    review.run(COURSE, server.org, id, rating, title, `${title}, in words`);
  }
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const stored = (username: string) =>
  server.db
    .prepare(
      `SELECT r.title, r.visible, r.rating FROM learning_reviews r JOIN users u ON u.id = r.user_id
       WHERE r.item = ? AND u.username = ?`,
    )
    .get(COURSE, username) as { title: string; visible: number; rating: number };

describe('Review moderation', () => {
  it('hides and corrects one reviewer’s review of a course; the other reviewer’s is untouched', async () => {
    const { page } = app;
    await app.open('#/catalogue/course-reviews');
    // The course's reviews only (the demo tenant has others).
    await page.getByRole('searchbox', { name: 'Search course reviews' }).fill('rev-');
    const row = page.getByRole('row', { name: /rev-ben/ });
    await visible(row);
    await visible(page.getByRole('row', { name: /rev-ada/ }));
    await row.getByRole('button', { name: /^Edit / }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit course review/ });
    await visible(dialog);
    // By keyboard: a forced click aims at where the switch was, and the dialog may still be moving in.
    const shown = dialog.getByRole('switch', { name: 'Visible' });
    await shown.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => shown.isChecked()).toBe(false);
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Removed: spam');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await expect.poll(() => stored('rev-ben')).toEqual({ title: 'Removed: spam', visible: 0, rating: 1 });
    expect(stored('rev-ada')).toEqual({ title: 'Loved every unit', visible: 1, rating: 5 });

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = (await CatalogService.catalogReviewsCourseRetrieve({ courseId: COURSE } as never)) as unknown as {
      results?: { username: string; title: string; visible: boolean }[];
    };
    const reviews = read.results ?? (read as unknown as { username: string; title: string; visible: boolean }[]);
    expect(reviews.find((r) => r.username === 'rev-ben')).toMatchObject({ title: 'Removed: spam', visible: false });
    expect(reviews.find((r) => r.username === 'rev-ada')).toMatchObject({ title: 'Loved every unit', visible: true });
  });
  it('shows the course’s rating over its visible reviews on its page', async () => {
    const { page } = app;
    // After the first test only rev-ada's 5 of the two reviews of the course is visible; the demo may hold others.
    const { avg, n } = server.db
      .prepare('SELECT avg(rating) AS avg, count(*) AS n FROM learning_reviews WHERE item = ? AND visible = 1')
      .get(COURSE) as { avg: number; n: number };
    await app.open(`#/catalogue/courses/${encodeURIComponent(COURSE)}`);
    const rating = page.getByTestId('item-rating');
    await visible(rating.getByText(`${avg.toFixed(1)} of 5`));
    await visible(rating.getByText(`from ${n} visible ${n === 1 ? 'review' : 'reviews'}`));
    // Hiding a review elsewhere changes the rating the page reads next.
    server.db.prepare('UPDATE learning_reviews SET visible = 0 WHERE item = ?').run(COURSE);
    await page.reload();
    await visible(page.getByTestId('item-rating').getByText('No visible reviews yet.'));
  });
});
