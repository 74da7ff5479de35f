/**
 * "and N more" under a record's related list goes to the related kind's own list narrowed the same way, in browser
 * mode on a real engine and sandbox: a course's Enrolled to Course enrolments with its Course filter filled in; a
 * program's Enrolled to Program enrolments narrowed by a pill that says to what, and takes it away. A course's
 * related records are named by their own first column, not by the course they all name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

const COURSE = 'course-v1:northbridge+CS101+2026';
const PROGRAM_KEY = 'northbridge+business-leadership';
const PEOPLE = 25;
const IN_PROGRAM = 14;

let server: Sandbox;
let app: OpenApp;

const inProgramOf = (target: string) =>
  server.db
    .prepare(`SELECT count(*) FROM catalog_enrollments WHERE kind = 'program' AND target = ?`)
    .pluck()
    .get(target) as number;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  const person = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  const enrol = server.db.prepare(
    `INSERT INTO catalog_enrollments (kind, target, user_id, created_at) VALUES (?, ?, ?, '2026-02-01T00:00:00Z')`,
  );
  for (let n = 1; n <= PEOPLE; n++) {
    const username = `more-${String(n).padStart(2, '0')}`;
    const id = person.run(username, `${username}@example.edu`, server.org).lastInsertRowid;
    enrol.run('course', COURSE, id);
    if (n <= IN_PROGRAM) enrol.run('program', PROGRAM_KEY, id);
  }
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('and N more', () => {
  it("a course's Enrolled goes to Course enrolments with the course in its Course filter", async () => {
    const { page } = app;
    await app.open(`#/catalogue/courses/${encodeURIComponent(COURSE)}`);
    const more = page.getByRole('link', { name: /^and \d+ more$/ });
    await visible(more);
    // Its reviews are named by their reviewers, not by the course each of them names.
    await visible(page.getByText('Reviews', { exact: true }));
    expect(await page.getByRole('link', { name: COURSE, exact: true }).count()).toBe(0);
    await more.click();
    await expect
      .poll(() => new URL(page.url()).hash)
      .toBe(`#/catalogue/enrollments?course_id=${encodeURIComponent(COURSE)}`);
    await visible(page.getByRole('tab', { name: 'Enrolments', selected: true }));
    expect(await page.getByRole('textbox', { name: 'Course', exact: true }).inputValue()).toBe(COURSE);
    // Every enrolment of the course (the seed's too), as the platform counts them; none of another course.
    const answer = await call(
      server,
      'GET',
      `/api/catalog/enrollment/courses/search/?platform_key=${server.org}&course_id=${encodeURIComponent(COURSE)}`,
    );
    const inCourse = (answer.body as { count: number }).count;
    expect(inCourse).toBeGreaterThanOrEqual(PEOPLE);
    await expect.poll(() => page.getByTestId('resource-count').innerText()).toBe(`${inCourse} enrolments`);
  });

  it("a program's Enrolled goes to Program enrolments narrowed by a pill that takes the narrowing away", async () => {
    const { page } = app;
    const id = server.db.prepare('SELECT id FROM programs WHERE program_key = ?').pluck().get(PROGRAM_KEY) as number;
    const inProgram = inProgramOf(PROGRAM_KEY);
    expect(inProgram).toBeGreaterThanOrEqual(IN_PROGRAM);
    await app.open(`#/catalogue/programs/${id}`);
    const more = page.getByRole('link', { name: /^and \d+ more in Program enrolments$/ });
    await visible(more);
    await more.click();
    await expect
      .poll(() => new URL(page.url()).hash)
      .toBe(`#/catalogue/program-enrollments?program_key=${encodeURIComponent(PROGRAM_KEY)}`);
    await visible(page.getByRole('tab', { name: 'Program enrolments', selected: true }));
    const pill = page.getByTestId('list-narrowing');
    await visible(pill);
    expect(await pill.innerText()).toBe(`Program key: ${PROGRAM_KEY}`);
    const count = page.getByTestId('resource-count');
    await expect.poll(() => count.innerText()).toBe(`${inProgram} program enrolments`);
    const everyone = server.db
      .prepare(`SELECT count(*) FROM catalog_enrollments WHERE kind = 'program'`)
      .pluck()
      .get() as number;
    expect(everyone).toBeGreaterThan(inProgram);

    // Taken away from the keyboard: every program's enrolments, and the route no longer narrows.
    await page
      .getByRole('button', { name: `Show every program enrolment, not only Program key: ${PROGRAM_KEY}` })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => count.innerText()).toMatch(/^\d+ program enrolments$/);
    await expect.poll(async () => Number((await count.innerText()).split(' ')[0])).toBeGreaterThan(inProgram);
    expect(new URL(page.url()).hash).toBe('#/catalogue/program-enrollments');
    expect(await pill.count()).toBe(0);
  });
});
