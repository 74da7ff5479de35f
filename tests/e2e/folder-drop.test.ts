/**
 * A nested folder dragged from the desktop onto the app in browser mode: the page walks it with the File and
 * Directory Entries API (src/renderer/train/collect.ts), copies it to the host and the job trains every file under
 * the path it has inside the folder. The drop is Chromium's own (a real folder entry), not a DataTransfer built in
 * the page, which can only carry files.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox, sandboxQueries } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { dismissNotifications, dropFromDesktop, openApp, visible, type OpenApp } from './app';

const MENTOR = 'Chemistry 201';
const FOLDER = 'Chemistry course';
/** More than one `readEntries` batch (Chromium answers 100 entries at a time). */
const READINGS = 105;

let server: Sandbox;
let app: OpenApp;
let folder: string;
let mentorId: string;
const db = sandboxQueries(() => server);
/** The mentor's documents on the sandbox, by name (more than the API's largest page). */
const serverDocuments = () =>
  db.rows<{ name: string; status: string }>(
    'SELECT document_name AS name, training_status AS status FROM documents WHERE pathway = ? ORDER BY name',
    mentorId,
  );

/** The paths, inside the dropped folder, of the files that should become documents. */
const trainable: string[] = [];

function courseFolder(): string {
  const root = join(tempDir(), FOLDER);
  const write = (path: string, text: string, train = true) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    if (train) trainable.push(`${FOLDER}/${path}`);
  };
  write('intro.txt', 'Chemistry studies matter and how it changes.\n');
  write('week 1/bonds.md', '# Bonds\n\nCovalent bonds share electrons.\n');
  write('week 1/labs/titration/notes/safety.md', '# Safety\n\nGoggles on before any titration.\n');
  write('café ☕/glossary.txt', 'Mole: 6.022e23 particles.\n');
  for (let n = 1; n <= READINGS; n++) {
    write(`readings/reading ${String(n).padStart(3, '0')}.txt`, `Reading ${n}: the periodic table, row ${n % 7}.\n`);
  }
  // The engine skips this one; the page does not even copy the other two folders.
  write('.DS_Store', 'Finder data', false);
  write('.git/HEAD', 'ref: refs/heads/main\n', false);
  write('node_modules/left-pad/index.js', 'module.exports = 1;\n', false);
  mkdirSync(join(root, 'empty'));
  // A link back to the folder itself: the walk must end (Chromium does not list links at all).
  symlinkSync('..', join(root, 'week 1', 'loop'));
  return root;
}

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  app = await openApp(server);
  folder = courseFolder();
  const mentor = await app.host.engine.invoke('mentors.create', { name: MENTOR, description: 'Matter and change' });
  mentorId = mentor.uniqueId;
  await app.open(`#/mentors/${encodeURIComponent(mentorId)}`);
  await visible(app.page.getByRole('heading', { name: MENTOR }));
});

afterAll(async () => {
  await app?.close();
});

describe('a nested folder dropped from the desktop in browser mode', () => {
  it('is walked to every depth and previewed, without what is never worth copying', async () => {
    const { page } = app;
    await dropFromDesktop(page, page.getByTestId('drop-zone'), [folder]);

    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    expect(await preview.innerText()).toContain(`From ${FOLDER}.`);
    const count = (fileClass: string) => preview.getByTestId(`preview-class-${fileClass}`).locator('[data-count]');
    await visible(count('new'), 60_000);
    expect(await count('new').innerText()).toBe(String(trainable.length));
    expect(await count('skipped').innerText()).toBe('1');
    for (const fileClass of ['changed', 'unchanged', 'unsupported', 'too_large', 'unreadable']) {
      expect(await count(fileClass).innerText(), fileClass).toBe('0');
    }
    const notCopied = preview.getByRole('alert').filter({ hasText: 'not copied from the browser' });
    expect(await notCopied.innerText()).toContain('2 items not copied');
    expect(await notCopied.innerText()).toContain(`${FOLDER}/.git/`);
    expect(await notCopied.innerText()).toContain(`${FOLDER}/node_modules/`);
    // Nothing reached the tenant yet.
    expect(serverDocuments()).toEqual([]);
  });

  it('trains every file under its path inside the folder', async () => {
    const { page } = app;
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await preview.getByRole('button', { name: `Train ${trainable.length} files` }).click();
    await preview.waitFor({ state: 'hidden' });
    // The admin stays on the mentor's page, which follows the job.
    const state = page.getByTestId('training-job').getByTestId('job-state');
    await expect.poll(() => state.innerText(), { timeout: 120_000, interval: 500 }).toBe('Completed');

    const documents = serverDocuments();
    expect(documents.map((document) => document.name)).toEqual([...trainable].sort());
    expect(documents.every((document) => document.status === 'trained')).toBe(true);
  });

  it('finds every file unchanged when the same folder is dropped on the mentor again', async () => {
    const { page } = app;
    await dismissNotifications(page);
    await page.getByRole('link', { name: 'Mentors' }).first().click();
    const row = page.getByTestId(`mentor-row-${MENTOR}`);
    await visible(row);
    await dropFromDesktop(page, row, [folder]);

    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    const count = (fileClass: string) => preview.getByTestId(`preview-class-${fileClass}`).locator('[data-count]');
    await visible(count('unchanged'), 60_000);
    expect(await count('unchanged').innerText()).toBe(String(trainable.length));
    expect(await count('new').innerText()).toBe('0');
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await preview.waitFor({ state: 'hidden' });
  });
});
