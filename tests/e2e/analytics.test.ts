/**
 * Analytics in browser mode, end to end: the built renderer served by the real host over the real engine, against
 * a real sandbox. The admin opens the Overview, changes the range, reads a chart as a table and exports its data,
 * does the same on the Learning tab and a learner's page, and sees the Learning cards fail with the tenant.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import type { Browser, Locator, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir, uniqueService } from '../helpers/temp';
import { formatPercent } from '../../src/renderer/lib/format';
import { formatWhen } from '../../src/renderer/screens/analytics/format';
import { dismissNotifications } from './app';
import { launchChromium } from './browser';

/** The page's document, as `page.evaluate` sees it (these tests type-check against Node, not the DOM). */
declare const document: {
  activeElement: { textContent: string | null; getAttribute(name: string): string | null } | null;
};

const RENDERER_DIR = resolve('out/renderer');
const SHOTS = process.env.E2E_SCREENSHOTS;

let server: Sandbox;
let host: Host;
let browser: Browser;
let page: Page;
let exportDir: string;
let dataDir: string;

async function visible(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
}

async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Closes the in-app notes ("Export finished"): they pile up in the corner over the buttons there, and stay open while
 * the pointer rests on them.
 */
async function closeNotes(): Promise<void> {
  const close = page.locator('.mantine-Notification-root .mantine-Notification-closeButton');
  for (let tries = 0; tries < 10 && (await close.count()) > 0; tries++) {
    // One may close by itself meanwhile: then the next is closed, or none is left.
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  }
  expect(await close.count()).toBe(0);
}

const overviewReady = () => page.locator('[data-testid="overview"][data-state="ready"]').waitFor({ timeout: 20_000 });
const kpiValue = (key: string) => page.getByTestId(`kpi-${key}`).getByTestId('kpi-value').innerText();
const calculusCoach = () =>
  server.db
    .prepare("SELECT unique_id FROM mentors WHERE org = ? AND name = 'Calculus Coach'")
    .pluck()
    .get(server.org) as string;
/** The learners of the Conversations rows on screen, and of a page the engine answers (Calculus Coach, in Paris). */
const shownLearners = async () =>
  (await page.getByTestId('conversations').locator('tbody tr').allInnerTexts()).map((row) => row.split('\t')[1]);
const learnersOf = async (preset: '30d' | '90d', pageNumber = 1) =>
  (
    await host.engine.invoke('analytics.conversations', {
      range: { preset },
      timeZone: 'Europe/Paris',
      mentor: calculusCoach(),
      page: pageNumber,
    })
  ).rows.map((r) => r.learner);

