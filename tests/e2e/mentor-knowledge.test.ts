/**
 * A mentor's Knowledge tab in browser mode, on a real engine and sandbox: Mentors → a mentor → Knowledge. A tool is
 * enabled from the platform's offer and saved (the platform's settings answer it, and the settings' history keeps
 * the save); the custom instruction is written for the first time and changed (the platform keeps it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: { unique_id: string };
const userPath = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const settings = async () =>
  (await call(server, 'GET', `${userPath()}mentors/${mentor.unique_id}/settings/`)).body as {
    can_use_tools: boolean;
    mentor_tools: { slug: string }[];
    enable_image_generation: boolean;
  };
/** The settings' PUT answers the linked MCP servers (its GET does not): an empty save reads them. */
const linkedServers = async () =>
  (
    (await call(server, 'PUT', `${userPath()}mentors/${mentor.unique_id}/settings/`, { json: {} })).body as {
      mcp_servers: { name: string }[];
    }
  ).mcp_servers.map((s) => s.name);

beforeAll(async () => {
  server = await sandbox();
  mentor = (await call(server, 'POST', userPath(), { json: { name: 'Lab Coach' } })).body as { unique_id: string };
  await call(server, 'POST', `${userPath()}mcp-servers/`, {
    json: { name: 'Lab inventory', url: 'https://mcp.lab.example.edu/mcp', credentials: 'Bearer lab-secret-42' },
  });
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: knowledge', () => {
  it('enables a tool and edits the custom instruction; the platform keeps both', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    // Settings sends the admin to the one place tools are chosen.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByTestId('tools-elsewhere').getByRole('button', { name: 'Knowledge tab' }).click();
    expect(await page.getByRole('tab', { name: 'Knowledge', exact: true }).getAttribute('aria-selected')).toBe('true');
    const tools = page.getByRole('region', { name: 'Tools' });
    await visible(tools.getByRole('checkbox', { name: /Web Search/ }));
    // Account-wide cards are set apart from this mentor's own.
    expect(await page.getByTestId('account-wide').innerText()).toMatch(/connected account, in every mentor/);
    // The linked course reads as words: not the mentor's own id (this is its page), not "Is linked".
    const link = page.getByTestId('single-mentor-course-link');
    await visible(link.getByText('Linked', { exact: true }));
    expect(await link.innerText()).not.toMatch(/Mentor unique ID|Is linked|no call/);

    // Enable web search (and tools at all); save.
    await tools.getByRole('switch', { name: 'This mentor can use tools' }).check();
    await tools.getByRole('checkbox', { name: /Web Search/ }).check();
    await tools.getByRole('checkbox', { name: /Lab inventory/ }).check();
    await tools.getByRole('switch', { name: 'Image generation' }).check();
    await tools.getByRole('button', { name: 'Save tools' }).click();
    await visible(tools.getByText('Saved.'));
    expect((await settings()).enable_image_generation).toBe(true);
    await expect.poll(async () => (await settings()).mentor_tools.map((tool) => tool.slug)).toEqual(['web-search']);
    expect((await settings()).can_use_tools).toBe(true);
    expect(await linkedServers()).toEqual(['Lab inventory']);
    // The server's credentials are in the platform's answer, never on the page.
    expect(await page.content()).not.toContain('lab-secret-42');
    expect(await tools.getByRole('checkbox', { name: /Web Search/ }).isChecked()).toBe(true);
    expect(await tools.getByRole('button', { name: 'Save tools' }).isDisabled()).toBe(true);

    // The save is in the settings' history.
    await page.getByRole('tab', { name: 'Settings' }).click();
    const history = page.getByTestId('settings-history');
    const rows = history.getByRole('table', { name: 'Snapshots' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Saved[\s\S]*Can use tools, Tool slugs, MCP server IDs/);

    // The custom instruction: none yet, written for the first time from the card's form.
    await page.getByRole('tab', { name: 'Knowledge', exact: true }).click();
    const card = page.getByTestId('single-custom-instruction');
    await visible(card.getByText('Nothing is set yet.'));
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit custom instruction' });
    await dialog.getByRole('textbox', { name: 'About you' }).fill('I run the chemistry lab.');
    await dialog.getByRole('textbox', { name: 'Tone' }).fill('Short answers, please.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await visible(card.getByText('I run the chemistry lab.'));
    const kept = await call(server, 'GET', `${userPath()}custom-instruction/`);
    expect(kept).toMatchObject({
      status: 200,
      body: { about_user: 'I run the chemistry lab.', mentor_tone: 'Short answers, please.' },
    });

    // Changed again: the platform's PUT this time.
    await card.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByRole('textbox', { name: 'Profession' }).fill('Lab manager');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(
        async () =>
          ((await call(server, 'GET', `${userPath()}custom-instruction/`)).body as { profession?: string }).profession,
      )
      .toBe('Lab manager');
  });
});
