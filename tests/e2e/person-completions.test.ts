/**
 * A person's course completions on their page, in browser mode on a real engine and the demo sandbox: each course
 * they are enrolled in, completed (with its date) or not, as the course's completion milestone says; and with the
 * tenant offline the part says so quietly, as the page's other sections do. Pictures (light and dark, 1400×900 and
 * 1000×650) go to MENTOR_ADMIN_SHOTS when it is set.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

/** A learner with a completed and an unfinished course in the demo's learning analytics, and those courses. */
function learner(offset = 0) {
  const who = server.db
    .prepare(
      `SELECT u.id, u.username FROM users u JOIN learning_enrollments l ON l.user_id = u.id
       WHERE u.org = ? AND u.role = 'student' GROUP BY u.id
       HAVING count(l.completed_at) > 0 AND count(*) > count(l.completed_at) ORDER BY u.id LIMIT 1 OFFSET ?`,
    )
    .get(server.org, offset) as { id: number; username: string };
  const courses = server.db
    .prepare(
      `SELECT c.name, l.completed_at FROM learning_enrollments l JOIN courses c ON c.id = l.course_pk
       WHERE l.user_id = ? ORDER BY c.name`,
    )
    .all(who.id) as { name: string; completed_at: string | null }[];
  return { ...who, courses };
}

describe('a person’s course completions', () => {
  it('lists each enrolled course, completed or not, and says when the tenant is offline', async () => {
    const { page } = app;
    const who = learner();
    await app.open('#/people-and-access/users');
    await app.open(`#/people-and-access/users/${who.id}`);
    const part = page.getByTestId('person-completions');
    await visible(part.getByTestId('person-completions-summary'));
    const done = who.courses.filter((c) => c.completed_at).length;
    expect(await part.getByTestId('person-completions-summary').textContent()).toBe(
      `${done} of ${who.courses.length} ${who.courses.length === 1 ? 'course' : 'courses'} completed`,
    );
    for (const course of who.courses.slice(0, 8)) {
      const row = part.getByTestId('person-completion').filter({ hasText: course.name });
      await visible(row.first());
      if (course.completed_at) await visible(row.first().getByText(/^Completed/));
      else await visible(row.first().getByText('Not completed'));
    }

    const shots = process.env.MENTOR_ADMIN_SHOTS;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${scheme}')`);
        for (const [w, h] of [
          [1400, 900],
          [1000, 650],
        ] as const) {
          await page.setViewportSize({ width: w, height: h });
          await part.scrollIntoViewIfNeeded();
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(shots, `person-completions-${scheme}-${w}.png`) });
        }
      }
    }

    proxy.down();
    try {
      await page.reload();
      await visible(part.getByTestId('section-unavailable'), 30_000);
      expect(await part.getByTestId('person-completion').count()).toBe(0);
      if (shots) await page.screenshot({ path: join(shots, 'person-completions-offline.png') });
    } finally {
      proxy.up();
    }
  }, 180_000);

  it('with many courses, shows the first few and the rest on request, from the keyboard', async () => {
    const { page } = app;
    const who = learner(1);
    // Enrol them in every other course of the tenant (a catalog enrolment: enrolled, nothing completed).
    server.db
      .prepare(
        `INSERT OR IGNORE INTO catalog_enrollments (kind, target, user_id, created_at)
         SELECT 'course', c.course_id, ?, '2026-11-01T00:00:00Z' FROM courses c
         WHERE c.org = ? AND c.id NOT IN (SELECT course_pk FROM learning_enrollments WHERE user_id = ?)`,
      )
      .run(who.id, server.org, who.id);
    const total = server.db.prepare('SELECT count(*) FROM courses WHERE org = ?').pluck().get(server.org) as number;
    expect(total).toBeGreaterThan(8);
    await app.open(`#/people-and-access/users/${who.id}`);
    const part = page.getByTestId('person-completions');
    await visible(part.getByTestId('person-completions-summary'));
    expect(await part.getByTestId('person-completions-summary').textContent()).toMatch(
      new RegExp(` of ${total} courses completed$`),
    );
    expect(await part.getByTestId('person-completion').count()).toBe(8);
    const more = part.getByRole('button', { name: `Show all ${total} courses` });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => part.getByTestId('person-completion').count()).toBe(total);
    await part.getByRole('button', { name: 'Show fewer' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => part.getByTestId('person-completion').count()).toBe(8);
  }, 180_000);
});
