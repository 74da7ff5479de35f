/**
 * The top bar's job indicator in browser mode: there while training jobs run, saying how far they are together,
 * leading to the job (or to the Jobs screen when several run), and gone once nothing runs. The jobs are the
 * engine's, against a real sandbox slowed down so that they are still running while the page is looked at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobState } from '../../src/shared/contract';
import type { Sandbox } from '../../src/server/app';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { openApp, visible, type OpenApp } from './app';

const MENTOR = 'Physics 110';
const ACTIVE: JobState[] = ['queued', 'running', 'paused', 'waiting'];
/** The sandbox refuses this file (400): its item fails as soon as it is sent, while the others still train. */
const REFUSED = 'syllabus.txt';
/** Every request to the tenant takes this long, so a job of a few files runs for seconds. */
const SLOW = `latency=600-600ms,refuseUpload=${REFUSED}:400:Not this one`;

let server: Sandbox;
let app: OpenApp;
let indicator: Locator;

/**
 * A folder of `lectures` notes, one hidden file (the job skips it at once, so progress starts above 0) and the file
 * the sandbox refuses.
 */
function notesFolder(name: string, lectures: number): string {
  const root = join(tempDir(), name);
  mkdirSync(root);
  for (let n = 1; n <= lectures; n++) writeFileSync(join(root, `lecture ${n}.txt`), `${name}: lecture ${n}.\n`);
  writeFileSync(join(root, REFUSED), `${name}: what the course covers.\n`);
  writeFileSync(join(root, '.notes.swp'), 'editor swap file');
  return root;
}

/** Previews the folder and starts its job as the Train button does, but sending one file at a time. */
async function startJob(folder: string): Promise<string> {
  const preview = await app.host.engine.invoke('train.preview', { mentor: MENTOR, paths: [folder] });
  const { jobId } = await app.host.engine.invoke('train.start', { previewId: preview.id, concurrency: 1 });
  return jobId;
}

const job = (id: string): Promise<Job> => app.host.engine.invoke('jobs.get', { id });

/** What the indicator should say (text, then accessible name) about the jobs the engine runs now. */
async function expected(): Promise<[string, string]> {
  const { jobs } = await app.host.engine.invoke('jobs.list', { states: ACTIVE });
  const total = jobs.reduce((sum, { progress }) => sum + progress.total, 0);
  const ended = jobs.reduce((sum, { progress }) => sum + progress.done + progress.failed + progress.skipped, 0);
  const percent = total ? Math.floor((ended / total) * 100) : 0;
  const stalled = jobs.filter(({ state }) => state === 'paused' || state === 'waiting').length;
  const count = jobs.length === 1 ? '1 job' : `${jobs.length} jobs`;
  const summary = `${count} in progress, ${percent}% done${stalled ? `; ${stalled} paused or waiting` : ''}`;
  return [`${count} · ${percent}%`, `${summary}. Open ${jobs.length === 1 ? 'the job' : 'Jobs'}`];
}

async function shown(): Promise<[string, string]> {
  return [(await indicator.innerText()).replace(/\s+/g, ' ').trim(), (await indicator.getAttribute('aria-label'))!];
}

/** The percentage the indicator shows now (null while it is not there). */
async function shownPercent(): Promise<number | null> {
  if (!(await indicator.isVisible())) return null;
  const match = /(\d+)%/.exec(await indicator.innerText());
  return match ? Number(match[1]) : null;
}

async function goToMentors(): Promise<void> {
  await app.page.getByRole('link', { name: 'Mentors' }).first().click();
  await visible(app.page.getByRole('heading', { name: 'Mentors', exact: true }));
}

beforeAll(async () => {
  server = await sandbox({ seed: 'none' });
  app = await openApp(server);
  await app.host.engine.invoke('mentors.create', { name: MENTOR });
  indicator = app.page.getByTestId('job-indicator');
  await app.open('#/mentors');
  await visible(app.page.getByTestId(`mentor-row-${MENTOR}`));
});

afterAll(async () => {
  await app?.close();
});

describe('the job indicator in the top bar', () => {
  it('is not there while nothing runs', async () => {
    expect((await app.host.engine.invoke('jobs.list', { states: ACTIVE })).jobs).toEqual([]);
    expect(await indicator.count()).toBe(0);
  });

  it('appears while a training job runs, follows its progress, leads to the job, and goes away after', async () => {
    server.setFaults(SLOW);
    // 5 items: the hidden file is skipped at once (20%); the refused one fails when sent (40%); 3 train.
    const id = await startJob(notesFolder('Mechanics', 3));
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const percent = await shownPercent();
          if (percent !== null && seen.at(-1) !== percent) seen.push(percent);
          return percent;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(40);
    expect(seen.slice(-2)).toEqual([20, 40]);
    expect((await job(id)).state).toBe('running');

    await indicator.click();
    await app.page.waitForURL(new RegExp(`#/jobs/${encodeURIComponent(id)}$`));
    await visible(app.page.getByTestId('job-progress'));

    await indicator.waitFor({ state: 'detached', timeout: 90_000 });
    expect((await job(id)).state).toBe('completed');
  });

  it('counts every job, says which are paused, and leads to the Jobs screen when there are several', async () => {
    const ids = [await startJob(notesFolder('Optics', 2)), await startJob(notesFolder('Waves', 4))];
    for (const id of ids) await app.host.engine.invoke('jobs.pause', { id });
    await goToMentors();
    await expect.poll(async () => (await shown()).join(' | ')).toBe((await expected()).join(' | '));
    const [text, label] = await shown();
    expect(text).toMatch(/^2 jobs · \d+%$/);
    expect(label).toContain('2 paused or waiting. Open Jobs');

    await indicator.click();
    await app.page.waitForURL(/#\/jobs$/);
    await visible(app.page.getByRole('heading', { name: 'Jobs', exact: true }));

    server.setFaults('');
    for (const id of ids) await app.host.engine.invoke('jobs.resume', { id });
    await indicator.waitFor({ state: 'detached', timeout: 90_000 });
    for (const id of ids) expect((await job(id)).state).toBe('completed');
  });
});
