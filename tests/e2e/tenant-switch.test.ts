/**
 * Tenants side by side in browser mode: two sandboxes with different records ("Alpha" and "Bravo") and a tenant
 * whose port is closed ("Charlie"). Every screen is visited under each, switching with the top bar's tenant picker
 * (never a reload): no record of one tenant ever shows under another's name, the unreachable one says it has nothing
 * cached instead of showing the last tenant's rows, and coming back shows the tenant's own data at once.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../src/main/host/server';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox, sandboxQueries } from '../helpers/sandbox';
import { requireKeychainSession, tempDir, uniqueService } from '../helpers/temp';
import { dismissNotifications, timesSaidUnreachable, visible } from './app';
import { launchChromium } from './browser';
import { requireBuiltRenderer } from './tickets-host';

const RENDERER_DIR = 'out/renderer';
const ALPHA = 'Alpha University';
const BRAVO = 'Bravo College';
const CHARLIE = 'Charlie Offline';

interface Tenant {
  name: string;
  id: string;
  /** Strings only this tenant's records carry, by screen. */
  markers: Record<Screen, string[]>;
}

type Screen = 'mentors' | 'analytics' | 'exports' | 'tickets' | 'invitations' | 'jobs' | 'tenant-settings';

let alphaServer: Sandbox;
let bravoServer: Sandbox;
let host: Host;
let browser: Browser;
let page: Page;
let alpha: Tenant;
let bravo: Tenant;
let charlieId: string;
/** What the page asked the engine over its bridge, in order. */
const asked: { name: string; input: { profileId?: string } | undefined; at: number }[] = [];

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  requireKeychainSession();
  requireBuiltRenderer();
  alphaServer = await sandbox({ seed: 'demo' });
  bravoServer = await sandbox({ seed: 'demo', seedValue: 7 });
  // Bravo's records get names of their own, so a row on screen says which tenant it came from.
  bravoServer.db.exec(`
    UPDATE mentors SET name = 'Bravo mentor ' || id;
    UPDATE support_tickets SET subject = 'Bravo case ' || id, full_name = 'Bravo learner ' || user_id;
    UPDATE catalog_invitations SET email = 'bravo-invitee-' || id || '@bravo.example' WHERE email IS NOT NULL;
  `);
  // API tokens of each tenant's own, for the resource kit's Tenant settings.
  for (const [server, prefix] of [
    [alphaServer, 'alpha'],
    [bravoServer, 'bravo'],
  ] as const) {
    for (const n of [1, 2, 3]) {
      await call(server, 'POST', '/api/core/platform/api-tokens/', {
        json: { name: `${prefix}-token-${n}`, platform_key: server.org },
      });
    }
  }
  const env: NodeJS.ProcessEnv = { ...process.env, MENTOR_ADMIN_SANDBOX: 'off' };
  delete env.MENTOR_ADMIN_API_KEY;
  host = await startHost({
    dataDir: tempDir('tenant-switch-'),
    rendererDir: RENDERER_DIR,
    keychainService: uniqueService(),
    env,
  });
  const add = (name: string, server: { url: string; org: string; user: string; apiKey: string }) =>
    host.engine.invoke('profiles.add', {
      name,
      baseUrl: server.url,
      org: server.org,
      username: server.user,
      secret: server.apiKey,
    });
  const alphaProfile = await add(ALPHA, alphaServer);
  const bravoProfile = await add(BRAVO, bravoServer);
  const charlie = await add(CHARLIE, {
    url: `http://127.0.0.1:${await closedPort()}`,
    org: 'charlie',
    user: 'admin',
    apiKey: 'charlie-key',
  });
  charlieId = charlie.id;
  await host.engine.invoke('profiles.setActive', { id: alphaProfile.id });

  // A job and an export file of Alpha's own: the Jobs screen and the Exports tab must keep them to Alpha.
  const exportFile = join(tempDir('tenant-switch-exports-'), 'alpha-only-export.csv');
  const exported = await host.engine.invoke('analytics.exportStart', {
    profileId: alphaProfile.id,
    dataset: 'topics',
    range: { preset: '7d' },
    path: exportFile,
  });

  const markersOf = (server: Sandbox, jobId?: string): Tenant['markers'] => {
    const q = sandboxQueries(() => server);
    const mentors = q
      .rows<{ name: string }>("SELECT name FROM mentors WHERE is_deleted = 0 AND name <> '' ORDER BY id LIMIT 12")
      .map((r) => r.name);
    return {
      mentors,
      analytics: mentors,
      exports: jobId ? ['alpha-only-export.csv'] : [],
      tickets: q
        .rows<{ subject: string }>('SELECT subject FROM support_tickets ORDER BY created_at DESC LIMIT 30')
        .map((r) => r.subject),
      invitations: q
        .rows<{ email: string }>(
          'SELECT email FROM catalog_invitations WHERE email IS NOT NULL ORDER BY id DESC LIMIT 20',
        )
        .map((r) => r.email),
      jobs: jobId ? [jobId] : [],
      'tenant-settings': q
        .rows<{ name: string }>("SELECT name FROM api_keys WHERE name LIKE '%-token-%' ORDER BY name")
        .map((r) => r.name),
    };
  };
  alpha = { name: ALPHA, id: alphaProfile.id, markers: markersOf(alphaServer, exported.id) };
  bravo = { name: BRAVO, id: bravoProfile.id, markers: markersOf(bravoServer) };
  // The two tenants must really differ, or the test proves nothing.
  for (const screen of ['mentors', 'tickets', 'invitations'] as const) {
    expect(alpha.markers[screen].length).toBeGreaterThan(3);
    expect(alpha.markers[screen].filter((m) => bravo.markers[screen].includes(m))).toEqual([]);
  }

  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error));
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      const request = JSON.parse(String(payload)) as { name: string; input?: { profileId?: string } };
      asked.push({ name: request.name, input: request.input, at: Date.now() });
    }),
  );
  await page.goto(`${host.url}#/mentors`);
  await visible(page.getByTestId('tenant-switcher'));
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** The screen's text, without the top bar (which names every tenant in its picker) or toasts. */
const mainText = () => page.locator('main').innerText();

