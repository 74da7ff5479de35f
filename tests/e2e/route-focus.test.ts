/**
 * Keyboard focus across routes, in browser mode on a real engine and sandbox: a record opened with Enter on its row
 * (a person, a mentor) puts focus on the new page's heading, as does the browser's Back, instead of leaving it on the
 * body; and the window's first Tab stop is "Skip to content", which moves focus past the header and navigation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

/** The page's document, as `page.evaluate` sees it (these tests type-check against Node, not the DOM). */
declare const document: {
  activeElement: { tagName: string; textContent: string | null; closest(selector: string): unknown } | null;
};

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

/** The focused element: its tag, heading level and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return {
      tag: active?.tagName.toLowerCase() ?? 'none',
      text: (active?.textContent ?? '').trim(),
      inMain: !!active?.closest('main'),
    };
  });

describe('focus on navigation', () => {
  it('Enter on a person’s row focuses their page’s heading; Back focuses the list’s', async () => {
    const { page } = app;
    await app.open('#/people-and-access');
    await page.getByRole('searchbox', { name: 'Search users' }).fill('learner0005@');
    const row = page.getByTestId('resource-table').locator('tbody tr').first();
    await visible(row.getByText('learner0005@northbridge.example'));
    await row.getByRole('button').first().focus();
    await page.keyboard.press('Enter');
    const heading = page.getByTestId('person-page').getByRole('heading', { level: 2 });
    await visible(heading);
    const name = (await heading.textContent())!.trim();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h2', text: name, inMain: true });

    await page.goBack();
    await visible(page.getByRole('searchbox', { name: 'Search users' }));
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'People and access', inMain: true });
  });

  it('Enter on a mentor’s row focuses the mentor’s heading', async () => {
    const { page } = app;
    await app.open('#/mentors');
    const link = page.getByRole('table').getByRole('link').first();
    await visible(link);
    const name = (await link.textContent())!.trim();
    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: name, inMain: true });
  });

  it('the first Tab stop is “Skip to content”, which moves focus to the page’s heading', async () => {
    const { page } = app;
    await app.open('#/people-and-access');
    await visible(page.getByRole('heading', { name: 'People and access' }));
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to content' });
    await visible(page.getByRole('link', { name: 'Skip to content' }));
    await page.keyboard.press('Enter');
    expect(await focused(page)).toEqual({ tag: 'h1', text: 'People and access', inMain: true });
    // The route stays as it was.
    expect(page.url()).toMatch(/#\/people-and-access$/);
  });
});
