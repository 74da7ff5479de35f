/**
 * The access-request queue with the tenant out of reach, in browser mode on a real engine and sandbox behind a proxy
 * that can refuse it: never read, it says the requests could not be loaded (never "No one is waiting"); read before,
 * it shows the saved copy, says so, and reviews nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { accessRequestStore } from '../../src/server/areas/licences';
import { sandbox } from '../helpers/sandbox';
import { switchableProxy, type SwitchableProxy } from '../helpers/switchable-proxy';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let proxy: SwitchableProxy;

beforeAll(async () => {
  server = await sandbox();
  const user = Number(
    server.db
      .prepare(
        `INSERT INTO users (username, email, first_name, org, role, date_joined)
         VALUES ('off-ada', 'ada@offline.test', 'Ada', ?, 'student', '2026-01-01T00:00:00Z')`,
      )
      .run(server.org).lastInsertRowid,
  );
  accessRequestStore(server.db).add(server.org, user, 'course-v1:main+OFF101+2026', new Date().toISOString());
  proxy = await switchableProxy(server);
  app = await openApp({ ...server, url: proxy.url } as Sandbox);
});

afterAll(async () => {
  proxy?.up();
  await app?.close();
});

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
      await visible(queue.getByRole('alert').filter({ hasText: 'Access requests could not be loaded' }), 30_000);
      expect(await queue.innerText()).not.toMatch(/No one is waiting|Every request has been reviewed/);
      expect(await queue.getByRole('button', { name: /Approve|Deny/ }).count()).toBe(0);
    } finally {
      proxy.up();
    }
    // Try again reads them; the app may also have asked again on its own once it found the tenant answering (its
    // reach check), which takes the button away before the click: either way the requests show.
    const shown = visible(page.getByTestId('access-request').getByText('course-v1:main+OFF101+2026'), 30_000);
    await Promise.race([shown, page.getByRole('button', { name: 'Try again' }).click({ timeout: 30_000 })]).catch(
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
});
