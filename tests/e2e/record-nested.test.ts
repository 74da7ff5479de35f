/**
 * A record's panel shows what the platform nests in a record as a person reads it, in browser mode on a real engine
 * and demo sandbox: a program's courses as a list of course names in the program's order, each linked to the course,
 * its metadata as label/value pairs, and nothing repeated from the record's own fields (its data object repeats the
 * program ID, key, slug and enabled) — no JSON code blocks.
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

describe("a record's nested values", () => {
  it("a program's courses by name in order, linked; metadata as pairs; no JSON and no repeats", async () => {
    const program = server.db
      .prepare(
        `SELECT p.id, p.name, x.course_list FROM programs p JOIN catalogue_program_extras x ON x.program_key = p.program_key
         WHERE p.org = ? AND x.course_list LIKE '%course_id%' ORDER BY p.id LIMIT 1`,
      )
      .get(server.org) as { id: number; name: string; course_list: string };
    const courses = (JSON.parse(program.course_list) as { course_id: string; position: number }[]).sort(
      (a, b) => a.position - b.position,
    );
    expect(courses.length).toBeGreaterThan(0);
    const nameOf = (id: string) =>
      server.db.prepare('SELECT name FROM courses WHERE course_id = ?').pluck().get(id) as string | undefined;
    // Metadata the panel shows as a pair.
    server.db
      .prepare(
        `UPDATE catalogue_program_extras SET metadata = '{"language": "en"}' WHERE program_key =
        (SELECT program_key FROM programs WHERE id = ?)`,
      )
      .run(program.id);

    const { page } = app;
    await app.open(`#/catalogue/programs/${program.id}`);
    const panel = page.getByRole('dialog', { name: new RegExp(program.name) });
    await visible(panel.getByText(program.name).first(), 30_000);
    const links = panel.getByRole('listitem').getByRole('link');
    await expect.poll(() => links.count(), { timeout: 30_000 }).toBe(courses.length);
    const expected = courses.map((course) => nameOf(course.course_id) ?? course.course_id);
    await expect.poll(() => links.allInnerTexts(), { timeout: 30_000 }).toEqual(expected);
    expect(await links.first().getAttribute('href')).toBe(
      `#/catalogue/courses/${encodeURIComponent(courses[0]!.course_id)}`,
    );
    await visible(panel.getByRole('cell', { name: 'Language' }));
    await visible(panel.getByRole('cell', { name: 'en', exact: true }));
    expect(await panel.locator('code, pre').count()).toBe(0);
    // The data object only repeated the record's own fields: its heading is gone, each value shown once.
    expect(await panel.getByText('Data', { exact: true }).count()).toBe(0);
    expect(await panel.getByRole('cell', { name: 'Program key' }).count()).toBe(0);
    // Nor the fields the platform repeats under another name: the slug is the program ID, the org the institution.
    expect(await panel.getByText(server.org, { exact: true }).count()).toBe(1);
    expect(await panel.getByText('Slug', { exact: true }).count()).toBe(0);
  }, 180_000);
});
