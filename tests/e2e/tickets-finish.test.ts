/**
 * The support queue finished, in browser mode against the sandbox, from the keyboard: from 1000×650 up (light and
 * dark, the tenant offline too) every pane keeps a readable width and the header keeps Sync now and Keys whole;
 * `e` (and `i`) say what they did with an Undo, and `z` undoes it on the server; a reply says it was sent beside the
 * reply box with no notification over it; SLA badges appear only once the tenant has targets, with the time left; the
 * view editor refuses a 'from' after its 'to' at the field. E2E_SCREENSHOTS=dir keeps a picture of each state.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { serverMessages, serverTicket } from '../tickets/helpers';
import { launchChromium } from './browser';
import { requireBuiltRenderer, ticketsHost } from './tickets-host';

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const document: any;
declare const window: any;
type Element = any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let server: Sandbox;
let engine: Engine;
let host: Host;

beforeAll(async () => {
  requireBuiltRenderer();
  server = await sandbox({ seed: 'demo' });
  // A long subject with a long word: it must wrap by words in a narrow pane, never letter by letter.
  const long = server.db
    .prepare(`SELECT id FROM support_tickets WHERE org = ? AND status = 'open' ORDER BY created_at DESC LIMIT 1`)
    .pluck()
    .get(server.org) as number;
  server.db
    .prepare('UPDATE support_tickets SET subject = ? WHERE id = ?')
    .run('Cannot submit the final assignment: internationalization-requirements checklist keeps failing', long);
  ({ engine, host } = await ticketsHost(server, 'tickets-finish-'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await engine?.close();
});

async function open(size: { width: number; height: number }, colorScheme: 'light' | 'dark' = 'light') {
  const page = await browser.newPage({ viewport: size, colorScheme });
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${host.url}#/tickets`);
  await page.getByTestId('ticket-row').first().waitFor({ timeout: 20_000 });
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const rowIds = async (page: Page) =>
  (await page
    .getByTestId('ticket-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-ticket'))))) as number[];

const paneTicket = async (page: Page) => Number(await page.getByTestId('ticket-pane').getAttribute('data-ticket'));

/** Widths of the list and the ticket, the subject's size, and whether each header control is whole and on top. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element) => el?.getBoundingClientRect();
    const list = box(document.querySelector('[data-testid="ticket-list"]'));
    const pane = box(document.querySelector('[role="region"][aria-label="Ticket"]'));
    const subject = document.querySelector('[data-testid="ticket-pane"] h2');
    const lineHeight = subject ? parseFloat(window.getComputedStyle(subject).lineHeight) : 0;
    const whole = (name: string) => {
      const button = [...document.querySelectorAll('button')].find((b: Element) =>
        b.textContent.trim().startsWith(name),
      );
      if (!button) return `${name}: missing`;
      const r = box(button);
      if (r.right > window.innerWidth || r.left < 0 || r.width < 20) return `${name}: outside the window`;
      if (button.scrollWidth > button.clientWidth + 1) return `${name}: clipped`;
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return button.contains(top) ? 'whole' : `${name}: covered`;
    };
    return {
      list: Math.round(list?.width ?? 0),
      pane: Math.round(pane?.width ?? 0),
      subjectWidth: Math.round(box(subject)?.width ?? 0),
      subjectLines: subject ? Math.round(box(subject).height / lineHeight) : 0,
      sync: whole('Sync now'),
      keys: whole('Keys'),
      pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
    };
  });

describe('layout', () => {
  it('from 1000×650 up, light and dark, online and offline: readable panes, whole header, subject wrapped by words', async () => {
    const sizes = [
      { width: 1000, height: 650 },
      { width: 1000, height: 700 },
      { width: 1400, height: 900 },
    ];
    const check = async (page: Page, label: string) => {
      // From the queue (after "Sync now" the focus is on that button).
      await page.getByTestId('ticket-list').focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('Enter');
      await page.getByTestId('ticket-pane').locator('h2').waitFor();
      await expect.poll(() => measure(page).then((m) => m.sync)).toBe('whole');
      const m = await measure(page);
      expect(m, label).toMatchObject({ sync: 'whole', keys: 'whole', pageScrollsSideways: false });
      expect(m.list, label).toBeGreaterThanOrEqual(255);
      expect(m.pane, label).toBeGreaterThanOrEqual(360);
      expect(m.subjectWidth, label).toBeGreaterThanOrEqual(200);
      // 90 characters in words: a few lines at most (letter by letter they took dozens).
      expect(m.subjectLines, label).toBeLessThanOrEqual(6);
      await shot(page, label);
    };
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const size of sizes) {
        const page = await open(size, colorScheme);
        await check(page, `${colorScheme}-${size.width}x${size.height}`);
        await page.close();
      }
    }
    // The tenant stops answering: the header says so (cut to fit), and everything stays where it was.
    server.setFaults('reset=1');
    try {
      const page = await open({ width: 1000, height: 650 }, 'dark');
      await page.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(() => page.getByText(/^(Offline|Sync failed) · showing tickets as of /).count(), { timeout: 30_000 })
        .toBe(1);
      await check(page, 'dark-1000x650-offline');
      await page.close();
    } finally {
      server.setFaults('');
    }
  });

  it('a narrow window gives the views a picker that the keyboard reaches, and g then a key still switches views', async () => {
    const page = await open({ width: 1000, height: 650 });
    const picker = page.locator('input[aria-label="View"]');
    // The views' counts are their own query, answered after the first ticket shows.
    await expect.poll(() => picker.inputValue()).toMatch(/^Open \(\d+\)$/);
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await expect.poll(() => picker.inputValue()).toMatch(/^Closed \(\d+\)$/);
    await expect
      .poll(async () => (await rowIds(page)).every((id) => serverTicket(server, id)?.status === 'closed'))
      .toBe(true);
    await page.close();
  });
});

describe('status changes say what they did, with an Undo', () => {
  it('e closes with a notification and Undo; z puts the ticket back on the server; i the same', async () => {
    const page = await open({ width: 1400, height: 900 });
    const [first] = await rowIds(page);
    await page.keyboard.press('e');
    const note = page.locator('.mantine-Notification-root').filter({ hasText: `Closed: ticket #${first}` });
    await note.waitFor({ timeout: 10_000 });
    await note.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => serverTicket(server, first!)?.status, { timeout: 10_000 }).toBe('closed');
    await shot(page, 'close-undo');
    // z from the queue: open again on the server, back in the Open view, and the notification is gone.
    await page.keyboard.press('z');
    await expect.poll(() => serverTicket(server, first!)?.status, { timeout: 10_000 }).toBe('open');
    await expect.poll(() => rowIds(page), { timeout: 10_000 }).toContain(first);
    await expect.poll(() => note.count()).toBe(0);

    // i, then Undo clicked on the notification: back to open.
    await page.keyboard.press('Home');
    const [target] = await rowIds(page);
    await page.keyboard.press('i');
    const progress = page.locator('.mantine-Notification-root').filter({ hasText: `In progress: ticket #${target}` });
    await progress.getByRole('button', { name: 'Undo' }).click({ timeout: 10_000 });
    await expect.poll(() => serverTicket(server, target!)?.status, { timeout: 10_000 }).toBe('open');
    // Nothing left to undo: z does nothing.
    await page.keyboard.press('z');
    await page.waitForTimeout(500);
    expect(serverTicket(server, target!)?.status).toBe('open');
    await page.close();
  });
});

describe('a reply', () => {
  it('says it was sent beside the reply box, with no notification over it', async () => {
    const page = await open({ width: 1000, height: 650 });
    await page.keyboard.press('Enter');
    const id = await paneTicket(page);
    await page.keyboard.press('r');
    await page.keyboard.type('One reply, one confirmation.');
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(() => serverMessages(server, id).at(-1)?.message, { timeout: 10_000 })
      .toBe('One reply, one confirmation.');
    await expect.poll(() => page.getByTestId('reply-note').innerText()).toMatch(/^Reply sent at /);
    // The job's ending arrives after the answer: give it time to (not) show.
    await page.waitForTimeout(2000);
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await shot(page, 'reply-sent');
    await page.close();
  });
});

describe('canned replies', () => {
  it('says a refused title under its box with no notification, then saves and lists the reply', async () => {
    const page = await open({ width: 1400, height: 900 });
    const before = (await engine.invoke('tickets.cannedReplies', {})).replies;
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Canned replies' }).click();
    await page.getByRole('menuitem', { name: 'Manage canned replies…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Canned replies' });
    await dialog.getByRole('button', { name: 'Add a canned reply' }).click();
    const title = dialog.getByRole('textbox', { name: 'Title' });
    await title.fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Give it a title').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    expect((await engine.invoke('tickets.cannedReplies', {})).replies).toEqual(before);

    await title.fill('Thanks for waiting');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Thanks for waiting').waitFor();
    const added = (await engine.invoke('tickets.cannedReplies', {})).replies.find(
      (reply) => reply.title === 'Thanks for waiting',
    );
    expect(added?.body).toBe('Hi {first_name},');
    await engine.invoke('tickets.deleteCannedReply', { id: added!.id });
    await page.close();
  });
});

describe('SLA', () => {
  it('shows no badge until the tenant has targets; then the time left on each open ticket, and overdue in red', async () => {
    const page = await open({ width: 1400, height: 900 });
    await page.waitForTimeout(500);
    expect(await page.getByTestId('ticket-sla').count()).toBe(0);
    await page.getByRole('button', { name: 'SLA targets…' }).click();
    const dialog = page.getByRole('dialog', { name: 'SLA targets of this tenant' });
    await dialog.getByLabel('First reply within (hours)').fill('8760');
    await dialog.getByRole('button', { name: 'Save SLA targets' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const badges = () => page.getByTestId('ticket-sla').allInnerTexts();
    await expect.poll(async () => (await badges()).length).toBeGreaterThan(0);
    // A year to reply: time left on every ticket still waiting, none overdue.
    for (const text of await badges()) expect(text).toMatch(/^\d+ (min|h|d) left$/);
    await shot(page, 'sla-time-left');
    await page.getByRole('button', { name: 'SLA targets…' }).click();
    await dialog.getByLabel('Resolution within (hours)').fill('1');
    await dialog.getByRole('button', { name: 'Save SLA targets' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await badges()).some((t) => /overdue$/.test(t))).toBe(true);
    const overdue = page
      .getByTestId('ticket-sla')
      .filter({ hasText: /overdue$/ })
      .first();
    expect(await overdue.getAttribute('data-color')).toBe('red');
    await shot(page, 'sla-overdue');
    await engine.invoke('tickets.setSlaDefaults', { firstReplyHours: null, resolutionHours: null });
    await page.close();
  });

  it('says a target past a year under its field and saves nothing', async () => {
    const page = await open({ width: 1400, height: 900 });
    await page.getByRole('button', { name: 'SLA targets…' }).click();
    const dialog = page.getByRole('dialog', { name: 'SLA targets of this tenant' });
    const firstReply = dialog.getByLabel('First reply within (hours)');
    await firstReply.fill('9000');
    // Enter while still in the box: the box has not clamped the number, the check says why it cannot be saved.
    await firstReply.press('Enter');
    await expect.poll(() => firstReply.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByText(/8760/).waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: null, resolutionHours: null });
    await page.close();
  });
});

describe('the view editor', () => {
  it("refuses a 'from' after its 'to' at the field, and shows the engine's refusals at theirs", async () => {
    const page = await open({ width: 1000, height: 650 });
    const before = (await engine.invoke('tickets.views', {})).views.length;
    await page.getByRole('button', { name: 'View options' }).click();
    await page.getByRole('menuitem', { name: 'New saved view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New saved view' });
    await dialog.getByLabel(/^Name/).fill('Backwards');
    // Typed as the app writes days (its format here follows the system: en-US).
    await dialog.getByLabel('Created from', { exact: true }).fill('May 2, 2026');
    await dialog.getByLabel('Created to', { exact: true }).fill('May 1, 2026');
    await dialog.getByText("'To' (May 1, 2026) is before 'From' (May 2, 2026)", { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await shot(page, 'view-backwards');
    // A requester of spaces only: the engine refuses it, and says so under that field.
    await dialog.getByLabel('Created to', { exact: true }).fill('May 3, 2026');
    await dialog.getByLabel(/^Requester/).fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const requester = dialog.getByLabel(/^Requester/);
    await expect.poll(() => requester.getAttribute('aria-invalid')).toBe('true');
    expect((await engine.invoke('tickets.views', {})).views.length).toBe(before);
    await page.close();
  });

  it('saves what was chosen and leaves out the boxes left empty; editing keeps what it did not touch', async () => {
    const page = await open({ width: 1000, height: 650 });
    await page.getByRole('button', { name: 'View options' }).click();
    await page.getByRole('menuitem', { name: 'New saved view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New saved view' });
    await dialog.getByLabel(/^Name/).fill('Unread from Ada');
    await dialog.getByRole('checkbox', { name: 'In progress' }).uncheck();
    await dialog.getByLabel(/^Requester/).fill('ada');
    await dialog.getByRole('checkbox', { name: 'Unread only' }).check();
    await dialog.getByLabel('First reply within (hours)').fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = async () =>
      (await engine.invoke('tickets.views', {})).views.find((view) => view.label.startsWith('Unread from Ada'));
    expect(await saved()).toMatchObject({
      kind: 'saved',
      filter: { statuses: ['open'], requester: 'ada', unreadOnly: true },
      sort: null,
      sla: { firstReplyHours: 5, resolutionHours: null },
    });
    expect(Object.keys((await saved())!.filter).sort()).toEqual(['requester', 'statuses', 'unreadOnly']);

    // The view's own tag (set outside this form) survives an edit of its name.
    const { id } = (await saved())!;
    await engine.invoke('tickets.saveView', { id, filter: { ...(await saved())!.filter, tag: 'vip' } });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.reload();
    await page.getByTestId('ticket-row').first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Options for Unread from Ada' }).click();
    await page.getByRole('menuitem', { name: 'Edit view…' }).click();
    const edit = page.getByRole('dialog', { name: /^Edit/ });
    await edit.getByLabel(/^Name/).fill('Unread from Ada (VIP)');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect(await saved()).toMatchObject({
      label: 'Unread from Ada (VIP)',
      filter: { statuses: ['open'], requester: 'ada', unreadOnly: true, tag: 'vip' },
      sla: { firstReplyHours: 5, resolutionHours: null },
    });
    await engine.invoke('tickets.deleteView', { id });
    await page.close();
  });
});
