/**
 * The date filters of Traces, Review and Analytics in the app's date format (Settings → Appearance), day first
 * (en-GB) here, on a real engine and demo sandbox: a day typed as 05/11/2026 means 5 November, the field writes it
 * "5 Nov 2026", and the list follows; on the calendar the days before the range's start cannot be picked, and a
 * range typed the wrong way round is said at its field.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let page: Page;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  app = await openApp(server);
  page = app.page;
  await app.host.engine.invoke('settings.set', { formatLocale: 'en-GB' });
}, 120_000);

afterAll(async () => {
  await app?.host.engine.invoke('settings.set', { formatLocale: 'system' });
  await app?.close();
});

const dayAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
/** "2026-11-05" as a day-first admin types it: "05/11/2026". */
const typedDayFirst = (day: string) => day.split('-').reverse().join('/');
/** en-GB's medium date, as the app writes every day: "5 Nov 2026". */
const british = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
/** The calendar's name of a day: "5 November 2026". */
const calendarName = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

async function typeDay(name: string, text: string) {
  const field = page.getByRole('textbox', { name, exact: true });
  await field.click();
  await field.press('Control+A');
  await field.pressSequentially(text);
  await field.press('Tab');
  return field;
}

describe('Traces', () => {
  it('reads a typed day first, writes it in the app’s format, ranks the range it makes, and says when it is backwards', async () => {
    await app.open('#/traces');
    const rows = page.getByTestId('traces-table').locator('tbody tr');
    await visible(rows.first(), 90_000);
    const to = dayAgo(0);
    const shown = await page.getByRole('textbox', { name: 'To', exact: true }).inputValue();
    expect(shown).toBe(british(to));
    // A start the demo's traces tell apart from the default month: fewer of them, not none.
    const whole = (await app.host.engine.invoke('review.traces', { rank: 'slowest', from: dayAgo(30), to, limit: 50 }))
      .traces.length;
    let from = '';
    let expected = 0;
    for (let days = 29; days >= 0 && !from; days--) {
      const count = (
        await app.host.engine.invoke('review.traces', { rank: 'slowest', from: dayAgo(days), to, limit: 50 })
      ).traces.length;
      if (count > 0 && count < whole) [from, expected] = [dayAgo(days), count];
    }
    expect(from, 'a day that narrows the demo traces').not.toBe('');

    const field = await typeDay('From', typedDayFirst(from));
    expect(await field.inputValue()).toBe(british(from));
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(expected);

    // The end cannot be picked before the start: those days are greyed out on its calendar.
    const toField = page.getByRole('textbox', { name: 'To', exact: true });
    await toField.focus();
    await toField.press('ArrowDown');
    const dayBefore = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    if (dayBefore.slice(0, 7) === to.slice(0, 7)) {
      expect(await page.getByRole('button', { name: calendarName(dayBefore), exact: true }).isDisabled()).toBe(true);
    }
    // The keyboard starts on the chosen day; Escape closes the calendar and gives the field its focus back.
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(calendarName(to));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('button', { name: calendarName(to), exact: true }).count()).toBe(0);
    expect(await toField.evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true);

    // Typed the wrong way round: the field says so, under it.
    await typeDay('To', typedDayFirst(dayBefore));
    await visible(page.getByText(`Pick ${british(from)} or later: the range starts then.`));
  }, 180_000);
});

describe('Review', () => {
  it('narrows the queue to the day picked on the calendar, written in the app’s format', async () => {
    await app.open('#/review');
    await visible(page.getByTestId('review-list').getByRole('option').first(), 60_000);
    const total = (await app.host.engine.invoke('review.list', { filter: { state: 'open' } })).total;
    // A start in this month (the calendar opens on it) that leaves some of the queue out.
    let from = '';
    let expected = 0;
    for (let days = 0; days < 31 && dayAgo(days).slice(0, 7) === dayAgo(0).slice(0, 7); days++) {
      const count = (await app.host.engine.invoke('review.list', { filter: { state: 'open', from: dayAgo(days) } }))
        .total;
      if (count > 0 && count < total) [from, expected] = [dayAgo(days), count];
    }
    if (!from) return expect.fail('no day of this month narrows the demo review queue');

    await page.getByRole('button', { name: 'Pick a day for “From”' }).click();
    await page.getByRole('button', { name: calendarName(from), exact: true }).click();
    const field = page.getByRole('textbox', { name: 'From', exact: true });
    expect(await field.inputValue()).toBe(british(from));
    await expect
      .poll(() => page.getByTestId('review-total').innerText(), { timeout: 30_000 })
      .toMatch(new RegExp(`^${expected.toLocaleString('en-GB')} `));
    // Cleared, the whole queue is back.
    await page.getByRole('button', { name: 'Clear from' }).click();
    expect(await field.inputValue()).toBe('');
    await expect
      .poll(() => page.getByTestId('review-total').innerText(), { timeout: 30_000 })
      .toMatch(new RegExp(`^${total.toLocaleString('en-GB')} `));
  }, 120_000);
});

describe('Analytics', () => {
  it('applies a custom range typed day first, and refuses one the wrong way round at its fields', async () => {
    await app.open('#/analytics');
    await page.getByText('Custom', { exact: true }).click();
    await page.getByTestId('custom-range').click();
    await typeDay('From', '31/10/2026');
    await typeDay('To', '01/10/2026');
    await visible(page.getByText(`Pick ${british('2026-10-31')} or later: the range starts then.`));
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);

    await typeDay('From', '01/10/2026');
    await typeDay('To', '30/10/2026');
    expect(await page.getByRole('textbox', { name: 'From', exact: true }).inputValue()).toBe('1 Oct 2026');
    expect(await page.getByRole('textbox', { name: 'To', exact: true }).inputValue()).toBe('30 Oct 2026');
    await page.getByRole('button', { name: 'Apply' }).click();
    // Day first: 1 to 30 October, not January's 10th to a 30th month.
    await expect.poll(() => page.getByTestId('range-summary').innerText()).toMatch(/1\s?–\s?30 Oct 2026/);
  }, 120_000);
});
