/**
 * Enrolling a cohort from a CSV (`mentor-admin import program-enrollments FILE.csv`, or `import enrollments`;
 * resources.import on the program-enrollments kind) against a real sandbox over HTTP: people by email or username,
 * programs and pathways by id or name; an unknown email, a program that no longer exists and a course (courses can't be
 * enrolled directly: the row names the programs and pathways that contain it) reported on their rows while the rest
 * go on; someone enrolled already is "already"; a dry run changes nothing; running the file again enrols nobody twice.
 */
import { readFileSync } from 'node:fs';
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { cli } from '../helpers/cli';
import { call, sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';
import { connect } from '../helpers/engine';
import { cliTenant, csvFile, settledJob } from '../invitations/setup';

const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>;

let server: Sandbox;
let env: NodeJS.ProcessEnv;

function addPeople(from: number, count: number) {
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  server.db.transaction(() => {
    for (let i = from; i < from + count; i++) insert.run(`cohort${i}`, `cohort${i}@example.edu`, server.org);
  })();
}
const inProgram = (username: string, programKey: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
       WHERE e.kind = 'program' AND e.target = ? AND u.username = ?`,
    )
    .pluck()
    .get(programKey, username) as number;
const onPathway = (username: string, pathwayId: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalogue_pathway_enrollments e JOIN catalogue_pathways p ON p.id = e.pathway_pk
       JOIN users u ON u.id = e.user_id WHERE p.pathway_id = ? AND u.username = ? AND e.active = 1`,
    )
    .pluck()
    .get(pathwayId, username) as number;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
  addPeople(0, 50);
  ({ env } = await cliTenant(server));
});

describe('enrolments from a CSV (engine job)', () => {
  let engine: Engine;
  beforeAll(async () => {
    ({ engine } = await connect(server, { key: 'env-only', keep: true }));
  });
  afterAll(async () => engine.close());

  it('dry run changes nothing; the import enrols by email or username and reports each row', async () => {
    // A program made for this file and removed before it runs: "no longer exists" on its row.
    await call(server, 'POST', '/api/catalog/programs/', {
      json: { program_id: 'retired', name: 'Retired program', org: server.org, course_list: [] },
    });
    await call(server, 'POST', `/api/catalog/enrollment/programs/?username=cohort3&program_id=data-science`, {
      json: {},
    });
    const text =
      'Work Email,Program\n' +
      'cohort1@example.edu,Data Science Certificate\n' + // by email, program by name
      'cohort2,data-science\n' + // by username, program by id
      'cohort3,data-science\n' + // already enrolled
      'ghost@example.edu,data-science\n' + // unknown email
      'cohort4,retired\n' + // a program that no longer exists
      'cohort5,data-foundations\n' + // a pathway
      'cohort6,Introduction to Programming\n' + // a course: no enrol call
      ',data-science\n' + // invalid: no person
      'cohort1@example.edu,data-science\n'; // the same person and program again
    await call(server, 'DELETE', `/api/catalog/programs/?org=${server.org}&program_id=retired`);
    const start = (dryRun: boolean) =>
      engine.invoke('resources.import', {
        kind: 'program-enrollments',
        text,
        name: 'cohort.csv',
        start: true,
        ...(dryRun && { dryRun: true }),
      });

    const dry = await start(true);
    expect(dry.mapping).toEqual(['person', 'group']);
    expect(dry.fields.map((f) => f.label)).toEqual(['Email or username', 'Program or pathway']);
    expect(dry.counts).toMatchObject({ rows: 9, valid: 8, invalid: 1 });
    const dryJob = await settledJob(engine, dry.job!.id);
    expect(dryJob.error).toBeNull();
    expect(dryJob.counts).toMatchObject({ wouldAdd: 3, already: 1, repeated: 1, unknown: 2, invalid: 2 });
    expect(inProgram('cohort1', 'northbridge+data-science')).toBe(0);
    expect(onPathway('cohort5', 'data-foundations')).toBe(0);

    const run = await start(false);
    const job = await settledJob(engine, run.job!.id);
    expect(job.state).toBe('completed');
    expect(job.counts).toMatchObject({ added: 3, already: 1, repeated: 1, unknown: 2, invalid: 2 });
    expect(job.counts.failed ?? 0).toBe(0);
    expect(inProgram('cohort1', 'northbridge+data-science')).toBe(1);
    expect(inProgram('cohort2', 'northbridge+data-science')).toBe(1);
    expect(onPathway('cohort5', 'data-foundations')).toBe(1);

    const report = join(tempDir(), 'report.csv');
    await engine.invoke('jobs.exportReport', { id: run.job!.id, path: report });
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('row,person,enrolled in,result,message');
    expect(lines.slice(1)).toEqual([
      '2,cohort1@example.edu,Data Science Certificate,enrolled,',
      '3,cohort2,data-science,enrolled,',
      '4,cohort3,data-science,already,Already enrolled in Data Science Certificate',
      '5,ghost@example.edu,data-science,unknown,No person with the email ghost@example.edu on this tenant',
      '6,cohort4,retired,unknown,"No program or pathway ""retired"" on this tenant (removed, or never there)"',
      '7,cohort5,data-foundations,enrolled,',
      // A course: said in an administrator's words, with where the course is.
      '8,cohort6,Introduction to Programming,invalid,Courses can’t be enrolled directly; enrol in a program or pathway that contains it (“Introduction to Programming” is in the program “Data Science Certificate” and the pathway “Data foundations”)',
      '9,,data-science,invalid,Give the person’s email or username',
      '10,cohort1@example.edu,data-science,repeated in the file,Repeated in the file (row 2)',
    ]);

    // The same file again: a finished job is not resumed, and nobody is enrolled twice.
    const again = await settledJob(engine, (await start(false)).job!.id);
    expect(again.counts).toMatchObject({ already: 4, repeated: 1, unknown: 2, invalid: 2 });
    expect(again.counts.added ?? 0).toBe(0);
  });
});

