/**
 * The support queue in browser mode, driven from the keyboard only, against the sandbox platform: open the first
 * open ticket, reply, close, go on to the next (and the server has the reply and resolved_at); hostile descriptions
 * render inert; a ticket deleted on the server while open says so; with the simulator on, a new ticket appears in
 * the open queue without a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { HOSTILE_DESCRIPTIONS } from '../../src/server/areas/support/content';
import { call, sandbox } from '../helpers/sandbox';
import { serverMessages, serverTicket } from '../tickets/helpers';
import { answer, proxy } from '../train/proxy';
import { launchChromium } from './browser';
import { requireBuiltRenderer, ticketsHost } from './tickets-host';

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const document: any;
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

interface Stage {
  server: Sandbox;
  engine: Engine;
  host: Host;
  page: Page;
  /** A proxy the engine reaches the sandbox through, if the test put one in front of it. */
  front?: { close(): Promise<void> };
}

let browser: Browser;
const stages: Stage[] = [];

beforeAll(async () => {
  requireBuiltRenderer();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const stage of stages.splice(0)) {
    await stage.page.close().catch(() => {});
    await stage.host.close();
    await stage.engine.close();
    await stage.front?.close();
  }
  await browser?.close();
});

/**
 * A sandbox, an engine with a profile on it (key from the environment), the host, and a page on the queue. `front`
 * puts a proxy between the engine and the sandbox (for refusals the sandbox would not make).
 */
async function stage(
  options: {
    simulateRate?: number;
    prepare?: (server: Sandbox) => void;
    front?: (server: Sandbox) => Promise<{ url: string; close(): Promise<void> }>;
  } = {},
): Promise<Stage> {
  const server = await sandbox({
    seed: 'demo',
    ...(options.simulateRate ? { simulateRate: options.simulateRate } : {}),
  });
  options.prepare?.(server);
  const front = await options.front?.(server);
  const { engine, host } = await ticketsHost(server, 'tickets-e2e-', front?.url);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error));
  // Anything that gets to run script reports here.
  await page.addInitScript(() => {
    const w = window as unknown as { __xss: string[] };
    w.__xss = [];
    window.alert = (message?: unknown) => void w.__xss.push(String(message));
  });
  await page.goto(`${host.url}#/tickets`);
  await page.getByTestId('ticket-row').first().waitFor({ timeout: 20_000 });
  const s = { server, engine, host, page, ...(front ? { front } : {}) };
  stages.push(s);
  return s;
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('data-testid') ?? el?.getAttribute('aria-label') ?? el?.tagName ?? null;
  });

const rowIds = async (page: Page) =>
  (await page
    .getByTestId('ticket-row')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-ticket'))))) as number[];

/** Where focus is: in the queue's list, in the ticket pane, in a dialog, or lost to the page. */
const focusArea = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'lost';
    if (el.closest('[data-testid="ticket-list"]')) return 'queue';
    if (el.closest('[role="region"][aria-label="Ticket"]')) return 'pane';
    if (el.closest('[role="dialog"]')) return 'dialog';
    return `elsewhere: ${el.tagName} ${el.getAttribute('aria-label') ?? ''}`;
  });

const expectFocusKept = async (page: Page) => expect(await focusArea(page)).toMatch(/^(queue|pane)$/);

const row = (page: Page, id: number) => page.locator(`[data-testid="ticket-row"][data-ticket="${id}"]`);

const paneTicket = async (page: Page) => Number(await page.getByTestId('ticket-pane').getAttribute('data-ticket'));

/** r, then the text, in the reply box of the ticket under the cursor. */
async function typeReply(page: Page, text: string): Promise<void> {
  await page.keyboard.press('r');
  await expect.poll(() => focused(page)).toBe('Reply');
  await page.keyboard.type(text);
}

