/**
 * Credentials in the browser (real engine, demo sandbox): an admin defines a badge with an image for a course, issues
 * it to everyone who completed the course, and sees the issuance (holders listed, today's bar in the chart); a file
 * that is not an image is refused at the field before anything is sent; then issues it to a CSV file's people through
 * the import dialog's steps (dry run with a per-row report, Import now), read back by the vendor SDK. Screenshots of the screen are written to
 * MENTOR_ADMIN_SHOTS when it is set (light and dark, 1400×900 and 1000×650). While the tenant is not answering, the
 * badges and holders read before show as the saved copy with defining, issuing and revoking off and why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialsService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { openApp, visible, type OpenApp } from './app';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/* eslint-disable @typescript-eslint/no-explicit-any -- page-side code: tests are type-checked without DOM types */
declare const document: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let server: Sandbox;
let app: OpenApp;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  app = await openApp(server);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('Credentials: define a badge and issue it to a course’s completers', () => {
  it('defines, refuses a non-image at the field, issues to the completers and shows the issuance', async () => {
    const { page } = app;
    // The newest demo course's badge was left unissued; its course is the one the admin awards.
    const course = server.db
      .prepare("SELECT course FROM credential_badges WHERE org = ? AND entity_id LIKE '%-badge-3'")
      .pluck()
      .get(server.org) as string;
    const completers = server.db
      .prepare(
        `SELECT u.username FROM learning_enrollments e JOIN users u ON u.id = e.user_id JOIN courses k ON k.id = e.course_pk
         WHERE k.course_id = ? AND e.completed_at IS NOT NULL ORDER BY u.username`,
      )
      .pluck()
      .all(course) as string[];
    expect(completers.length).toBeGreaterThan(0);
    const imagesBefore = server.db.prepare('SELECT count(*) FROM credential_images').pluck().get() as number;

    await app.open('#/credentials');
    await visible(page.getByTestId('badge-list'));
    await page.getByRole('button', { name: 'Define badge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Define a badge' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Capstone finisher');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Finished the capstone course');

    const files = tempDir();
    writeFileSync(join(files, 'notes.png'), 'plain text, not a picture');
    writeFileSync(join(files, 'face.png'), PNG);
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose image' }).click();
    await (await chooser).setFiles(join(files, 'notes.png'));
    await visible(dialog.getByText(/notes\.png: Not an image/));

    const again = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose image' }).click();
    await (await again).setFiles(join(files, 'face.png'));
    await visible(dialog.getByText(/face\.png \(PNG/));

    await dialog.getByLabel('Course', { exact: true }).fill(course.split('+')[1]!);
    await page.getByRole('option', { name: new RegExp(course.replace(/[+.]/g, '\\$&')) }).click();
    await dialog.getByRole('button', { name: 'Define badge' }).click();
    await visible(page.getByTestId('badge-detail').getByRole('heading', { name: 'Capstone finisher' }));
    // The course is said by its name, in the list and the details; its id stays in the cell's title.
    const courseName = server.db.prepare('SELECT name FROM courses WHERE course_id = ?').pluck().get(course) as string;
    const row = page.getByTestId('badge-list').getByRole('row', { name: /Capstone finisher/ });
    await visible(row.getByText(courseName, { exact: true }));
    expect(await row.getByText(courseName, { exact: true }).getAttribute('title')).toBe(course);
    await visible(page.getByTestId('badge-detail').getByText(`Course: ${courseName}`));
    // Only the good file was uploaded.
    expect(server.db.prepare('SELECT count(*) FROM credential_images').pluck().get()).toBe(imagesBefore + 1);

    await page.getByRole('button', { name: 'Issue to course completers…' }).click();
    const issue = page.getByRole('dialog', { name: 'Issue “Capstone finisher”' });
    await visible(issue.getByTestId('issue-summary'));
    expect(await issue.getByTestId('issue-summary').innerText()).toContain(`${completers.length} `);
    await issue.getByRole('button', { name: `Issue to ${completers.length}` }).click();
    // A report follows the issue: all issued, nobody held it, nothing failed.
    const report = issue.getByTestId('issue-report');
    await visible(report, 60_000);
    expect(await report.innerText()).toContain(
      `Issued to ${completers.length} ${completers.length === 1 ? 'person' : 'people'}`,
    );
    expect(await report.innerText()).toContain('Failed for 0');
    await report.getByRole('button', { name: 'Done' }).click({ timeout: 60_000 });
    await expect.poll(() => issue.isVisible(), { timeout: 30_000 }).toBe(false);

    const detail = page.getByTestId('badge-detail');
    await expect
      .poll(async () => detail.getByTestId('badge-standing').innerText())
      .toBe(`${completers.length} ${completers.length === 1 ? 'holder' : 'holders'}`);
    // A holder is named as the person's page is, their username in the link's title.
    await visible(detail.getByTestId('badge-assertions').locator(`a[title="${completers[0]!}"]`), 30_000);
    const held = server.db
      .prepare(
        `SELECT a.username FROM credential_assertions a JOIN credential_badges b ON b.entity_id = a.badge
         WHERE b.name = 'Capstone finisher' AND a.revoked = 0 ORDER BY a.username`,
      )
      .pluck()
      .all();
    expect(held).toEqual(completers);
    // Revoking one: a reason is asked, the holder stays listed marked revoked, and one holder fewer.
    const first = completers[0]!;
    await detail.getByRole('button', { name: `Revoke ${first}'s badge` }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke the badge' });
    await expect.poll(() => revoke.getByRole('button', { name: 'Revoke' }).isDisabled()).toBe(true);
    await revoke.getByRole('textbox', { name: 'Reason' }).fill('Awarded in error');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await revoke.waitFor({ state: 'hidden' });
    await expect
      .poll(() =>
        server.db
          .prepare(
            `SELECT a.revocation_reason FROM credential_assertions a JOIN credential_badges b ON b.entity_id = a.badge
             WHERE b.name = 'Capstone finisher' AND a.username = ? AND a.revoked = 1`,
          )
          .pluck()
          .get(first),
      )
      .toBe('Awarded in error');
    const left = completers.length - 1;
    await expect
      .poll(async () => detail.getByTestId('badge-standing').innerText())
      .toBe(`${left} ${left === 1 ? 'holder' : 'holders'}`);
    await visible(detail.getByTestId('badge-assertions').getByText('Revoked'));
    // The issuance chart counts today's assertions.
    await expect
      .poll(async () => page.getByTestId('badge-issuance-total').innerText(), { timeout: 15_000 })
      .toMatch(/issued$/);

    const shots = process.env.MENTOR_ADMIN_SHOTS;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${scheme}')`);
        for (const [w, h] of [
          [1400, 900],
          [1000, 650],
        ] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.waitForTimeout(300);
          await page.screenshot({ path: join(shots, `credentials-${scheme}-${w}.png`) });
        }
      }
    }
  }, 180_000);
  it('edits a badge (name, description, criteria, image) and deletes it after a confirmation naming it and its holders; the SDK reads back', async () => {
    const { page } = app;
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const created = (await CredentialsService.credentialsOrgsUsersCreate({
      org: server.org,
      userId: server.user,
      requestBody: { name: 'Old name', description: 'Old description', criteria_text: 'Old criteria' },
    } as never)) as unknown as { result: { entityId: string } };
    const id = created.result.entityId;
    await CredentialsService.credentialsOrgsUsersAssertionsBulkCreate({
      org: server.org,
      userId: server.user,
      entityId: id,
      requestBody: { users: ['learner0002', 'learner0003'] },
    } as never);
    await app.open(`#/credentials/${id}`);
    const detail = page.getByTestId('badge-detail');
    await visible(detail.getByRole('heading', { name: 'Old name' }), 60_000);

    await detail.getByRole('button', { name: 'Edit…' }).click();
    const form = page.getByRole('dialog', { name: 'Edit “Old name”' });
    expect(await form.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Old name');
    const files = tempDir();
    writeFileSync(join(files, 'notes.png'), 'plain text, not a picture');
    writeFileSync(join(files, 'face.png'), PNG);
    let chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Choose image' }).click();
    await (await chooser).setFiles(join(files, 'notes.png'));
    await visible(form.getByText(/notes\.png: Not an image/));
    chooser = page.waitForEvent('filechooser');
    await form.getByRole('button', { name: 'Choose image' }).click();
    await (await chooser).setFiles(join(files, 'face.png'));
    await visible(form.getByText(/face\.png \(PNG/));
    await form.getByRole('textbox', { name: 'Name' }).fill('New name');
    await form.getByRole('textbox', { name: 'Description' }).fill('New description');
    await form.getByRole('textbox', { name: 'Criteria' }).fill('New criteria');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'hidden', timeout: 30_000 });
    await visible(detail.getByRole('heading', { name: 'New name' }), 30_000);
    await visible(detail.getByText('Criteria: New criteria'));
    const read = (await CredentialsService.credentialsOrgsUsersRetrieve2({
      org: server.org,
      userId: server.user,
      entityId: id,
    } as never)) as unknown as { result: Record<string, string> };
    expect(read.result).toMatchObject({
      name: 'New name',
      description: 'New description',
      criteria_text: 'New criteria',
      icon_image: expect.stringMatching(/^data:image\/png;base64,/),
    });

    await detail.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “New name”?' });
    await expect
      .poll(() => confirm.getByTestId('delete-holders').innerText(), { timeout: 30_000 })
      .toContain('2 people hold this badge');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(server.db.prepare('SELECT count(*) FROM credential_badges WHERE entity_id = ?').pluck().get(id)).toBe(1);
    await detail.getByRole('button', { name: 'Delete…' }).click();
    await confirm.getByRole('button', { name: 'Delete “New name”' }).click();
    await confirm.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/#\/credentials$/);
    await expect
      .poll(
        () =>
          page
            .getByTestId('badge-list')
            .getByRole('row', { name: /New name/ })
            .count(),
        { timeout: 30_000 },
      )
      .toBe(0);
    await expect(
      CredentialsService.credentialsOrgsUsersRetrieve2({ org: server.org, userId: server.user, entityId: id } as never),
    ).rejects.toMatchObject({ status: 404 });
  }, 180_000);

  it("lists a course's completers before issuing (one already has it, left out), then reports issued, already held and failed with why", async () => {
    const { page } = app;
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const course = server.db
      .prepare("SELECT course FROM credential_badges WHERE org = ? AND entity_id LIKE '%-badge-3'")
      .pluck()
      .get(server.org) as string;
    const completers = server.db
      .prepare(
        `SELECT u.username, u.first_name || ' ' || u.last_name AS name FROM learning_enrollments e
         JOIN users u ON u.id = e.user_id JOIN courses k ON k.id = e.course_pk
         WHERE k.course_id = ? AND e.completed_at IS NOT NULL AND u.is_active = 1 ORDER BY u.username`,
      )
      .all(course) as { username: string; name: string }[];
    expect(completers.length).toBeGreaterThan(2);
    const created = (await CredentialsService.credentialsOrgsUsersCreate({
      org: server.org,
      userId: server.user,
      requestBody: { name: 'Preview badge', course },
    } as never)) as unknown as { result: { entityId: string } };
    const id = created.result.entityId;
    const [holder, leaver] = completers;
    await CredentialsService.credentialsOrgsUsersAssertionsBulkCreate({
      org: server.org,
      userId: server.user,
      entityId: id,
      requestBody: { users: [holder!.username] },
    } as never);

    await app.open(`#/credentials/${id}`);
    const detail = page.getByTestId('badge-detail');
    await visible(detail.getByRole('heading', { name: 'Preview badge' }), 60_000);
    await detail.getByRole('button', { name: 'Issue to course completers…' }).click();
    const issue = page.getByRole('dialog', { name: 'Issue “Preview badge”' });
    const list = issue.getByTestId('issue-completers');
    await visible(list, 60_000);
    // Everyone who completed it, by name; the one holding it marked and left out of the count.
    expect(await list.locator('tbody tr').count()).toBe(completers.length);
    await visible(list.getByRole('link', { name: leaver!.name }));
    // Each name has its username beside it: two people of one name are told apart.
    const leaverLink = list.getByRole('link', { name: leaver!.name });
    expect(await leaverLink.getByTestId('completer-username').textContent()).toBe(` · ${leaver!.username}`);
    expect(await list.getByTestId('completer-username').count()).toBe(completers.filter((c) => c.name.trim()).length);
    const held = list.getByRole('row', { name: new RegExp(holder!.name) });
    await visible(held.getByText('Already has it'));
    expect(await list.getByText('Already has it').count()).toBe(1);
    const toIssue = completers.length - 1;
    const button = issue.getByRole('button', { name: `Issue to ${toIssue} people` });
    await visible(button);

    const previewShots = process.env.MENTOR_ADMIN_SHOTS;
    if (previewShots) {
      mkdirSync(previewShots, { recursive: true });
      for (const [scheme, w, h] of [
        ['light', 1400, 900],
        ['dark', 1000, 650],
      ] as const) {
        await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${scheme}')`);
        await page.setViewportSize({ width: w, height: h });
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(previewShots, `issue-preview-${scheme}-${w}.png`) });
      }
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', 'light')`);
    }
    // One leaves the tenant between the list and the issue: the platform skips them, and the report says so.
    server.db.prepare('UPDATE users SET is_active = 0 WHERE username = ?').run(leaver!.username);
    try {
      await button.click();
      const report = issue.getByTestId('issue-report');
      await visible(report, 60_000);
      const said = await report.innerText();
      expect(said).toContain(`Issued to ${toIssue - 1} ${toIssue - 1 === 1 ? 'person' : 'people'}`);
      expect(said).toContain('Already held by 1');
      expect(said).toContain('Failed for 1');
      const failure = report.getByTestId('issue-failures').getByRole('row', { name: new RegExp(leaver!.name) });
      await visible(failure.getByText('The platform did not issue it and did not say why'));
      const sdk = await CredentialsService.credentialsOrgsUsersAssertionsRetrieve3({
        org: server.org,
        userId: server.user,
        entityId: id,
      } as never);
      expect(sdk.count).toBe(completers.length - 1);

      const shots = process.env.MENTOR_ADMIN_SHOTS;
      if (shots) {
        mkdirSync(shots, { recursive: true });
        for (const scheme of ['light', 'dark'] as const) {
          await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${scheme}')`);
          for (const [w, h] of [
            [1400, 900],
            [1000, 650],
          ] as const) {
            await page.setViewportSize({ width: w, height: h });
            await page.waitForTimeout(300);
            await page.screenshot({ path: join(shots, `issue-report-${scheme}-${w}.png`) });
          }
        }
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', 'light')`);
      }
      await report.getByRole('button', { name: 'Done' }).click();
      await issue.waitFor({ state: 'hidden' });
    } finally {
      server.db.prepare('UPDATE users SET is_active = 1 WHERE username = ?').run(leaver!.username);
    }
  }, 180_000);

  it('issues a badge from a CSV file: a dry run says each row, then Import now; the SDK reads the holders', async () => {
    const { page } = app;
    await app.open('#/credentials');
    const row = page.getByTestId('badge-list').getByRole('row', { name: /Capstone finisher/ });
    await row.click();
    const detail = page.getByTestId('badge-detail');
    await visible(detail.getByRole('heading', { name: 'Capstone finisher' }));
    const badge = server.db
      .prepare("SELECT entity_id FROM credential_badges WHERE name = 'Capstone finisher'")
      .pluck()
      .get() as string;
    const holders = new Set(
      server.db
        .prepare('SELECT username FROM credential_assertions WHERE badge = ? AND revoked = 0')
        .pluck()
        .all(badge) as string[],
    );
    const fresh = server.db
      .prepare("SELECT username FROM users WHERE org = ? AND role = 'student' AND is_active = 1 ORDER BY id LIMIT 40")
      .pluck()
      .all(server.org)
      .filter((name) => !holders.has(name as string))
      .slice(0, 2) as string[];
    const already = [...holders][0]!;

    await detail.getByRole('button', { name: 'Issue from a CSV file…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Issue “Capstone finisher” from CSV' });
    const csv = ['Username', ...fresh, already, 'nobody-here'].join('\r\n');
    await dialog
      .getByTestId('badge-import-file')
      .setInputFiles({ name: 'holders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const result = dialog.getByTestId('import-result');
    await expect
      .poll(() => result.innerText(), { timeout: 30_000 })
      .toMatch(/2 would be issued[\s\S]*1 already hold it[\s\S]*1 unknown/);
    await visible(dialog.getByTestId('import-report').getByRole('row', { name: /5\s+nobody-here/ }));
    expect(
      server.db
        .prepare('SELECT count(*) FROM credential_assertions WHERE badge = ? AND revoked = 0')
        .pluck()
        .get(badge),
    ).toBe(holders.size);

    await dialog.getByRole('button', { name: 'Import now' }).click();
    await expect
      .poll(() => dialog.getByTestId('import-result').innerText(), { timeout: 30_000 })
      .toMatch(/2 issued[\s\S]*1 unknown/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => detail.getByTestId('badge-standing').innerText()).toBe(`${holders.size + 2} holders`);

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await CredentialsService.credentialsOrgsUsersAssertionsRetrieve3({
      org: server.org,
      userId: server.user,
      entityId: badge,
    } as never);
    const names = read.data.map((a) => JSON.stringify(a));
    for (const name of fresh) expect(names.some((a) => a.includes(name))).toBe(true);
  }, 180_000);
});

describe('Credentials while the tenant is not answering', () => {
  const REASON = 'Changes cannot be saved until the tenant can be reached.';

  it('shows the saved copy of the badges and their holders, with defining, issuing and revoking off and why', async () => {
    const { page } = app;
    // Read once while the tenant answers: the badges, and the holders of one that has some.
    await app.open('#/credentials');
    const row = page.getByTestId('badge-list').getByRole('row', { name: /Data Structures completer/ });
    await row.click();
    const detail = page.getByTestId('badge-detail');
    await visible(detail.getByTestId('badge-assertions'), 30_000);
    const holders = await detail.getByTestId('badge-standing').innerText();
    const badgeNames = await page.getByTestId('badge-list').getByRole('row').allInnerTexts();
    const route = page.url().slice(page.url().indexOf('#'));

    server.setFaults('error5xx=1');
    try {
      await app.open(route);
      await visible(page.getByRole('status').filter({ hasText: 'Showing the saved copy' }), 30_000);
      expect(await page.getByTestId('badge-list').getByRole('row').allInnerTexts()).toEqual(badgeNames);
      await expect.poll(() => detail.getByTestId('badge-standing').innerText(), { timeout: 30_000 }).toBe(holders);
      // The chart is read from the same tenant: the banner said it, the chart only says it is not loaded.
      await visible(page.getByTestId('badge-issuance-not-loaded'), 30_000);
      expect(await page.locator('main').getByRole('alert').count()).toBe(0);

      const define = page.getByRole('button', { name: 'Define badge' });
      const issue = detail.getByRole('button', { name: 'Issue to course completers…' });
      const fromFile = detail.getByRole('button', { name: 'Issue from a CSV file…' });
      const revoke = detail.getByRole('button', { name: /^Revoke .*'s badge$/ }).first();
      for (const action of [define, issue, fromFile, revoke]) {
        await expect.poll(() => action.getAttribute('aria-disabled')).toBe('true');
      }
      // Keyboard only: Tab reaches Define badge, its tooltip says why, Enter opens nothing.
      await page.getByRole('heading', { name: 'Credentials' }).click();
      for (let i = 0; i < 10; i++) {
        if (await define.evaluate((element) => element === document.activeElement)) break;
        await page.keyboard.press('Tab');
      }
      expect(await define.evaluate((element) => element === document.activeElement)).toBe(true);
      await visible(page.getByRole('tooltip').filter({ hasText: REASON }).last());
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Dark: the warning reads as a dark yellow tint like the other alerts, not Mantine's solid orange.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', 'dark')`);
      const banner = page.getByRole('status').filter({ hasText: 'Showing the saved copy' });
      expect(await banner.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(58, 46, 10)');
      const shots = process.env.MENTOR_ADMIN_SHOTS;
      if (shots) {
        mkdirSync(shots, { recursive: true });
        for (const scheme of ['dark', 'light'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${scheme}')`);
          for (const [w, h] of [
            [1400, 900],
            [1000, 650],
          ] as const) {
            await page.setViewportSize({ width: w, height: h });
            await page.waitForTimeout(300);
            await page.screenshot({ path: join(shots, `credentials-offline-${scheme}-${w}.png`) });
          }
        }
      }
    } finally {
      server.setFaults('');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', 'light')`);
      await page.setViewportSize({ width: 1360, height: 900 });
    }
    // Answering again: a fresh read, the writes back on.
    await app.open(route);
    await visible(page.getByTestId('badge-list'), 30_000);
    await expect.poll(() => page.getByText('Showing the saved copy').count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(() => page.getByRole('button', { name: 'Define badge' }).getAttribute('aria-disabled'))
      .toBeNull();
  }, 180_000);
});
