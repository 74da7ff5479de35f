/**
 * The Jobs screens in browser mode at the smallest window the app supports (1000×650), against a real sandbox behind
 * a loopback proxy that can go down: the list and a job's page fit without cutting a column off and their actions
 * work from the keyboard; a job without bytes says what it has; a finished job's bar is full; a job's end is told
 * once, in a toast that stays until used; a waiting job says when it gives up, and Settings changes that.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { waitForJob, waitUntil } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { tempDir } from '../helpers/temp';
import { csvFile, readyImport } from '../invitations/setup';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const MENTOR = 'Calculus 101';

let server: Sandbox;
let proxy: SwitchableProxy;
let app: OpenApp;
let page: Page;

/** `count` notes in a new folder named `name`, or added to the folder given. */
function notes(name: string, count: number, root = join(tempDir(), name)): string {
  mkdirSync(root, { recursive: true });
  const from = readdirSync(root).length;
  for (let i = from; i < from + count; i++) writeFileSync(join(root, `lecture ${i + 1}.md`), `Lecture ${i + 1}.\n`);
  return root;
}

async function train(folder: string, concurrency = 4): Promise<string> {
  const preview = await app.host.engine.invoke('train.preview', { mentor: MENTOR, paths: [folder] });
  return (await app.host.engine.invoke('train.start', { previewId: preview.id, concurrency })).jobId;
}

const job = (id: string): Promise<Job> => app.host.engine.invoke('jobs.get', { id });

/** Whether the element's scroll container shows all of it (no column cut off behind a horizontal scroll). */
const fitsWithoutScrolling = (testId: string) =>
  page.getByTestId(testId).evaluate((table) => {
    const container = table.parentElement!;
    return (
      container.scrollWidth <= container.clientWidth &&
      table.getBoundingClientRect().right <= (window.innerWidth as number)
    );
  });

/** The text of the focused element (or its accessible name). */
const focused = () =>
  page.evaluate(() => {
    const element = document.activeElement;
    return (element?.getAttribute('aria-label') ?? element?.innerText.trim() ?? '') as string;
  });

/** Presses ArrowDown in an open menu until the item named `name` has the focus, then Enter. */
async function chooseFromMenu(name: string): Promise<void> {
  // The menu takes the focus once it has opened: arrows pressed before that are lost.
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="menu"]'))).toBe(true);
  for (let i = 0; i < 6 && (await focused()) !== name; i++) await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe(name);
  await page.keyboard.press('Enter');
}

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url });
  page = app.page;
  await page.setViewportSize({ width: 1000, height: 650 });
  await app.host.engine.invoke('mentors.create', { name: MENTOR });
});

afterAll(async () => {
  await app?.close();
});

