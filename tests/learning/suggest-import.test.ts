/**
 * Suggesting courses from a CSV (`mentor-admin import course-suggestions FILE.csv`, resources.import on the
 * course-suggestions kind) against a real sandbox over HTTP, through the platform's bulk call: people by email or
 * username, courses by id or name; an unknown email and a course that is not the tenant's reported on their rows while
 * the rest go on; someone already suggested the course is "already"; a dry run changes nothing; running the file
 * again suggests nothing twice; the vendor SDK reads back what was suggested.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect } from '../helpers/engine';
import { settledJob } from '../invitations/setup';

let server: Sandbox;
let engine: Engine;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (let i = 1; i <= 5; i++) insert.run(`cohort${i}`, `cohort${i}@example.edu`, server.org);
  ({ engine } = await connect(server, { key: 'env-only', keep: true }));
}, 120_000);
afterAll(async () => engine.close());

const suggestedTo = (username: string, courseId: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM learning_suggestions s JOIN users u ON u.id = s.user_id WHERE u.username = ? AND s.course_id = ?`,
    )
    .pluck()
    .get(username, courseId) as number;

describe('course suggestions from a CSV (engine job)', () => {
  it('dry run changes nothing; the import suggests by email or username and reports each row', async () => {
    const course = server.db
      .prepare('SELECT course_id, name FROM courses WHERE org = ? ORDER BY id DESC LIMIT 1')
      .get(server.org) as { course_id: string; name: string };
    const theirs = server.db
      .prepare('SELECT course_id FROM courses WHERE org = ? LIMIT 1')
      .pluck()
      .get(server.otherOrg.org) as string;
    await call(server, 'POST', '/api/catalog/suggestions/course/manage/', {
      json: { platform_key: server.org, course_id: course.course_id, username: 'cohort3', user_id: '' },
    });
    const text =
      'Email,Course\n' +
      `cohort1@example.edu,${course.name}\n` + // by email, course by name
      `cohort2,${course.course_id}\n` + // by username, course by id
      `cohort3,${course.course_id}\n` + // already suggested
      `ghost@example.edu,${course.course_id}\n` + // unknown email
      `cohort4,${theirs}\n` + // another tenant's course
      `,${course.course_id}\n` + // invalid: no person
      `cohort1,${course.course_id}\n`; // the same person and course again
    const start = (dryRun: boolean) =>
      engine.invoke('resources.import', {
        kind: 'course-suggestions',
        text,
        name: 'cohort.csv',
        start: true,
        ...(dryRun && { dryRun: true }),
      });

    const dry = await start(true);
    expect(dry.mapping).toEqual(['person', 'group']);
    expect(dry.fields.map((f) => f.label)).toEqual(['Email or username', 'Course']);
    const dryJob = await settledJob(engine, dry.job!.id);
    expect(dryJob.error).toBeNull();
    expect(dryJob.counts).toMatchObject({ wouldAdd: 2, already: 1, repeated: 1, unknown: 2, invalid: 1 });
    expect(suggestedTo('cohort1', course.course_id)).toBe(0);

    const run = await start(false);
    const job = await settledJob(engine, run.job!.id);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ added: 2, already: 1, repeated: 1, unknown: 2, invalid: 1 });
    expect(suggestedTo('cohort1', course.course_id)).toBe(1);
    expect(suggestedTo('cohort2', course.course_id)).toBe(1);

    const report = join(tempDir(), 'report.csv');
    await engine.invoke('jobs.exportReport', { id: run.job!.id, path: report });
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('row,person,course,result,message');
    expect(lines.slice(1)).toEqual([
      `2,cohort1@example.edu,${course.name},suggested,`,
      `3,cohort2,${course.course_id},suggested,`,
      `4,cohort3,${course.course_id},already,${course.name} is already suggested to them`,
      `5,ghost@example.edu,${course.course_id},unknown,No person with the email ghost@example.edu on this tenant`,
      `6,cohort4,${theirs},unknown,"No course ""${theirs}"" on this tenant (removed, or never there)"`,
      `7,,${course.course_id},invalid,Give the person’s email or username`,
      `8,cohort1,${course.course_id},repeated in the file,Repeated in the file (row 2)`,
    ]);

    // The same file again: nobody is suggested the course twice.
    const again = await settledJob(engine, (await start(false)).job!.id);
    expect(again.counts).toMatchObject({ already: 3, repeated: 1, unknown: 2, invalid: 1 });
    expect(again.counts.added ?? 0).toBe(0);

    // The vendor SDK reads back what the file suggested.
    const read = await CatalogService.catalogSuggestionsCourseManageRetrieve({
      platformKey: server.org,
      query: 'cohort',
    });
    const pairs = read.results.map((s) => `${s.username} ${s.course_id}`);
    for (const who of ['cohort1', 'cohort2', 'cohort3']) expect(pairs).toContain(`${who} ${course.course_id}`);
  });
});