/** The screen's text and the addresses of its links (a job's row names it by its id only there). */
const SCREEN_CONTENT = `(() => {
  const main = document.querySelector('main');
  if (!main) return '';
  const links = Array.from(main.querySelectorAll('a[href]'), (a) => a.getAttribute('href'));
  return main.innerText + '\\n' + links.join('\\n');
})()`;

/** Chooses a tenant in the top bar's picker, the way an admin does. */
async function switchTo(name: string): Promise<void> {
  await dismissNotifications(page);
  await page.getByTestId('tenant-switcher').click();
  await page.getByRole('option').filter({ hasText: name }).first().click();
  await expect.poll(() => page.getByTestId('tenant-switcher').inputValue()).toBe(name);
}

/** Which of `markers` are on screen now. */
async function shown(markers: string[]): Promise<string[]> {
  const text = await page.evaluate<string>(SCREEN_CONTENT);
  return markers.filter((marker) => text.includes(marker));
}

/**
 * Under `tenant`: its own records show (at least one of them, without a reload), and for a while after none of
 * `others`' records do.
 */
async function showsOnly(screen: Screen, tenant: Tenant, others: Tenant[]): Promise<void> {
  const own = tenant.markers[screen];
  const foreign = others.flatMap((other) => other.markers[screen]);
  if (own.length) {
    await expect
      .poll(async () => (await shown(own)).length, {
        timeout: 20_000,
        message: `${tenant.name}'s ${screen} should show`,
      })
      .toBeGreaterThan(0);
  }
  for (let i = 0; i < 8; i++) {
    expect(await shown(foreign), `${screen} under ${tenant.name} shows another tenant's records`).toEqual([]);
    await page.waitForTimeout(250);
  }
}