beforeAll(async () => {
  if (!existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` first');
  }
  server = await sandbox({ seed: 'demo' });
  exportDir = tempDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MENTOR_ADMIN_SANDBOX: 'off',
    MENTOR_ADMIN_API_KEY: server.apiKey,
    MENTOR_ADMIN_EXPORT_DIR: exportDir,
  };
  dataDir = tempDir();
  host = await startHost({ dataDir, rendererDir: RENDERER_DIR, keychainService: uniqueService(), env });
  await host.engine.invoke('profiles.add', {
    name: 'Sandbox University',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  browser = await launchChromium();
  page = await browser.newPage({
    viewport: { width: 1360, height: 900 },
    colorScheme: 'light',
    timezoneId: 'Europe/Paris',
  });
  page.on('pageerror', (error) => console.error('page error:', error));
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe('the analytics screens in browser mode', () => {
  // An export's note stays until it is used or dismissed (it carries Download and View job): clear the last one's.
  beforeEach(() => page && dismissNotifications(page));

  it('opens the Overview with every chart, in the browser’s time zone', async () => {
    await page.goto(`${host.url}#/analytics`);
    await overviewReady();
    await expect.poll(() => page.getByTestId('range-summary').innerText()).toContain('(Europe/Paris)');
    for (const chart of ['activity', 'top-mentors', 'topics', 'sentiment', 'costs-by-model', 'costs-by-mentor'])
      expect(await page.getByTestId(`chart-${chart}`).getAttribute('data-state'), chart).toBe('ready');
    const expected = await host.engine.invoke('analytics.kpis', { range: { preset: '30d' }, timeZone: 'Europe/Paris' });
    const sessions = expected.kpis.find((k) => k.key === 'sessions')!.value!;
    expect(await kpiValue('sessions')).toBe(sessions.toLocaleString('en-US'));
    await shot('analytics-overview');

    // Each figure says what it counts and where from, reached with the keyboard alone.
    await page.getByRole('tab', { name: 'Overview' }).focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'kpi-label')) break;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Active users');
    const tooltip = page.locator('.mantine-Tooltip-tooltip');
    await visible(tooltip);
    expect(await tooltip.innerText()).toContain('/api/ai-analytics/overview/orgs/{org}/active-users');
    await page.keyboard.press('Escape');
  });

  it('draws a warm Overview from one call to the engine; asks for each panel only when it is not cached', async () => {
    const panels = [
      'analytics.kpis',
      'analytics.activity',
      'analytics.topMentors',
      'analytics.topics',
      'analytics.sentiment',
      'analytics.costs',
    ];
    const asked: string[] = [];
    const listen = (ws: WebSocket) =>
      ws.on('framesent', ({ payload }) => {
        const request = JSON.parse(String(payload)) as { name?: unknown; input?: { refresh?: boolean } };
        const name = String(request.name);
        if (name.startsWith('analytics.')) asked.push(request.input?.refresh ? `${name} (refresh)` : name);
      });
    page.on('websocket', listen);
    try {
      // A fresh page over a warm engine (the first test asked for the last 30 days): one call, every panel drawn.
      await page.reload();
      await overviewReady();
      for (const chart of ['activity', 'top-mentors', 'topics', 'sentiment', 'costs-by-model', 'costs-by-mentor'])
        await visible(page.getByTestId(`chart-${chart}`).locator('svg.recharts-surface').first());
      expect(asked).toEqual(['analytics.overview']);

      // A range nothing is cached for: the one call answers nothing, then each panel is asked for on its own.
      asked.length = 0;
      await page.getByText('7 d', { exact: true }).click();
      await expect.poll(() => page.getByTestId('range-summary').innerText()).toContain('Last 7 days');
      await overviewReady();
      expect(asked[0]).toBe('analytics.overview');
      expect(asked.slice(1).sort()).toEqual([...panels].sort());

      // Refresh asks the tenant again for every panel on screen, each with its own call.
      asked.length = 0;
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect
        .poll(() => asked.filter((name) => panels.some((panel) => name === `${panel} (refresh)`)).sort())
        .toEqual(panels.map((name) => `${name} (refresh)`).sort());
      await overviewReady();
    } finally {
      page.off('websocket', listen);
    }
  });

  it('changes the range and shows the new figures; refuses a reversed custom range', async () => {
    const before = await kpiValue('sessions');
    await page.getByText('90 d', { exact: true }).click();
    await expect.poll(() => page.getByTestId('range-summary').innerText()).toContain('Last 90 days');
    await overviewReady();
    await expect.poll(() => kpiValue('sessions')).not.toBe(before);
    const expected = await host.engine.invoke('analytics.kpis', { range: { preset: '90d' }, timeZone: 'Europe/Paris' });
    expect(await kpiValue('sessions')).toBe(
      expected.kpis.find((k) => k.key === 'sessions')!.value!.toLocaleString('en-US'),
    );

    await page.getByText('Custom', { exact: true }).click();
    await page.getByTestId('custom-range').click();
    // Typed in the app's date format (the system's here: en-US, month first).
    await page.getByLabel('From', { exact: true }).fill('10/31/2026');
    await page.getByLabel('To', { exact: true }).fill('10/01/2026');
    // Said at the fields, in the app's format.
    await visible(page.getByText('Pick Oct 31, 2026 or later: the range starts then.'));
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await page.getByLabel('From', { exact: true }).fill('Oct 1, 2026');
    await page.getByLabel('To', { exact: true }).fill('10/31/2026');
    await page.getByRole('button', { name: 'Apply' }).click();
    // The range in the app's one date format, written on the days it names.
    await expect.poll(() => page.getByTestId('range-summary').innerText()).toMatch(/: Oct 1\s–\s31, 2026 \(/);
    await overviewReady();
  });

  it('shows a chart as a table and exports its data to CSV', async () => {
    const topics = page.getByTestId('chart-topics');
    await topics.getByRole('button', { name: 'View as table' }).click();
    const table = topics.getByRole('table', { name: 'Most discussed topics' });
    await visible(table);
    const shown = (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t'));
    expect(shown.length).toBeGreaterThan(3);

    await topics.getByRole('button', { name: 'Export CSV' }).click();
    await visible(topics.getByTestId('export-done'));
    // Where the file is (its name on the card, the whole path on hover), and the browser's own download of it.
    const where = topics.getByTestId('export-where');
    const path = (await where.getAttribute('title'))!;
    expect(path).toBe(join(exportDir, `${server.org}-chart.topics-2026-10-01_2026-10-31-Europe-Paris.csv`));
    expect(await where.innerText()).toBe(basename(path));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      topics.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(basename(path));
    expect(readFileSync((await download.path())!).equals(readFileSync(path))).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFFTopic,Conversations\r\n')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.slice(1);
    expect(rows).toEqual(shown.map(([topic, count]) => [topic, count!.replace(/,/g, '')]));
    await shot('analytics-chart-table');
  });

  it('browses conversations and opens a transcript', async () => {
    await page.getByRole('tab', { name: 'Conversations' }).click();
    const table = page.getByTestId('conversations');
    await visible(table.locator('tbody tr').first());
    await table.locator('tbody tr').first().click();
    const transcript = page.getByTestId('transcript');
    await visible(transcript.locator('.mantine-Paper-root').first());
    expect(await transcript.locator('.mantine-Paper-root').count()).toBeGreaterThan(1);
    await shot('analytics-transcript');
    await page.keyboard.press('Escape');
  });

  it('shows the Learning tab’s completions per day as a table and exports them, one line per day', async () => {
    await page.getByRole('tab', { name: 'Learning' }).click();
    expect(await page.getByTestId('range-summary').innerText()).toMatch(/: Oct 1\s–\s31, 2026 \(/);
    const expected = await host.engine.invoke('analytics.learning', {
      range: { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
      timeZone: 'Europe/Paris',
    });
    const perDay = expected.completionSeries.map((p) => [p.date, String(p.completions)]);
    expect(perDay).toHaveLength(31);
    const completions = page.getByTestId('chart-completions');
    await expect.poll(() => completions.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    await visible(completions.locator('svg.recharts-surface').first());
    const courses = page.getByTestId('most-active-courses');
    expect(await courses.getAttribute('data-state')).toBe('ready');
    expect(await courses.locator('tbody tr').count()).toBe(expected.courses.length);
    // The rate and the grade are percentages, and say so.
    expect(await kpiValue('completionRate')).toBe(formatPercent(expected.completionRate));
    expect(await kpiValue('averageGrade')).toMatch(/^\d+(\.\d+)?%$/);
    await shot('analytics-learning');

    await completions.getByRole('button', { name: 'View as table' }).click();
    const table = completions.getByRole('table', { name: 'Course completions per day' });
    await visible(table);
    const shown = (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t'));
    expect(shown.map(([date, count]) => [date, count!.replace(/,/g, '')])).toEqual(perDay);
    await completions.getByRole('button', { name: 'Export CSV' }).click();
    await visible(completions.getByTestId('export-done'), 30_000);
    const text = readFileSync(
      join(exportDir, `${server.org}-chart.completions-2026-10-01_2026-10-31-Europe-Paris.csv`),
      'utf8',
    );
    expect(text.startsWith('\uFEFFDate,Completions\r\n')).toBe(true);
    expect(Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.slice(1)).toEqual(perDay);
    await visible(page.locator('.mantine-Notification-root', { hasText: 'Chart: Course completions per day' }));
    await closeNotes();
  });

  it('opens a learner’s page from the Learning tab: grades and time per course, time per day', async () => {
    // The first learner on the list's first page (by username) who takes courses and spent time in October.
    const username = server.db
      .prepare(
        `SELECT username FROM (SELECT id, username FROM users WHERE org = ? AND role = 'student' ORDER BY username LIMIT 25)
         WHERE id IN (SELECT user_id FROM learning_enrollments)
         AND id IN (SELECT user_id FROM learning_time WHERE day BETWEEN '2026-10-01' AND '2026-10-31')
         ORDER BY username LIMIT 1`,
      )
      .pluck()
      .get(server.org) as string;
    await page.getByRole('tab', { name: 'Learning' }).click();
    const link = page.getByTestId('learning').getByRole('row').filter({ hasText: username }).getByRole('link');
    await visible(link, 30_000);
    await link.click();
    await page.locator('[data-testid="learner-page"][data-state="ready"]').waitFor({ timeout: 20_000 });
    const expected = await host.engine.invoke('analytics.learner', {
      username,
      range: { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
      timeZone: 'Europe/Paris',
    });
    const courses = page.getByRole('table', { name: 'Grades and time per course' });
    await visible(courses);
    expect(await courses.locator('tbody tr').count()).toBe(expected.grades!.length);
    const time = page.getByTestId('chart-learner-time');
    expect(await time.getAttribute('data-state')).toBe('ready');
    expect(await time.innerText()).toMatch(/ in Oct 1\s–\s31, 2026/);
    await visible(time.locator('svg.recharts-surface').first());
    await shot('analytics-learner');

    // The time chart as a table, then its rows exported: one line per day, as the page has them.
    await time.getByRole('button', { name: 'View as table' }).click();
    const table = time.getByRole('table', { name: 'Time spent per day' });
    await visible(table);
    const perDay = expected.time!.map((p) => [p.date, String(p.seconds)]);
    const shown = (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t'));
    expect(shown.map(([date, seconds]) => [date, seconds!.replace(/,/g, '')])).toEqual(perDay);
    await time.getByRole('button', { name: 'Export CSV' }).click();
    await visible(time.getByTestId('export-done'), 30_000);
    const path = join(exportDir, `${server.org}-chart.learner-time-${username}-2026-10-01_2026-10-31-Europe-Paris.csv`);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\uFEFFDate,Time spent (s)\r\n')).toBe(true);
    expect(Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data.slice(1)).toEqual(perDay);
  });

  it('shows an idle learner’s time chart as empty, and exports only its header', async () => {
    const idle = server.db
      .prepare(
        `SELECT username FROM users u WHERE org = ? AND role = 'student' AND NOT EXISTS
           (SELECT 1 FROM learning_time t WHERE t.user_id = u.id AND t.day BETWEEN '2026-10-01' AND '2026-10-31')
         ORDER BY username LIMIT 1`,
      )
      .pluck()
      .get(server.org) as string;
    // A new hash in the same page: the range chosen earlier stays.
    await page.evaluate(`location.hash = ${JSON.stringify(`#/analytics/learning/${encodeURIComponent(idle)}`)}`);
    await page.locator('[data-testid="learner-page"][data-state="ready"]').waitFor({ timeout: 20_000 });
    const time = page.getByTestId('chart-learner-time');
    // The last test's learner page, ready too, may still show until the new hash is taken.
    await expect.poll(() => time.getAttribute('data-state'), { timeout: 20_000 }).toBe('empty');
    await visible(time.getByText('No time recorded in this range.'));
    expect(await time.getByRole('button', { name: 'View as table' }).isDisabled()).toBe(true);
    await time.getByRole('button', { name: 'Export CSV' }).click();
    await visible(time.getByTestId('export-done'), 30_000);
    const path = join(exportDir, `${server.org}-chart.learner-time-${idle}-2026-10-01_2026-10-31-Europe-Paris.csv`);
    expect(readFileSync(path, 'utf8')).toBe('\uFEFFDate,Time spent (s)\r\n');
  });

  it('says once that the tenant fails on the Learning tab, and shows its figures after the one "Try again"', async () => {
    await page.getByRole('tab', { name: 'Learning' }).click();
    const completions = page.getByTestId('chart-completions');
    const courses = page.getByTestId('most-active-courses');
    await expect.poll(() => completions.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    server.setFaults('error5xx=1');
    try {
      // A range the engine has no saved answer for, so none can stand in.
      await page.getByText('90 d', { exact: true }).click();
      const banner = page.getByTestId('tenant-down');
      await visible(banner, 30_000);
      expect(await banner.count()).toBe(1);
      expect(await completions.getAttribute('data-state')).toBe('unavailable');
      expect(await courses.getAttribute('data-state')).toBe('unavailable');
      // One banner, one retry: no red box per card, no export that could only wait.
      expect(await page.getByText('could not be loaded').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
      expect(await completions.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
      await shot('analytics-learning-error');
    } finally {
      server.setFaults('');
    }
    await page.getByTestId('tenant-down').getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => completions.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
    expect(await courses.getAttribute('data-state')).toBe('ready');
    expect(await page.getByTestId('tenant-down').count()).toBe(0);
    expect(await completions.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(false);
  });

  it('fills the Overview with one banner, not a red box per panel, while the tenant fails', async () => {
    await page.getByRole('tab', { name: 'Overview' }).click();
    await overviewReady();
    server.setFaults('error5xx=1');
    try {
      // Today: nothing saved for it yet.
      await page.getByText('Today', { exact: true }).click();
      const banner = page.getByTestId('tenant-down');
      await visible(banner, 30_000);
      await expect
        .poll(() => page.getByTestId('overview').getAttribute('data-state'), { timeout: 30_000 })
        .toBe('unavailable');
      await expect.poll(() => page.getByTestId('panel-unavailable').count(), { timeout: 30_000 }).toBe(6);
      expect(await banner.count()).toBe(1);
      expect(await page.getByText('could not be loaded').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(1);
      expect(await page.getByTestId('kpis').getAttribute('data-state')).toBe('unavailable');
      const exports = page.getByRole('button', { name: 'Export CSV' });
      expect(await exports.count()).toBe(6);
      for (const button of await exports.all()) expect(await button.isDisabled()).toBe(true);
      await shot('analytics-overview-tenant-down');
    } finally {
      server.setFaults('');
    }
    await page.getByTestId('tenant-down').getByRole('button', { name: 'Try again' }).click();
    await overviewReady();
    expect(await page.getByTestId('tenant-down').count()).toBe(0);
    await page.getByText('30 d', { exact: true }).click();
    await overviewReady();
  });

  it('exports a dataset from the Exports tab and lists it in the history', async () => {
    await page.getByRole('tab', { name: 'Exports' }).click();
    const form = page.getByTestId('export-form');
    await visible(form);
    await form.getByLabel('Dataset', { exact: true }).click();
    // A learner's chart is exported from that learner's page, not from this form (it has no learner to give).
    await visible(page.getByRole('option', { name: 'Chart: Most discussed topics' }));
    expect(await page.getByRole('option', { name: /one learner/ }).count()).toBe(0);
    await page.getByRole('option', { name: 'Registered users' }).click();
    await shot('analytics-export-form');
    await form.getByRole('button', { name: 'Export CSV' }).click();
    await visible(form.getByTestId('export-done'), 30_000);
    await visible(page.getByTestId('export-history').getByText('Registered users').first());
    expect(readdirSync(exportDir).some((f) => f.startsWith(`${server.org}-users-current-`))).toBe(true);
    await shot('analytics-exports');
  });

  it('schedules an export: refusals under their boxes, then saved and listed; an edit keeps the rest', async () => {
    await page.getByRole('tab', { name: 'Exports' }).click();
    const panel = page.getByTestId('schedules');
    await visible(panel);
    await panel.getByRole('button', { name: 'New schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New scheduled export' });
    await visible(dialog);
    const name = dialog.getByRole('textbox', { name: 'Name' });
    const zone = dialog.getByRole('textbox', { name: 'Time zone' });
    await name.fill('');
    await zone.fill('Mars/Olympus');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText('Name is required'));
    await visible(dialog.getByText("Unknown time zone 'Mars/Olympus'", { exact: false }));
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect((await host.engine.invoke('analytics.schedules', {})).schedules).toEqual([]);

    await name.fill('Weekly users');
    await zone.fill('Europe/Paris');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [saved] = (await host.engine.invoke('analytics.schedules', {})).schedules;
    expect(saved).toMatchObject({ name: 'Weekly users', cadence: 'weekly', weekday: 1, timeZone: 'Europe/Paris' });
    await visible(panel.getByText('Weekly users'));

    await panel.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit scheduled export' });
    await visible(edit);
    expect(await edit.getByRole('textbox', { name: 'Time zone' }).inputValue()).toBe('Europe/Paris');
    await edit.getByRole('textbox', { name: 'Name' }).fill('Weekly users (Monday)');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect((await host.engine.invoke('analytics.schedules', {})).schedules).toEqual([
      expect.objectContaining({
        id: saved!.id,
        name: 'Weekly users (Monday)',
        timeZone: 'Europe/Paris',
        folder: saved!.folder,
      }),
    ]);
    await host.engine.invoke('analytics.scheduleRemove', { id: saved!.id });
  });

  it('filters the Overview by a mentor picked from the filter bar', async () => {
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByText('30 d', { exact: true }).click();
    await overviewReady();
    // The lists are plain fields until used: pressing one opens the real list with the tenant's mentors.
    await page.getByLabel('Mentor', { exact: true }).click();
    await page.getByRole('option', { name: 'Calculus Coach' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Mentor', exact: true }).inputValue())
      .toBe('Calculus Coach');
    await overviewReady();
    const expected = await host.engine.invoke('analytics.kpis', {
      range: { preset: '30d' },
      timeZone: 'Europe/Paris',
      mentor: 'Calculus Coach',
    });
    const sessions = expected.kpis.find((k) => k.key === 'sessions')!.value!.toLocaleString('en-US');
    await expect.poll(() => kpiValue('sessions')).toBe(sessions);
  });
  it('starts the conversations again at their first page when the range changes', async () => {
    await page.getByRole('tab', { name: 'Conversations' }).click();
    await page.getByText('90 d', { exact: true }).click();
    await expect.poll(shownLearners, { timeout: 20_000 }).toEqual(await learnersOf('90d'));
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(shownLearners).toEqual(await learnersOf('90d', 2));
    await page.getByText('30 d', { exact: true }).click();
    await expect.poll(shownLearners).toEqual(await learnersOf('30d'));
  });

  it('keeps the department chosen on the Overview; Conversations says it cannot filter by it', async () => {
    const department = server.db
      .prepare('SELECT id, name FROM departments WHERE org = ? ORDER BY id LIMIT 1')
      .get(server.org) as { id: number; name: string };
    await page.getByRole('tab', { name: 'Overview' }).click();
    await overviewReady();
    await page.getByLabel('Department', { exact: true }).click();
    await page.getByRole('option', { name: department.name }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Department', exact: true }).inputValue())
      .toBe(department.name);
    await overviewReady();

    // No department field here, and a note that the one chosen does not apply: the list is the one without it.
    await page.getByRole('tab', { name: 'Conversations' }).click();
    await visible(
      page
        .getByTestId('conversation-note')
        .filter({ hasText: 'Not filtered by department: the platform cannot filter conversations by department.' }),
    );
    expect(await page.getByTestId('filter-bar').getByLabel('Department', { exact: true }).count()).toBe(0);
    await expect.poll(shownLearners).toEqual(await learnersOf('30d'));
    const all = await host.engine.invoke('analytics.conversations', {
      range: { preset: '30d' },
      timeZone: 'Europe/Paris',
      mentor: calculusCoach(),
    });
    expect(await page.getByTestId('conversation-count').innerText()).toBe(
      `${all.count.toLocaleString('en-US')} conversations`,
    );
    await shot('analytics-conversations-department');

    // Back on the Overview the department is still chosen.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await overviewReady();
    expect(await page.getByRole('combobox', { name: 'Department', exact: true }).inputValue()).toBe(department.name);
  });

  it('shows the last figures, the offline banner and their time when the tenant cannot be reached', async () => {
    // A first load with the filters a new window starts with.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.reload();
    await overviewReady();
    const sessions = await kpiValue('sessions');
    expect(await page.getByTestId('offline-banner').count()).toBe(0);
    // The saved answers are two hours old (stale: the engine asks the tenant again when they are shown)…
    const asOf = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3_600_000).toISOString();
    const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
    db.prepare('UPDATE analytics_cache SET as_of = ?').run(asOf);
    db.close();
    // …and the tenant fails every request.
    server.setFaults('error5xx=1');
    try {
      await page.reload();
      await overviewReady();
      const banner = page.getByTestId('offline-banner');
      await visible(banner, 30_000);
      expect(await banner.innerText()).toContain('Offline: showing the last saved figures');
      expect(await banner.innerText()).toContain(`These figures are as of ${formatWhen(asOf, 'Europe/Paris')}`);
      expect(await page.getByTestId('as-of').innerText()).toBe(`As of ${formatWhen(asOf, 'Europe/Paris')}`);
      expect(await kpiValue('sessions')).toBe(sessions);
      for (const chart of ['activity', 'top-mentors', 'topics', 'sentiment', 'costs-by-model', 'costs-by-mentor'])
        expect(await page.getByTestId(`chart-${chart}`).getAttribute('data-state'), chart).toBe('ready');
      // The saved figures can be read, not exported: an export asks the tenant.
      const exportButton = page.getByTestId('chart-topics').getByRole('button', { name: 'Export CSV' });
      expect(await exportButton.isDisabled()).toBe(true);
      expect(await exportButton.getAttribute('title')).toContain('Exports are off while the tenant cannot be reached');
      await shot('analytics-offline');

      // Refresh while still offline keeps the figures and the banner.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Refresh' }).getAttribute('data-loading')).toBeNull();
      await visible(banner);
      expect(await kpiValue('sessions')).toBe(sessions);
    } finally {
      server.setFaults('');
    }
    // The tenant back: a refresh brings new figures and the banner goes.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('offline-banner').waitFor({ state: 'detached', timeout: 30_000 });
    await expect
      .poll(() => page.getByTestId('as-of').innerText())
      .not.toBe(`As of ${formatWhen(asOf, 'Europe/Paris')}`);
  });
});