describe('the queue from the keyboard', () => {
  it('opens the first open ticket, replies, closes, and goes to the next — the server has both', async () => {
    const { page, server } = await stage();
    expect(await focused(page)).toBe('ticket-list');
    const [first, second] = await rowIds(page);
    expect(first).toBeGreaterThan(0);

    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(first);

    const reply = 'Thanks — looking into it now 👍 שלום مرحبا';
    await typeReply(page, reply);
    await page.keyboard.press('Control+Enter');
    await expect
      .poll(
        () =>
          (server.db
            .prepare('SELECT message FROM support_ticket_messages WHERE ticket_id = ? ORDER BY id DESC LIMIT 1')
            .pluck()
            .get(first) as string) ?? '',
        { timeout: 10_000 },
      )
      .toBe(reply);
    // Focus is back on the queue, and the reply is in the thread (emoji and RTL intact).
    await expect.poll(() => focused(page)).toBe('ticket-list');
    await expect.poll(() => page.getByTestId('ticket-thread').innerText()).toContain('שלום مرحبا');

    await page.keyboard.press('e');
    await expect
      .poll(() => server.db.prepare('SELECT status, resolved_at FROM support_tickets WHERE id = ?').get(first), {
        timeout: 10_000,
      })
      .toMatchObject({ status: 'closed', resolved_at: expect.any(String) });
    // On to the next ticket, which is open in the pane; the closed one leaves the Open view.
    await expect.poll(() => paneTicket(page)).toBe(second);
    await expect.poll(() => rowIds(page), { timeout: 10_000 }).not.toContain(first);
    expect(await focused(page)).toBe('ticket-list');
    const active = await page.locator('[data-testid="ticket-row"][aria-selected="true"]').getAttribute('data-ticket');
    expect(Number(active)).toBe(second);

    // j/k move, Enter opens what is under the cursor.
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    const third = (await rowIds(page))[1];
    await expect.poll(() => paneTicket(page)).toBe(third);
    await page.keyboard.press('k');
    await page.keyboard.press('o');
    await expect.poll(() => paneTicket(page)).toBe(second);

    // g then c: the Closed view, where the ticket just closed now is.
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await expect.poll(() => page.getByTestId('view-closed').getAttribute('aria-current')).toBe('true');
    await expect.poll(() => rowIds(page)).toContain(first);

    // ? shows the cheat sheet; Escape closes it and focus comes back to the queue.
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('ticket-list');

    // / searches; Enter goes back to the list with the results.
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('/');
    expect(await focused(page)).toBe('Search tickets');
    await page.keyboard.type('الوصول');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('ticket-list');
    await expect.poll(async () => await page.getByTestId('ticket-row').first().innerText()).toContain('الوصول');
  });

  it('r on another ticket than the open one opens it and puts the cursor in its reply box', async () => {
    const { page } = await stage();
    const [first, second] = await rowIds(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(first);
    await page.keyboard.press('j');
    await page.keyboard.press('r');
    await expect.poll(() => paneTicket(page)).toBe(second);
    await expect.poll(() => focused(page)).toBe('Reply');
  });

  it('i, g then p / o, Shift+O, u, ? and Escape: the server has each status, the views show their tickets and counts, and focus stays put', async () => {
    const { page, server } = await stage();
    const status = (id: number) => serverTicket(server, id)?.status;
    /** The newest tickets of a status on the server, as many as the list draws. */
    const serverNewest = (s: string, n: number) =>
      server.db
        .prepare(
          'SELECT id FROM support_tickets WHERE org = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ?',
        )
        .pluck()
        .all(server.org, s, n) as number[];
    const serverCount = (s: string) =>
      server.db
        .prepare('SELECT count(*) FROM support_tickets WHERE org = ? AND status = ?')
        .pluck()
        .get(server.org, s) as number;
    /** The count under the search box ("42 tickets · Open") and the one beside the view's name. */
    const counts = async (view: string) => ({
      list: Number((await page.getByText(/^[\d,]+ tickets? · /).innerText()).split(' ')[0]!.replace(/,/g, '')),
      panel: Number(
        (await page
          .getByTestId(`view-${view}`)
          .getByLabel(/^\d+ tickets$/)
          .getAttribute('aria-label'))!.split(' ')[0],
      ),
    });
    /** g then a key; the view is current and shows the server's newest tickets of its status, with its count. */
    const goTo = async (key: string, view: string) => {
      await page.keyboard.press('g');
      await page.keyboard.press(key);
      await expect.poll(() => page.getByTestId(`view-${view}`).getAttribute('aria-current')).toBe('true');
      await expect
        .poll(async () => {
          const ids = await rowIds(page);
          return ids.length > 0 && JSON.stringify(ids) === JSON.stringify(serverNewest(view, ids.length));
        })
        .toBe(true);
      const expected = serverCount(view);
      await expect.poll(() => counts(view)).toEqual({ list: expected, panel: expected });
      await expectFocusKept(page);
    };
    await expectFocusKept(page);

    // i on the ticket under the cursor: in progress on the server, and it leaves the Open view.
    const [first] = await rowIds(page);
    await page.keyboard.press('i');
    await expect.poll(() => status(first!), { timeout: 10_000 }).toBe('in_progress');
    await expect.poll(() => rowIds(page)).not.toContain(first);
    await expectFocusKept(page);

    // i on the open ticket: the pane says so too.
    await page.keyboard.press('Enter');
    const second = await paneTicket(page);
    expect(second).toBe((await rowIds(page))[0]);
    await page.keyboard.press('i');
    await expect.poll(() => status(second), { timeout: 10_000 }).toBe('in_progress');
    await expect.poll(() => page.getByTestId('ticket-pane').getAttribute('data-status')).toBe('in_progress');
    await expectFocusKept(page);

    // g then p: In progress, with both; g then o: back to Open, without them.
    await goTo('p', 'in_progress');
    await goTo('o', 'open');
    expect(await rowIds(page)).not.toContain(first);
    expect(await rowIds(page)).not.toContain(second);

    // Shift+O in the Closed view reopens the ticket under the cursor.
    await goTo('c', 'closed');
    const [closed] = await rowIds(page);
    await page.keyboard.press('Shift+O');
    await expect.poll(() => status(closed!), { timeout: 10_000 }).toBe('open');
    await expect.poll(() => rowIds(page)).not.toContain(closed);
    await expectFocusKept(page);
    await goTo('o', 'open');

    // u marks the ticket under the cursor unread, and read again (as the cheat sheet says; local only).
    const [target] = await rowIds(page);
    const unread = (id: number) => row(page, id).getAttribute('data-unread');
    expect(await unread(target!)).toBeNull();
    await page.keyboard.press('u');
    await expect.poll(() => unread(target!)).toBe('true');
    await expectFocusKept(page);
    await page.keyboard.press('u');
    await expect.poll(() => unread(target!)).toBeNull();
    // On the open ticket (which marks itself read while shown): marked unread, it is put away and stays unread.
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(target);
    await page.keyboard.press('u');
    await expect.poll(() => unread(target!)).toBe('true');
    await page.getByTestId('ticket-pane').waitFor({ state: 'detached' });
    await page.waitForTimeout(1500);
    expect(await unread(target!)).toBe('true');
    await expectFocusKept(page);
    await page.keyboard.press('u');
    await expect.poll(() => unread(target!)).toBeNull();
    expect(status(target!)).toBe('open');

    // ? opens the cheat sheet (it has focus); Escape closes it and focus is back on the queue.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await expect.poll(() => focusArea(page)).toBe('dialog');
    expect(await sheet.textContent()).toContain('Mark unread / read');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await expect.poll(() => focusArea(page)).toBe('queue');
  });
});

describe('bulk actions and refusals', () => {
  it('closes a selection from the keyboard; a refused one rolls back visibly', async () => {
    const { page, server } = await stage();
    const [a, b, c] = (await rowIds(page)) as [number, number, number];
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.getByRole('toolbar', { name: 'Bulk actions' }).getByText('3 selected').waitFor();
    // One of them is deleted on the server meanwhile: closing it is refused.
    server.db.prepare('DELETE FROM support_tickets WHERE id = ?').run(b);
    await page.keyboard.press('e');
    await page.getByText(`Could not close ticket #${b}`).waitFor({ timeout: 10_000 });
    const status = (id: number) =>
      server.db.prepare('SELECT status FROM support_tickets WHERE id = ?').pluck().get(id) as string | undefined;
    expect(status(a)).toBe('closed');
    expect(status(c)).toBe('closed');
    expect(status(b)).toBeUndefined();
    await expect.poll(() => rowIds(page), { timeout: 10_000 }).not.toContain(a);
    expect(await focused(page)).toBe('ticket-list');
  });

  it('e on a ticket the tenant will not close: Closed at once, then back to Open with an error; the server keeps it open', async () => {
    let refused = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page, server } = await stage({
      // The tenant refuses to close one ticket, and takes its time saying so.
      front: (s) =>
        proxy(s.url, async (req, res, _payload, send) => {
          if (req.method === 'POST' && req.url?.endsWith(`/support-tickets/${refused}/close/`)) {
            await held;
            res
              .writeHead(403, { 'content-type': 'application/json' })
              .end(JSON.stringify({ detail: 'You do not have permission to perform this action.' }));
            return;
          }
          answer(res, await send());
        }),
    });
    const [id, next] = (await rowIds(page)) as [number, number];
    refused = id;
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(id);

    await page.keyboard.press('e');
    await expect.poll(() => row(page, id).getAttribute('data-status')).toBe('closed');
    expect(await row(page, id).textContent()).toContain('Closed');
    expect(serverTicket(server, id)!.status).toBe('open');
    // Meanwhile the queue moved on, as after any close.
    await expect.poll(() => paneTicket(page)).toBe(next);
    await expectFocusKept(page);

    release();
    const notice = page.getByRole('alert').filter({ hasText: `Could not close ticket #${id}` });
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toMatch(/refused.*403/);
    await expect.poll(() => row(page, id).getAttribute('data-status')).toBe('open');
    expect(await row(page, id).textContent()).toContain('Open');
    // Still open after the list is read again, and on the server.
    await page.waitForTimeout(500);
    expect(await row(page, id).getAttribute('data-status')).toBe('open');
    expect(serverTicket(server, id)).toMatchObject({ status: 'open', resolved_at: null });
    await expectFocusKept(page);
  });
});