/** Under the unreachable tenant: nobody's records, for a while, whatever the screen shows instead. */
async function showsNobody(screen: Screen): Promise<void> {
  for (let i = 0; i < 12; i++) {
    const foreign = [...alpha.markers[screen], ...bravo.markers[screen]];
    expect(await shown(foreign), `${screen} under ${CHARLIE} shows another tenant's records`).toEqual([]);
    await page.waitForTimeout(250);
  }
}

const ROUTES: Record<Screen, string> = {
  mentors: '#/mentors',
  analytics: '#/analytics/overview',
  exports: '#/analytics/exports',
  tickets: '#/tickets',
  invitations: '#/invitations',
  jobs: '#/jobs',
  'tenant-settings': '#/tenant-settings/api-tokens',
};

describe('switching tenants on every screen', () => {
  for (const screen of Object.keys(ROUTES) as Screen[]) {
    it(`${screen}: Alpha, the unreachable tenant, Bravo and Alpha again each show only their own records`, async () => {
      await switchTo(ALPHA);
      await page.evaluate(`window.location.hash = ${JSON.stringify(ROUTES[screen])}`);
      await showsOnly(screen, alpha, [bravo]);

      await switchTo(CHARLIE);
      await showsNobody(screen);

      await switchTo(BRAVO);
      await showsOnly(screen, bravo, [alpha]);

      await switchTo(ALPHA);
      await showsOnly(screen, alpha, [bravo]);
    });
  }

  it('a record open on a screen goes with its tenant: the open ticket and its draft, the import wizard, a mentor page', async () => {
    // A ticket of Alpha's, open with words typed in its reply box; Bravo has a ticket with the same number.
    const q = sandboxQueries(() => alphaServer);
    const ticket = q.rows<{ id: number; subject: string }>(
      "SELECT id, subject FROM support_tickets WHERE status = 'open' ORDER BY created_at DESC LIMIT 1",
    )[0]!;
    expect(
      sandboxQueries(() => bravoServer).scalar('SELECT count(*) FROM support_tickets WHERE id = ?', ticket.id),
    ).toBe(1);
    await switchTo(ALPHA);
    await page.evaluate(`window.location.hash = '#/tickets/${ticket.id}'`);
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await visible(reply, 20_000);
    await expect.poll(mainText).toContain(ticket.subject);
    await reply.fill('Alpha-only draft words');
    await switchTo(BRAVO);
    await expect.poll(async () => (await shown(bravo.markers.tickets)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await mainText()).not.toContain(ticket.subject);
    expect(await mainText()).not.toContain('Alpha-only draft words');
    // The words were kept for Alpha's ticket, where they were typed, and never for Bravo's ticket of that number.
    await expect
      .poll(async () => (await host.engine.invoke('tickets.get', { profileId: alpha.id, id: ticket.id })).ticket.draft)
      .toBe('Alpha-only draft words');
    expect((await host.engine.invoke('tickets.get', { profileId: bravo.id, id: ticket.id })).ticket.draft).toBeNull();

    // An import begun for Alpha waits at its step while Bravo's wizard starts from the file.
    await switchTo(ALPHA);
    await page.evaluate(`window.location.hash = '#/invitations/import'`);
    await page.getByText('Drop a CSV file of people to invite').waitFor({ timeout: 15_000 });
    await page.getByTestId('invite-file-input').setInputFiles({
      name: 'alpha-cohort.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Email,First name\r\nalpha-cohort@example.org,Ann\r\n'),
    });
    await page.getByRole('table', { name: 'Column mapping' }).waitFor({ timeout: 15_000 });
    await switchTo(BRAVO);
    await page.getByText('Drop a CSV file of people to invite').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('table', { name: 'Column mapping' }).count()).toBe(0);
    await switchTo(ALPHA);
    await page.getByRole('table', { name: 'Column mapping' }).waitFor({ timeout: 15_000 });

    // A mentor's page names one of Alpha's mentors: under Bravo the screen goes back to Bravo's list.
    const mentor = q.rows<{ unique_id: string; name: string }>(
      'SELECT unique_id, name FROM mentors WHERE is_deleted = 0 ORDER BY id LIMIT 1',
    )[0]!;
    await page.evaluate(`window.location.hash = '#/mentors/${mentor.unique_id}'`);
    await expect.poll(mainText, { timeout: 20_000 }).toContain(mentor.name);
    await switchTo(BRAVO);
    await expect.poll(() => page.evaluate<string>('window.location.hash')).toBe('#/mentors');
    await expect.poll(async () => (await shown(bravo.markers.mentors)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await mainText()).not.toContain(mentor.name);

    // A job of Alpha's opened by its address (a notification's link) while Bravo is shown says whose it is.
    await page.evaluate(`window.location.hash = '#/jobs/${alpha.markers.jobs[0]}'`);
    await expect
      .poll(() => page.getByTestId('record-tenant').innerText(), { timeout: 15_000 })
      .toBe(`Of ${ALPHA}, not the active tenant`);
    await switchTo(ALPHA);
    await expect.poll(() => page.evaluate<string>('window.location.hash')).toBe('#/jobs');
  });

  it('the unreachable tenant says plainly that nothing is cached for it', async () => {
    await switchTo(CHARLIE);
    await page.evaluate(`window.location.hash = '#/tickets'`);
    // The app's banner names the tenant and says it cannot be reached, once; the queue says only that it has nothing.
    await visible(page.getByText(`${CHARLIE} cannot be reached`), 20_000);
    await expect.poll(mainText, { timeout: 20_000 }).toContain('Not available offline');
    expect(await timesSaidUnreachable(page)).toBe(1);
    expect(await mainText()).not.toContain('showing the cached queue');
    expect(charlieId).toBeTruthy();
  });

  // Last in the file: it fixes the page's clock, which stays fixed.
  it("an engine event about one tenant refreshes its screen without a reload, and leaves another tenant's cached list alone", async () => {
    const jobListsOf = (id: string, since: number) =>
      asked.slice(since).filter((a) => a.name === 'jobs.list' && a.input?.profileId === id);
    // The page's clock stands still, so cached answers never age past the 30 s freshness window however slow the
    // machine: a refetch of Bravo's list can only mean an event made it stale. Timers still run.
    await page.clock.setFixedTime(Date.now());
    await switchTo(ALPHA);
    await page.evaluate(`window.location.hash = '#/jobs'`);
    await showsOnly('jobs', alpha, [bravo]);
    await switchTo(BRAVO);
    await expect.poll(mainText, { timeout: 15_000 }).toMatch(/Jobs/);
    await expect.poll(() => jobListsOf(bravo.id, 0).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await switchTo(ALPHA);

    // A job started for Alpha outside the page (as a scheduled export would): its jobs.changed refreshes Alpha's list.
    const before = asked.length;
    const started = await host.engine.invoke('analytics.exportStart', {
      profileId: alpha.id,
      dataset: 'topics',
      range: { preset: '7d' },
      path: join(tempDir('tenant-switch-event-'), 'alpha-event.csv'),
    });
    await expect.poll(() => shown([started.id]), { timeout: 15_000 }).toEqual([started.id]);
    expect(jobListsOf(alpha.id, before).length).toBeGreaterThan(0);

    // Bravo's jobs, cached and still fresh, show at once and are not asked again: Alpha's events did not touch them.
    await switchTo(BRAVO);
    await expect.poll(mainText, { timeout: 15_000 }).toMatch(/Jobs/);
    await page.waitForTimeout(1_500);
    expect(jobListsOf(bravo.id, before)).toEqual([]);
    expect(await shown([started.id])).toEqual([]);
  });
});
