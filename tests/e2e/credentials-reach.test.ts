/**
 * Credentials with the tenant out of reach (refused connections, found by another screen), in browser mode on a real
 * engine and demo sandbox behind a proxy that can refuse it: the badge list still served from its fresh saved copy
 * refuses defining and issuing at once, with the reason on the buttons; a badge whose holders were never read says
 * they are not available, under the app-wide notice, without a second raw error or its own "Edit tenant…".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

const REFUSAL = 'Changes cannot be saved until the tenant can be reached.';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
}, 180_000);

afterAll(async () => {
  proxy?.up();
  await app?.close();
});

describe('Credentials while the tenant cannot be reached', () => {
  it('writes off with the reason, holders never read "not available" without a second raw error', async () => {
    const { page } = app;
    const banner = page.getByTestId('tenant-reach-banner');
    await app.open('#/credentials');
    const list = page.getByTestId('badge-list');
    await visible(list, 60_000);
    const define = page.getByRole('button', { name: 'Define badge' });
    expect(await define.getAttribute('aria-disabled')).toBeNull();

    proxy.down();
    try {
      // The engine finds the tenant out of reach (its reach check) while the screen shows the list it read: the
      // writes go off at once, before the list's own read fails.
      const profileId = (await app.host.engine.invoke('profiles.list', {})).find((p) => p.isActive)!.id;
      await app.host.engine.invoke('tenants.probe', { profileId });
      await visible(banner, 30_000);
      await expect.poll(() => define.getAttribute('aria-disabled')).toBe('true');
      expect(await page.getByRole('status').filter({ hasText: 'Showing the saved copy' }).count()).toBe(0);
      await list.getByRole('row', { name: /Data Structures completer/ }).click();
      const detail = page.getByTestId('badge-detail');
      await visible(detail.getByTestId('holders-unavailable'), 30_000);
      expect(await detail.getByTestId('holders-unavailable').innerText()).toBe('Not available offline');
      const issue = detail.getByRole('button', { name: 'Issue to course completers…' });
      const fromFile = detail.getByRole('button', { name: 'Issue from a CSV file…' });
      for (const action of [define, issue, fromFile]) {
        expect(await action.getAttribute('aria-disabled')).toBe('true');
      }
      // Keyboard only (the row was clicked, so focus from the keyboard is what shows the tooltip, as for a user).
      await issue.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await visible(page.getByRole('tooltip').filter({ hasText: REFUSAL }).last());
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);
      // One notice: the banner says it; the card neither repeats the raw error nor offers its own Edit tenant….
      const card = await detail.innerText();
      expect(card).not.toMatch(/ECONNREFUSED|Could not reach/);
      expect(await detail.getByRole('button', { name: /Edit tenant/ }).count()).toBe(0);
      expect(await banner.count()).toBe(1);
      // The badge list read again (it fails): it says it is the saved copy, without repeating the raw error.
      await app.open('#/tickets');
      await app.open('#/credentials');
      await visible(page.getByTestId('badges-saved-copy'), 30_000);
      expect(await page.getByTestId('badges-saved-copy').innerText()).toMatch(/^Showing the saved copy as of \S/);
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await page.locator('main').innerText()).not.toMatch(/ECONNREFUSED|ECONNRESET|Could not reach/);
    } finally {
      proxy.up();
    }
  }, 180_000);
});