describe('hostile descriptions and a ticket deleted while open', () => {
  const extra = [
    '<a href="java&#x09;script:alert(9)">tabbed</a> <img src=x onerror="alert(10)"> <details open ontoggle=alert(11)>x</details>',
    '<p onmouseover="alert(12)">hover</p><object data="javascript:alert(13)"></object><embed src="javascript:alert(14)">',
    '[click](javascript:alert(15)) ![img](https://evil.example/track.png) <iframe srcdoc="<script>alert(16)</script>"></iframe>',
  ];
  const cases = [...HOSTILE_DESCRIPTIONS, ...extra];

  it('renders every XSS case inert', async () => {
    const { page, server } = await stage({
      prepare: (s) => {
        const ids = s.db
          .prepare(`SELECT id FROM support_tickets WHERE org = ? AND status = 'open' ORDER BY id LIMIT ?`)
          .pluck()
          .all(s.org, cases.length) as number[];
        cases.forEach((description, i) =>
          s.db
            .prepare('UPDATE support_tickets SET description = ?, subject = ? WHERE id = ?')
            .run(description, `xsscase${i}`, ids[i]),
        );
      },
    });
    void server;
    for (let i = 0; i < cases.length; i++) {
      await page.keyboard.press('/');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(`xsscase${i}`);
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => await page.getByTestId('ticket-row').first().innerText(), { timeout: 10_000 })
        .toContain(`xsscase${i}`);
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => await page.getByTestId('ticket-pane').locator('h2').innerText())
        .toBe(`xsscase${i}`);
      const description = page.getByTestId('ticket-description');
      const report = await description.evaluate((root) => {
        const all = [...root.querySelectorAll('*')];
        return {
          tags: [...new Set(all.map((el) => el.tagName.toLowerCase()))],
          handlers: all.flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
          hrefs: all
            .map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('data'))
            .filter(Boolean),
          text: root.textContent ?? '',
        };
      });
      for (const tag of ['script', 'iframe', 'object', 'embed', 'svg', 'form', 'input', 'img', 'style']) {
        expect(report.tags, `case ${i}`).not.toContain(tag);
      }
      expect(report.handlers, `case ${i}`).toEqual([]);
      for (const href of report.hrefs) expect(href, `case ${i}`).toMatch(/^https?:/);
      expect(report.text).not.toMatch(/alert\(/);
    }
    // Nothing ran, and the remote image was never requested (it is a button until asked for).
    expect(await page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual([]);
    await expect
      .poll(async () => await page.getByTestId('ticket-description').innerText())
      .toContain('Image from evil.example');
  });

  it('opens a 10,000-message thread quickly, showing the newest part and the rest on demand', async () => {
    const { page, server, engine } = await stage();
    const id = server.db
      .prepare(`SELECT id FROM support_tickets WHERE org = ? AND status = 'open' ORDER BY created_at DESC LIMIT 1`)
      .pluck()
      .get(server.org) as number;
    server.db.prepare('UPDATE support_tickets SET subject = ? WHERE id = ?').run('longthread ٪ 🧵', id);
    const insert = server.db.prepare(
      'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
    );
    const start = Date.parse('2026-11-01T13:00:00Z');
    server.db.transaction(() => {
      for (let i = 0; i < 10_000; i++)
        insert.run(id, server.org, null, `note ${i}`, new Date(start + i * 1000).toISOString());
    })();
    await engine.invoke('tickets.get', { id, refresh: true });
    await page.keyboard.press('/');
    await page.keyboard.type('longthread');
    await page.keyboard.press('Enter');
    await expect.poll(async () => page.getByTestId('ticket-row').first().getAttribute('data-ticket')).toBe(String(id));
    const started = Date.now();
    await page.keyboard.press('Enter');
    await page.getByTestId('ticket-thread').getByText('note 9999').waitFor();
    expect(Date.now() - started).toBeLessThan(5000);
    const earlier = page.getByRole('button', { name: /earlier of 9,80\d older messages/ });
    await earlier.waitFor();
    expect(
      await page
        .getByTestId('ticket-thread')
        .getByText(/^note \d+ ·/)
        .count(),
    ).toBeLessThanOrEqual(200);
    await earlier.click();
    await page.getByTestId('ticket-thread').getByText('note 9500').waitFor();
  });

  it('says so when the open ticket is deleted on the server, keeping what was on screen and the draft', async () => {
    const { page, server } = await stage();
    await page.keyboard.press('Enter');
    const id = await paneTicket(page);
    const subject = await page.getByTestId('ticket-pane').locator('h2').innerText();
    await page.keyboard.press('r');
    await page.keyboard.type('Half-written answer');
    await page.keyboard.press('Escape');
    server.db.prepare('DELETE FROM support_tickets WHERE id = ?').run(id);
    await page.getByRole('alert').filter({ hasText: 'gone from the server' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('ticket-pane').locator('h2').innerText()).toBe(subject);
    expect(await page.getByRole('textbox', { name: 'Reply' }).inputValue()).toBe('Half-written answer');
    await expect.poll(() => rowIds(page), { timeout: 10_000 }).not.toContain(id);
  });
});

