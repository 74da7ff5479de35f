/**
 * A mentor's Evaluations tab in browser mode, on a real engine and sandbox: the evaluation is defined (a question the
 * platform refuses is shown at that question), run twice as jobs that wait for the platform's report ("still being
 * generated" first), each report read, and the two runs compared side by side with the changed question marked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { openApp, visible, type OpenApp } from './app';

let server: Sandbox;
let app: OpenApp;
let mentor: string;
const userPath = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;

async function train(name: string, text: string) {
  const form = new FormData();
  form.set('file', new Blob([text]), name);
  form.set('pathway', mentor);
  form.set('type', 'file');
  const docs = `/api/ai-index/orgs/${server.org}/users/${server.user}/documents/`;
  const answer = await call(server, 'POST', `${docs}train/`, { form });
  const taskId = (answer.body as { task_id: string }).task_id;
  for (let i = 0; i < 300; i++) {
    const task = await call(server, 'GET', `${docs}tasks/${taskId}/`);
    if ((task.body as { status: string }).status !== 'pending') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} was not trained`);
}

beforeAll(async () => {
  server = await sandbox();
  mentor = ((await call(server, 'POST', userPath(), { json: { name: 'Star Guide' } })).body as { unique_id: string })
    .unique_id;
  await train('mars.txt', 'Mars looks red because iron oxide dust covers its surface.');
  app = await openApp(server);
});

afterAll(async () => {
  await app?.close();
});

describe('Mentor page: evaluations', () => {
  it('defines, runs, reads the report and compares two runs', async () => {
    const { page } = app;
    await app.open(`#/mentors/${mentor}`);
    await page.getByRole('tab', { name: 'Evaluations' }).click();
    const panel = page.getByTestId('mentor-evaluations');
    await visible(panel.getByText('This mentor has no evaluation yet', { exact: false }));
    await visible(panel.getByTestId('eval-no-runs'));

    await panel.getByRole('textbox', { name: 'Name' }).fill('Planets');
    await panel.getByRole('textbox', { name: 'Question 1' }).fill('Why is Mars red?');
    await panel.getByRole('textbox', { name: 'Expected answer 1' }).fill('Mars is red because of iron oxide dust.');
    await panel.getByRole('button', { name: 'Add question' }).click();
    await panel.getByRole('textbox', { name: 'Question 2' }).fill('   ');
    await panel.getByRole('button', { name: 'Save evaluation' }).click();
    // The platform refuses the blank question: its message stands under that question.
    const second = panel.getByRole('textbox', { name: 'Question 2' });
    await expect.poll(() => second.getAttribute('aria-invalid')).toBe('true');
    await visible(panel.getByText('This field may not be blank.'));

    await second.fill('What is the largest planet?');
    await panel.getByRole('textbox', { name: 'Expected answer 2' }).fill('Jupiter is the largest planet.');
    await panel.getByRole('button', { name: 'Save evaluation' }).click();
    await visible(panel.getByText(/^2 questions, each answered by the mentor and scored/));
    const saved = (await call(server, 'GET', `${userPath()}mentors/${mentor}/mentor-eval/`)).body as {
      name: string;
      questions: { content: string; sample_answer: string }[];
    };
    expect(saved.name).toBe('Planets');
    expect(saved.questions.map((q) => q.content)).toEqual(['Why is Mars red?', 'What is the largest planet?']);

    // Run: the report is written a while later; the run waits for it.
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    const runs = panel.getByTestId('eval-run');
    await visible(runs.first().getByText('Waiting for the report'));
    await visible(panel.getByText(/^Run #\d+ started: its report shows below/));
    await visible(runs.first().getByText('Report ready'), 30_000);
    // The note on the run just started goes once its report is there.
    await expect.poll(() => panel.getByText(/^Run #\d+ started/).count()).toBe(0);
    const report = panel.getByTestId('eval-report');
    await visible(report);
    const ratings = report.getByTestId('eval-rating');
    expect(await ratings.count()).toBe(2);
    expect(await ratings.nth(0).innerText()).toContain('iron oxide');
    expect(await ratings.nth(1).innerText()).toContain('could not find');

    // The mentor learns about Jupiter; a second run; the two compared.
    await train('jupiter.txt', 'Jupiter is the largest planet, a gas giant.');
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    await expect.poll(() => runs.count()).toBe(2);
    await visible(runs.first().getByText('Report ready'), 30_000);
    await panel
      .getByRole('checkbox', { name: /Choose run \d+ to compare/ })
      .nth(0)
      .check();
    await panel
      .getByRole('checkbox', { name: /Choose run \d+ to compare/ })
      .nth(1)
      .check();
    await panel.getByRole('button', { name: 'Compare the two runs' }).click();
    const rows = panel.getByTestId('eval-compare-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-changed')).toBe('false');
    expect(await rows.nth(1).getAttribute('data-changed')).toBe('true');
    expect(await rows.nth(1).innerText()).toMatch(/\+\d+/);
    expect(await rows.nth(1).innerText()).toContain('answer changed');
  });
});
