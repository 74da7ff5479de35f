/**
 * A mentor's evaluations in the sandbox (issue 16, "Evaluations"), against the vendor spec: define (`mentor-eval/`
 * GET and POST), run (`mentor-eval-execution/`), read the report (`reports/{report_id}/mentor-eval-report/`, 400
 * 'Report not found or still being generated' until it is written). A run really answers each question from the
 * mentor's trained documents and scores the answer against the sample answer. Admins only; one tenant never reaches
 * another's evaluations.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call } from '../helpers/sandbox';
import { sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let base: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}';

beforeAll(async () => {
  server = await sandbox();
  base = `/api/ai-mentor/orgs/${server.org}/users/${server.user}`;
});

async function makeMentor(name: string): Promise<string> {
  const made = await call(server, 'POST', `${base}/`, { json: { name } });
  expect(made.status).toBe(201);
  return (made.body as { unique_id: string }).unique_id;
}

async function train(mentor: string, name: string, text: string) {
  const form = new FormData();
  form.set('file', new Blob([text]), name);
  form.set('pathway', mentor);
  form.set('type', 'file');
  const docs = `/api/ai-index/orgs/${server.org}/users/${server.user}/documents/`;
  const answer = await call(server, 'POST', `${docs}train/`, { form });
  expect(answer.status).toBe(200);
  const taskId = (answer.body as { task_id: string }).task_id;
  for (let i = 0; i < 300; i++) {
    const task = await call(server, 'GET', `${docs}tasks/${taskId}/`);
    if ((task.body as { status: string }).status !== 'pending') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('training did not finish');
}

const evalPath = (mentor: string) => `${base}/mentors/${mentor}/mentor-eval/`;
const runPath = (mentor: string) => `${base}/mentors/${mentor}/mentor-eval-execution/`;
const reportPath = (mentor: string, id: number | string) =>
  `${base}/mentors/${mentor}/reports/${id}/mentor-eval-report/`;

describe('mentor evaluations', () => {
  it('defines, runs and reports: the report comes after a while and scores the mentor’s answers', async () => {
    const mentor = await makeMentor('Eval Astronomy');
    await train(
      mentor,
      'planets.txt',
      'Mars is the fourth planet from the Sun and is called the red planet because of iron oxide dust.\n\n' +
        'Jupiter is the largest planet of the solar system, a gas giant with a great red spot storm.',
    );
    expect((await call(server, 'GET', evalPath(mentor))).body).toEqual({ detail: 'Mentor or evaluations not found' });

    const created = await call(server, 'POST', evalPath(mentor), {
      json: {
        name: 'Planets',
        questions: [
          { content: 'Why is Mars called the red planet?', sample_answer: 'Mars is red because of iron oxide dust.' },
          { content: 'What is the largest planet?', sample_answer: 'Jupiter, a gas giant.' },
          { content: 'Who wrote Hamlet?', sample_answer: 'Shakespeare' },
        ],
      },
    });
    expect(created.status).toBe(200);
    expectSpecValid('post', `${SPEC}/mentor-eval/`, 200, created.body);
    const evaluation = created.body as { id: number; passing_score: number; question_set: number; name: string };
    // The spec's example values are the defaults.
    expect(evaluation).toMatchObject({ name: 'Planets', passing_score: 60 });
    expect(created.body).toMatchObject({ evaluation_prompt: expect.stringContaining('{{mentor_answer}}') });
    const read = await call(server, 'GET', evalPath(mentor));
    expect(read.status).toBe(200);
    expectSpecValid('get', `${SPEC}/mentor-eval/`, 200, read.body);
    expect(read.body).toEqual(created.body);

    // An update names the evaluation and changes only what it gives.
    const updated = await call(server, 'POST', evalPath(mentor), { json: { id: evaluation.id, passing_score: 50 } });
    expect(updated.body).toMatchObject({ id: evaluation.id, passing_score: 50, name: 'Planets' });
    expect((updated.body as { questions: unknown[] }).questions).toHaveLength(3);

    const run = await call(server, 'POST', runPath(mentor), { json: { id: evaluation.id } });
    expect(run.status).toBe(200);
    const reportId = (run.body as { report_id: number }).report_id;
    expect(reportId).toEqual(expect.any(Number));

    // Still being written: the spec's 400.
    const early = await call(server, 'GET', reportPath(mentor, reportId));
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ detail: 'Report not found or still being generated' });

    let report: { status: number; body: unknown } = early;
    for (let i = 0; i < 100 && report.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      report = await call(server, 'GET', reportPath(mentor, reportId));
    }
    expect(report.status).toBe(200);
    expectSpecValid('get', `${SPEC}/reports/{report_id}/mentor-eval-report/`, 200, report.body);
    const body = report.body as {
      id: number;
      conversation_ratings: { full_conversation_text: string; score: number }[];
      overall_score: number;
      is_passed: boolean;
      mentor_eval: string;
    };
    expect(body.id).toBe(reportId);
    expect(body.mentor_eval).toBe(`(Mentor Eval Astronomy, Question Set ${evaluation.question_set})`);
    const [mars, jupiter, hamlet] = body.conversation_ratings;
    expect(mars!.full_conversation_text).toContain('iron oxide');
    expect(mars!.score).toBeGreaterThanOrEqual(80);
    expect(jupiter!.full_conversation_text).toContain('gas giant');
    expect(hamlet).toMatchObject({ score: 0, full_conversation_text: expect.stringContaining('could not find') });
    expect(body.overall_score).toBeCloseTo((mars!.score + jupiter!.score) / 3, 1);
    expect(body.is_passed).toBe(body.overall_score >= 50);
  });

  it('refuses bad input with the spec’s messages, at the field', async () => {
    const mentor = await makeMentor('Eval Refusals');
    const bad = await call(server, 'POST', evalPath(mentor), {
      json: { passing_score: 'high', questions: [{ sample_answer: 'x' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      passing_score: ['A valid integer is required.'],
      questions: [{ content: ['This field is required.'] }],
    });
    expect((await call(server, 'POST', evalPath('no-such-mentor'), { json: { name: 'x' } })).body).toEqual({
      detail: 'Invalid data or mentor not found',
    });
    expect((await call(server, 'POST', evalPath(mentor), { json: { id: 999_999 } })).body).toEqual({
      detail: 'Invalid data or mentor not found',
    });
    expect((await call(server, 'POST', runPath(mentor), { json: {} })).body).toEqual({
      id: ['This field is required.'],
    });
    const wrong = await call(server, 'POST', runPath(mentor), { json: { id: 999_999 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: 'Invalid evaluation ID or mentor mismatch' });
    // A report that is not there says the same as one being written (the spec's one message for both).
    expect((await call(server, 'GET', reportPath(mentor, 999_999))).body).toEqual({
      detail: 'Report not found or still being generated',
    });
  });

  it('is for tenant admins of the mentor’s own tenant; another mentor’s report is not found', async () => {
    const mentor = await makeMentor('Eval Private');
    const other = await makeMentor('Eval Neighbour');
    const made = await call(server, 'POST', evalPath(mentor), { json: { questions: [{ content: 'What?' }] } });
    const id = (made.body as { id: number }).id;
    // Another mentor of the same tenant cannot run this one's evaluation.
    expect((await call(server, 'POST', runPath(other), { json: { id } })).body).toEqual({
      detail: 'Invalid evaluation ID or mentor mismatch',
    });
    const run = await call(server, 'POST', runPath(mentor), { json: { id } });
    const reportId = (run.body as { report_id: number }).report_id;
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await call(server, 'GET', reportPath(mentor, reportId))).status).toBe(200);
    expect((await call(server, 'GET', reportPath(other, reportId))).body).toEqual({
      detail: 'Report not found or still being generated',
    });

    const studentBase = `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}`;
    const asStudent = await call(server, 'GET', `${studentBase}/mentors/${mentor}/mentor-eval/`, {
      key: server.studentKey,
    });
    expect(asStudent.status).toBe(403);
    // Another tenant's admin: its own org path does not know the mentor; this org's path refuses its key.
    const otherBase = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}`;
    const elsewhere = await call(server, 'GET', `${otherBase}/mentors/${mentor}/mentor-eval/`, {
      key: server.otherOrg.apiKey,
    });
    expect(elsewhere.status).toBe(404);
    expect(
      (await call(server, 'GET', reportPath(mentor, reportId), { key: server.otherOrg.apiKey })).status,
    ).toBeGreaterThanOrEqual(401);
    expect(
      (
        await call(server, 'GET', `${otherBase}/mentors/${mentor}/reports/${reportId}/mentor-eval-report/`, {
          key: server.otherOrg.apiKey,
        })
      ).body,
    ).toEqual({ detail: 'Report not found or still being generated' });
  });
});