describe('a file mixing course rows, unknown people and program rows', () => {
  it('reports each course row once in an administrator’s words, keeps unknown people apart, and enrols the rest', async () => {
    const { engine } = await connect(server, { key: 'env-only', keep: true });
    try {
      const text =
        'Email,Program\n' +
        'cohort30@example.edu,health-professions\n' + // good
        'cohort31@example.edu,Introduction to Programming\n' + // a course, a known person
        'stranger@example.edu,health-professions\n' + // unknown email, a program
        'lost@example.edu,Introduction to Programming\n' + // unknown email and a course: both said
        'cohort32,Health Professions Pathway\n'; // good, program by name
      const start = (dryRun: boolean) =>
        engine.invoke('resources.import', {
          kind: 'program-enrollments',
          text,
          name: 'mixed.csv',
          start: true,
          ...(dryRun && { dryRun: true }),
        });
      // The dry run says it before anything is sent.
      const dry = await settledJob(engine, (await start(true)).job!.id);
      expect(dry.counts).toMatchObject({ wouldAdd: 2, unknown: 2, invalid: 1, courses: 2 });
      expect(inProgram('cohort30', 'northbridge+health-professions')).toBe(0);

      const run = await start(false);
      const job = await settledJob(engine, run.job!.id);
      expect(job.state).toBe('completed');
      expect(job.counts).toMatchObject({ added: 2, unknown: 2, invalid: 1, courses: 2 });
      const report = join(tempDir(), 'mixed.csv');
      await engine.invoke('jobs.exportReport', { id: run.job!.id, path: report });
      const course =
        'Courses can’t be enrolled directly; enrol in a program or pathway that contains it (“Introduction to Programming” is in the program “Data Science Certificate” and the pathway “Data foundations”)';
      expect(readFileSync(report, 'utf8').trim().split(/\r?\n/).slice(1)).toEqual([
        '2,cohort30@example.edu,health-professions,enrolled,',
        `3,cohort31@example.edu,Introduction to Programming,invalid,${course}`,
        '4,stranger@example.edu,health-professions,unknown,No person with the email stranger@example.edu on this tenant',
        `5,lost@example.edu,Introduction to Programming,unknown,No person with the email lost@example.edu on this tenant. ${course}`,
        '6,cohort32,Health Professions Pathway,enrolled,',
      ]);
    } finally {
      await engine.close();
    }
    // Read back through the sandbox's own enrolment search: the good rows are enrolled, the course row's person is not.
    const enrolled = (
      await call(
        server,
        'GET',
        `/api/catalog/enrollment/programs/search/?platform_key=${server.org}&program_id=health-professions&page_size=1000`,
      )
    ).body as { results: { username: string }[] };
    const usernames = enrolled.results.map((r) => r.username);
    expect(usernames).toEqual(expect.arrayContaining(['cohort30', 'cohort32']));
    expect(usernames).not.toContain('cohort31');
    const courseEnrolled = (
      await call(server, 'GET', `/api/catalog/enrollment/courses/search/?platform_key=${server.org}&username=cohort31`)
    ).body as { results?: unknown[] };
    expect(courseEnrolled.results ?? []).toEqual([]);
  });
});

describe('a long file', () => {
  it('settles every row of a file longer than one journal batch', async () => {
    addPeople(1000, 450);
    const { engine } = await connect(server, { key: 'env-only', keep: true });
    try {
      const lines = Array.from({ length: 450 }, (_, i) => `cohort${1000 + i},health-professions`);
      const run = await engine.invoke('resources.import', {
        kind: 'program-enrollments',
        text: `Username,Program\n${lines.join('\n')}\n`,
        name: 'long.csv',
        start: true,
      });
      const job = await settledJob(engine, run.job!.id, 60_000);
      expect(job.counts).toMatchObject({ added: 450 });
      expect(job.progress.done).toBe(450);
    } finally {
      await engine.close();
    }
  });
});

