/**
 * A mentor's evaluations from the engine (issue 16, "Evaluations"), against a real sandbox over HTTP: define, run as
 * one `mentor-eval` job that waits through 'Report not found or still being generated' for the report, runs kept
 * with their reports and compared question by question; refusals at their fields; a report that never comes ends the
 * job at its waiting limit; an engine stopped mid-run resumes without sending a second execution.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { waitForJob } from '../helpers/engine';
import { connect, failure, recordingProxy, until } from './setup';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox();
});

const base = () => `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`;
const isExecution = (request: { method: string; url: string }) =>
  request.method === 'POST' && request.url.includes('/mentor-eval-execution/');

async function makeMentor(name: string): Promise<string> {
  const made = await call(server, 'POST', base(), { json: { name } });
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
  await until('training', async () => {
    const task = await call(server, 'GET', `${docs}tasks/${taskId}/`);
    return (task.body as { status: string }).status !== 'pending';
  });
}

const QUESTIONS = [
  { content: 'Why is Mars red?', sampleAnswer: 'Mars is red because of iron oxide dust.' },
  { content: 'What is the largest planet?', sampleAnswer: 'Jupiter is the largest planet, a gas giant.' },
];

describe('mentor evaluations', () => {
  it('defines, runs as a job that waits for the report, lists runs and compares two', async () => {
    const mentor = await makeMentor('Engine Eval');
    await train(mentor, 'mars.txt', 'Mars looks red because iron oxide dust covers its surface.');
    const proxy = await recordingProxy(server);
    const { engine, events } = await connect(server, { key: 'env-only', baseUrl: proxy.url });

    expect(await engine.invoke('mentorEvals.get', { mentor })).toEqual({ evaluation: null });
    const { evaluation } = await engine.invoke('mentorEvals.define', { mentor, name: 'Planets', questions: QUESTIONS });
    expect(evaluation).toMatchObject({ name: 'Planets', passingScore: 60 });
    expect(evaluation.questions.map((q) => [q.content, q.sampleAnswer])).toEqual(
      QUESTIONS.map((q) => [q.content, q.sampleAnswer]),
    );
    expect((await engine.invoke('mentorEvals.get', { mentor })).evaluation).toEqual(evaluation);
    expect(events.some((e) => e.name === 'mentorEvals.changed')).toBe(true);

    const first = await engine.invoke('mentorEvals.run', { mentor, evaluationId: evaluation.id });
    expect(first.job.kind).toBe('mentor-eval');
    const job = await waitForJob(engine, first.job.id);
    expect(job.state).toBe('completed');
    // The report took a while: it was asked for more than once, the execution sent once.
    const reads = proxy.requests.filter((r) => r.url.includes('/mentor-eval-report/'));
    expect(reads.length).toBeGreaterThan(1);
    expect(proxy.requests.filter(isExecution)).toHaveLength(1);

    const [run1] = (await engine.invoke('mentorEvals.runs', { mentor })).runs;
    expect(run1).toMatchObject({ state: 'ready', evaluationId: evaluation.id, jobId: first.job.id });
    expect(run1!.report!.ratings.map((r) => r.question)).toEqual(['Why is Mars red?', 'What is the largest planet?']);
    expect(run1!.report!.ratings[0]!.answer).toContain('iron oxide');
    expect(run1!.report!.ratings[1]!.score).toBe(0);

    // The mentor learns about Jupiter; the second run scores better on that question only.
    await train(mentor, 'jupiter.txt', 'Jupiter is the largest planet of all, a gas giant with storms.');
    const second = await engine.invoke('mentorEvals.run', { mentor, evaluationId: evaluation.id });
    expect((await waitForJob(engine, second.job.id)).state).toBe('completed');
    const runs = (await engine.invoke('mentorEvals.runs', { mentor })).runs;
    expect(runs.map((r) => r.id)).toEqual([second.run.id, run1!.id]);

    const compared = await engine.invoke('mentorEvals.compare', { mentor, before: run1!.id, after: second.run.id });
    expect(compared.rows.map((r) => [r.question, r.change === 0, r.answerChanged])).toEqual([
      ['Why is Mars red?', true, false],
      ['What is the largest planet?', false, true],
    ]);
    expect(compared.rows[1]!.change).toBeGreaterThan(50);
    expect(compared.rows[1]!.before!.answer).toContain('could not find');
  });

  it('shows a refusal at its field; a report that never comes ends the job at its waiting limit', async () => {
    const mentor = await makeMentor('Engine Eval Refusals');
    const { engine } = await connect(server, { key: 'env-only' });
    const refused = await failure(engine, 'mentorEvals.define', {
      mentor,
      questions: [{ content: 'Fine?' }, { content: '   ' }],
    });
    expect(refused.code).toBe('validation');
    expect(refused.issues).toEqual([{ path: 'questions.1.content', message: 'This field may not be blank.' }]);

    const unknownRun = await failure(engine, 'mentorEvals.define', { mentor, id: 987_654, name: 'x' });
    expect(unknownRun.message).toContain('Invalid data or mentor not found');

    // A run of an evaluation that is not this mentor's: the platform's words, the job failed, nothing waited for.
    const wrong = await engine.invoke('mentorEvals.run', { mentor, evaluationId: 987_654 });
    const wrongJob = await waitForJob(engine, wrong.job.id);
    expect(wrongJob.state).toBe('failed');
    expect(wrongJob.error).toContain('Invalid evaluation ID or mentor mismatch');

    // A report slower than the run's waiting limit (a fiftieth of a minute).
    const { evaluation } = await engine.invoke('mentorEvals.define', { mentor, questions: QUESTIONS });
    const slow = await engine.invoke('mentorEvals.run', { mentor, evaluationId: evaluation.id, waitMinutes: 0.02 });
    const slowJob = await waitForJob(engine, slow.job.id);
    expect(slowJob.state).toBe('failed');
    expect(slowJob.error).toMatch(
      /^No report after 0\.02 minutes: the platform still says 'Report not found or still being generated' for report \d+\.$/,
    );
    const run = (await engine.invoke('mentorEvals.runs', { mentor })).runs[0]!;
    expect(run).toMatchObject({ state: 'failed', error: slowJob.error });
    expect(run.reportId).toEqual(expect.any(Number));
  });

  it('an engine stopped while waiting resumes the wait; one stopped while sending does not send again', async () => {
    const mentor = await makeMentor('Engine Eval Resume');
    const proxy = await recordingProxy(server);
    const first = await connect(server, { key: 'env-only', baseUrl: proxy.url, keep: true });
    const { evaluation } = await first.engine.invoke('mentorEvals.define', { mentor, questions: QUESTIONS });

    // Stopped while waiting for the report: the next engine waits on and reads it; one execution in all.
    const waiting = await first.engine.invoke('mentorEvals.run', { mentor, evaluationId: evaluation.id });
    await until('report id kept', async () => {
      const runs = (await first.engine.invoke('mentorEvals.runs', { mentor })).runs;
      return runs[0]?.state === 'waiting';
    });
    await first.engine.close();
    const second = await connect(server, { key: 'env-only', dataDir: first.dataDir, keep: true });
    expect((await waitForJob(second.engine, waiting.job.id)).state).toBe('completed');
    expect(proxy.requests.filter(isExecution)).toHaveLength(1);
    expect((await second.engine.invoke('mentorEvals.runs', { mentor })).runs[0]!.state).toBe('ready');

    // Stopped while the execution was on its way (its answer held back): the next engine does not send it again.
    let release!: () => void;
    proxy.hold = { match: /mentor-eval-execution/, until: new Promise<void>((r) => (release = r)) };
    const sending = await second.engine.invoke('mentorEvals.run', { mentor, evaluationId: evaluation.id });
    await until('execution sent', () => proxy.requests.filter(isExecution).length === 2);
    await second.engine.close();
    release();
    const third = await connect(server, { key: 'env-only', dataDir: first.dataDir });
    const job = await waitForJob(third.engine, sending.job.id);
    expect(job.state).toBe('failed');
    expect(job.error).toContain('Nothing was sent again');
    expect(proxy.requests.filter(isExecution)).toHaveLength(2);
  });

  it('keeps each tenant’s runs to itself', async () => {
    const mentor = await makeMentor('Engine Eval Tenants');
    const { engine, profileId } = await connect(server);
    const other = await engine.invoke('profiles.add', {
      name: 'Other University',
      baseUrl: server.url,
      org: server.otherOrg.org,
      username: server.otherOrg.user,
      secret: server.otherOrg.apiKey,
      makeActive: false,
    });
    const { evaluation } = await engine.invoke('mentorEvals.define', { profileId, mentor, questions: QUESTIONS });
    const started = await engine.invoke('mentorEvals.run', { profileId, mentor, evaluationId: evaluation.id });
    expect((await waitForJob(engine, started.job.id)).state).toBe('completed');
    expect((await engine.invoke('mentorEvals.runs', { profileId, mentor })).runs).toHaveLength(1);

    // The other tenant: no such mentor there, no runs of it here, and this tenant's run is not found under its name.
    expect(await engine.invoke('mentorEvals.get', { profileId: other.id, mentor })).toEqual({ evaluation: null });
    expect((await engine.invoke('mentorEvals.runs', { profileId: other.id, mentor })).runs).toEqual([]);
    const elsewhere = await failure(engine, 'mentorEvals.compare', {
      profileId: other.id,
      mentor,
      before: started.run.id,
      after: started.run.id,
    });
    expect(elsewhere.code).toBe('not_found');
  });
});