describe('the Jobs screens at 1000×650', () => {
  it("list every job without cutting a column off; a row's actions work from the keyboard", async () => {
    server.setFaults('latency=500-500ms');
    const id = await train(notes('Limits', 6), 1);
    const { title } = await job(id);
    await app.open('#/jobs');
    await visible(page.getByTestId(`job-row-${id}`));
    expect(await fitsWithoutScrolling('jobs-table')).toBe(true);

    // Tab from the job's title to its actions, open them with Enter, pause with the arrows and Enter.
    await page.getByRole('link', { name: title }).focus();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`Actions for ${title}`);
    await page.keyboard.press('Enter');
    await chooseFromMenu('Pause');
    await waitUntil(app.host.engine, id, (current) => current.state === 'paused');
    await visible(page.getByTestId(`job-row-${id}`).getByText('Paused', { exact: true }).first());

    await page.getByRole('button', { name: `Actions for ${title}` }).focus();
    await page.keyboard.press('Enter');
    await chooseFromMenu('Cancel job…');
    const confirm = page.getByRole('dialog', { name: 'Cancel this job?' });
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Cancel job' }).click();
    await waitUntil(app.host.engine, id, (current) => current.state === 'cancelled');
    server.setFaults('');
  });

  it('a job without bytes says what it has (rows), never "0 B of 0 B"; its page fits too', async () => {
    const file = csvFile(
      'cohort.csv',
      `Email,First name\n${[0, 1, 2].map((i) => `p${i}@example.org,P${i}`).join('\n')}\n`,
    );
    const ready = await readyImport(app.host.engine, file);
    const { jobId } = await app.host.engine.invoke('invitations.importStart', { id: ready.id });
    await waitForJob(app.host.engine, jobId);
    await app.open(`#/jobs/${jobId}`);
    await visible(page.getByTestId('job-progress'));
    expect(await page.getByTestId('job-files').innerText()).toMatch(/^ROWS\s+3 of 3\s+3 done$/);
    expect(await page.getByTestId('job-data').count()).toBe(0);
    expect(await page.getByTestId('job-progress').innerText()).not.toContain('0 B');
    const headers = await page.getByTestId('job-items').locator('th').allInnerTexts();
    expect(headers).toEqual(['Row', 'State', 'Step', 'Attempts', 'Updated']);
    expect(await fitsWithoutScrolling('job-items')).toBe(true);
  });

  it("a finished job's bar is full, its skipped files in a colour of their own", async () => {
    const folder = notes('Derivatives', 2);
    await waitForJob(app.host.engine, await train(folder));
    notes('Derivatives', 1, folder);
    const id = await train(folder);
    expect(await waitForJob(app.host.engine, id)).toMatchObject({
      state: 'completed',
      progress: { done: 1, skipped: 2, total: 3 },
    });
    await app.open(`#/jobs/${id}`);
    await visible(page.getByTestId('job-progress'));
    expect(await page.getByTestId('job-percent').innerText()).toBe('100%');
    const bar = await page.getByTestId('job-bar').evaluate((root) => {
      const sections = [...root.children];
      return {
        width: root.getBoundingClientRect().width,
        filled: sections.reduce((sum, section) => sum + section.getBoundingClientRect().width, 0),
        track: getComputedStyle(root).backgroundColor,
        colours: sections.map((section) => getComputedStyle(section).backgroundColor),
      };
    });
    expect(bar.filled).toBeCloseTo(bar.width, 0);
    // done, failed (empty), skipped: the skipped third is no grey that reads as the empty track, nor the done colour.
    const [r, g, b] = bar.colours[2]!.match(/\d+/g)!.map(Number);
    expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!)).toBeGreaterThan(40);
    expect(bar.colours[2]).not.toBe(bar.track);
    expect(bar.colours[2]).not.toBe(bar.colours[0]);
    expect(await fitsWithoutScrolling('job-items')).toBe(true);
  });

  it("a job's end is told once, in a toast whose 'View job' stays until used; opening the job puts it away", async () => {
    await app.open('#/mentors');
    await visible(page.getByRole('heading', { name: 'Mentors', exact: true }));
    await dismissNotifications(page);
    const first = await train(notes('Integrals', 2));
    const second = await train(notes('Series', 2));
    await waitForJob(app.host.engine, first);
    await waitForJob(app.host.engine, second);
    const toasts = page.getByRole('alert').filter({ hasText: 'View job' });
    const toastOf = (id: string) => toasts.filter({ has: page.locator(`a[href="#/jobs/${id}"]`) });
    await visible(toastOf(first));
    await visible(toastOf(second));
    // Past the 6 s the old toasts lasted, they are still there: one for each job.
    await page.waitForTimeout(8000);
    expect(await toasts.count()).toBe(2);
    await toastOf(first).getByRole('link', { name: 'View job' }).click();
    await page.waitForURL(new RegExp(`#/jobs/${first}$`));
    await toastOf(first).waitFor({ state: 'detached' });
    expect(await toastOf(second).count()).toBe(1);
    // Opened another way (the Jobs list, which shows the jobs that ran while it was not on screen), the job's page
    // puts its toast away too.
    await app.open('#/jobs');
    const { title } = await job(second);
    await page.getByTestId(`job-row-${second}`).getByRole('link', { name: title }).click();
    await page.waitForURL(new RegExp(`#/jobs/${second}$`));
    await toastOf(second).waitFor({ state: 'detached' });
  });

  it('a third ending folds the toasts into one "3 jobs ended" that leads to the Jobs list', async () => {
    await app.open('#/mentors');
    await visible(page.getByRole('heading', { name: 'Mentors', exact: true }));
    await dismissNotifications(page);
    const ids: string[] = [];
    for (const name of ['Limits', 'Vectors', 'Matrices']) {
      const id = await train(notes(name, 1));
      await waitForJob(app.host.engine, id);
      ids.push(id);
    }
    const summary = page.getByRole('alert').filter({ hasText: '3 jobs ended' });
    await visible(summary);
    expect(await summary.innerText()).toContain('3 completed');
    // The single toasts went into it: one toast on screen, not three stacked up the sidebar.
    const single = page.getByRole('alert').filter({ has: page.getByRole('link', { name: 'View job', exact: true }) });
    await single.first().waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').count()).toBe(1);
    // Opening one of the jobs takes it out of the summary.
    // (By the hash, as a link does: loading the page again would start with no toasts at all.)
    await page.evaluate((href) => void (window.location.hash = href), `#/jobs/${ids[0]}`);
    await visible(page.getByRole('alert').filter({ hasText: '2 jobs ended' }));
    await page.evaluate(() => void (window.location.hash = '#/mentors'));
    await page.getByRole('alert').getByRole('link', { name: 'View jobs' }).click();
    await page.waitForURL(/#\/jobs$/);
    await summary.or(page.getByRole('alert').filter({ hasText: 'jobs ended' })).waitFor({ state: 'detached' });
  });

  it('with the tenant offline, a waiting job says when it gives up; changing the limit in Settings moves it', async () => {
    proxy.down();
    const outcome = await app.host.engine.invoke('tickets.reply', { id: 4242, message: 'On it.', waitMs: 0 });
    const waiting = await waitUntil(app.host.engine, outcome.jobId, (current) => current.state === 'waiting');
    // The time of day the page writes; past midnight it puts the day before it ("Nov 26, 12:08 AM").
    const clock = async (iso: string) =>
      new RegExp(
        `gives up at (.+ )?${(
          await page.evaluate(
            (at) => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(at)),
            iso,
          )
        ).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      );

    await app.open('#/jobs');
    const row = page.getByTestId(`job-row-${outcome.jobId}`);
    await visible(row.getByText(await clock(waiting.givesUpAt!)));
    expect(await row.innerText()).toContain('Waiting for the tenant · gives up at');
    expect(await fitsWithoutScrolling('jobs-table')).toBe(true);
    await app.open(`#/jobs/${outcome.jobId}`);
    const alert = page.getByTestId('job-waiting');
    await visible(alert);
    expect(await alert.innerText()).toMatch(await clock(waiting.givesUpAt!));
    expect(await alert.innerText()).toContain('for 1 h, it gives up and pauses');

    await alert.getByRole('link', { name: 'Change the waiting limit in Settings' }).click();
    const limit = page.getByRole('combobox', { name: 'Waiting limit' });
    await visible(limit);
    await limit.click();
    await page.getByRole('option', { name: '2 h', exact: true }).click();
    // Between two attempts the job is briefly not waiting (no givesUpAt): wait for it to wait again, under the new limit.
    const later = await waitUntil(
      app.host.engine,
      outcome.jobId,
      (current) => !!current.givesUpAt && current.givesUpAt !== waiting.givesUpAt,
    );
    expect(Date.parse(later.givesUpAt!) - Date.parse(waiting.givesUpAt!)).toBe(60 * 60_000);
    await page.goBack();
    await visible(alert.getByText(await clock(later.givesUpAt!)).first());

    await app.host.engine.invoke('jobs.cancel', { id: outcome.jobId });
    await app.host.engine.invoke('settings.set', { jobWaitLimitMinutes: 60 });
    proxy.up();
  });
});
