/**
 * A course's and a program's metadata edited one field at a time, and one person enrolled and unenrolled, through the
 * engine (the calls the catalogue item's page makes) and the CLI, against a real sandbox over HTTP; the vendor SDK
 * reads back what the app wrote. The platform's refusal comes back at the field it concerns.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { learningArea } from '../../src/server/areas/learning';
import { cli } from '../helpers/cli';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { cliTenant } from '../invitations/setup';

const COURSE = 'course-v1:northbridge+CS101+2026';
let server: Sandbox;
let engine: Engine;
let env: NodeJS.ProcessEnv;

const inProgram = (username: string, programKey: string) =>
  server.db
    .prepare(
      `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
       WHERE e.kind = 'program' AND e.target = ? AND u.username = ?`,
    )
    .pluck()
    .get(programKey, username) as number;
const programKey = (slug: string) =>
  server.db.prepare('SELECT program_key FROM programs WHERE slug = ?').pluck().get(slug) as string;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea, learningArea] });
  server.db
    .prepare(
      `INSERT INTO users (username, email, org, role, date_joined) VALUES ('ada', 'ada@example.edu', ?, 'student', '2026-01-01T00:00:00Z')`,
    )
    .run(server.org);
  ({ engine } = await connect(server, { key: 'env-only', keep: true }));
  ({ env } = await cliTenant(server));
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});
afterAll(async () => engine.close());

describe('catalogue metadata', () => {
  it('reads a course’s metadata, writes one field and the vendor SDK reads it back', async () => {
    expect((await engine.invoke('catalogue.metadata', { scope: 'course', id: COURSE })).metadata).toEqual({
      level: 'intro',
    });
    const set = await engine.invoke('catalogue.setMetadataField', {
      scope: 'course',
      id: COURSE,
      field: 'duration_hours',
      value: 12,
    });
    expect(set).toEqual({ field: 'duration_hours', value: 12 });
    expect(await CatalogService.catalogMetadataCourseRetrieve2({ courseId: COURSE, field: 'duration_hours' })).toEqual({
      duration_hours: 12,
    });
    // The field written joins the others; nothing else changed.
    expect((await engine.invoke('catalogue.metadata', { scope: 'course', id: COURSE })).metadata).toEqual({
      level: 'intro',
      duration_hours: 12,
    });
  });

  it('writes a program’s field (by its program id) and the vendor SDK reads it back', async () => {
    expect((await engine.invoke('catalogue.metadata', { scope: 'program', id: 'data-science' })).metadata).toEqual({
      language: 'en',
    });
    await engine.invoke('catalogue.setMetadataField', {
      scope: 'program',
      id: 'data-science',
      field: 'language',
      value: 'fr',
    });
    expect(
      await CatalogService.catalogMetadataProgramRetrieve2({
        programId: 'data-science',
        org: server.org,
        field: 'language',
      }),
    ).toEqual({ language: 'fr' });
  });

  it('a name the platform refuses comes back at the field name, in its words; nothing is written', async () => {
    const error = await engine
      .invoke('catalogue.setMetadataField', { scope: 'course', id: COURSE, field: 'start-date', value: 'x' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'validation',
      issues: [{ path: 'field', message: 'Invalid query parameters' }],
    });
    expect((await engine.invoke('catalogue.metadata', { scope: 'course', id: COURSE })).metadata).not.toHaveProperty(
      'start-date',
    );
  });

  it('another tenant’s course is not found', async () => {
    const error = await engine
      .invoke('catalogue.metadata', { scope: 'course', id: 'course-v1:riverside+FY100+2026' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found' });
  });
});

describe('one enrolment', () => {
  it('enrols a person by email in a program by name, says "already" the second time, and unenrols them', async () => {
    const key = programKey('data-science');
    const first = await engine.invoke('catalogue.enrol', {
      person: 'ada@example.edu',
      item: 'Data Science Certificate',
    });
    expect(first).toMatchObject({
      outcome: 'enrolled',
      username: 'ada',
      item: { type: 'program', id: 'data-science' },
    });
    expect(inProgram('ada', key)).toBe(1);
    const enrolled = (await CatalogService.catalogEnrollmentProgramsSearchRetrieve({
      platformKey: server.org,
      programId: 'data-science',
      username: 'ada',
    })) as unknown as { results: { username: string }[] };
    expect(enrolled.results.map((r) => r.username)).toEqual(['ada']);
    expect((await engine.invoke('catalogue.enrol', { person: 'ada', item: 'data-science' })).outcome).toBe('already');
    expect((await engine.invoke('catalogue.unenrol', { person: 'ada', item: 'data-science' })).outcome).toBe(
      'unenrolled',
    );
    expect(inProgram('ada', key)).toBe(0);
    expect((await engine.invoke('catalogue.unenrol', { person: 'ada', item: 'data-science' })).outcome).toBe(
      'notEnrolled',
    );
  });

  it('someone with no account is refused at the person; a course at the item', async () => {
    await expect(
      engine.invoke('catalogue.enrol', { person: 'ghost@example.edu', item: 'data-science' }),
    ).rejects.toMatchObject({
      code: 'validation',
      issues: [{ path: 'person' }],
    });
    await expect(engine.invoke('catalogue.enrol', { person: 'ada', item: COURSE })).rejects.toMatchObject({
      code: 'validation',
      issues: [
        {
          path: 'item',
          message:
            'Courses can’t be enrolled directly; enrol in a program or pathway that contains it (“Introduction to Programming” is a course)',
        },
      ],
    });
  });

  it('names the programs and pathways that contain a course (the spec’s course_id and item_id filters)', async () => {
    const holders = await engine.invoke('catalogue.courseHolders', { courseId: COURSE });
    const programId = server.db
      .prepare(`SELECT id FROM programs WHERE program_key = ?`)
      .pluck()
      .get(`${server.org}+data-science`) as number;
    expect(holders).toEqual({
      programs: [{ id: String(programId), name: 'Data Science Certificate' }],
      pathways: [{ id: 'data-foundations', name: 'Data foundations' }],
    });
    // A course in nothing, and another tenant's course: none of this tenant's.
    expect(await engine.invoke('catalogue.courseHolders', { courseId: 'course-v1:northbridge+NOPE+2026' })).toEqual({
      programs: [],
      pathways: [],
    });
    expect(await engine.invoke('catalogue.courseHolders', { courseId: 'course-v1:riverside+FY100+2026' })).toEqual({
      programs: [],
      pathways: [],
    });
  });

  it('the CLI enrols and unenrols one person on a pathway (JSON answer), and gets courses by --where', async () => {
    const enrol = await cli(['enrol', 'ada', 'data-foundations', '--json'], { env });
    expect(enrol.code, enrol.stderr).toBe(0);
    expect(JSON.parse(enrol.stdout)).toMatchObject({ outcome: 'enrolled', item: { type: 'pathway' } });
    const again = await cli(['enrol', 'ada', 'data-foundations'], { env });
    expect(again.stdout).toContain('already enrolled');
    const unenrol = await cli(['unenrol', 'ada@example.edu', 'data-foundations'], { env });
    expect(unenrol.code, unenrol.stderr).toBe(0);
    expect(unenrol.stdout).toContain('no longer enrolled');
    const usage = await cli(['enrol', 'ada'], { env });
    expect(usage.code).toBe(2);

    const where = await cli(['get', 'courses', '--where', `course_id=${COURSE}`, '-o', 'json'], { env });
    expect(where.code, where.stderr).toBe(0);
    const rows = where.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { course_id: string });
    expect(rows.map((row) => row.course_id)).toEqual([COURSE]);
  });
});

describe('deleting a course says how many enrolments it has first', () => {
  it('counts them on the platform (its enrolment search, a page of the record the spec declares)', async () => {
    const enrolled = server.db
      .prepare(
        `SELECT count(*) FROM catalog_enrollments e JOIN users u ON u.id = e.user_id
         WHERE e.kind = 'course' AND e.target = ? AND u.org = ?`,
      )
      .pluck()
      .get(COURSE, server.org) as number;
    expect(enrolled).toBeGreaterThan(0);
    const found = await engine.invoke('resources.referrers', { kind: 'courses', ids: [COURSE] });
    // Its suggestions and reviews too, each the platform's own count.
    expect(found.counts).toEqual([
      { kind: 'enrollments', refersTo: COURSE, count: enrolled, exact: true, asOf: null },
      { kind: 'course-suggestions', refersTo: COURSE, count: expect.any(Number), exact: true, asOf: null },
      { kind: 'course-reviews', refersTo: COURSE, count: expect.any(Number), exact: true, asOf: null },
    ]);
  });
});