describe('mentor-admin import enrollments (CLI)', () => {
  it('dry run, then the import, with the summary last', async () => {
    const file = csvFile(
      'cli-cohort.csv',
      'Email,Pathway\ncohort20@example.edu,Business basics\ncohort21,business-basics\nnobody@example.edu,business-basics\n',
    );
    const dry = await cli(['import', 'enrollments', file, '--dry-run', '--json'], { env });
    expect(last(dry.stdout)).toMatchObject({ rows: 3, dryRun: true, wouldAdd: 2, already: 0, unknown: 1 });
    expect(onPathway('cohort20', 'business-basics')).toBe(0);
    const run = await cli(['import', 'enrollments', file], { env });
    expect(run.stdout).toContain('2 enrolled, 0 already enrolled, 1 unknown, 0 invalid, 0 failed');
    expect(run.code).toBe(1); // an unknown row
    expect(onPathway('cohort20', 'business-basics')).toBe(1);
    expect(onPathway('cohort21', 'business-basics')).toBe(1);
  });

  it('a file naming a course: its rows counted once in the summary, in an administrator’s words; the rest enrolled', async () => {
    const file = csvFile(
      'cli-course.csv',
      'Email,Course\ncohort22,Introduction to Programming\ncohort23,business-basics\nnobody@example.edu,business-basics\n',
    );
    const dry = await cli(['import', 'program-enrollments', file, '--dry-run', '--json'], { env });
    expect(last(dry.stdout)).toMatchObject({ rows: 3, dryRun: true, wouldAdd: 1, unknown: 1, courses: 1, invalid: 1 });
    const run = await cli(['import', 'enrollments', file], { env });
    expect(run.stdout).toContain(
      '1 enrolled, 0 already enrolled, 1 unknown, 1 naming a course (courses can’t be enrolled directly; enrol in a program or pathway that contains it), 1 invalid, 0 failed',
    );
    expect(onPathway('cohort23', 'business-basics')).toBe(1);
    expect(onPathway('cohort22', 'business-basics')).toBe(0);
  });
});

describe('enrolment lists through the kit', () => {
  it('reads course enrolments page by page (the spec declares one record as the search’s answer) and program enrolments', async () => {
    const { engine } = await connect(server, { key: 'env-only', keep: true });
    try {
      const expected = server.db
        .prepare(
          `SELECT count(*) FROM catalog_enrollments e JOIN courses c ON c.course_id = e.target
           WHERE e.kind = 'course' AND c.org = ?`,
        )
        .pluck()
        .get(server.org) as number;
      expect(expected).toBeGreaterThan(100); // more than one page of the kit's reads
      const courses = await engine.invoke('resources.list', {
        kind: 'enrollments',
        refresh: true,
        whole: true,
        pageSize: 25,
      });
      expect(courses.total).toBe(expected);
      // Every enrolment kept apart (a person in a course): keyed by course alone, most would collapse into 40.
      expect(courses.records[0]).toMatchObject({ course_id: expect.any(String), username: expect.any(String) });
      const programs = await engine.invoke('resources.list', {
        kind: 'program-enrollments',
        refresh: true,
        whole: true,
        search: 'cohort1',
        pageSize: 25,
      });
      // The search finds every program enrolment of a person whose name holds it (cohort1, cohort10…), and only those.
      const matching = server.db
        .prepare(
          `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id JOIN programs p ON p.program_key = e.target
           WHERE e.kind = 'program' AND p.org = ? AND u.username LIKE '%cohort1%'`,
        )
        .pluck()
        .get(server.org) as number;
      expect(matching).toBeGreaterThan(0);
      expect(programs.total).toBe(matching);
      expect(programs.records.length).toBe(Math.min(25, matching));
      expect(programs.records.every((r) => String(r.username).includes('cohort1'))).toBe(true);
    } finally {
      await engine.close();
    }
  });
});

describe('the vendor SDK reads back what the app wrote', () => {
  it('a course made through the kit and an enrolment made by the import', async () => {
    const { engine } = await connect(server, { key: 'env-only', keep: true });
    try {
      const courseId = 'course-v1:northbridge+SDK101+2026';
      await engine.invoke('resources.create', {
        kind: 'courses',
        values: { course_id: courseId, name: 'Read back by the SDK', slug: 'sdk101' },
      });
      const run = await engine.invoke('resources.import', {
        kind: 'program-enrollments',
        text: 'Email,Program\ncohort40@example.edu,health-professions\n',
        name: 'sdk.csv',
        start: true,
      });
      expect((await settledJob(engine, run.job!.id)).counts).toMatchObject({ added: 1 });
    } finally {
      await engine.close();
    }
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const courses = await CatalogService.catalogCoursesList({ courseId: 'course-v1:northbridge+SDK101+2026' });
    expect(courses).toEqual([
      { course_id: 'course-v1:northbridge+SDK101+2026', name: 'Read back by the SDK', slug: 'sdk101', org: server.org },
    ]);
    const enrolled = (await CatalogService.catalogEnrollmentProgramsSearchRetrieve({
      programId: 'health-professions',
      username: 'cohort40',
    })) as unknown as { count: number; results: { username: string; active: boolean }[] };
    expect(enrolled.count).toBe(1);
    expect(enrolled.results[0]).toMatchObject({ username: 'cohort40', active: true });
  });
});
