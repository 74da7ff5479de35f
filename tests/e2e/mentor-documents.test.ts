/**
 * A mentor's page in browser mode against the sandbox: the Documents tab's status filter, every action of a
 * document's menu (train/untrain, public/private, retrain interval, delete with confirm) and the mentor's basic
 * settings. Each change is read back from the sandbox's own API, not from the screen.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox, sandboxQueries } from '../helpers/sandbox';
import { documentsPath, serverDocument, serverDocuments, serverMentors, until } from '../mentors/setup';
import { startServer } from '../platform/test-server';
import { dismissNotifications, openApp, visible, type OpenApp } from './app';

const MENTOR = 'Chemistry 201';
const STATUS_LABELS = { trained: 'Trained', failed: 'Failed', pending: 'Pending', untrained: 'Untrained' };
type Status = keyof typeof STATUS_LABELS;

let server: Sandbox;
let app: OpenApp;
let page: Page;
let mentorId: string;
/** Document ids on the sandbox, by name. */
const ids = new Map<string, string>();

/** Puts a document on the tenant through its API, as another admin would have. */
async function upload(fields: Record<string, string>, file?: { name: string; text: string }): Promise<void> {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.text]), file.name);
  for (const [name, value] of Object.entries({ pathway: mentorId, ...fields })) form.append(name, value);
  const answer = await call(server, 'POST', `${documentsPath(server)}train/`, { form });
  expect(answer.status).toBe(200);
  ids.set(file?.name ?? fields.document_name!, String((answer.body as { document_id: string }).document_id));
}

const truth = (id: string) => serverDocument(server, id);
const db = sandboxQueries(() => server);
const idOf = (name: string) => ids.get(name)!;

/** Until no document of the mentor is pending on the sandbox (the pending ones are then trained or failed). */
async function untilSettled(): Promise<void> {
  await until('the documents to settle', async () => (await serverNames('pending')).length === 0, 60_000);
}

const table = () => page.getByTestId('documents-table');
const row = (name: string) => page.getByTestId(`document-row-${name}`);

/** The names in the table now, sorted. */
async function shownNames(): Promise<string[]> {
  const names = await table()
    .locator('tbody tr td:first-child [title]')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('title') ?? ''));
  return names.sort();
}

/** The names the sandbox has with this status (all of them for null), sorted. */
async function serverNames(status: Status | null): Promise<string[]> {
  const documents = await serverDocuments(server, mentorId);
  return documents
    .filter((document) => !status || document.training_status === status)
    .map((document) => document.document_name)
    .sort();
}

async function filterBy(status: Status | null): Promise<void> {
  const label = status ? STATUS_LABELS[status] : 'All';
  await page
    .getByRole('radiogroup', { name: 'Filter documents by status' })
    .getByText(new RegExp(`^${label} \\d+$`))
    .click();
}

async function chooseAction(name: string, action: string): Promise<void> {
  await row(name)
    .getByRole('button', { name: `Actions for ${name}` })
    .click();
  // This document's menu: another one may still be fading out, already showing its document's new state.
  await page
    .getByRole('menu', { name: `Actions for ${name}` })
    .getByRole('menuitem', { name: action, exact: true })
    .click();
}

const statusOf = (name: string): Locator => row(name).getByTestId('document-status');

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  app = await openApp(server);
  page = app.page;
  const mentor = await app.host.engine.invoke('mentors.create', {
    name: MENTOR,
    description: 'Reactions and bonds',
    visibility: 'viewable_by_tenant_students',
  });
  mentorId = mentor.uniqueId;
  // Documents that end trained, one that fails (not a PDF inside) and one untrained afterwards.
  await upload({ type: 'md', access: 'public' }, { name: 'Atoms.md', text: '# Atoms\n\nProtons and neutrons.\n' });
  await upload({ type: 'txt', access: 'public' }, { name: 'Bonds.txt', text: 'Covalent bonds share electrons.\n' });
  await upload({ type: 'md' }, { name: 'Old syllabus.md', text: '# Syllabus 2024\n\nSuperseded.\n' });
  await upload({ type: 'pdf' }, { name: 'Scanned lab sheet.pdf', text: 'no PDF here' });
  await untilSettled();
  const untrain = await call(server, 'PUT', `${documentsPath(server)}${idOf('Old syllabus.md')}/`, {
    json: { pathway: mentorId, train: false },
  });
  expect(untrain.status).toBe(200);
  expect(await serverNames('trained')).toEqual(['Atoms.md', 'Bonds.txt']);
  expect(await serverNames('failed')).toEqual(['Scanned lab sheet.pdf']);
  expect(await serverNames('untrained')).toEqual(['Old syllabus.md']);
});