describe('deleting a ticket', () => {
  it('asks first with Cancel focused, so Enter on arrival deletes nothing; Delete then deletes it on the server', async () => {
    const { page, server } = await stage();
    await page.keyboard.press('Enter');
    const id = await paneTicket(page);
    const onServer = () => server.db.prepare('SELECT count(*) FROM support_tickets WHERE id = ?').pluck().get(id);
    const deleteButton = page.getByTestId('ticket-pane').getByRole('button', { name: 'Delete…' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Delete ticket #${id}?` });
    await dialog.waitFor({ state: 'visible' });
    // The dialog's focus trap moves focus to Cancel on a timer after it shows.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(onServer()).toBe(1);

    await deleteButton.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(onServer, { timeout: 30_000 }).toBe(0);
  });
});

describe('drafts', () => {
  it('keeps every word typed just before leaving the ticket (Esc j Enter, Esc e, a click away, the window hiding)', async () => {
    const { page, engine } = await stage();
    const draftOf = async (id: number) => (await engine.invoke('tickets.get', { id })).ticket.draft;
    const replyBox = page.getByRole('textbox', { name: 'Reply' });
    const [first, second, third] = (await rowIds(page)) as [number, number, number];

    // Type, and at once Esc, j, Enter (another ticket), then k, Enter (back): well inside the half-second pause.
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(first);
    const words = 'Thanks for waiting — the last words count 🙂';
    await typeReply(page, words);
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(second);
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(first);
    expect(await replyBox.inputValue()).toBe(words);
    await expect.poll(() => draftOf(first)).toBe(words);

    // Type on the second ticket, then Esc and e: it is closed and the pane moves on.
    await page.keyboard.press('j');
    await typeReply(page, 'Closing this, but my note stays');
    expect(await paneTicket(page)).toBe(second);
    await page.keyboard.press('Escape');
    await page.keyboard.press('e');
    await expect.poll(() => paneTicket(page)).toBe(third);
    await expect.poll(() => draftOf(second)).toBe('Closing this, but my note stays');

    // A click on another ticket leaves the reply box focused until the pane goes: the draft is saved as it goes.
    await typeReply(page, 'Written, then clicked away');
    await page.locator(`[data-testid="ticket-row"][data-ticket="${first}"]`).click();
    await expect.poll(() => paneTicket(page)).toBe(first);
    await expect.poll(() => draftOf(third)).toBe('Written, then clicked away');

    // The window hides while typing: nothing left the box, and the draft is saved all the same.
    await page.keyboard.press('r');
    await expect.poll(() => focused(page)).toBe('Reply');
    await page.keyboard.press('End');
    await page.keyboard.type(' And one more line.');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => draftOf(first)).toBe(`${words} And one more line.`);
  });
});

describe('a queued reply the change check paused', () => {
  it('is sent anyway from the thread, by keyboard, and the server has it', async () => {
    const { page, server, engine } = await stage();
    const [id] = await rowIds(page);
    const opened = await engine.invoke('tickets.get', { id: id!, refresh: true });
    server.db
      .prepare(
        'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
      )
      .run(id, server.org, opened.ticket.requester.userId, 'One more thing…', new Date().toISOString());
    const message = 'Written before the learner wrote again';
    const outcome = await engine.invoke('tickets.reply', {
      id: id!,
      message,
      seen: { updatedAt: opened.ticket.updatedAt, messageCount: opened.messageTotal },
    });
    expect(outcome.state).toBe('changed');

    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(id);
    await page.getByTestId('ticket-thread').getByText('waiting for your decision').waitFor();
    // Tab from the queue to the thread's "Send anyway", and press it.
    const focusedText = () => page.evaluate(() => (document.activeElement?.textContent ?? '').trim() as string);
    for (let tabs = 0; tabs < 40 && (await focusedText()) !== 'Send anyway'; tabs++) await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Send anyway');
    await page.keyboard.press('Enter');
    await expect.poll(() => serverMessages(server, id!).at(-1)?.message, { timeout: 10_000 }).toBe(message);
    await page.getByTestId('ticket-thread').getByText('waiting for your decision').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('ticket-thread').innerText()).toContain(message);
    // The button went away with the bubble: focus is back on the queue, not lost.
    await expect.poll(() => focused(page)).toBe('ticket-list');
  });
});

