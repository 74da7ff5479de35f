/**
 * The review queue in browser mode on a real engine and the demo sandbox: an admin works through flagged messages by
 * keyboard only (j, Enter, c, e, d with its confirmation, ?) and reads the trace of a bad answer as a timeline; works
 * through the conversations learners rated down the same way; and searches the queue's text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { FEEDBACK_DAYS } from '../../src/main/engine/review/feedback';
import { sandbox } from '../helpers/sandbox';
import { openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  app = await openApp(server);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const logsOnPlatform = (kind?: 'moderation' | 'safety') =>
  server.db
    .prepare('SELECT count(*) FROM review_logs WHERE org = ? AND (? IS NULL OR kind = ?)')
    .pluck()
    .get(server.org, kind ?? null, kind ?? null) as number;
/** Conversations rated down in the days the queue reads. */
const ratedDown = () =>
  server.db
    .prepare('SELECT count(*) FROM chat_sessions WHERE org = ? AND rating = -1 AND started_at >= ?')
    .pluck()
    .get(server.org, new Date(Date.now() - FEEDBACK_DAYS * 86_400_000).toISOString().slice(0, 10)) as number;

describe('Review queue (browser mode)', () => {
  it('takes the keys on arrival: j, Enter and ? work without first tabbing to the list', async () => {
    const { page } = app;
    await app.open('#/');
    await page.evaluate('document.activeElement?.blur()');
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('data-testid')")).toBe('review-list');
    // The app's focus ring on the list, not the browser's thin one.
    const ring = await page.evaluate(
      '(s => `${s.outlineStyle} ${s.outlineWidth}`)(getComputedStyle(document.activeElement))',
    );
    expect(ring).toBe('solid 2px');
    await page.keyboard.press('?');
    const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await visible(keys.getByText('Mark reviewed'));
    await page.keyboard.press('Escape');
    await expect.poll(() => keys.count()).toBe(0);
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    const second = await list.getByRole('option').nth(1).getAttribute('data-id');
    await expect.poll(() => page.getByTestId('review-pane').getAttribute('data-item')).toBe(second);
    await page.keyboard.press('Escape');

    // A field the admin is typing in keeps the focus while the queue loads again.
    const learner = page.getByRole('textbox', { name: 'Learner' });
    await learner.focus();
    await page.keyboard.type('nobody-matches-this');
    await visible(page.getByText('Nothing to review'));
    await learner.fill('');
    await visible(list.getByRole('option').first());
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Learner');
  }, 120_000);

  it('works through flagged messages by keyboard and reads the trace of a bad answer', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await visible(page.getByTestId('review-total').getByText(`${logsOnPlatform() + ratedDown()} open`));
    // The moderation logs alone (the demo's deleted conversation is one of them).
    await page.getByRole('radiogroup', { name: 'Source' }).getByText('Moderation', { exact: true }).click();
    await visible(page.getByTestId('review-total').getByText(`${logsOnPlatform('moderation')} open`));
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

    // j: the next item opens in place, down to the log whose conversation was deleted (an hour old in the demo).
    let shownId = firstId;
    for (let step = 0; ; step++) {
      expect(step, 'the deleted conversation among the newest logs').toBeLessThan(12);
      await page.keyboard.press('j');
      await expect.poll(() => pane.getAttribute('data-item')).not.toBe(shownId);
      shownId = await pane.getAttribute('data-item');
      await expect.poll(() => pane.getAttribute('data-ready')).toBe('true');
      if (await pane.getByTestId('conversation-missing').isVisible()) break;
    }
    await visible(
      pane.getByTestId('conversation-missing').getByText('conversation no longer exists', { exact: false }),
    );
    const missingId = shownId;
    await page.keyboard.press('j');
    await expect.poll(() => pane.getAttribute('data-item')).not.toBe(missingId);
    const secondId = await pane.getAttribute('data-item');
    await visible(pane.locator('[data-flagged]'));

    // c puts focus on the flagged message; e marks the item reviewed (kept on this machine) and moves on.
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate("document.activeElement?.hasAttribute('data-flagged') ?? false")).toBe(true);
    await list.focus();
    await page.keyboard.press('e');
    await visible(page.getByTestId('review-total').getByText(`${logsOnPlatform('moderation') - 1} open`));
    const reviewed = await app.host.engine.invoke('review.list', { filter: { state: 'reviewed' } });
    expect(reviewed.items.map((i) => i.id)).toEqual([secondId]);
    expect(reviewed.items[0]!.reviewedBy).toBe(server.user);

    // d asks first (Cancel focused); Enter on the red button deletes the log on the tenant.
    const before = logsOnPlatform();
    await list.focus();
    await page.keyboard.press('d');
    const dialog = page.getByRole('dialog', { name: 'Delete this log?' });
    await visible(dialog);
    // The dialog's focus trap moves focus to Cancel on a timer after it shows.
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
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

  it('works through conversations rated down by keyboard: the rated answer in view, e marks, d is refused', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    // The source control by keyboard: Tab from the list's toolbar to the Source radios, arrows to Feedback.
    const feedback = page.getByRole('radiogroup', { name: 'Source' }).getByRole('radio', { name: 'Feedback' });
    await page.getByRole('radiogroup', { name: 'Source' }).getByRole('radio', { name: 'All sources' }).focus();
    for (let i = 0; i < 3 && !(await feedback.isChecked()); i++) await page.keyboard.press('ArrowRight');
    expect(await feedback.isChecked()).toBe(true);
    const total = page.getByTestId('review-total');
    const open = (await app.host.engine.invoke('review.list', { filter: { sources: ['Negative feedback'] } })).total;
    expect(open).toBeGreaterThan(0);
    await visible(total.getByText(`${open} open`));
    await expect.poll(() => list.getByRole('option').first().innerText()).toMatch(/^Feedback/);

    await list.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByTestId('review-pane');
    await expect.poll(() => pane.getAttribute('data-ready')).toBe('true');
    const id = (await pane.getAttribute('data-item'))!;
    expect(id).toMatch(/^feedback:/);
    // The rated answer is the item's text, marked in its conversation and scrolled into view.
    const rated = pane.locator('[data-flagged]');
    await visible(rated);
    const item = (await app.host.engine.invoke('review.get', { id })).item;
    expect(await rated.innerText()).toContain(item.prompt.slice(0, 60));
    expect(await rated.innerText()).toContain('rated down');
    // Scrolled to by an effect after it shows: its middle comes into the window.
    const middle = async () => {
      const box = (await rated.boundingBox())!;
      return box.y + box.height / 2;
    };
    await expect.poll(middle).toBeGreaterThan(0);
    await expect.poll(middle).toBeLessThan(page.viewportSize()!.height);
    expect(await pane.getByRole('button', { name: 'Delete log' }).count()).toBe(0);

    // c: focus on the rated answer; d: said why not, no dialog, nothing deleted; e: reviewed.
    await page.keyboard.press('c');
    await expect.poll(() => page.evaluate("document.activeElement?.hasAttribute('data-flagged') ?? false")).toBe(true);
    await list.focus();
    await page.keyboard.press('d');
    await visible(page.getByText('no call deletes it', { exact: false }));
    expect(await page.getByRole('dialog', { name: 'Delete this log?' }).count()).toBe(0);
    await list.focus();
    await page.keyboard.press('e');
    await visible(total.getByText(`${open - 1} open`));
    const reviewed = await app.host.engine.invoke('review.list', {
      filter: { state: 'reviewed', sources: ['Negative feedback'] },
    });
    expect(reviewed.items.map((i) => i.id)).toEqual([id]);
  }, 180_000);

  it('searches the text of the queue from the keyboard (s)', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    await list.focus();
    await page.keyboard.press('s');
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Search text');
    await page.keyboard.type('EXAM ANSWERS');
    const want = (await app.host.engine.invoke('review.list', { filter: { search: 'exam answers' } })).total;
    expect(want).toBeGreaterThan(0);
    await visible(page.getByTestId('review-total').getByText(`${want} open`));
    await expect
      .poll(async () => (await list.getByRole('option').allInnerTexts()).every((t) => /exam answers/i.test(t)))
      .toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
  }, 120_000);

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

  it('at 1000×650 an open item keeps its title and actions in view, the list three rows, the flagged message shown', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open('#/review');
      const list = page.getByTestId('review-list');
      await visible(list.getByRole('option').first());
      await list.focus();
      await page.keyboard.press('Enter');
      const pane = page.getByTestId('review-pane');
      await expect.poll(() => pane.getAttribute('data-ready')).toBe('true');
      await visible(pane.locator('[data-flagged]'));
      const inView = async (locator: ReturnType<typeof page.locator>) => {
        const box = (await locator.boundingBox())!;
        return box.y >= 0 && box.y + box.height <= 650;
      };
      expect(await inView(pane.getByRole('heading').first()), 'title').toBe(true);
      expect(await inView(pane.getByRole('button', { name: /Mark reviewed/ })), 'Mark reviewed').toBe(true);
      expect(await inView(pane.getByRole('button', { name: /Delete log/ })), 'Delete log').toBe(true);
      // Scrolled to by an effect after it shows.
      await expect.poll(() => inView(pane.locator('[data-flagged]')), { message: 'flagged message' }).toBe(true);
      expect((await list.boundingBox())!.height).toBeGreaterThanOrEqual(3 * 58);
      // The header is one row (title, count, actions): the height goes to the list and the item.
      const title = (await page.getByRole('heading', { name: 'Review queue' }).boundingBox())!;
      const refresh = (await page.getByRole('button', { name: 'Refresh', exact: true }).boundingBox())!;
      expect(Math.abs(title.y + title.height / 2 - (refresh.y + refresh.height / 2))).toBeLessThan(12);
      // One scroll area in the pane: the page and the pane's box do not scroll.
      expect(await page.evaluate('document.scrollingElement.scrollTop')).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  }, 120_000);

  it('at 1400×900 the filters stay on one row, the date fields named From and To on screen', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1400, height: 900 });
    try {
      await app.open('#/review');
      await visible(page.getByTestId('review-list').getByRole('option').first());
      const filters = page.getByTestId('review-filters');
      const tops = await filters.evaluate((row) =>
        [...row.children]
          .map((child) => child.getBoundingClientRect())
          .filter((box) => box.height > 0)
          .map((box) => Math.round(box.top)),
      );
      expect(tops.length).toBeGreaterThanOrEqual(6);
      expect(new Set(tops).size, `filter tops ${tops.join(', ')}`).toBe(1);
      for (const name of ['From', 'To']) {
        const field = page.getByRole('textbox', { name, exact: true }).or(page.getByLabel(name, { exact: true }));
        const wrapper = field.first().locator('xpath=..');
        await visible(wrapper.getByText(name, { exact: true }));
      }
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
  }, 120_000);

  it('offline with a saved copy: the standard "Showing the saved copy" notice above the queue it still lists', async () => {
    const { page } = app;
    await app.open('#/review');
    const list = page.getByTestId('review-list');
    await visible(list.getByRole('option').first());
    server.setFaults('error5xx=1');
    try {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      const notice = page.getByTestId('review-offline');
      await visible(notice.getByText('Showing the saved copy'), 60_000);
      expect(await notice.innerText()).toContain('Last fetched');
      expect(await notice.innerText()).not.toContain('showing the cached');
      expect(await list.getByRole('option').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('load-error').count()).toBe(0);
    } finally {
      server.setFaults('');
    }
  }, 120_000);

  it('offline with nothing saved: says the queue is not available offline, not "0 open" and "Nothing to review"', async () => {
    const { page, host } = app;
    const first = (await host.engine.invoke('profiles.list', {})).find((p) => p.isActive)!;
    // A tenant never read, whose address refuses connections.
    await host.engine.invoke('profiles.add', {
      name: 'Closed University',
      baseUrl: 'http://127.0.0.1:9',
      org: server.org,
      username: server.user,
      secret: server.apiKey,
      makeActive: true,
    });
    try {
      await app.open('#/review');
      await page.reload();
      // The app's banner says the tenant cannot be reached (with Check again); the queue only that it is not available.
      await visible(page.locator('main').getByTestId('not-available-offline'), 60_000);
      await visible(page.getByTestId('tenant-reach-banner').getByRole('button', { name: 'Check again' }));
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await page.getByTestId('review-total').count()).toBe(0);
      expect(await page.getByText('Nothing to review').count()).toBe(0);
      expect(await page.getByText('Showing the saved copy').count()).toBe(0);
    } finally {
      await host.engine.invoke('profiles.setActive', { id: first.id });
    }
  }, 120_000);
});