afterAll(async () => {
  await app?.close();
});

describe("a mentor's documents", () => {
  it('shows only the documents of the chosen status', async () => {
    // Pages the sandbox cannot fetch keep their documents pending (up to its 15 s fetch timeout each, two at a time)
    // until this server goes away.
    const unanswered = await startServer(() => new Promise<void>(() => {}));
    for (const n of [1, 2, 3, 4]) {
      await upload({ type: 'url', url: `${unanswered.url}/page-${n}.html`, document_name: `Slow page ${n}` });
    }
    await app.open(`#/mentors/${encodeURIComponent(mentorId)}`);
    await visible(table());

    await filterBy('pending');
    const pendingShown = async () => {
      const shown = await shownNames();
      return shown.length > 0 && JSON.stringify(shown) === JSON.stringify(await serverNames('pending'));
    };
    await expect.poll(pendingShown).toBe(true);
    expect(new Set(await table().getByTestId('document-status').allInnerTexts())).toEqual(new Set(['Pending']));

    // The pages fail once nothing answers there any more.
    await unanswered.close();
    await untilSettled();
    for (const status of ['trained', 'failed', 'untrained', null] as const) {
      await filterBy(status);
      await expect.poll(shownNames, { timeout: 30_000, interval: 500 }).toEqual(await serverNames(status));
      if (status) {
        const shown = new Set(await table().getByTestId('document-status').allInnerTexts());
        expect(shown).toEqual(new Set([STATUS_LABELS[status]]));
      }
    }
    await filterBy('pending');
    await visible(page.getByText('No documents match.'));
    await filterBy(null);
  });

  it('untrains a trained document (its access kept), trains an untrained one and tries a failed one again', async () => {
    await chooseAction('Bonds.txt', 'Untrain');
    await expect.poll(async () => (await truth(idOf('Bonds.txt')))?.training_status).toBe('untrained');
    expect((await truth(idOf('Bonds.txt')))?.access).toBe('public');
    await expect.poll(() => statusOf('Bonds.txt').innerText()).toBe('Untrained');
    // It was trained before, but an untrained document shows no "Last trained" date: the mentor does not use it.
    const lastTrained = page.getByTestId('document-row-Bonds.txt').getByTestId('document-last-trained');
    expect(((await truth(idOf('Bonds.txt'))) as { last_trained_at?: string | null })?.last_trained_at).toBeTruthy();
    expect(await lastTrained.innerText()).toMatch(/^Not in use\b/);

    await chooseAction('Old syllabus.md', 'Train');
    await expect
      .poll(async () => (await truth(idOf('Old syllabus.md')))?.training_status, { timeout: 30_000 })
      .toBe('trained');
    await expect.poll(() => statusOf('Old syllabus.md').innerText(), { timeout: 30_000 }).toBe('Trained');

    // A failed one is tried again: a new training (the sandbox counts them) that fails again.
    const scanned = idOf('Scanned lab sheet.pdf');
    const trainings = () => db.scalar('SELECT generation FROM documents WHERE id = ?', scanned);
    const before = trainings();
    await chooseAction('Scanned lab sheet.pdf', 'Train again');
    await expect.poll(trainings).toBeGreaterThan(before);
    await expect.poll(async () => (await truth(scanned))?.training_status, { timeout: 30_000 }).toBe('failed');
  });

  it('makes a document private and public again', async () => {
    await chooseAction('Atoms.md', 'Make private');
    await expect.poll(async () => (await truth(idOf('Atoms.md')))?.access).toBe('private');
    await expect.poll(() => row('Atoms.md').locator('td').nth(4).innerText()).toBe('Private');
    expect((await truth(idOf('Atoms.md')))?.training_status).toBe('trained');

    await chooseAction('Atoms.md', 'Make public');
    await expect.poll(async () => (await truth(idOf('Atoms.md')))?.access).toBe('public');
    await expect.poll(() => row('Atoms.md').locator('td').nth(4).innerText()).toBe('Public');
  });

  it('sets a retrain interval and turns it off again', async () => {
    const dialog = page.getByRole('dialog', { name: 'Retrain interval' });
    await chooseAction('Atoms.md', 'Retrain interval…');
    await visible(dialog);
    const schedule = dialog.getByRole('switch', { name: 'Retrain on a schedule' });
    await schedule.check();
    await dialog.getByRole('textbox', { name: 'Every' }).fill('7');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await truth(idOf('Atoms.md')))?.retrain_interval_days).toBe(7);
    await expect.poll(() => row('Atoms.md').innerText()).toContain('every 7 d');

    await dismissNotifications(page);
    await chooseAction('Atoms.md', 'Retrain interval…');
    await visible(dialog);
    const every = dialog.getByRole('textbox', { name: 'Every' });
    expect(await every.inputValue()).toBe('7');
    expect(await schedule.isChecked()).toBe(true);
    await schedule.uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await truth(idOf('Atoms.md')))?.retrain_interval_days).toBeNull();
    await expect.poll(() => row('Atoms.md').innerText()).not.toContain('every 7 d');
  });

  it('deletes a document only once the admin confirms', async () => {
    await dismissNotifications(page);
    const dialog = page.getByRole('dialog', { name: 'Delete document?' });
    await chooseAction('Bonds.txt', 'Delete…');
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await truth(idOf('Bonds.txt'))).not.toBeNull();

    await chooseAction('Bonds.txt', 'Delete…');
    await dialog.getByRole('button', { name: 'Delete document' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await truth(idOf('Bonds.txt'))).toBeNull();
    await row('Bonds.txt').waitFor({ state: 'detached' });
  });
});

