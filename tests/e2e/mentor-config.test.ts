/**
 * Mentor configuration in browser mode, on a real engine and sandbox: an MCP server created from its list's form with
 * credentials that reach the platform and never come back to the page (editing it offers to replace them, unseen);
 * call configurations narrowed by a choice of mode and by a mentor picked by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, pickByKeyboard, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const SECRET = 'Bearer e2e-mcp-credential-41c7';

describe('Mentor configuration', () => {
  it('creates an MCP server whose credentials go to the platform and never back to the page', async () => {
    const { page } = app;
    await app.open('#/mentors');
    await page.getByRole('link', { name: 'Mentor configuration' }).click();
    await visible(page.getByRole('heading', { name: 'Mentor configuration' }));
    await visible(page.getByRole('tab', { name: 'MCP servers', selected: true }));
    await page.getByRole('button', { name: 'New MCP server' }).click();
    const dialog = page.getByRole('dialog', { name: 'New MCP server' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Timetable');
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://mcp.timetable.example.edu/mcp');
    await dialog.getByLabel('Credentials').fill(SECRET);
    await dialog.getByRole('button', { name: 'Create MCP server' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByTestId('resource-table');
    await visible(table.getByRole('cell', { name: 'https://mcp.timetable.example.edu/mcp' }));

    const stored = (await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mcp-servers/`))
      .body as { results: { name: string; credentials?: string }[] };
    expect(stored.results.find((s) => s.name === 'Timetable')?.credentials).toBe(SECRET);

    await table.getByRole('button', { name: 'Timetable', exact: true }).click();
    const details = page.getByRole('dialog', { name: 'MCP server Timetable' });
    await visible(details);
    expect(await page.content()).not.toContain('e2e-mcp-credential-41c7');
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'hidden' });
    await table.getByRole('button', { name: 'Edit Timetable' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit MCP server "Timetable"' });
    await visible(edit.getByTestId('stored-secret').getByText('Not shown'));
    await visible(edit.getByRole('button', { name: 'Replace' }));
    expect(await page.content()).not.toContain('e2e-mcp-credential-41c7');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });
  });

  it('narrows call configurations by mode and by a mentor picked by name; names each mentor; picks one without one by name', async () => {
    const { page } = app;
    const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;
    const made: string[] = [];
    for (const [name, mode] of [
      ['Realtime tutor', 'realtime'],
      ['Inference tutor', 'inference'],
      ['Voice tutor', null],
    ] as const) {
      const mentor = (await call(server, 'POST', `${base}/`, { json: { name } })).body as { unique_id: string };
      made.push(mentor.unique_id);
      if (mode)
        await call(server, 'POST', `${base}/call-configurations/`, { json: { mentor: mentor.unique_id, mode } });
    }
    await page.getByRole('tab', { name: 'Call configurations' }).click();
    const table = page.getByTestId('resource-table');
    const rows = () => table.locator('tbody tr');
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(2);
    // Each names its mentor (the platform answers the mentor's unique id), and its mode by the option's label.
    await visible(table.getByText('Realtime tutor'));
    await visible(table.getByText('Realtime', { exact: true }));
    expect(await table.getByText(made[0]!).count()).toBe(0);

    await page.getByRole('radiogroup', { name: 'Mode' }).getByText('Inference', { exact: true }).click();
    await expect.poll(() => rows().count()).toBe(1);
    await visible(table.getByText('Inference tutor'));
    await page.getByRole('radiogroup', { name: 'Mode' }).getByText('Any mode', { exact: true }).click();
    await expect.poll(() => rows().count()).toBe(2);

    // The mentor filter picks a mentor by name (keyboard only); the list is narrowed by its unique id.
    const filter = page.getByRole('combobox', { name: 'Mentor', exact: true });
    await filter.focus();
    await pickByKeyboard(page, 'Realtime tu', 'Realtime tutor');
    await expect.poll(() => filter.inputValue()).toBe('Realtime tutor');
    await expect.poll(() => rows().count()).toBe(1);
    await visible(table.getByText('Realtime tutor'));
    // Cleared from the keyboard: the clear button is the next stop after the picker.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Clear mentor');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows().count()).toBe(2);
    expect(await filter.inputValue()).toBe('');

    // A new one picks its mentor by name; the platform gets the mentor's unique id.
    await page.getByRole('button', { name: 'New call configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New call configuration' });
    // The form does not start in its mentor picker, whose list would open over the form.
    await visible(dialog);
    await expect
      .poll(() => page.evaluate('document.activeElement?.closest("[role=dialog]") && document.activeElement.tagName'))
      .toBe('INPUT');
    expect(
      await page.evaluate('document.activeElement.getAttribute("aria-label") ?? document.activeElement.id'),
    ).not.toMatch(/mentor/i);
    expect(await page.getByRole('listbox').count()).toBe(0);
    await dialog.getByRole('combobox', { name: 'Mentor', exact: true }).click();
    // Each mentor has one call configuration: the two that have one are not offered.
    await page.keyboard.type('tutor');
    await visible(page.getByRole('option', { name: 'Voice tutor' }));
    // Which mentors to leave out is read when the dialog opens; the cached mentors are offered before it answers.
    await expect.poll(() => page.getByRole('option', { name: /^(Realtime|Inference) tutor$/ }).count()).toBe(0);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Voice');
    await page.getByRole('option', { name: 'Voice tutor' }).click();
    await dialog.getByRole('button', { name: 'Create call configuration' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => rows().count()).toBe(3);
    await visible(table.getByText('Voice tutor'));
    const stored = (await call(server, 'GET', `${base}/call-configurations/`)).body as { mentor: string }[];
    expect(stored.map((configuration) => configuration.mentor)).toContain(made[2]);
  });
});
