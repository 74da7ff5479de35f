/**
 * A mentor's Sharing tab and the "New mentor" flow in browser mode, on a real engine and sandbox: the shareable link
 * is created, its token copied to the clipboard and revoked after a confirmation (the platform agrees each time);
 * a fork is named in a dialog, a name the platform refuses is shown at the field, and the new mentor opens and is
 * listed; a new mentor is made from a template through the create-mentor wizard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: { unique_id: string };
const userPath = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const linkOnPlatform = async () => {
  const answer = await call(server, 'GET', `${userPath()}mentors/${mentor.unique_id}/sharable-link`);
  return answer.status === 200 ? (answer.body as { token: string; enabled: boolean }) : null;
};

beforeAll(async () => {
  server = await sandbox();
  mentor = (await call(server, 'POST', userPath(), { json: { name: 'Lab Coach' } })).body as { unique_id: string };
  await call(server, 'POST', userPath(), { json: { name: 'Field Guide' } });
  app = await openApp(server);
  await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(app.host.url).origin,
  });
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: sharing and fork', () => {
  it('creates the shareable link, copies its token, revokes it after asking', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('tab', { name: 'Sharing' }).click();
    const link = page.getByRole('region', { name: 'Shareable link' });
    const publicCheck = page.getByRole('region', { name: 'Public shareable link' });
    await visible(link.getByText('This mentor has no shareable link.'));
    await visible(publicCheck.getByText('No link'));

    await link.getByRole('button', { name: 'Create link' }).click();
    const token = link.getByRole('textbox', { name: 'Token' });
    await visible(token);
    const made = await linkOnPlatform();
    expect(made).toMatchObject({ enabled: true });
    expect(await token.inputValue()).toBe(made!.token);
    await visible(publicCheck.getByText('Link works'));

    await link.getByRole('button', { name: 'Copy' }).click();
    await visible(link.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(made!.token);

    await dismissNotifications(page);
    await link.getByRole('button', { name: 'Revoke…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the shareable link?' });
    await visible(dialog.getByText('Lab Coach'));
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await linkOnPlatform()).not.toBeNull();
    await link.getByRole('button', { name: 'Revoke…' }).click();
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await visible(link.getByText('This mentor has no shareable link.'));
    expect(await linkOnPlatform()).toBeNull();
    await visible(publicCheck.getByText('No link'));
  });

  it('forks the mentor: a refused name is shown at the field; the new mentor opens and is listed', async () => {
    const { page } = app;
    // The list is read first, so the fork must reach it through the declared mentors.changed event.
    await app.open('#/mentors');
    await page.getByRole('link', { name: 'Lab Coach', exact: true }).click();
    await page.getByRole('tab', { name: 'Sharing' }).click();
    await page.getByRole('button', { name: 'Fork mentor…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fork Lab Coach' });
    const name = dialog.getByRole('textbox', { name: 'Name of the new mentor' });
    expect(await name.inputValue()).toBe('Lab Coach (fork)');

    // A name the platform refuses (another mentor has it): told at the field, nothing made.
    await name.fill('Field Guide');
    await dialog.getByRole('button', { name: 'Fork mentor' }).click();
    await visible(dialog.getByText('a mentor with this name already exists'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Lab Coach B');
    await dialog.getByRole('button', { name: 'Fork mentor' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await visible(page.getByRole('heading', { name: 'Lab Coach B', level: 1 }));
    const list = await call(server, 'GET', `${userPath()}?page_size=100`);
    expect((list.body as { results: { name: string }[] }).results.map((m) => m.name)).toContain('Lab Coach B');

    await page.getByRole('link', { name: 'Mentors', exact: true }).first().click();
    await visible(page.getByRole('link', { name: 'Lab Coach B' }).first());
  });

  it('makes a new mentor from a template through the wizard', async () => {
    const { page } = app;
    await app.open('#/mentors');
    await page.getByRole('button', { name: 'New mentor' }).click();
    const dialog = page.getByRole('dialog', { name: 'New mentor' });
    await dialog.getByRole('combobox', { name: 'Start from' }).click();
    // Each choice says what it is before it is chosen.
    const option = page.getByRole('option', { name: /Socratic Tutor/ });
    expect(await option.innerText()).toContain('Answers questions with questions');
    await option.click();
    const description = dialog.getByRole('textbox', { name: /Description/ });
    expect(await description.inputValue()).toContain('Answers questions with questions');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Socrates for Biology');
    // The wizard's description takes at least 20 characters.
    await description.fill('Too short');
    await dialog.getByRole('button', { name: 'Create mentor' }).click();
    await visible(dialog.getByText('Describe the mentor in at least 20 characters'));
    await description.fill('Leads biology students to answers with questions.');
    await dialog.getByRole('radio', { name: /Anyone/ }).check();
    await dialog.getByRole('button', { name: 'Create mentor' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const made = server.db
      .prepare("SELECT settings FROM mentors WHERE name = 'Socrates for Biology' AND is_deleted = 0")
      .pluck()
      .get() as string | undefined;
    expect(JSON.parse(made ?? '{}')).toMatchObject({ template_name: 'socratic-tutor' });
    expect(server.db.prepare("SELECT visibility FROM mentors WHERE name = 'Socrates for Biology'").pluck().get()).toBe(
      'viewable_by_anyone',
    );
    await visible(page.getByRole('link', { name: 'Socrates for Biology' }).first());
  });
});
