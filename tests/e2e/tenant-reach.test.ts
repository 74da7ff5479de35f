/**
 * A tenant out of reach, app-wide, in browser mode on a real engine with two real sandboxes: one behind a proxy that
 * stops answering, one that keeps answering. Once any call finds the first tenant out of reach, the shell says so once
 * and every screen of that tenant refuses changes — a list still served from its fresh saved copy included, before its
 * own refresh has failed — while the other tenant's screens stay as they were. The banner is the one place that says
 * the tenant cannot be reached: a screen's own notices only say how old their copy is or that a part is not available
 * offline. The mentor page's tabs say what they could not read rather than show made-up values, and every tab's
 * writes (Settings, Evaluations and Memory included) are off with the reason until the tenant answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { backInReach, openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

let server: Sandbox;
let other: Sandbox;
let proxy: SwitchableProxy;
let app: OpenApp;
let mainId: string;
let otherId: string;
let mentor: { unique_id: string };

const REFUSAL = 'Changes cannot be saved until the tenant can be reached.';
const LEARNER = 'reach-learner';
const userPath = (s: Sandbox) => `/api/ai-mentor/orgs/${s.org}/users/${s.user}/`;

beforeAll(async () => {
  server = await sandbox();
  other = await sandbox();
  mentor = (await call(server, 'POST', userPath(server), { json: { name: 'Lab Coach' } })).body as {
    unique_id: string;
  };
  await call(other, 'POST', userPath(other), { json: { name: 'Other Coach' } });
  // An evaluation to run and a learner with a memory to clear, for the mentor's Evaluations and Memory tabs.
  await call(server, 'POST', `${userPath(server)}mentors/${mentor.unique_id}/mentor-eval/`, {
    json: { name: 'Basics', questions: [{ content: 'What is a lab coat for?', sample_answer: 'Protection.' }] },
  });
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
       VALUES (?, 'rita@reach.example', 'Rita', 'Reach', ?, 'student', '2026-11-01T08:00:00.000Z')`,
    )
    .run(LEARNER, server.org);
  remember(server.db, server.org, {
    username: LEARNER,
    mentor: mentor.unique_id,
    category: 'knowledge_gaps',
    value: 'titration',
    at: '2026-11-02T09:30:00Z',
  });
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
      expect(await timesSaidUnreachable(page)).toBe(1);
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

      // Check again asks the tenant (its one light read): still no answer, so the banner stays.
      const probe = new RegExp(`^GET /api/ai-mentor/orgs/${server.org}/users/${server.user}/\\?(?=.*page_size=1\\b)`);
      const asked = () => proxy.refused.filter((line) => probe.test(line)).length;
      const before = asked();
      await banner.getByRole('button', { name: 'Check again' }).click();
      await expect.poll(asked, { timeout: 15_000 }).toBeGreaterThan(before);
      await expect.poll(() => banner.getByRole('button', { name: 'Check again' }).isEnabled()).toBe(true);
      await visible(banner);
    } finally {
      proxy.up();
    }
    // Back: the banner goes and changes are allowed again.
    await backInReach(page);
    // The banner goes at once; the list, if its refresh failed meanwhile, is fresh when it reads again.
    await expect.poll(() => newMentor.getAttribute('aria-disabled'), { timeout: 30_000 }).toBeNull();
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
      // Never read: not available offline, said without repeating why (the banner says it).
      await visible(page.locator('[data-testid="not-available-offline"]:visible'), 30_000);
      expect(await filter.innerText()).not.toMatch(/\d/);

      // Said once, by the banner: not again by the tab's own notices.
      expect(await timesSaidUnreachable(page)).toBe(1);

      await page.getByRole('tab', { name: 'Knowledge', exact: true }).click();
      const knowledge = page.getByTestId('mentor-knowledge');
      // The tools: the saved settings' copy, not a placeholder waiting for ever.
      await visible(knowledge.getByTestId('tools-saved-copy'), 30_000);
      // What was never read says only that it is not available offline; nothing repeats the banner.
      await visible(knowledge.getByText('Not available offline').first(), 30_000);
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
      expect(await page.getByRole('alert').filter({ hasText: 'cannot be reached' }).count()).toBe(0);
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await banner.innerText()).toContain('Sandbox University cannot be reached');

      await page.getByRole('tab', { name: 'Sharing', exact: true }).click();
      expect(await page.getByRole('button', { name: 'Fork mentor…' }).getAttribute('aria-disabled')).toBe('true');

      await page.getByRole('tab', { name: 'Voice', exact: true }).click();
      const voice = page.getByTestId('mentor-voice');
      await visible(voice.getByText('Not available offline').first(), 30_000);
      expect(await page.getByRole('alert').filter({ hasText: 'cannot be reached' }).count()).toBe(0);
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await voice.getByRole('button', { name: 'Listen' }).isDisabled()).toBe(true);
      expect(await voice.getByRole('button', { name: 'Add a voice…' }).getAttribute('aria-disabled')).toBe('true');
    } finally {
      proxy.up();
    }
  });

  it("the mentor's Settings, Evaluations and Memory tabs: their writes off with the reason while out of reach, on again once it answers", async () => {
    const { page } = app;
    const banner = page.getByTestId('tenant-reach-banner');
    const tab = (name: string) => page.getByRole('tab', { name, exact: true });
    const onPlatform = async () =>
      (await call(server, 'GET', `${userPath(server)}mentors/${mentor.unique_id}/settings/`)).body as Record<
        string,
        unknown
      >;
    await app.open(`#/mentors/${mentor.unique_id}/settings`);
    const settings = page.getByTestId('mentor-settings');
    const saveSettings = settings.getByRole('button', { name: 'Save settings' });
    const displayName = settings.getByRole('textbox', { name: 'Display name' });
    // One save while the tenant answers: the history then has a snapshot to revert to.
    await visible(displayName, 30_000);
    await displayName.fill('Lab Coach Online');
    await saveSettings.click();
    await visible(settings.getByText('Saved.'));
    const revert = settings.getByTestId('settings-history').getByRole('button', { name: 'Revert to this' });
    await visible(revert);
    // An edit not saved yet: Save settings is on.
    await displayName.fill('Lab Coach Draft');
    await expect.poll(() => saveSettings.isEnabled()).toBe(true);

    await tab('Evaluations').click();
    const evaluations = page.getByTestId('mentor-evaluations');
    const saveEvaluation = evaluations.getByRole('button', { name: 'Save evaluation' });
    const runEvaluation = evaluations.getByRole('button', { name: 'Run evaluation' });
    await visible(evaluations.getByText(/^1 question, each answered/), 30_000);
    expect(await runEvaluation.isEnabled()).toBe(true);
    expect(await runEvaluation.getAttribute('aria-disabled')).toBeNull();

    // The learner is picked on the tab itself (forgotten when another tab is shown): the Memory tab is checked first.
    await tab('Memory').click();
    const memory = page.getByTestId('mentor-memory');
    const clearMemory = memory.getByRole('button', { name: 'Clear memory…' });
    const pickLearner = async () => {
      await memory
        .getByRole('textbox', { name: 'Learner' })
        .or(memory.getByRole('combobox', { name: 'Learner' }))
        .fill(LEARNER);
      await page.getByRole('option', { name: 'Rita Reach' }).click();
      await visible(memory.getByText('titration').first(), 30_000);
    };
    await pickLearner();
    await expect.poll(() => clearMemory.isEnabled()).toBe(true);
    expect(await clearMemory.getAttribute('aria-disabled')).toBeNull();

    const writes = [
      ['Memory', clearMemory],
      ['Settings', saveSettings],
      ['Settings', revert],
      ['Evaluations', saveEvaluation],
      ['Evaluations', runEvaluation],
    ] as const;
    proxy.down();
    try {
      // The engine learns it from a check (as from any call): the banner, and every write of the page off.
      await app.host.engine.invoke('tenants.probe', { profileId: mainId });
      await visible(banner, 30_000);
      for (const [name, button] of writes) {
        await tab(name).click();
        await expect.poll(() => button.getAttribute('aria-disabled'), { timeout: 30_000 }).toBe('true');
        // The reason, reached by the keyboard as by the mouse; Enter does nothing. (Reached by Tab: a script's
        // focus() after a click is not the keyboard's focus, which opens the tooltip.)
        await button.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        await expect.poll(() => button.evaluate((element) => element.matches(':focus'))).toBe(true);
        // Its tooltip only, once the one of the button passed on the way has closed.
        await expect.poll(() => page.getByRole('tooltip').filter({ hasText: REFUSAL }).count()).toBe(1);
        await page.keyboard.press('Enter');
        expect(await page.getByRole('dialog').count()).toBe(0);
        expect(await timesSaidUnreachable(page)).toBe(1);
      }
      // Enter in a field submits the form: nothing is sent either.
      await tab('Settings').click();
      await displayName.press('Enter');
      expect(await onPlatform()).toMatchObject({ display_name: 'Lab Coach Online' });
    } finally {
      proxy.up();
    }
    // Back: The tenant answers, and every write is on again.
    await backInReach(page);
    for (const [name, button] of writes) {
      await tab(name).click();
      if (button === clearMemory) await pickLearner();
      await expect.poll(() => button.getAttribute('aria-disabled'), { timeout: 30_000 }).toBeNull();
      // Save evaluation waits for a change, as it did before.
      if (button !== saveEvaluation) await expect.poll(() => button.isEnabled(), { message: name }).toBe(true);
    }
    // Saved once the tenant answers.
    await tab('Settings').click();
    await saveSettings.click();
    await visible(settings.getByText('Saved.'));
    expect(await onPlatform()).toMatchObject({ display_name: 'Lab Coach Draft' });
  });
});