describe('live', () => {
  it('shows a ticket filed on the server (simulator) in the open queue without a reload', async () => {
    const { page } = await stage({ simulateRate: 60 });
    const before = new Set(await rowIds(page));
    const url = page.url();
    await expect
      .poll(async () => (await rowIds(page)).some((id) => !before.has(id)), { timeout: 30_000, interval: 500 })
      .toBe(true);
    expect(page.url()).toBe(url);
    const fresh = (await rowIds(page)).find((id) => !before.has(id))!;
    expect(await page.locator(`[data-ticket="${fresh}"]`).getAttribute('data-unread')).toBe('true');
    await page.getByTestId('tickets-badge').waitFor({ timeout: 10_000 });

    // In a narrow window's rail the count stands beside the Tickets icon's top-right corner, clear of the icon, and
    // whole inside the rail.
    await page.setViewportSize({ width: 1000, height: 650 });
    const nav = page.getByRole('navigation', { name: 'Screens' });
    const badge = nav.getByTestId('tickets-badge');
    await expect.poll(async () => (await nav.boundingBox())?.width ?? 0).toBeLessThan(80);
    await badge.waitFor();
    const icon = (await nav.getByRole('link', { name: 'Tickets' }).locator('svg').first().boundingBox())!;
    const count = (await badge.boundingBox())!;
    expect(count.x).toBeGreaterThanOrEqual(icon.x + icon.width);
    expect(count.y + count.height).toBeLessThanOrEqual(icon.y + icon.height / 2 + 2);
    const rail = (await page.locator('.mantine-AppShell-navbar').boundingBox())!;
    expect(count.x + count.width).toBeLessThanOrEqual(rail.x + rail.width);
    expect(await badge.innerText()).toMatch(/^\d+\+?$/);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('shows a learner message on a ticket in its thread after a sync, with an unread marker that opening clears', async () => {
    let id = 0;
    const { page, server, engine } = await stage({
      prepare: (s) => {
        id = s.db
          .prepare(`SELECT id FROM support_tickets WHERE org = ? AND username = ? AND status = 'open' LIMIT 1`)
          .pluck()
          .get(s.org, s.studentUser) as number;
        s.db.prepare('UPDATE support_tickets SET subject = ? WHERE id = ?').run('unreadcase: certificate missing', id);
      },
    });
    await page.keyboard.press('/');
    await page.keyboard.type('unreadcase');
    await page.keyboard.press('Enter');
    await expect.poll(() => rowIds(page)).toEqual([id]);
    expect(await row(page, id).getAttribute('data-unread')).toBeNull();

    // The learner writes again, through the platform; the next sync brings it in without a reload.
    const text = 'Still stuck — any news? 🙏';
    const url = page.url();
    const posted = await call(
      server,
      'POST',
      `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}/support-ticket-messages/`,
      { key: server.studentKey, json: { ticket: id, message: text } },
    );
    expect(posted.status).toBe(201);
    await engine.invoke('tickets.sync', { wait: true });
    await expect.poll(() => row(page, id).getAttribute('data-unread'), { timeout: 10_000 }).toBe('true');
    expect(page.url()).toBe(url);

    // Opening it shows the message and clears the marker.
    await page.keyboard.press('Enter');
    await expect.poll(() => paneTicket(page)).toBe(id);
    await expect.poll(() => page.getByTestId('ticket-thread').innerText()).toContain(text);
    await expect.poll(() => row(page, id).getAttribute('data-unread')).toBeNull();
    await expectFocusKept(page);
  });
});
