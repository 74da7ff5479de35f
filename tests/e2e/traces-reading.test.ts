/**
 * The Traces screen and a session's dialog in browser mode (real engine, demo sandbox): switching the ranking asks
 * the tenant nothing (the range's traces were read once), latency reads as the time in spans, costs share one format,
 * the saved reading stays on screen when the tenant goes away; a session names its mentor rather than its id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
/** Requests to the tenant's trace and observation endpoints. */
const traceRequests: string[] = [];

beforeAll(async () => {
  server = await sandbox({
    seed: 'demo',
    // Demo data up to now, so the screen's default range (the last 30 days) holds traces.
    seedAnchor: new Date(),
    onRequest: (_method, path) => {
      if (/\/(traces|observations)\//.test(path)) traceRequests.push(path);
    },
  });
  app = await openApp(server);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const cells = (page: Page, column: number) =>
  page.getByTestId('traces-table').locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
const dollars = (texts: string[]) => texts.map((t) => Number(t.replace(/[^0-9.]/g, '')));
const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! >= v);

describe('Traces (browser mode)', () => {
  it('ranks the costliest from the reading the slowest made, without a request; latency is the time in spans', async () => {
    const { page } = app;
    await app.open('#/traces');
    const table = page.getByTestId('traces-table');
    await visible(table, 120_000);
    await visible(table.getByRole('columnheader', { name: 'Processing' }));
    expect(traceRequests.length).toBeGreaterThan(0);

    traceRequests.length = 0;
    await page.getByRole('radiogroup', { name: 'Rank' }).getByText('Costliest').click();
    await expect
      .poll(async () => descending(dollars(await cells(page, 7))) && (await cells(page, 7)).length > 1)
      .toBe(true);
    const costs = await cells(page, 7);
    // One format for every cost: five decimals, whether a row costs cents or a fraction of one.
    expect(costs.every((c) => /^\$\d+\.\d{5}$/.test(c))).toBe(true);
    await page.getByRole('radiogroup', { name: 'Rank' }).getByText('Most recent').click();
    await expect.poll(async () => (await cells(page, 7)).every((c) => c.startsWith('$'))).toBe(true);
    await page.getByRole('radiogroup', { name: 'Rank' }).getByText('Slowest').click();
    await expect.poll(async () => (await cells(page, 5)).length).toBeGreaterThan(1);
    expect(traceRequests).toEqual([]);

    // The slowest trace's timeline: the time in spans and the conversation's length apart; the learner named once.
    await table.locator('tbody tr').first().getByRole('button').click();
    const dialog = page.getByRole('dialog', { name: 'Trace' });
    await visible(dialog.getByTestId('trace-spans'), 60_000);
    const processing = await dialog.getByTestId('trace-processing').innerText();
    expect(processing.toLowerCase()).toBe(`${(await cells(page, 5))[0]} processing`.toLowerCase());
    await visible(dialog.getByTestId('trace-duration'));
    expect(await dialog.innerText()).not.toMatch(/learner learner/i);
    expect(await dialog.getByTestId('trace-cost').innerText()).toMatch(/^\$\d+\.\d{5}$/);
    await page.keyboard.press('Escape');
  }, 240_000);

  it('names the mentor of a session (from the mentors’ cache) rather than its id', async () => {
    const { page } = app;
    await app.open('#/review');
    // A moderation log: its flagged message is the item's place in the conversation.
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Moderation', { exact: true }).click();
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first(), 60_000);
    await list.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('review-pane');
    // Past a log whose conversation was deleted (it has no session to show).
    await visible(pane.locator('[data-flagged], [data-testid="conversation-missing"]').first(), 60_000);
    if (await pane.getByTestId('conversation-missing').isVisible()) await page.keyboard.press('j');
    await visible(pane.locator('[data-flagged]'), 60_000);
    await pane.getByRole('button', { name: 'Session' }).click();
    const view = page.getByTestId('session-view');
    await visible(view);
    const session = (await view.getAttribute('data-session'))!;
    const name = server.db
      .prepare(
        'SELECT m.name FROM chat_sessions s JOIN mentors m ON m.unique_id = s.mentor_unique_id WHERE s.session_id = ?',
      )
      .pluck()
      .get(session) as string;
    await expect.poll(() => view.getByTestId('session-mentor').innerText()).toBe(`mentor ${name}`);
    await page.keyboard.press('Escape');
    await app.open('#/traces');
  }, 120_000);

  it('keeps the saved reading on screen when the tenant cannot be reached', async () => {
    const { page } = app;
    await visible(page.getByTestId('traces-table'), 60_000);
    const before = await cells(page, 1);
    expect(before.length).toBeGreaterThan(1);
    await server.close();
    await page.reload();
    await visible(page.getByTestId('traces-table'), 60_000);
    expect(await cells(page, 1)).toEqual(before);
    await page.getByRole('button', { name: 'Refresh traces' }).click();
    await visible(page.getByText('Showing the saved copy'), 60_000);
    await visible(page.getByTestId('traces-table'));
  }, 120_000);
});
