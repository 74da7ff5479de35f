/**
 * A learner's memories on their page (browser mode, real engine and sandbox), keyboard only where it matters: narrowed
 * by category and by a mentor picked by name; one opened, an entry's key and value changed (the vendor SDK reads the
 * change back; a blank key is refused at its field); the memory deleted only once the learner's username is typed.
 * On the mentor's Memory tab the same list shows only that mentor's memories.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, pickByKeyboard, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let id: number;
const mentors: Record<string, string> = {};
const LEARNER = 'noor-memories';

beforeAll(async () => {
  server = await sandbox();
  for (const name of ['Chemistry Coach', 'Essay Helper']) {
    const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      json: { name },
    });
    mentors[name] = String((made.body as { unique_id: string }).unique_id);
  }
  id = Number(
    server.db
      .prepare(
        `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
         VALUES (?, 'noor@northbridge.example', 'Noor', 'Haddad', ?, 'student', NULL, ?, ?)`,
      )
      .run(LEARNER, server.org, '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z').lastInsertRowid,
  );
  const note = (mentor: string, category: string, value: string, day: string) =>
    remember(server.db, server.org, {
      username: LEARNER,
      mentor: mentors[mentor]!,
      category,
      value,
      at: `2026-11-${day}T09:30:00Z`,
      key: category === 'knowledge_gaps' ? 'gap' : 'lesson',
    });
  note('Chemistry Coach', 'knowledge_gaps', 'balancing equations', '02');
  note('Chemistry Coach', 'lessons_learned', 'molar mass', '03');
  note('Essay Helper', 'knowledge_gaps', 'topic sentences', '04');
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

const rows = () => app.page.getByTestId('learner-memories').locator('tbody tr');

describe('A learner’s memories', () => {
  it('filters by category and by a mentor picked by name, changes an entry, deletes after the learner is typed', async () => {
    const { page } = app;
    await app.open(`#/people-and-access/users/${id}`);
    const section = page.getByTestId('learner-memories');
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(3);
    await visible(section.getByRole('cell', { name: 'Essay Helper' }));

    // Category, from the platform's own list, by keyboard.
    await section.getByRole('combobox', { name: 'Category' }).focus();
    await pickByKeyboard(page, 'Knowledge', 'Knowledge gaps');
    await expect.poll(() => rows().count()).toBe(2);
    // The mentor by name: the platform is asked by its unique id.
    await section.getByRole('combobox', { name: 'Mentor' }).focus();
    await pickByKeyboard(page, 'Chemistry', 'Chemistry Coach');
    await expect.poll(() => rows().count()).toBe(1);
    await visible(section.getByRole('cell', { name: 'Knowledge gaps' }));

    // Open it; change its entry's key and value from the keyboard.
    const name = (await section.locator('tbody tr button').first().innerText()).trim();
    await section.getByRole('button', { name, exact: true }).click();
    // Named by their full name, as the directory knows them (the username stays what a delete asks for).
    const dialog = page.getByRole('dialog', { name: `Memory “${name}” of Noor Haddad` });
    await visible(dialog.getByText('balancing equations'));
    await visible(dialog.getByText('Chemistry Coach'));
    await dialog.getByRole('button', { name: 'Edit gap' }).click();
    const key = dialog.getByRole('textbox', { name: 'Key' });
    await key.fill(' ');
    await dialog.getByRole('textbox', { name: 'Value' }).fill('balancing redox equations');
    expect(await dialog.getByRole('button', { name: 'Save entry' }).isDisabled()).toBe(true);
    await key.fill('stoichiometry');
    // Saved from the keyboard (Enter in the key submits the entry's form).
    await key.press('Enter');
    await visible(dialog.getByText('balancing redox equations'));
    await visible(dialog.getByText('stoichiometry'));

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const filtered = (await AiMentorService.aiMentorOrgsUsersFilteredMemoriesList({
      org: server.org,
      userId: server.user,
      username: LEARNER,
      category: 'knowledge_gaps',
      mentor: mentors['Chemistry Coach'],
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersFilteredMemoriesList>[0])) as {
      results: { unique_id: string; entries: { key: string; value: string }[] }[];
    };
    expect(filtered.results[0]!.entries).toEqual([
      expect.objectContaining({ key: 'stoichiometry', value: 'balancing redox equations' }),
    ]);
    const memoryId = filtered.results[0]!.unique_id;

    // Delete: the red button wakes only once the learner's username is typed.
    await dialog.getByRole('button', { name: 'Delete memory…' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete the memory “${name}” of ${LEARNER}?` });
    await visible(confirm);
    const remove = confirm.getByRole('button', { name: 'Delete memory' });
    expect(await remove.isDisabled()).toBe(true);
    await page.keyboard.type('noor');
    expect(await remove.isDisabled()).toBe(true);
    await page.keyboard.type('-memories');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    await visible(section.getByTestId('memories-empty'));
    const gone = await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/users/${LEARNER}/memory/${memoryId}/`);
    expect(gone.status).toBe(404);

    await section.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rows().count()).toBe(2);
  });

  it('on a mentor’s Memory tab, lists only that mentor’s memories of the learner picked', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentors['Essay Helper']}`);
    await page.getByRole('tab', { name: 'Memory', exact: true }).click();
    const panel = page.getByTestId('mentor-memory');
    await panel.getByRole('combobox', { name: 'Learner' }).fill('noor-mem');
    await page.getByRole('option', { name: 'Noor Haddad' }).click();
    const section = page.getByTestId('learner-memories');
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(1);
    await visible(section.getByRole('cell', { name: 'Knowledge gaps' }));
    expect(await section.getByRole('combobox', { name: 'Mentor' }).count()).toBe(0);
  });
});
