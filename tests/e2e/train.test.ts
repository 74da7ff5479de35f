/**
 * The headline workflow in browser mode, end to end: the built renderer served by the real host over the real
 * engine, against a real sandbox platform. An admin creates a mentor, chooses a folder (which the page reads and
 * stages on the host), checks the preview, confirms, follows the job to the end and finds the documents trained.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

const MENTOR = 'Biology 101';
/** Where to save screenshots of the main screens (set E2E_SCREENSHOTS=dir to keep them). */
const SHOTS = process.env.E2E_SCREENSHOTS;

let server: Sandbox;
let app: OpenApp;
let host: Host;
let page: Page;
let folder: string;
let jobUrl = '';
let dataDir: string;

/** A DataTransfer built in the page, as a drop from the desktop delivers it (source text: no DOM types here). */
const DROPPED_FILES = `(() => {
  const transfer = new DataTransfer();
  transfer.items.add(new File(['Photosynthesis turns light into chemical energy in the chloroplast.\\n'], 'intro.txt', { type: 'text/plain' }));
  transfer.items.add(new File(['# Enzymes\\n\\nEnzymes speed up reactions.\\n'], 'enzymes.md', { type: 'text/markdown' }));
  return transfer;
})()`;

async function dropFilesOn(target: Locator): Promise<void> {
  const dataTransfer = await page.evaluateHandle(DROPPED_FILES);
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** The sandbox refuses uploads over this (413), so one file of the folder fails. */
const UPLOAD_LIMIT = 64 * 1024;

/**
 * A small course folder: six files to train (one too big for the sandbox's upload limit, which the engine's own
 * limit does not catch), one hidden file and one type the platform cannot train.
 */
function courseFolder(): string {
  const root = join(tempDir(), 'Biology course');
  mkdirSync(join(root, 'notes', 'week 2'), { recursive: true });
  writeFileSync(join(root, 'intro.txt'), 'Photosynthesis turns light into chemical energy in the chloroplast.\n');
  writeFileSync(join(root, 'notes', 'week 1.md'), '# Cells\n\nThe mitochondria is the powerhouse of the cell.\n');
  writeFileSync(join(root, 'notes', 'week 2', 'genetics.md'), '# Genetics\n\nDNA carries genetic information.\n');
  writeFileSync(join(root, 'syllabus.html'), '<h1>Syllabus</h1><p>Ecology, evolution and enzymes.</p>');
  writeFileSync(join(root, 'notes', 'café ☕ glossary.txt'), 'Osmosis: water moving across a membrane.\n');
  writeFileSync(join(root, '.hidden-notes.txt'), 'not for training');
  writeFileSync(join(root, 'diagram.bin'), Buffer.from([0, 1, 2, 3, 4, 5]));
  writeFileSync(join(root, 'handbook.txt'), 'The lab handbook. '.repeat(Math.ceil((UPLOAD_LIMIT * 1.5) / 18)));
  return root;
}

async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

beforeAll(async () => {
  server = await sandbox({ seed: 'none', uploadLimitBytes: UPLOAD_LIMIT });
  app = await openApp(server);
  ({ host, page, dataDir } = app);
  folder = courseFolder();
  await app.open('#/mentors');
  await visible(page.getByRole('heading', { name: 'Mentors', exact: true }));
});

afterAll(async () => {
  await app?.close();
});

describe('training a mentor from a folder in browser mode', () => {
  it('creates a mentor from the Mentors screen', async () => {
    await page.getByRole('button', { name: 'New mentor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New mentor' });
    await visible(dialog);
    await dialog.getByRole('textbox', { name: 'Name' }).fill(MENTOR);
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .fill('Helps first-year students with cells and genetics');
    await dialog.getByRole('radio', { name: /Anyone/ }).check();
    await dialog.getByRole('button', { name: 'Create mentor' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByTestId(`mentor-row-${MENTOR}`);
    await visible(row);
    expect(await row.innerText()).toContain('Anyone');
    await expect.poll(() => page.getByTestId('freshness').innerText()).toMatch(/As of/);
    await shot('mentors');
  });

  it('finds mentors with the search box', async () => {
    const search = page.getByRole('searchbox', { name: 'Search mentors' });
    await search.fill('no such mentor');
    await page.getByText('No mentor matches this search.').waitFor();
    await search.fill('biology');
    await visible(page.getByTestId(`mentor-row-${MENTOR}`));
    await search.fill('');
  });

  it('previews a chosen folder without sending anything', async () => {
    await page.getByRole('link', { name: MENTOR }).click();
    await visible(page.getByRole('heading', { name: MENTOR }));
    await visible(page.getByRole('tab', { name: 'Documents', selected: true }));
    // No documents yet: the drop zone is open.
    await visible(page.getByTestId('drop-zone'));
    await shot('mentor-empty');
    await page.setInputFiles('input[webkitdirectory]', folder);

    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    const count = (fileClass: string) => preview.getByTestId(`preview-class-${fileClass}`).locator('[data-count]');
    await visible(count('new'), 30_000);
    expect(await count('new').innerText()).toBe('6');
    expect(await count('unsupported').innerText()).toBe('1');
    expect(await count('skipped').innerText()).toBe('1');
    for (const fileClass of ['changed', 'unchanged', 'too_large', 'unreadable']) {
      expect(await count(fileClass).innerText(), fileClass).toBe('0');
    }
    const files = preview.getByTestId('preview-files');
    await expect.poll(() => files.innerText()).toContain('genetics.md');
    expect(await files.innerText()).toContain('café ☕ glossary.txt');
    // The one skipped file is hidden, and the card says so (not "hidden and system files" for any reason).
    expect(await preview.getByTestId('preview-class-skipped').getByTestId('class-description').innerText()).toBe(
      'Hidden file',
    );
    await shot('preview');

    // At 1000×650, scrolled to the end of the file list, nothing covers Cancel and Train.
    await dismissNotifications(page);
    await expect.poll(() => page.locator('.mantine-Notification-root').count()).toBe(0);
    await page.setViewportSize({ width: 1000, height: 650 });
    // The dialog scrolled so that the file table's header passes where the buttons are, then to the end: the
    // buttons stay on top all along.
    // (Page code as source text: these tests are type-checked without the DOM's types.)
    const buttonsOnTop = async () => {
      for (const name of ['Cancel', 'Train 6 files']) {
        const button = preview.getByRole('button', { name, exact: true });
        const box = (await button.boundingBox())!;
        expect(box.y + box.height, `${name} is inside the window`).toBeLessThanOrEqual(650);
        const onTop = await page.evaluate(`(() => {
          const element = document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2});
          return element?.closest('button')?.textContent ?? element?.outerHTML.slice(0, 200) ?? 'nothing';
        })()`);
        expect(onTop, `${name} is on top`).toBe(name);
      }
    };
    const cancelY = (await preview.getByRole('button', { name: 'Cancel' }).boundingBox())!.y;
    await page.evaluate(`(() => {
      const table = document.querySelector('[data-testid="preview-files"]');
      const header = table.querySelector('thead');
      for (let element = table.parentElement; element; element = element.parentElement) {
        if (element.classList.contains('mantine-ScrollArea-viewport')) continue;
        const scrolls = ['auto', 'scroll'].includes(getComputedStyle(element).overflowY);
        if (scrolls && element.scrollHeight > element.clientHeight + 1) {
          element.scrollTop += header.getBoundingClientRect().top - ${cancelY};
          return;
        }
      }
    })()`);
    await buttonsOnTop();
    await page.evaluate(`(() => {
      for (const element of document.querySelectorAll('[role="dialog"], [role="dialog"] *')) {
        if (element.scrollHeight > element.clientHeight) element.scrollTop = element.scrollHeight;
      }
    })()`);
    await buttonsOnTop();
    await shot('preview-small');
    await page.setViewportSize({ width: 1360, height: 900 });

    // Only the unsupported file, with its reason.
    await preview.getByTestId('preview-class-unsupported').click();
    await expect.poll(() => files.locator('tbody tr').count()).toBe(1);
    expect(await files.innerText()).toContain('diagram.bin');
    await preview.getByTestId('preview-class-unsupported').click();

    // Nothing reached the tenant yet.
    const documents = await host.engine.invoke('documents.list', { mentor: MENTOR });
    expect(documents.documents).toHaveLength(0);
  });

  it('narrows the preview with an exclude glob, then widens it again', async () => {
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    const exclude = preview.getByRole('combobox', { name: 'Exclude' });
    await exclude.fill('**/*.md');
    await exclude.press('Enter');
    await preview.getByRole('button', { name: 'Update preview' }).click();
    await expect
      .poll(() => preview.getByRole('button', { name: /^Train \d+ files?$/ }).innerText())
      .toBe('Train 4 files');
    // Backspace in an empty tags input removes the last tag.
    await exclude.press('Backspace');
    await preview.getByRole('button', { name: 'Update preview' }).click();
    await expect
      .poll(() => preview.getByRole('button', { name: /^Train \d+ files?$/ }).innerText())
      .toBe('Train 6 files');
  });

  it('says the counts are for the previous filters only while a change is not applied', async () => {
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    const include = preview.getByRole('combobox', { name: 'Include only' });
    const update = preview.getByRole('button', { name: 'Update preview' });
    const stale = preview.getByText('The counts above are for the previous filters.');
    expect(await update.isDisabled()).toBe(true);
    expect(await stale.count()).toBe(0);
    await include.fill('**/*.pdf');
    await include.press('Enter');
    await visible(stale);
    expect(await update.isDisabled()).toBe(false);
    // Taken back, the filters are the applied ones again: nothing to update.
    await include.press('Backspace');
    await stale.waitFor({ state: 'detached' });
    expect(await update.isDisabled()).toBe(true);
    expect(await preview.getByRole('button', { name: /^Train \d+ files?$/ }).innerText()).toBe('Train 6 files');
  });

  it('starts the job on confirm and stays on the mentor, whose documents show trained as the job ends', async () => {
    const mentorUrl = page.url();
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await preview.getByRole('button', { name: 'Train 6 files' }).click();
    await preview.waitFor({ state: 'hidden' });
    // The admin stays with the mentor: its page shows the job, and the documents arrive in its table.
    expect(page.url()).toBe(mentorUrl);
    const training = page.getByTestId('training-job');
    await visible(training);
    await shot('mentor-training');
    await expect.poll(() => training.innerText(), { timeout: 90_000, interval: 200 }).toMatch(/Training ended/);
    // As the job ends the trained documents are on screen: no wait for the cache's own refresh.
    const statuses = () => page.getByTestId('documents-table').getByTestId('document-status').allInnerTexts();
    await expect.poll(statuses, { timeout: 2_000, interval: 100 }).toEqual(Array(5).fill('Trained'));
    expect(await training.innerText()).toMatch(/5 documents trained, 1 failed, 2 not sent/);

    // And the job's own page is one click away.
    await training.getByRole('link', { name: 'View job' }).click();
    await page.waitForURL(/#\/jobs\/.+/);
    jobUrl = page.url();
    await visible(page.getByTestId('job-progress'));
    const state = page.getByTestId('job-state').first();
    await expect.poll(() => state.innerText(), { timeout: 30_000, interval: 500 }).toBe('Completed with failures');
    expect(await page.getByTestId('job-percent').innerText()).toBe('100%');
    // Every scanned file is an item of the job: the hidden and the unsupported one end as skipped.
    const files = await page.getByTestId('job-files').innerText();
    expect(files).toContain('8 of 8');
    expect(files).toContain('5 done · 1 failed · 2 skipped');
    const items = page.getByTestId('job-items');
    await expect.poll(() => items.locator('tbody tr').count()).toBe(8);
    const attention = page.getByTestId('needs-attention');
    await visible(attention);
    expect(await attention.innerText()).toMatch(/handbook\.txt[\s\S]*too large/i);
    await shot('job');
  });

  it('retries the failed file from "Needs attention"', async () => {
    const attention = page.getByTestId('needs-attention');
    await attention.getByRole('checkbox', { name: /handbook\.txt/ }).check();
    await attention.getByRole('button', { name: 'Retry selected (1)' }).click();
    await page.getByText('1 item queued again.').waitFor();
    // The sandbox refuses it again: the file fails once more, now on its second attempt, and the job ends as before.
    await page.getByRole('radiogroup', { name: 'Filter by state' }).getByText('Failed', { exact: true }).click();
    const rows = page.getByTestId('job-items').locator('tbody tr');
    const attemptsOfFailed = async () => {
      if ((await rows.count()) !== 1 || !(await rows.innerText()).includes('handbook.txt')) return 0;
      return Number(await rows.locator('td').nth(4).innerText());
    };
    await expect.poll(attemptsOfFailed, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    const state = page.getByTestId('job-state').first();
    await expect.poll(() => state.innerText(), { timeout: 60_000, interval: 500 }).toBe('Completed with failures');
  });

  it('lists the job on the Jobs screen and exports its report', async () => {
    await page.getByRole('link', { name: 'Jobs' }).first().click();
    await visible(page.getByRole('heading', { name: 'Jobs', exact: true }));
    const table = page.getByTestId('jobs-table');
    await visible(table);
    expect(await table.innerText()).toContain('Completed with failures');
    await page.getByText('In progress', { exact: true }).click();
    await page.getByText('No jobs match these filters.').waitFor();
    await page.getByText('Completed', { exact: true }).first().click();
    await visible(table);
    await shot('jobs');

    await page.goto(jobUrl);
    await page.getByRole('button', { name: 'Export report (CSV)' }).click();
    const report = page.getByTestId('report-path');
    await visible(report);
    expect(await report.innerText()).toMatch(/\.csv/);
    expect(await report.innerText()).toContain('8 rows');
  });

  it("shows the documents as trained on the mentor's Documents tab", { timeout: 90_000 }, async () => {
    await page.getByRole('link', { name: 'Mentors' }).first().click();
    await page.getByRole('link', { name: MENTOR }).click();
    // The table appears once the list holds documents: the engine refreshes its cached list from the tenant.
    const table = page.getByTestId('documents-table');
    const statuses = () => table.getByTestId('document-status').allInnerTexts();
    await expect.poll(statuses, { timeout: 80_000, interval: 1000 }).toEqual(Array(5).fill('Trained'));
    expect(await table.innerText()).toContain('genetics.md');
    await shot('documents');
  });

  it('sends only the file that failed when the same folder is chosen again', async () => {
    await dismissNotifications(page);
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByRole('button', { name: 'Add documents…' }).click();
    await visible(page.getByTestId('drop-zone'));
    await page.setInputFiles('input[webkitdirectory]', folder);
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    const count = (fileClass: string) => preview.getByTestId(`preview-class-${fileClass}`).locator('[data-count]');
    await visible(count('unchanged'), 30_000);
    expect(await count('unchanged').innerText()).toBe('5');
    expect(await count('new').innerText()).toBe('1');
    expect(await count('changed').innerText()).toBe('0');
    await visible(preview.getByRole('button', { name: 'Train 1 file', exact: true }));
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await preview.waitFor({ state: 'hidden' });
  });

  it("answers a knowledge test from the mentor's trained documents", async () => {
    await page.getByRole('tab', { name: 'Test knowledge' }).click();
    await page.getByRole('textbox', { name: 'Question' }).fill('mitochondria powerhouse');
    await page.getByRole('button', { name: 'Search' }).click();
    const passages = page.getByTestId('passages');
    await visible(passages);
    expect(await passages.innerText()).toContain('week 1.md');
    // Best first, each with a real score, and only whole words of the question marked.
    const first = passages.getByTestId('passage').first();
    expect(await first.innerText()).toContain('week 1.md');
    const scores = (await passages.getByTestId('passage-score').allInnerTexts()).map((text) =>
      Number(text.replace('relevance ', '')),
    );
    expect(scores.length).toBeGreaterThan(0);
    expect(scores.every((score) => score > 0)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const marked = await first.locator('mark').allInnerTexts();
    expect(marked.map((word) => word.toLowerCase()).sort()).toEqual(['mitochondria', 'powerhouse']);
    await shot('knowledge');
  });

  it('previews files dropped on a mentor row, and leaves nothing staged when cancelled', async () => {
    await dismissNotifications(page);
    await page.getByRole('link', { name: 'Mentors' }).first().click();
    const row = page.getByTestId(`mentor-row-${MENTOR}`);
    await visible(row);
    await dropFilesOn(row);
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    const count = (fileClass: string) => preview.getByTestId(`preview-class-${fileClass}`).locator('[data-count]');
    await visible(count('new'), 30_000);
    // Loose files are named by their file name: both are new to this mentor.
    expect(await count('new').innerText()).toBe('2');
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await preview.waitFor({ state: 'hidden' });
    // Only the staging the trained job uses is left: the cancelled previews' copies are gone.
    await expect.poll(() => readdirSync(join(dataDir, 'staging')).length).toBe(1);
  });

  it('asks which mentor when files are dropped where no mentor is meant', async () => {
    await dismissNotifications(page);
    await page.getByRole('link', { name: 'Jobs' }).first().click();
    await visible(page.getByRole('heading', { name: 'Jobs', exact: true }));
    await dropFilesOn(page.locator('main'));
    const question = page.getByRole('dialog', { name: 'Which mentor should learn these files?' });
    await visible(question);
    await shot('picker');
    await question.getByRole('combobox', { name: 'Mentor' }).click();
    await page.getByRole('option', { name: MENTOR }).click();
    await question.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: `Train “${MENTOR}”` });
    await visible(preview);
    await visible(preview.getByTestId('preview-class-new').locator('[data-count]'), 30_000);
    await shot('preview-dropped');
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await preview.waitFor({ state: 'hidden' });
  });

  it('deletes a document, then the mentor, each only once the admin confirms', async () => {
    await dismissNotifications(page);
    await page.getByRole('link', { name: 'Mentors' }).first().click();
    await page.getByRole('link', { name: MENTOR }).click();
    const doc = 'Biology course/intro.txt';
    const row = page.getByTestId(`document-row-${doc}`);
    await visible(row);
    const askToDelete = async () => {
      await row.getByRole('button', { name: `Actions for ${doc}` }).click();
      await page.getByRole('menuitem', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete document?' });
      await visible(dialog);
      return dialog;
    };

    let dialog = await askToDelete();
    expect(await dialog.innerText()).toContain(`Delete ${doc} from ${MENTOR}?`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(row);

    dialog = await askToDelete();
    await dialog.getByRole('button', { name: 'Delete document' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await visible(page.getByText(`${MENTOR} no longer uses ${doc}.`));

    await dismissNotifications(page);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Delete mentor?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: `Delete ${MENTOR}` }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(page.getByRole('heading', { name: 'Mentors', exact: true }));
    await visible(page.getByText(`${MENTOR} is gone.`));
    await page.getByTestId(`mentor-row-${MENTOR}`).waitFor({ state: 'detached', timeout: 15_000 });
  });
});
