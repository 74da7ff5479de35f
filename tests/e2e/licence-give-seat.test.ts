/**
 * A licence's page gives one person a seat, in browser mode on a real engine and sandbox: the person is picked by name
 * or email from the tenant's directory, the seat is given through the platform's assignment call (the vendor SDK
 * reads it back), and the platform's refusal once the licence is full is shown as it answered.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let license: number;

beforeAll(async () => {
  server = await sandbox();
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, first_name, last_name, org, role, date_joined)
     VALUES (?, ?, ?, 'Seatholder', ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  insert.run('gs-ada', 'ada@give.test', 'Ada', server.org);
  insert.run('gs-ben', 'ben@give.test', 'Ben', server.org);
  license = (
    (
      await call(server, 'POST', '/api/catalog/licenses/program/create/', {
        json: {
          platform_key: server.org,
          name: 'One seat',
          count: 1,
          program_key: 'program-v1:main+GIVE',
          started: '2026-01-01T00:00:00Z',
        },
      })
    ).body as { id: number }
  ).id;
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe("a licence's page", () => {
  it('gives one person a seat picked from the directory, and shows the platform’s refusal when it is full', async () => {
    const { page } = app;
    await app.open(`#/licences/program-licenses/${license}`);
    const picker = page.getByTestId('seat-person');
    await visible(picker, 30_000);
    await picker.fill('Ada');
    await page.getByRole('option', { name: /ada@give\.test/ }).click({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Give a seat' }).click();
    const holders = page.getByRole('table', { name: 'People holding seats' });
    await visible(holders.getByRole('link', { name: 'gs-ada' }), 30_000);

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read: unknown = await CatalogService.catalogLicensesProgramAssignmentRetrieve({ licenseId: license });
    expect(JSON.stringify(read)).toContain('ada@give.test');

    // Full (a program licence refuses past its seats): the platform's own words.
    await picker.fill('ben@give');
    await page.getByRole('option', { name: /ben@give\.test/ }).click({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Give a seat' }).click();
    const refused = page.getByTestId('seat-refused');
    await visible(refused, 30_000);
    expect(await refused.innerText()).toContain('The license has no available seats.');
    expect(await holders.getByRole('link', { name: 'gs-ben' }).count()).toBe(0);
  }, 180_000);
});
