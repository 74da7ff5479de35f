/**
 * Names and days as an admin reads them in a 1000×650 window, on a real engine and sandbox: a document's long name is
 * cut in the middle, its start and its extension shown (the whole name in its title), not cut at its start; the
 * Memory tab's date filters write the picked day in the app's date format (Settings → Appearance), not the browser's.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { documentsPath } from '../mentors/setup';
import { openApp, visible, type OpenApp } from './app';

const DOCUMENT = 'Northbridge Student Services glossary of terms and abbreviations.csv';
const LEARNER = 'ravi-days';

let server: Sandbox;
let app: OpenApp;
let mentor: string;

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  app = await openApp(server);
  mentor = (await app.host.engine.invoke('mentors.create', { name: 'Student Services' })).uniqueId;
  const form = new FormData();
  form.append('file', new Blob(['term,meaning\nFAFSA,federal student aid form\n']), DOCUMENT);
  form.append('pathway', mentor);
  form.append('type', 'csv');
  expect((await call(server, 'POST', `${documentsPath(server)}train/`, { form })).status).toBe(200);
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, 'ravi@northbridge.example', 'Ravi', 'Shah', ?, 'student', NULL, ?, ?)`,
    )
    .run(LEARNER, server.org, '2026-10-01T08:00:00.000Z', '2026-10-01T08:00:00.000Z');
  remember(server.db, server.org, {
    username: LEARNER,
    mentor,
    category: 'knowledge_gaps',
    value: 'loans',
    at: '2026-10-02T09:30:00Z',
  });
  remember(server.db, server.org, {
    username: LEARNER,
    mentor,
    category: 'lessons_learned',
    value: 'grants',
    at: '2026-10-20T09:30:00Z',
  });
  await app.page.setViewportSize({ width: 1000, height: 650 });
});

afterAll(async () => {
  await app?.close();
});

/** Where a text's first and last characters are drawn, against its element's box (clipped or not). */
function placeOfText(element: Locator) {
  return element.evaluate((node) => {
    const walker = node.ownerDocument.createTreeWalker(node, 4 /* NodeFilter.SHOW_TEXT */);
    type TextNode = typeof walker.currentNode;
    const texts: TextNode[] = [];
    while (walker.nextNode()) texts.push(walker.currentNode);
    const rectOf = (text: TextNode, start: number, end: number) => {
      const range = node.ownerDocument.createRange();
      range.setStart(text, start);
      range.setEnd(text, end);
      return range.getBoundingClientRect();
    };
    const length = (text: TextNode) => text.textContent!.length;
    const first = texts[0]!;
    const last = texts.at(-1)!;
    const box = node.getBoundingClientRect();
    return {
      left: box.left,
      right: box.right,
      firstLeft: rectOf(first, 0, 1).left,
      // The extension's first character (the dot) and the last one.
      dotLeft: rectOf(last, length(last) - 4, length(last) - 3).left,
      lastRight: rectOf(last, length(last) - 1, length(last)).right,
      /** The width the whole text would take on one line. */
      natural: texts.reduce((width, text) => width + rectOf(text, 0, length(text)).width, 0),
      text: node.textContent,
    };
  });
}

describe('a long document name at 1000×650', () => {
  it('is cut in the middle: its start and its extension show, the whole name is its title', async () => {
    const { page } = app;
    await app.open(`#/mentors/${encodeURIComponent(mentor)}`);
    const name = page.getByTestId(`document-row-${DOCUMENT}`).locator(`[title="${DOCUMENT}"]`);
    await visible(name);
    const place = await placeOfText(name);
    expect(place.text).toBe(DOCUMENT);
    // It does not fit its box: something of it is cut.
    expect(place.natural).toBeGreaterThan(place.right - place.left + 10);
    expect(place.firstLeft, 'its start is shown').toBeGreaterThanOrEqual(place.left - 0.5);
    expect(place.dotLeft, 'its extension is shown').toBeGreaterThanOrEqual(place.left);
    expect(place.lastRight, 'its end is shown').toBeLessThanOrEqual(place.right + 0.5);
  });
});

describe('the Memory tab’s date filters', () => {
  it('write the picked day in the app’s date format and narrow the memories to it', async () => {
    const { page } = app;
    await app.host.engine.invoke('settings.set', { formatLocale: 'en-GB' });
    await app.open(`#/mentors/${encodeURIComponent(mentor)}`);
    await page.getByRole('tab', { name: 'Memory', exact: true }).click();
    await page.getByTestId('mentor-memory').getByRole('combobox', { name: 'Learner' }).fill('ravi-d');
    await page.getByRole('option', { name: 'Ravi Shah' }).click();
    const section = page.getByTestId('learner-memories');
    const rows = section.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);

    const from = section.getByRole('textbox', { name: 'From', exact: true });
    await section.getByRole('button', { name: 'Pick a day for “From”' }).click();
    // The calendar opens on this month: back to October 2026.
    const now = new Date();
    for (let month = now.getFullYear() * 12 + now.getMonth(); month > 2026 * 12 + 9; month--) {
      await page.getByRole('button', { name: 'Previous month' }).click();
    }
    await page.getByRole('button', { name: '10 October 2026', exact: true }).click();
    // en-GB's medium date, as on every other screen (the browser's field wrote "10/10/2026" in its own locale).
    await expect.poll(() => from.inputValue()).toBe('10 Oct 2026');
    // The keyboard is back on the field the day was picked for.
    expect(await from.evaluate((field) => field === field.ownerDocument.activeElement)).toBe(true);
    await expect.poll(() => rows.count()).toBe(1);
    await visible(section.getByRole('cell', { name: 'Lessons learned' }));
    // Typed day first, as en-GB writes numeric dates: 15 October, not the 10th of a 15th month.
    const to = section.getByRole('textbox', { name: 'To', exact: true });
    await to.fill('15/10/2026');
    await to.press('Tab');
    expect(await to.inputValue()).toBe('15 Oct 2026');
    await expect.poll(() => section.getByRole('cell', { name: 'Lessons learned' }).count()).toBe(0);
    await app.host.engine.invoke('settings.set', { formatLocale: 'system' });
  });
});
