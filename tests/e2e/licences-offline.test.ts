/**
 * The access-request queue and a licence's page with the tenant out of reach, in browser mode on a real engine and
 * sandbox behind a proxy that can refuse it: never read, the queue says the requests could not be loaded (never "No
 * one is waiting") and the licence that it is not available; read before, each shows the saved copy, says so, and
 * changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { accessRequestStore, licenceStore } from '../../src/server/areas/licences';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { backInReach, openApp, timesSaidUnreachable, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;
let user: number;
let opened: number;
let neverOpened: number;

beforeAll(async () => {
  server = await sandbox();
  user = Number(
    server.db
      .prepare(
        `INSERT INTO users (username, email, first_name, org, role, date_joined)
         VALUES ('off-ada', 'ada@offline.test', 'Ada', ?, 'student', '2026-01-01T00:00:00Z')`,
      )
      .run(server.org).lastInsertRowid,
  );
  accessRequestStore(server.db).add(server.org, user, 'course-v1:main+OFF101+2026', new Date().toISOString());
  const licences = licenceStore(server.db);
  const now = new Date().toISOString();
  opened = Number(licences.createLicence(server.org, { name: 'Offline cohort', count: 5 }, now).id);
  neverOpened = Number(licences.createLicence(server.org, { name: 'Never opened', count: 3 }, now).id);
  licences.assign(server.org, { license_id: opened, user_id: user });
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
});

afterAll(async () => {
  proxy?.up();
  await app?.close();
});

const REFUSAL = 'Changes cannot be saved until the tenant can be reached.';

const reviewed = () =>
  server.db
    .prepare('SELECT reviewed FROM access_requests WHERE course_id = ?')
    .pluck()
    .get('course-v1:main+OFF101+2026');

describe('the access-request queue offline', () => {
  it('never read: says the requests could not be loaded, then shows them once the tenant answers', async () => {
    const { page } = app;
    proxy.down();
    try {
      await app.open('#/licences/access-requests');
      const queue = page.getByTestId('access-queue');
      // Not available offline: the app's banner alone says the tenant cannot be reached.
      await visible(queue.getByTestId('not-available-offline'), 30_000);
      await visible(page.getByTestId('tenant-reach-banner'));
      expect(await timesSaidUnreachable(page)).toBe(1);
      expect(await queue.innerText()).not.toMatch(/No one is waiting|Every request has been reviewed/);
      expect(await queue.getByRole('button', { name: /Approve|Deny/ }).count()).toBe(0);
    } finally {
      proxy.up();
    }
    // The banner's Check again finds the tenant and the queue is read; the app may also have asked again on its own
    // (its reach check), which takes the banner away before the click: either way the requests show.
    const shown = visible(page.getByTestId('access-request').getByText('course-v1:main+OFF101+2026'), 30_000);
    await Promise.race([shown, page.getByRole('button', { name: 'Check again' }).click({ timeout: 30_000 })]).catch(
      () => undefined,
    );
    await shown;
  });

  it('read before: shows the saved copy, says so, and Approve, Deny and their keys do nothing', async () => {
    const { page } = app;
    const shown = page.getByTestId('access-request');
    await visible(shown.getByText('course-v1:main+OFF101+2026'));
    proxy.down();
    try {
      await page.getByRole('button', { name: 'Refresh access requests' }).click();
      await visible(page.getByRole('status').filter({ hasText: 'Showing the saved copy' }), 30_000);
      await visible(shown.getByText('course-v1:main+OFF101+2026'));
      expect(await shown.getByRole('button', { name: /Approve/ }).isDisabled()).toBe(true);
      expect(await shown.getByRole('button', { name: /Deny/ }).isDisabled()).toBe(true);
      await shown.click();
      await page.keyboard.press('a');
      await page.keyboard.press('d');
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(reviewed()).toBe(0);
    } finally {
      proxy.up();
    }
  });

  it('found out of reach elsewhere: the fresh saved queue refuses reviews at once, the buttons and keys say why', async () => {
    const { page } = app;
    const banner = page.getByTestId('tenant-reach-banner');
    const shown = page.getByTestId('access-request');
    await app.open('#/licences/access-requests');
    await visible(shown.getByText('course-v1:main+OFF101+2026'));
    await backInReach(page);
    // The previous case left the saved copy on screen: read the queue again while the tenant answers.
    await page.getByRole('button', { name: 'Refresh access requests' }).click();
    const approve = shown.getByRole('button', { name: /Approve/ });
    await expect.poll(() => approve.getAttribute('aria-disabled'), { timeout: 30_000 }).toBeNull();
    proxy.down();
    try {
      // Another screen's call is what finds the tenant out of reach; the queue's own copy is still fresh.
      await app.open('#/tickets');
      await visible(banner, 30_000);
      await app.open('#/licences/access-requests');
      await visible(shown.getByText('course-v1:main+OFF101+2026'));
      for (const name of [/Approve/, /Deny/]) {
        expect(await shown.getByRole('button', { name }).getAttribute('aria-disabled'), String(name)).toBe('true');
      }
      await approve.focus();
      await visible(page.getByRole('tooltip').filter({ hasText: REFUSAL }));
      await page.keyboard.press('Enter');
      await shown.click();
      await page.keyboard.press('a');
      const refused = page.getByTestId('review-refused');
      await visible(refused);
      expect(await refused.innerText()).toContain(REFUSAL);
      await page.keyboard.press('d');
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await page.getByText(/Could not reach/).count()).toBe(0);
      expect(reviewed()).toBe(0);
    } finally {
      proxy.up();
    }
  });
});

describe('a licence’s page offline', () => {
  it('read before: the saved copy, said so, with every change off and the reason reached by the keyboard', async () => {
    const { page } = app;
    await app.open(`#/licences/licenses/${opened}`);
    await visible(page.getByRole('heading', { name: 'Offline cohort' }));
    await visible(page.getByTestId('seat-meter').getByText('1 of 5 seats used'));
    // A seat given on the tenant after this computer saved its copy: the copy does not know.
    const ben = Number(
      server.db
        .prepare(
          `INSERT INTO users (username, email, first_name, org, role, date_joined)
           VALUES ('off-ben', 'ben@offline.test', 'Ben', ?, 'student', '2026-01-01T00:00:00Z')`,
        )
        .run(server.org).lastInsertRowid,
    );
    licenceStore(server.db).assign(server.org, { license_id: opened, user_id: ben });
    proxy.down();
    try {
      await page.reload();
      await visible(page.getByRole('status').filter({ hasText: 'Showing the saved copy' }), 30_000);
      await visible(page.getByRole('heading', { name: 'Offline cohort' }));
      await visible(page.getByTestId('seat-meter').getByText('1 of 5 seats used'));
      await visible(page.getByRole('table', { name: 'People holding seats' }).getByText('off-ada'));
      for (const name of ['Give seats from a CSV file', 'Edit licence', 'Give the group seats', 'Release']) {
        expect(await page.getByRole('button', { name }).getAttribute('aria-disabled'), name).toBe('true');
      }
      expect(await page.getByLabel('User group', { exact: true }).first().isDisabled()).toBe(true);
      const release = page.getByRole('button', { name: 'Release' });
      await release.focus();
      await visible(
        page.getByRole('tooltip').filter({ hasText: 'Changes cannot be saved until the tenant can be reached.' }),
      );
      await page.keyboard.press('Enter');
      await release.click({ force: true });
      await page.getByRole('button', { name: 'Give seats from a CSV file' }).click({ force: true });
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      proxy.up();
    }
    // Back in reach, Refresh reads the tenant again: the seat given meanwhile shows, the banner goes.
    await page.getByRole('button', { name: 'Refresh this licence' }).click();
    await visible(page.getByTestId('seat-meter').getByText('2 of 5 seats used'), 30_000);
    await page.getByRole('status').filter({ hasText: 'Showing the saved copy' }).waitFor({ state: 'detached' });
    // Reach comes back by its own event, not with the seats' answer.
    await expect
      .poll(() => page.getByRole('button', { name: 'Release' }).first().getAttribute('aria-disabled'))
      .toBeNull();
  });

  it('never read: says the licence is not available offline, then shows it once the tenant answers', async () => {
    const { page } = app;
    proxy.down();
    try {
      await app.open(`#/licences/licenses/${neverOpened}`);
      await visible(page.locator('main').getByTestId('not-available-offline'), 30_000);
      expect(await page.getByTestId('seat-meter').count()).toBe(0);
      await expect.poll(() => timesSaidUnreachable(page), { timeout: 30_000 }).toBe(1);
    } finally {
      proxy.up();
    }
    const shown = visible(page.getByRole('heading', { name: 'Never opened' }), 30_000);
    await Promise.race([shown, page.getByRole('button', { name: 'Check again' }).click({ timeout: 30_000 })]).catch(
      () => undefined,
    );
    await shown;
  });
});
