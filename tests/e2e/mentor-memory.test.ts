/**
 * A mentor's Memory tab in browser mode, on a real engine and sandbox: Mentors → a mentor → Memory. The memory
 * settings are edited (the platform keeps them); a learner picked from the tenant's people shows what the mentor
 * remembers of them, their progress and history; clearing asks for the learner's username, and a learner with
 * nothing left is told "nothing to clear".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: string;
const LEARNER = 'mia-memory';
const userPath = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

beforeAll(async () => {
  server = await sandbox();
  mentor = (
    (await call(server, 'POST', userPath(), { json: { name: 'Calculus Coach' } })).body as { unique_id: string }
  ).unique_id;
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, 'mia@northbridge.example', 'Mia', 'Moreau', ?, 'student', NULL, '2026-11-01T08:00:00.000Z', '2026-11-01T08:00:00.000Z')`,
    )
    .run(LEARNER, server.org);
  const note = (category: string, value: string, day: string) =>
    remember(server.db, server.org, { username: LEARNER, mentor, category, value, at: `2026-11-${day}T09:30:00Z` });
  note('knowledge_gaps', 'the chain rule', '02');
  note('lessons_learned', 'limits', '02');
  note('lessons_learned', 'derivatives', '03');
  note('help_requests', 'explain integrals', '04');
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: memory', () => {
  it('edits the memory settings, shows a learner’s memory and clears it once their username is typed', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor}`);
    await page.getByRole('tab', { name: 'Memory', exact: true }).click();

    // Memory settings: none yet; a course and a question count saved through the card's form.
    const card = page.getByTestId('single-mentor-memory-settings');
    await visible(card.getByRole('button', { name: 'Edit' }));
    await card.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit memory settings' });
    await dialog.getByRole('combobox', { name: 'Item type' }).fill('course');
    await dialog.getByRole('textbox', { name: 'Item identifier' }).fill('course-v1:main+CALC+2026');
    await dialog.getByRole('textbox', { name: 'Questions before advancing' }).fill('12');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(async () => (await call(server, 'GET', `${userPath()}mentors/${mentor}/memory-settings/`)).body)
      .toMatchObject({
        item_type: 'course',
        item_identifier: 'course-v1:main+CALC+2026',
        learner_advance_question_count: 12,
      });
    await visible(card.getByText('course-v1:main+CALC+2026'));

    // A learner picked by name: their memory by category, progress and history.
    const memory = page.getByTestId('mentor-memory');
    await memory
      .getByRole('textbox', { name: 'Learner' })
      .or(memory.getByRole('combobox', { name: 'Learner' }))
      .fill('mia-mem');
    // Found by username (the engine's search), shown by name.
    await page.getByRole('option', { name: 'Mia Moreau' }).click();
    const gaps = memory.locator('[data-category="knowledge_gaps"]');
    await visible(gaps.getByText('the chain rule'));
    expect(await memory.locator('[data-category="lessons_learned"]').innerText()).toMatch(/limits[\s\S]*derivatives/);
    await visible(memory.getByTestId('memory-progress').getByText(/unit 2 of 4/));
    const history = memory.getByTestId('memory-history');
    expect(await history.innerText()).toMatch(/2026-11-04 09:30:00[\s\S]*Help request:\s*explain integrals/);

    // Clearing: the button stays off until the username is typed.
    await memory.getByRole('button', { name: 'Clear memory…' }).click();
    const confirm = page.getByRole('dialog', { name: `Clear the memory of ${LEARNER}?` });
    await confirm.getByRole('textbox').fill('Mia');
    expect(await confirm.getByRole('button', { name: 'Clear memory' }).isDisabled()).toBe(true);
    await confirm.getByRole('textbox').fill(LEARNER);
    await confirm.getByRole('button', { name: 'Clear memory' }).click();
    await visible(page.getByText('Memory cleared'));
    await visible(memory.getByTestId('memory-empty'));
    expect(
      (
        await call(
          server,
          'GET',
          `/api/ai-mentor/orgs/${server.org}/users/${LEARNER}/mentors/${mentor}/current-memory/`,
        )
      ).body,
    ).toEqual({ knowledge_gaps: [], lessons_learned: [], help_requests: [] });

    // Again: nothing to clear, said as such (not an error).
    await memory.getByRole('button', { name: 'Clear memory…' }).click();
    await confirm.getByRole('textbox').fill(LEARNER);
    await confirm.getByRole('button', { name: 'Clear memory' }).click();
    await visible(page.getByText('Nothing to clear'));
  });
});
