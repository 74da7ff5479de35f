/**
 * A tenant out of reach, app-wide, in browser mode on a real engine with two real sandboxes: one behind a proxy that
 * stops answering, one that keeps answering. Once any call finds the first tenant out of reach, the shell says so once
 * and every screen of that tenant refuses changes — a list still served from its fresh saved copy included, before its
 * own refresh has failed — while the other tenant's screens stay as they were. The mentor page's tabs say what they
 * could not read rather than show made-up values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let other: Sandbox;
let proxy: SwitchableProxy;
let app: OpenApp;
let mainId: string;
let otherId: string;
let mentor: { unique_id: string };

const REFUSAL = 'Changes cannot be saved until the tenant can be reached.';
const userPath = (s: Sandbox) => `/api/ai-mentor/orgs/${s.org}/users/${s.user}/`;

beforeAll(async () => {
  server = await sandbox();
  other = await sandbox();
  mentor = (await call(server, 'POST', userPath(server), { json: { name: 'Lab Coach' } })).body as {
    unique_id: string;
  };
  await call(other, 'POST', userPath(other), { json: { name: 'Other Coach' } });
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
  mainId = (await app.host.engine.invoke('profiles.list', {})).find((p) => p.isActive)!.id;
  otherId = (
    await app.host.engine.invoke('profiles.add', {
      name: 'Other University',
      baseUrl: other.url,
      org: other.org,
      username: other.user,
      secret: other.apiKey,
    })
  ).id;
});

afterAll(async () => {
  proxy?.up();
  await app?.close();
});

describe('a tenant out of reach', () => {
  it('one banner, and a list from its fresh saved copy refuses changes before its own refresh fails; the other tenant is untouched', async () => {
    const { page } = app;
    const banner = page.getByTestId('tenant-reach-banner');
    const newMentor = page.getByRole('button', { name: 'New mentor' });
    await app.open('#/mentors');
    await visible(page.getByTestId('mentor-row-Lab Coach'));
    expect(await banner.count()).toBe(0);
    expect(await newMentor.getAttribute('aria-disabled')).toBeNull();

    proxy.down();
    try {
      // Another screen's call is what finds the tenant out of reach.
      await app.open('#/tickets');
      await visible(banner, 30_000);
      expect(await banner.innerText()).toContain('Sandbox University cannot be reached');
      expect(await banner.innerText()).toContain('Showing saved copies; changes cannot be saved');

      // Back on the mentors, still served from the saved copy it read a moment ago (its own refresh has not failed).
      await app.open('#/mentors');
      await visible(page.getByTestId('mentor-row-Lab Coach'));
      expect(await page.getByRole('status').filter({ hasText: 'Showing the saved copy' }).count()).toBe(0);
      expect(await banner.count()).toBe(1);
      for (const name of ['New mentor', 'Import mentor…', 'Edit Lab Coach', 'Delete Lab Coach']) {
        expect(await page.getByRole('button', { name }).getAttribute('aria-disabled'), name).toBe('true');
      }
      // The reason reaches the keyboard: focus opens the tooltip; pressing does nothing.
      await newMentor.focus();
      await visible(page.getByRole('tooltip').filter({ hasText: REFUSAL }));
      await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
      expect(await page.getByRole('dialog').count()).toBe(0);

      // The other tenant answers: no banner, its changes allowed.
      await app.host.engine.invoke('profiles.setActive', { id: otherId });
      await visible(page.getByTestId('mentor-row-Other Coach'));
      expect(await banner.count()).toBe(0);
      expect(await newMentor.getAttribute('aria-disabled')).toBeNull();

      await app.host.engine.invoke('profiles.setActive', { id: mainId });
      await visible(page.getByTestId('mentor-row-Lab Coach'));
      await visible(banner);
    } finally {
      proxy.up();
    }
    // Back: Check again asks the tenant, the banner goes and changes are allowed again.
    await banner.getByRole('button', { name: 'Check again' }).click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await newMentor.getAttribute('aria-disabled')).toBeNull();
  });

  it("the mentor's page and tabs: changes off, no made-up counts, one notice per tab, Listen off", async () => {
    const { page } = app;
    const banner = page.getByTestId('tenant-reach-banner');
    // Read once while the tenant answers: the mentor and its settings are saved on this computer.
    await app.open(`#/mentors/${mentor.unique_id}/settings`);
    await visible(page.getByRole('heading', { name: 'Lab Coach' }));
    await visible(page.getByRole('tabpanel').getByRole('button', { name: 'Edit' }).or(page.getByText('Model')).first());

    proxy.down();
    try {
      await app.open(`#/mentors/${mentor.unique_id}/documents`);
      await visible(banner, 30_000);
      for (const name of ['Edit', 'Export…', 'Copy to tenant…', 'Delete', 'Add documents…']) {
        expect(await page.getByRole('button', { name, exact: true }).first().getAttribute('aria-disabled'), name).toBe(
          'true',
        );
      }
      // Documents never read: no count is shown for them.
      const filter = page.getByRole('radiogroup', { name: 'Filter documents by status' });
      await visible(page.getByRole('alert').filter({ hasText: 'Documents could not be loaded' }), 30_000);
      expect(await filter.innerText()).not.toMatch(/\d/);

      await page.getByRole('tab', { name: 'Knowledge', exact: true }).click();
      const knowledge = page.getByTestId('mentor-knowledge');
      await visible(page.getByRole('alert').filter({ hasText: 'The tenant cannot be reached' }), 30_000);
      // The tools: the saved settings' copy, not a placeholder waiting for ever.
      await visible(knowledge.getByTestId('tools-saved-copy'), 30_000);
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
      expect(await page.getByRole('alert').filter({ hasText: 'The tenant cannot be reached' }).count()).toBe(1);

      await page.getByRole('tab', { name: 'Sharing', exact: true }).click();
      expect(await page.getByRole('button', { name: 'Fork mentor…' }).getAttribute('aria-disabled')).toBe('true');

      await page.getByRole('tab', { name: 'Voice', exact: true }).click();
      const voice = page.getByTestId('mentor-voice');
      await visible(page.getByRole('alert').filter({ hasText: 'The tenant cannot be reached' }), 30_000);
      expect(await page.getByRole('alert').filter({ hasText: 'The tenant cannot be reached' }).count()).toBe(1);
      expect(await voice.getByRole('button', { name: 'Listen' }).isDisabled()).toBe(true);
      expect(await voice.getByRole('button', { name: 'Add a voice…' }).getAttribute('aria-disabled')).toBe('true');
    } finally {
      proxy.up();
    }
  });
});
