/**
 * A learner's sessions in browser mode on a real engine and the demo sandbox: opened from a review item and from the
 * person's page, pinned and unpinned, exported as a CSV job whose file the app saves, and its trace read from the
 * conversation view.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const pinned = (username: string, session: string) =>
  server.db
    .prepare('SELECT count(*) FROM session_pins WHERE org = ? AND username = ? AND session_id = ?')
    .pluck()
    .get(server.org, username, session) as number;

describe('Sessions (browser mode)', () => {
  it('opens a review item’s conversation as a session: pin, export as CSV, trace', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await list.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('review-pane');
    await visible(pane.locator('[data-flagged]'));
    const flaggedText = await pane.locator('[data-flagged]').innerText();

    await pane.getByRole('button', { name: 'Session' }).click();
    const view = page.getByTestId('session-view');
    await visible(view);
    const session = (await view.getAttribute('data-session'))!;
    const learner = server.db
      .prepare('SELECT username FROM chat_sessions WHERE session_id = ?')
      .pluck()
      .get(session) as string;
    // The session holds the flagged message.
    const messages = await page.getByTestId('session-messages').innerText();
    expect(messages).toContain(flaggedText.split('\n').at(-1)!.slice(0, 40));

    // Pin, then unpin: the tenant holds the state.
    const wasPinned = pinned(learner, session);
    await view.getByRole('button', { name: wasPinned ? 'Unpin' : 'Pin' }).click();
    await expect.poll(() => pinned(learner, session)).toBe(wasPinned ? 0 : 1);
    await visible(view.getByRole('button', { name: wasPinned ? 'Pin' : 'Unpin' }));

    // Export: a job, then the file on disk with the session's messages.
    await view.getByRole('button', { name: 'Export as CSV' }).click();
    const exported = page.getByTestId('session-export');
    await visible(exported.getByText('Completed', { exact: false }));
    const path = (await exported.locator('code').innerText()).trim();
    const csv = readFileSync(path, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFsession,learner,type,content,timestamp');
    const stored = server.db
      .prepare(
        'SELECT count(*) FROM chat_messages m JOIN chat_sessions s ON s.id = m.session_pk WHERE s.session_id = ?',
      )
      .pluck()
      .get(session) as number;
    expect(csv.match(new RegExp(session, 'g'))!.length).toBe(stored);

    // The trace of this conversation, from the session view.
    await view.getByRole('button', { name: 'Trace' }).click();
    const trace = page.getByRole('dialog', { name: 'Trace' });
    await visible(trace.getByTestId('trace-spans'));
    await page.keyboard.press('Escape');
  }, 180_000);

  it('opens a session from the person’s recent chats, by keyboard', async () => {
    const { page } = app;
    const learner = server.db
      .prepare(
        `SELECT u.id, u.username FROM users u JOIN chat_sessions s ON s.username = u.username AND s.org = u.org
         WHERE u.org = ? AND u.role = 'student' AND s.started_at >= ? ORDER BY s.started_at DESC LIMIT 1`,
      )
      .get(server.org, new Date(Date.now() - 80 * 86_400_000).toISOString()) as { id: number; username: string };
    await app.open(`#/people-and-access/users/${learner.id}`);
    const chats = page.getByTestId('person-chats');
    const first = chats.getByRole('button', { name: /^Open the session of/ }).first();
    await visible(first);
    await first.focus();
    await page.keyboard.press('Enter');
    const view = page.getByTestId('session-view');
    await visible(view);
    await visible(page.getByRole('dialog', { name: `Session of ${learner.username}` }));
    expect(await page.getByTestId('session-messages').locator('p').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.count()).toBe(0);
  }, 120_000);

  it('ranks the costliest traces over a range and opens one as a timeline', async () => {
    const { page } = app;
    await app.open('#/traces');
    const table = page.getByTestId('traces-table');
    await visible(table);
    await page.getByTestId('traces-screen').getByText('Costliest', { exact: true }).click();
    await visible(table);
    const costs = async () =>
      (await table.locator('tbody tr td:last-child').allInnerTexts()).map((t) => Number(t.replace('$', '')));
    await expect.poll(async () => (await costs()).length).toBeGreaterThan(1);
    const seen = await costs();
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    await table.locator('tbody tr').first().getByRole('button').click();
    await visible(page.getByRole('dialog', { name: 'Trace' }).getByTestId('trace-spans'));
    await page.keyboard.press('Escape');
  }, 120_000);

  it('turns a review item into a ticket note: the reply draft of a chosen ticket, not sent', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await list.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('review-pane');
    await visible(pane.locator('[data-flagged]'));
    const itemId = (await pane.getAttribute('data-item'))!;
    const messagesBefore = server.db.prepare('SELECT count(*) FROM support_ticket_messages').pluck().get() as number;
    await pane.getByRole('button', { name: 'Turn into a ticket note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn into a ticket note' });
    await visible(dialog.getByText('no internal ticket notes', { exact: false }));
    const picker = dialog.getByLabel('Ticket', { exact: true });
    // The tickets load after the dialog opens: read the picker only once they have (its placeholder says so).
    await expect.poll(() => picker.getAttribute('placeholder')).toBe('Pick a ticket');
    if (!(await picker.inputValue())) {
      await picker.focus();
      await page.keyboard.press('ArrowDown');
      await visible(page.getByRole('option').first());
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => picker.inputValue()).toMatch(/^#\d+/);
    }
    const chosen = await picker.inputValue();
    const ticketId = /^#(\d+)/.exec(chosen)![1]!;
    await dialog.getByRole('button', { name: 'Keep as draft and open the ticket' }).click();
    // The tickets screen opens the ticket (#/tickets/<id>) with the note in its reply box.
    await expect.poll(() => page.evaluate('location.hash')).toMatch(/^#\/tickets/);
    const reply = page.getByRole('textbox', { name: /reply/i }).first();
    await expect.poll(() => reply.inputValue()).toContain(`review item ${itemId}`);
    expect(
      await app.host.engine.invoke('tickets.get', { id: Number(ticketId) }).then((t) => t.ticket.draft ?? ''),
    ).toContain(`review item ${itemId}`);
    // Kept as a draft on this computer: nothing was posted on the ticket.
    expect(server.db.prepare('SELECT count(*) FROM support_ticket_messages').pluck().get()).toBe(messagesBefore);
  }, 120_000);
});
