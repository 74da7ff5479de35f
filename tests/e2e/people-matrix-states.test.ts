/**
 * The access matrix's and a person's page's states in browser mode, on a real engine and sandbox reached through a
 * proxy that can refuse it (the tenant offline): unsaved matrix edits kept as this tenant's draft across tabs, screens
 * and tenant switches (and never shown under another tenant); the grid's box as tall as its rows up to the window;
 * offline, the saved copy said and read-only; and a person's page out of reach, said once by the app's banner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { backInReach, dismissNotifications, openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;
const SECOND = 'Second Campus';
const CELL = 'Draft keepers: read Roles';

beforeAll(async () => {
  server = await sandbox();
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
  // The same organisation under another name: its roles have the same ids, so a draft keyed by role alone would show.
  await app.host.engine.invoke('profiles.add', {
    name: SECOND,
    baseUrl: proxy.url,
    org: server.org,
    username: server.user,
    secret: server.apiKey,
    makeActive: false,
  });
  await call(server, 'POST', '/api/core/rbac/roles/', {
    json: { platform_key: server.org, name: 'Draft keepers', actions: [] },
  });
});

afterAll(async () => {
  await app?.close();
});

const grid = () => app.page.getByTestId('access-matrix');
const cell = () => grid().getByRole('checkbox', { name: CELL });
const review = (roles: string) => app.page.getByRole('button', { name: `Review ${roles}` });

async function openMatrix(): Promise<void> {
  await app.page.getByRole('tab', { name: 'Access matrix' }).click();
  await visible(cell());
}

async function switchTo(name: string): Promise<void> {
  const { page } = app;
  await dismissNotifications(page);
  await page.getByTestId('tenant-switcher').click();
  await page.getByRole('option').filter({ hasText: name }).first().click();
  await expect.poll(() => page.getByTestId('tenant-switcher').inputValue()).toBe(name);
}

describe('unsaved changes to the access matrix', () => {
  it('are kept as this tenant’s draft across tabs, screens and tenants, and only under this tenant', async () => {
    const { page } = app;
    await app.open('#/people-and-access/access-matrix');
    await visible(cell());
    await cell().click();
    await visible(review('1 role'));

    // Another tab of the screen, and back.
    await page.getByRole('tab', { name: 'Roles', exact: true }).click();
    await visible(page.getByTestId('resource-table'));
    await openMatrix();
    expect(await cell().isChecked()).toBe(true);
    await visible(review('1 role'));
    await visible(page.getByTestId('matrix-draft-note'));

    // Another screen, and back.
    await page.getByRole('link', { name: 'Mentors' }).click();
    await page.waitForURL(/#\/mentors$/);
    await page.goBack();
    await visible(cell());
    expect(await cell().isChecked()).toBe(true);

    // Another tenant with the same roles: none of this draft; and back, the draft again.
    await switchTo(SECOND);
    await app.open('#/people-and-access/access-matrix');
    await visible(cell());
    expect(await cell().isChecked()).toBe(false);
    expect(await review('changes').isDisabled()).toBe(true);
    await switchTo('Sandbox University');
    await app.open('#/people-and-access/access-matrix');
    await visible(cell());
    expect(await cell().isChecked()).toBe(true);

    // The diff is still there to review; then discarded, the draft is gone.
    await review('1 role').click();
    const dialog = page.getByRole('dialog', { name: 'Review changes to roles' });
    await visible(dialog.getByText('+ Roles: read'));
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await cell().isChecked()).toBe(false);
    await page.reload();
    await visible(cell());
    expect(await cell().isChecked()).toBe(false);
    expect(await review('changes').isDisabled()).toBe(true);
  });
});

/** The grid's scrolling box: its height, its content's, and where it ends in the window. */
const BOX = `(() => {
  const table = document.querySelector('[data-testid="access-matrix"]');
  let box = table.parentElement;
  while (box && getComputedStyle(box).overflowY === 'visible') box = box.parentElement;
  const rect = box.getBoundingClientRect();
  return { client: box.clientHeight, scroll: box.scrollHeight, height: rect.height, window: innerHeight };
})()`;

describe('the access matrix’s box', () => {
  it('is as tall as its rows when they fit the window, and never taller than the window', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1400, height: 900 });
    // 16 rows: more than the old fixed box held, fewer than the window does.
    await call(server, 'POST', '/api/core/rbac/roles/', {
      json: {
        platform_key: server.org,
        name: 'Wide readers',
        actions: ['Ibl.Demo/Alpha/read', 'Ibl.Demo/Beta/read', 'Ibl.Demo/Gamma/read'],
      },
    });
    await app.open('#/people-and-access/access-matrix');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await visible(grid().getByRole('checkbox', { name: 'Wide readers: read Demo / Gamma' }));
    const fits = (await page.evaluate(BOX)) as { client: number; scroll: number; height: number; window: number };
    expect(fits.scroll).toBeGreaterThan(520);
    // No scroll of its own: every row, the last one's label too, in the box.
    expect(fits.scroll).toBeLessThanOrEqual(fits.client + 1);

    await call(server, 'POST', '/api/core/rbac/roles/', {
      json: {
        platform_key: server.org,
        name: 'Many readers',
        actions: Array.from({ length: 30 }, (_, i) => `Ibl.Many/R${String(i).padStart(2, '0')}/read`),
      },
    });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await visible(grid().getByRole('checkbox', { name: 'Many readers: read Many / R29' }));
    const tall = (await page.evaluate(BOX)) as { client: number; scroll: number; height: number; window: number };
    expect(tall.scroll).toBeGreaterThan(tall.client);
    expect(tall.height).toBeLessThanOrEqual(tall.window);
  });
});

