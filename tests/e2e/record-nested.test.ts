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
    // The demo program's courses are the catalogue's own: each by its name, never its id.
    expect(expected.filter((name) => name.startsWith('course-v1:'))).toEqual([]);
    await expect.poll(() => links.allInnerTexts(), { timeout: 30_000 }).toEqual(expected);
    expect(await links.first().getAttribute('title')).toBe(courses[0]!.course_id);
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

  it("a pathway's items as its courses by name in order, linked (an unknown item by its id); no JSON, no internal ids", async () => {
    const pathway = server.db
      .prepare(`SELECT pathway_id, pathway_uuid, name, path FROM catalogue_pathways WHERE org = ? AND pathway_id = ?`)
      .get(server.org, 'business-basics') as { pathway_id: string; pathway_uuid: string; name: string; path: string };
    // An item the catalogue does not know stays named by its id.
    const unknown = 'course-v1:nowhere+GONE1+2026';
    const items = [
      ...(JSON.parse(pathway.path) as { item_id: string; position: number }[]),
      { item_id: unknown, position: 0 },
    ];
    server.db
      .prepare('UPDATE catalogue_pathways SET path = ? WHERE org = ? AND pathway_id = ?')
      .run(JSON.stringify(items), server.org, pathway.pathway_id);
    const ordered = [...items].sort((a, b) => a.position - b.position);
    const nameOf = (id: string) =>
      server.db.prepare('SELECT name FROM courses WHERE course_id = ?').pluck().get(id) as string | undefined;
    const expected = ordered.map((item) => nameOf(item.item_id) ?? item.item_id);
    expect(expected.filter((name) => name.startsWith('course-v1:'))).toEqual([unknown]);

    const { page } = app;
    await app.open(`#/catalogue/pathways/${pathway.pathway_id}`);
    const panel = page.getByRole('dialog', { name: new RegExp(pathway.name) });
    await visible(panel.getByText('Items', { exact: true }), 30_000);
    const links = panel.getByRole('listitem').getByRole('link');
    await expect.poll(() => links.allInnerTexts(), { timeout: 30_000 }).toEqual(expected);
    expect(await links.nth(1).getAttribute('href')).toBe(
      `#/catalogue/courses/${encodeURIComponent(ordered[1]!.item_id)}`,
    );
    expect(await links.nth(1).getAttribute('title')).toBe(ordered[1]!.item_id);
    expect(await panel.locator('code, pre').count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Copy/ }).count()).toBe(0);
    expect(await panel.getByText(/item_id/).count()).toBe(0);
    // The platform's internal uuid, the owner's user number and the empty data say nothing to an administrator.
    for (const label of ['Pathway uuid', 'Owner’s user ID', 'Data', 'ID'])
      expect(await panel.getByText(label, { exact: true }).count()).toBe(0);
    expect(await panel.getByText(pathway.pathway_uuid).count()).toBe(0);
  }, 180_000);

  it("a program's panel names its fields for an administrator and leaves the institution's number out", async () => {
    const program = server.db
      .prepare(`SELECT id, name, program_key FROM programs WHERE org = ? ORDER BY id LIMIT 1`)
      .get(server.org) as { id: number; name: string; program_key: string };
    const { page } = app;
    await app.open(`#/catalogue/programs/${program.id}`);
    const panel = page.getByRole('dialog', { name: new RegExp(program.name) });
    await visible(panel.getByText('Key', { exact: true }), 30_000);
    await visible(panel.getByText(program.program_key, { exact: true }));
    await visible(panel.getByText('Updated', { exact: true }));
    for (const label of ['Program key', 'Updated at', 'Institution ID'])
      expect(await panel.getByText(label, { exact: true }).count()).toBe(0);
  }, 180_000);
});