describe("a mentor's basic settings", () => {
  const onServer = async () => (await serverMentors(server)).find((mentor) => mentor.uniqueId === mentorId);

  async function edit(change: (dialog: Locator) => Promise<void>): Promise<void> {
    await dismissNotifications(page);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    await visible(dialog);
    await change(dialog);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  it('saves a new name, description and visibility on the tenant', async () => {
    await edit(async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Name' }).fill('Chemistry 202');
      await dialog.getByRole('textbox', { name: 'Description' }).fill('Organic chemistry for second years');
      await dialog.getByRole('radio', { name: /Tenant admins/ }).check();
    });
    expect(await onServer()).toEqual({
      uniqueId: mentorId,
      name: 'Chemistry 202',
      description: 'Organic chemistry for second years',
      visibility: 'viewable_by_tenant_admins',
    });
    await visible(page.getByRole('heading', { name: 'Chemistry 202' }));
    await visible(page.getByText('Organic chemistry for second years'));
  });

  it('changes only what was edited, and can clear the description', async () => {
    await edit(async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Description' }).fill('');
      await dialog.getByRole('radio', { name: /Anyone/ }).check();
    });
    expect(await onServer()).toEqual({
      uniqueId: mentorId,
      name: 'Chemistry 202',
      description: '',
      visibility: 'viewable_by_anyone',
    });
    await visible(page.getByText('No description.'));
  });

  it('says a refused name under its field and saves nothing', async () => {
    await dismissNotifications(page);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    await visible(dialog);
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.fill('   ');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await visible(dialog.getByText('Name is required'));
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByText('Not saved').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await onServer())?.name).toBe('Chemistry 202');
  });
});
