/**
 * A mentor's configuration in browser mode, on a real engine and two real sandboxes as two tenants: Export… saves
 * the file (no secret in it), Import mentor… refuses a file that is not one at the place, previews what this tenant
 * lacks (left out) before creating, and creates; Copy to tenant… previews and copies to the other tenant as a job
 * followed in the dialog, with documents too (the one the platform gives no way to read named before and after).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

let source: Sandbox;
let target: Sandbox;
let app: OpenApp;
let mentor: { unique_id: string };
const base = (server: Sandbox) => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const names = async (server: Sandbox) =>
  ((await call(server, 'GET', `${base(server)}?page_size=1000`)).body as { results: { name: string }[] }).results.map(
    (m) => m.name,
  );

beforeAll(async () => {
  [source, target] = await Promise.all([sandbox(), sandbox()]);
  mentor = (await call(source, 'POST', base(source), { json: { name: 'Algebra Coach' } })).body as {
    unique_id: string;
  };
  await call(source, 'PUT', `${base(source)}mentors/${mentor.unique_id}/settings/`, {
    json: { display_name: 'Ms. Algebra', mentor_description: 'Helps with algebra.', llm_name: 'gpt-4o' },
  });
  app = await openApp(source);
  await app.host.engine.invoke('profiles.add', {
    name: 'Second Campus',
    baseUrl: target.url,
    org: target.org,
    username: target.user,
    secret: target.apiKey,
  });
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor configuration: export, import, copy to a tenant', () => {
  it('exports the file, imports it (a bad file refused, what is lacking previewed) and copies to another tenant', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor.unique_id}`);
    const exportButton = page.getByRole('button', { name: 'Export…' });
    await visible(exportButton);
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    expect(download.suggestedFilename()).toBe('Algebra-Coach.mentor.json');
    const text = readFileSync((await download.path())!, 'utf8');
    const config = JSON.parse(text) as { format: string; version: number; settings: Record<string, unknown> };
    expect(config).toMatchObject({ format: 'mentor-admin.mentor-config', version: 1 });
    expect(config.settings).toMatchObject({ display_name: 'Ms. Algebra', llm_name: 'gpt-4o' });
    expect(text).not.toContain(source.apiKey);

    // Import: a file of another version is refused at the file, before anything is asked of the tenant.
    await dismissNotifications(page);
    await app.open('#/mentors');
    await page.getByRole('button', { name: 'Import mentor…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a mentor' });
    await visible(dialog);
    const choose = async (path: string) => {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        dialog.getByRole('button', { name: 'Choose file…' }).click(),
      ]);
      await chooser.setFiles(path);
    };
    const dir = tempDir();
    writeFileSync(join(dir, 'future.json'), JSON.stringify({ ...config, version: 9 }));
    await choose(join(dir, 'future.json'));
    await visible(dialog.getByRole('alert'));
    expect(await dialog.getByRole('alert').innerText()).toMatch(
      /future\.json: This mentor configuration is version 9; this app reads version 1/,
    );
    expect(await dialog.getByRole('button', { name: 'Create mentor' }).isDisabled()).toBe(true);

    // A model this tenant is not offered: listed as left out in the preview, then the mentor is created without it.
    writeFileSync(
      join(dir, 'algebra.json'),
      JSON.stringify({ ...config, settings: { ...config.settings, llm_name: 'gpt-9' } }),
    );
    await choose(join(dir, 'algebra.json'));
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Imported Coach');
    const leftOut = dialog.getByTestId('left-out');
    await visible(leftOut);
    expect(await leftOut.innerText()).toMatch(/gpt-9.*no longer offers “gpt-9” from openai/);
    await expect
      .poll(() => dialog.getByTestId('mentor-plan').innerText())
      .toMatch(/^Creates the mentor Imported Coach on Sandbox University/);
    expect(await leftOut.innerText()).toMatch(/gpt-9.*no longer offers “gpt-9” from openai/);
    expect(await names(source)).not.toContain('Imported Coach');
    await dialog.getByRole('button', { name: 'Create mentor' }).click();
    await visible(page.getByRole('heading', { name: 'Imported Coach' }));
    expect(await names(source)).toContain('Imported Coach');

    // Copy to the other tenant: choose it, see the preview, copy.
    await dismissNotifications(page);
    await app.open(`#/mentors/${mentor.unique_id}`);
    await page.getByRole('button', { name: 'Copy to tenant…' }).click();
    const copy = page.getByRole('dialog', { name: 'Copy Algebra Coach' });
    await visible(copy);
    await copy.getByLabel('To tenant', { exact: true }).click();
    await page.getByRole('option', { name: 'Second Campus' }).click();
    await visible(copy.getByTestId('mentor-plan'));
    expect(await copy.getByTestId('mentor-plan').innerText()).toMatch(
      /Creates the mentor Algebra Coach on Second Campus[\s\S]*Nothing is left out/,
    );
    expect(await names(target)).not.toContain('Algebra Coach');
    await copy.getByRole('button', { name: 'Copy', exact: true }).click();
    // The copy is a job, followed in the dialog to its end.
    const job = copy.getByTestId('copy-job');
    await visible(job);
    await expect.poll(() => job.getByTestId('job-progress').innerText(), { timeout: 20_000 }).toMatch(/Finished/);
    await copy.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => copy.isVisible()).toBe(false);
    expect(await names(target)).toContain('Algebra Coach');
    const settings = (await call(target, 'GET', `${base(target)}mentors/Algebra Coach/settings/`)).body as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({ display_name: 'Ms. Algebra', mentor_description: 'Helps with algebra.' });
  });

  it('copies with its documents: the preview names the file it cannot copy, the job is followed to its end', async () => {
    const { page } = app;
    const made = (await call(source, 'POST', base(source), { json: { name: 'Geometry Coach' } })).body as {
      unique_id: string;
    };
    const documents = `/api/ai-index/orgs/${source.org}/users/${source.user}/documents/`;
    const url = form({ pathway: made.unique_id, type: 'url', url: 'data:text/plain,Angles%20add%20up%20to%20180.' });
    expect((await call(source, 'POST', `${documents}train/`, { form: url })).status).toBe(200);
    const file = form({ pathway: made.unique_id, type: 'file' });
    file.set('file', new Blob(['Only on the source.']), 'theorems.txt');
    expect((await call(source, 'POST', `${documents}train/`, { form: file })).status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            (await call(source, 'GET', `${documents}pathways/${made.unique_id}/`)).body as {
              results: { training_status: string }[];
            }
          ).results.filter((d) => d.training_status === 'trained').length,
        { timeout: 20_000 },
      )
      .toBe(2);

    await dismissNotifications(page);
    await app.open(`#/mentors/${made.unique_id}`);
    await page.getByRole('button', { name: 'Copy to tenant…' }).click();
    const copy = page.getByRole('dialog', { name: 'Copy Geometry Coach' });
    await visible(copy);
    await copy.getByLabel('To tenant', { exact: true }).click();
    await page.getByRole('option', { name: 'Second Campus' }).click();
    await copy.getByRole('checkbox', { name: 'Copy its trained documents too' }).check();
    const preview = copy.getByTestId('copy-documents');
    await visible(preview);
    expect(await preview.innerText()).toMatch(/1 trained document is trained on Second Campus from its URL/);
    expect(await copy.getByTestId('not-copied').innerText()).toMatch(
      /^The platform's API offers no way to read a document's file, .*: theorems\.txt$/,
    );
    await copy.getByRole('button', { name: 'Copy', exact: true }).click();
    const job = copy.getByTestId('copy-job');
    await visible(job);
    await expect.poll(() => job.getByTestId('job-progress').innerText(), { timeout: 20_000 }).toMatch(/Finished/);
    // What was not copied is said again once it ends.
    await visible(copy.getByTestId('copy-left'));
    expect(await copy.getByTestId('copy-left').innerText()).toMatch(/theorems\.txt/);
    await copy.getByRole('button', { name: 'Done' }).click();

    const [copied] = (
      (await call(target, 'GET', `${base(target)}?page_size=1000`)).body as {
        results: { name: string; unique_id: string }[];
      }
    ).results.filter((m) => m.name === 'Geometry Coach');
    const targetDocs = `/api/ai-index/orgs/${target.org}/users/${target.user}/documents/pathways/${copied!.unique_id}/`;
    const docs = ((await call(target, 'GET', targetDocs)).body as { results: { url: string | null }[] }).results;
    expect(docs.map((d) => d.url)).toEqual(['data:text/plain,Angles%20add%20up%20to%20180.']);
  });
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}