describe('the access matrix at 1000×650', () => {
  it('says which roles show, scrolls the rest into view by buttons and keys, and keeps its first columns', async () => {
    const { page } = app;
    for (const name of ['Department managers of the north', 'Mentor editors of the north', 'Zebra last role']) {
      await call(server, 'POST', '/api/core/rbac/roles/', { json: { platform_key: server.org, name, actions: [] } });
    }
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open('#/people-and-access/access-matrix');
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await visible(grid().getByRole('checkbox', { name: 'Zebra last role: read Roles' }));
      const cue = page.getByTestId('matrix-columns');
      await visible(cue);
      expect(await cue.innerText()).toMatch(/^Roles 1–\d+ of \d+/);
      // The cue is in the window, not at the bottom of a box below it.
      const cueBox = (await cue.boundingBox())!;
      expect(cueBox.y + cueBox.height).toBeLessThanOrEqual(650);
      const scroller = grid().locator(
        'xpath=ancestor::div[contains(concat(" ", @class, " "), " mantine-TableScrollContainer-scrollContainer ")][1]',
      );
      const inView = (name: string) =>
        scroller.evaluate((box, role) => {
          const th = [...box.querySelectorAll('[data-role-column]')].find((cell) => cell.textContent === role)!;
          const outer = box.getBoundingClientRect();
          const rect = th.getBoundingClientRect();
          return rect.left >= outer.left + 150 + 64 - 1 && rect.right <= outer.right + 1;
        }, name);
      expect(await inView('Zebra last role')).toBe(false);
      const more = cue.getByRole('button', { name: 'More roles' });
      for (let i = 0; i < 10 && !(await more.isDisabled()); i++) {
        await more.click();
        await page.waitForTimeout(400);
      }
      await expect.poll(() => inView('Zebra last role')).toBe(true);
      // The resource column stays at the box's left edge while the roles scroll under it.
      const pinned = await scroller.evaluate((box) => {
        const first = box.querySelector('thead th')!.getBoundingClientRect();
        return Math.abs(first.left - box.getBoundingClientRect().left) < 2 && box.scrollLeft > 0;
      });
      expect(pinned).toBe(true);
      // Back by the keyboard: Home on a row shows its first role clear of the pinned columns.
      await cue.getByRole('button', { name: 'Earlier roles' }).isEnabled();
      await grid().getByRole('checkbox', { name: 'Zebra last role: read Roles' }).focus();
      await page.keyboard.press('Home');
      await expect.poll(() => cue.getByRole('button', { name: 'Earlier roles' }).isDisabled()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});

describe('offline', () => {
  it('the access matrix shows the saved copy, says so, and cannot be edited', async () => {
    const { page } = app;
    await app.open('#/people-and-access/access-matrix');
    await visible(cell());
    await cell().click();
    const banner = page.getByRole('status').filter({ hasText: 'Showing the saved copy' });
    proxy.down();
    try {
      // Asked again (or read again once the saved copy is 30 s old), the tenant does not answer.
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await visible(banner, 30_000);
      const readOnly = async () => {
        await visible(cell());
        expect(await cell().isDisabled()).toBe(true);
        // The draft stays in view, but cannot be reviewed for a save that cannot happen.
        expect(await cell().isChecked()).toBe(true);
        expect(await review('1 role').isDisabled()).toBe(true);
        expect(await page.locator('main').getByRole('alert').count()).toBe(0);
        // The app's banner says the tenant cannot be reached; the list only how old its copy is.
        await expect.poll(() => timesSaidUnreachable(page), { timeout: 30_000 }).toBe(1);
        expect(await banner.innerText()).toMatch(/^Showing the saved copy as of \S/);
      };
      await readOnly();
      // Opened again while the tenant is still away: the same.
      await page.reload();
      await visible(banner, 30_000);
      await readOnly();
      await page.getByRole('button', { name: 'Discard changes' }).click();
    } finally {
      proxy.up();
    }
    // Back: the saved copy is read again and may be edited.
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await cell().isDisabled()).toBe(false);
  });

  it('a person’s page: the app’s banner alone says the tenant cannot be reached, its sections what is saved or not available offline', async () => {
    const { page } = app;
    const id = server.db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(server.studentUser);
    await app.open(`#/people-and-access/users/${id}`);
    const person = page.getByTestId('person-page');
    const memberships = person.getByTestId('person-memberships');
    await visible(memberships.getByText('Medicine'));
    const banner = page.getByTestId('tenant-reach-banner');
    proxy.down();
    try {
      await page.reload();
      await visible(banner, 30_000);
      // Every section has answered or failed.
      await expect.poll(() => person.locator('[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
      // Said once, by the banner: no alert of the page's own, no Try again in each section.
      await expect.poll(() => page.locator('main').getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await banner.innerText()).toContain('cannot be reached');
      expect(await page.locator('main').getByRole('button', { name: 'Try again' }).count()).toBe(0);
      const unavailable = person.getByTestId('section-unavailable');
      expect(await unavailable.count()).toBeGreaterThan(0);
      for (const text of await unavailable.allInnerTexts()) expect(text).toBe('Not available offline');
      // What is saved still shows, saying only how old it is.
      await visible(memberships.getByText('Medicine'));
      expect(await memberships.getByTestId('person-memberships-saved-copy').innerText()).toMatch(
        /^Showing the saved copy as of \S/,
      );
    } finally {
      proxy.up();
    }
    // Back: The tenant answers; the sections read again.
    await backInReach(page);
    await expect.poll(() => person.getByTestId('section-unavailable').count(), { timeout: 30_000 }).toBe(0);
    // Each section reads again on its own: the memberships' saved copy goes when its own answer comes.
    await expect
      .poll(() => memberships.getByTestId('person-memberships-saved-copy').count(), { timeout: 30_000 })
      .toBe(0);
  });
});
