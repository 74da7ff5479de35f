/**
 * The review queue in browser mode on a real engine and the demo sandbox: an admin works through flagged messages by
 * keyboard only (j, Enter, c, e, d with its confirmation, ?) and reads the trace of a bad answer as a timeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  app = await openApp(server);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const logsOnPlatform = () =>
  server.db.prepare('SELECT count(*) FROM review_logs WHERE org = ?').pluck().get(server.org) as number;

describe('Review queue (browser mode)', () => {
  it('works through flagged messages by keyboard and reads the trace of a bad answer', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await visible(page.getByTestId('review-total').getByText(`${logsOnPlatform()} open`));
    await list.focus();

    // Open the first item: its conversation, scrolled to the flagged message, which is the logged prompt.
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('review-pane');
    await visible(pane.locator('[data-flagged]'));
    const firstId = await pane.getAttribute('data-item');
    const prompt = server.db
      .prepare('SELECT prompt FROM review_logs WHERE id = ? AND kind = ?')
      .pluck()
      .get(Number(firstId!.split(':')[1]), firstId!.split(':')[0]) as string;
    expect(await pane.locator('[data-flagged]').innerText()).toContain(prompt);
    expect(await pane.locator('[data-flagged]').isVisible()).toBe(true);

    // j: the next item opens in place (the demo's second newest log is the one whose conversation was deleted).
    await page.keyboard.press('j');
    await expect.poll(() => pane.getAttribute('data-item')).not.toBe(firstId);
    await visible(
      pane.getByTestId('conversation-missing').getByText('conversation no longer exists', { exact: false }),
    );
    const missingId = await pane.getAttribute('data-item');
    await page.keyboard.press('j');
    await expect.poll(() => pane.getAttribute('data-item')).not.toBe(missingId);
    const secondId = await pane.getAttribute('data-item');
    await visible(pane.locator('[data-flagged]'));

    // c puts focus on the flagged message; e marks the item reviewed (kept on this machine) and moves on.
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate("document.activeElement?.hasAttribute('data-flagged') ?? false")).toBe(true);
    await list.focus();
    await page.keyboard.press('e');
    await visible(page.getByTestId('review-total').getByText(`${logsOnPlatform() - 1} open`));
    const reviewed = await app.host.engine.invoke('review.list', { filter: { state: 'reviewed' } });
    expect(reviewed.items.map((i) => i.id)).toEqual([secondId]);
    expect(reviewed.items[0]!.reviewedBy).toBe(server.user);

    // d asks first (Cancel focused); Enter on the red button deletes the log on the tenant.
    const before = logsOnPlatform();
    await list.focus();
    await page.keyboard.press('d');
    const dialog = page.getByRole('dialog', { name: 'Delete this log?' });
    await visible(dialog);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(logsOnPlatform).toBe(before - 1);

    // ? lists the keys.
    await list.focus();
    await page.keyboard.press('?');
    await visible(page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Mark reviewed'));
    await page.keyboard.press('Escape');

    // The trace of the open item's conversation: a timeline with the mentor's answers (model, tokens, cost).
    await list.focus();
    await page.keyboard.press('Enter');
    await visible(pane.locator('[data-flagged]'));
    await page.keyboard.press('t');
    const trace = page.getByRole('dialog', { name: 'Trace' });
    await visible(trace.getByTestId('trace-spans'));
    await visible(trace.getByText('llm-answer').first());
    await visible(trace.getByText(/tokens$/).first());
  }, 180_000);

  it('says when the conversation of a log no longer exists', async () => {
    const { page } = app;
    await app.open('#/review');
    const learner = server.db
      .prepare('SELECT username FROM review_logs WHERE org = ? AND message_pk IS NULL')
      .pluck()
      .get(server.org) as string;
    await page.getByRole('textbox', { name: 'Learner' }).fill(learner);
    const list = page.getByTestId('review-list');
    // The learner filter applies after a pause in typing and closes what is open: wait until every row is theirs.
    await expect
      .poll(async () => {
        const rows = await list.getByRole('option').allInnerTexts();
        return rows.length > 0 && rows.every((row) => row.includes(` · ${learner} · `));
      })
      .toBe(true);
    const gone = list.getByText('This conversation was deleted', { exact: false });
    await visible(gone);
    await gone.click();
    await visible(
      page.getByTestId('conversation-missing').getByText('conversation no longer exists', { exact: false }),
    );
  }, 120_000);
});
