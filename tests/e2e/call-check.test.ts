/**
 * Call credentials on a mentor's Voice tab (browser mode, real engine and sandbox), keyboard only: a mentor without a
 * call configuration is refused in the platform's words; once it has one, the call's server, room and participant are
 * shown and the participant token (a signed JWT) never reaches the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: string;

beforeAll(async () => {
  server = await sandbox();
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name: 'Call Coach' },
  });
  mentor = String((made.body as { unique_id: string }).unique_id);
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Call credentials', () => {
  it('says why calls do not work, then shows the room of one that does, never its token', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor}`);
    await page.getByRole('tab', { name: 'Voice' }).click();
    const card = page.getByTestId('call-check');
    await card.getByRole('textbox', { name: 'Session' }).focus();
    await page.keyboard.press('Enter');
    await visible(card.getByText('improperly configured IBL Call Pro credentials'));

    await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/call-configurations/`, {
      json: { mentor, mode: 'realtime' },
    });
    await card.getByRole('textbox', { name: 'Session' }).focus();
    await page.keyboard.press('Enter');
    await visible(card.getByText('Calls work', { exact: true }));
    await visible(card.getByText(`mentor-audio-call-${mentor}|${server.org}`));
    await visible(card.getByText(/Issued, not shown/));
    // A JWT is base64url JSON: `eyJ…` header and payload. None is on the page.
    expect(await page.content()).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+/);
  });
});
