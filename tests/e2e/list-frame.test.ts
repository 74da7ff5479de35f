/**
 * The shared list frame (components/ListFrame.tsx) in browser mode, on a real engine and sandbox: the generic
 * resource list, the mentors list, the invitations list and a mentor's documents show their empty state, toolbar and
 * offline banner the same way, and a table wider than its box scrolls sideways with a shade at the clipped edge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types
declare const getComputedStyle: any;

let server: Sandbox;
let app: OpenApp;
let mentorId = '';

/** The four lists, each with the searchbox its toolbar starts with. */
const lists = () => [
  { name: 'LTI keys', route: '#/tenant-settings/lti-keys', search: 'Search LTI keys' },
  { name: 'mentors', route: '#/mentors', search: 'Search mentors' },
  { name: 'invitations', route: '#/invitations', search: 'Search' },
  { name: 'documents', route: `#/mentors/${encodeURIComponent(mentorId)}`, search: 'Search documents' },
];

beforeAll(async () => {
  server = await sandbox();
  app = await openApp(server);
  const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;
  // The mentors list is then not empty; the mentor's documents are.
  const mentor = (await call(server, 'POST', `${base}/`, { json: { name: 'Frame tutor' } })).body as {
    unique_id: string;
  };
  mentorId = mentor.unique_id;
});

afterAll(async () => {
  await app?.close();
});

describe('the list frame', () => {
  it('gives every list the same toolbar and the same empty state: a dashed box with its message', async () => {
    const { page } = app;
    const looks: string[] = [];
    for (const list of lists()) {
      if (list.name === 'mentors') continue; // has a mentor: its empty state is a search that matches none, below
      await app.open(list.route);
      const frame = page.getByTestId('list-frame');
      await visible(frame.getByTestId('list-empty')).catch((error: unknown) => {
        throw new Error(`${list.name}: no empty state`, { cause: error });
      });
      const toolbar = frame.getByTestId('list-toolbar');
      await visible(
        toolbar.getByRole('textbox', { name: list.search }).or(toolbar.getByRole('searchbox', { name: list.search })),
      );
      looks.push(await emptyLook(list.name));
    }
    await app.open('#/mentors');
    await page.getByRole('searchbox', { name: 'Search mentors' }).fill('no such mentor');
    await visible(page.getByTestId('list-empty').getByText('No mentor matches this search.'));
    looks.push(await emptyLook('mentors'));
    expect(new Set(looks.map((look) => look.split(': ')[1])).size, looks.join('\n')).toBe(1);
    expect(looks[0]).toMatch(/dashed/);
  });

  it('shows the offline banner above every list the same way when the tenant does not answer', async () => {
    const { page } = app;
    // Each list read once, so there is a saved copy to show.
    for (const list of lists()) {
      await app.open(list.route);
      await visible(page.getByTestId('list-frame').getByTestId('freshness').filter({ hasText: /As of/ }));
    }
    server.setFaults('error5xx=1');
    try {
      for (const list of lists()) {
        await app.open(list.route);
        const frame = page.getByTestId('list-frame');
        await frame.getByRole('button', { name: /^Refresh / }).click();
        await visible(frame.getByText('Showing the saved copy'), 30_000).catch((error: unknown) => {
          throw new Error(`${list.name}: no offline banner`, { cause: error });
        });
        // Above the box, never inside the toolbar or the table.
        expect(await frame.getByTestId('list-toolbar').getByText('Showing the saved copy').count(), list.name).toBe(0);
      }
    } finally {
      server.setFaults('');
    }
  });

  it('scrolls a wide table sideways with a shade at the clipped edge, and by keyboard', async () => {
    const { page } = app;
    const base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/mcp-servers/`;
    for (const name of ['Course catalogue search', 'Library records']) {
      await call(server, 'POST', base, {
        json: {
          name,
          url: `https://tools.example.edu/mcp/${name.toLowerCase().replaceAll(' ', '-')}/v2/streaming-endpoint`,
          transport: 'streamable_http',
        },
      });
    }
    await page.setViewportSize({ width: 1000, height: 650 });
    try {
      await app.open('#/mentor-configuration/mcp-servers');
      await page.getByRole('button', { name: 'Refresh MCP servers' }).click();
      await visible(page.getByRole('button', { name: 'Library records', exact: true }));
      const area = page.getByTestId('list-table-area');
      await expect.poll(() => area.getAttribute('data-clipped-end')).toBe('true');
      expect(await area.getAttribute('data-clipped-start')).toBeNull();
      const shade = (side: '::before' | '::after') =>
        area.evaluate((el, pseudo) => Number(getComputedStyle(el, pseudo).opacity), side);
      await expect.poll(() => shade('::after')).toBe(1);
      expect(await shade('::before')).toBe(0);

      // The clipped table is a keyboard stop with a name; the arrow keys bring its last columns in.
      const region = page.getByRole('region', { name: 'MCP servers, scrolls sideways' });
      await region.focus();
      for (let press = 0; press < 40; press++) await page.keyboard.press('ArrowRight');
      await expect.poll(() => area.getAttribute('data-clipped-start')).toBe('true');
      await region.press('End');
      await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(() => area.getAttribute('data-clipped-end')).toBeNull();
      await expect.poll(() => shade('::before')).toBe(1);
      await visible(page.getByRole('columnheader', { name: 'Updated' }));
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }
    // A table that fits (the mentors list of one mentor at 1360 px) shows no shade and is no keyboard stop.
    await app.open('#/mentors');
    await visible(page.getByRole('link', { name: 'Frame tutor' }));
    const fits = page.getByTestId('list-table-area');
    await expect.poll(() => fits.getAttribute('data-clipped-end')).toBeNull();
    expect(await fits.getAttribute('data-clipped-start')).toBeNull();
    expect(await page.getByRole('region', { name: /scrolls sideways/ }).count()).toBe(0);
  });
});

/** How a list's empty state is drawn: its border and padding, the same on every list. */
async function emptyLook(name: string): Promise<string> {
  const look = await app.page.getByTestId('list-empty').evaluate((el) => {
    const style = getComputedStyle(el);
    return `${style.borderTopStyle} ${style.borderTopWidth} ${style.padding} ${style.borderRadius}`;
  });
  return `${name}: ${look}`;
}
