/**
 * User groups holding course and program licences through the app's engine and CLI against a real sandbox: the kinds
 * `course-license-group-assignments` and `program-license-group-assignments` created and listed with the kit's verbs
 * (and the seat kinds' own create, whose call takes `license_id` in its query too), the licence page's calls giving
 * a group seats and taking them back with or without the people's seats, and the vendor SDK reading back what the app
 * wrote.
 */
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { connect } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

let server: Sandbox;
let dataDir: string;
const run = (args: string[]) =>
  cli(['--data-dir', dataDir, ...args], {
    env: { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
  });

/** A user group of the tenant holding `emails`' people. */
function group(name: string, emails: string[]): number {
  const id = Number(
    server.db.prepare('INSERT INTO user_groups (org, name) VALUES (?, ?)').run(server.org, name).lastInsertRowid,
  );
  for (const email of emails) {
    const user = server.db.prepare('SELECT id FROM users WHERE email = ?').pluck().get(email);
    server.db.prepare('INSERT INTO user_group_members VALUES (?, ?)').run(id, user);
  }
  return id;
}

function sdk(): void {
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
}

beforeAll(async () => {
  server = await sandbox();
  dataDir = tempDir('group-seats-cli-');
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const name of ['ada', 'ben', 'cy', 'dee']) insert.run(`grp-${name}`, `${name}@groups.test`, server.org);
  const added = await run([
    'profile',
    'add',
    'Sandbox',
    '--url',
    server.url,
    '--org',
    server.org,
    '--user',
    server.user,
  ]);
  if (added.code !== 0) throw new Error(added.stderr);
  await run(['profile', 'use', 'Sandbox']);
});

describe('mentor-admin create|get of group seats', () => {
  it('gives a course and a program licence to a user group; get lists them naming the licence; the SDK reads them', async () => {
    const crew = group('Night crew', ['ada@groups.test', 'ben@groups.test']);
    const course = await run([
      'create',
      'course-licenses',
      '--set',
      'name=Group course seats',
      '--set',
      'count=5',
      '--set',
      'course_id=course-v1:main+GRP+2027',
      '--json',
    ]);
    expect(course.code, course.stderr).toBe(0);
    const courseId = Number(course.lines[0]!.id);
    const given = await run([
      'create',
      'course-license-group-assignments',
      '--set',
      `license_id=${courseId}`,
      '--set',
      `group_id=${crew}`,
      '--json',
    ]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.lines[0]).toMatchObject({ group_name: 'Night crew', license_id: courseId });

    const program = await run([
      'create',
      'program-licenses',
      '--set',
      'name=Group program seats',
      '--set',
      'count=5',
      '--set',
      'program_key=program-v1:main+GRP',
      '--set',
      'started=2026-01-01T00:00:00Z',
      '--json',
    ]);
    const programId = Number(program.lines[0]!.id);
    const programGiven = await run([
      'create',
      'program-license-group-assignments',
      '--set',
      `license_id=${programId}`,
      '--set',
      `group_id=${crew}`,
      '--json',
    ]);
    expect(programGiven.code, programGiven.stderr).toBe(0);
    expect(programGiven.lines[0]).toMatchObject({ user_count: 2, assigned_count: 2 });

    const listed = await run(['get', 'program-license-group-assignments', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines.map((g) => `${String(g.group_name)} @ ${String(g.license_name)}`)).toEqual([
      'Night crew @ Group program seats',
    ]);

    sdk();
    const courseGroups = await CatalogService.catalogLicensesCourseAssignmentGroupRetrieve({ licenseId: courseId });
    expect(courseGroups.results.map((g) => g.group_name)).toEqual(['Night crew']);
    const courseSeats = await CatalogService.catalogLicensesCourseAssignmentRetrieve({ licenseId: courseId });
    expect(courseSeats.results.map((s) => s.email).sort()).toEqual(['ada@groups.test', 'ben@groups.test']);
    const programGroups = await CatalogService.catalogLicensesProgramAssignmentGroupRetrieve({ licenseId: programId });
    expect(programGroups.results).toMatchObject([{ group_name: 'Night crew', assigned_count: 2 }]);
  });

  it('gives one seat with the seat kinds’ create (license_id in the query as in the body)', async () => {
    const course = await run([
      'create',
      'course-licenses',
      '--set',
      'name=One by one',
      '--set',
      'count=2',
      '--set',
      'course_id=course-v1:main+ONE+2027',
      '--json',
    ]);
    const id = Number(course.lines[0]!.id);
    const seat = await run([
      'create',
      'course-license-assignments',
      '--set',
      `license_id=${id}`,
      '--set',
      'email=dee@groups.test',
      '--json',
    ]);
    expect(seat.code, seat.stderr).toBe(0);
    sdk();
    const read = await CatalogService.catalogLicensesCourseAssignmentRetrieve({ licenseId: id });
    expect(read.results.map((s) => s.email)).toEqual(['dee@groups.test']);
  });
});

describe('a licence page’s group seats (licences.*)', () => {
  it('program: lists the group with its counts; taken back keeping the people’s seats, then another with them', async () => {
    const { engine, profileId } = await connect(server, { key: 'env-only' });
    const program = await engine.invoke('resources.create', {
      profileId,
      kind: 'program-licenses',
      values: { name: 'Page program', count: 6, program_key: 'program-v1:main+PAGE', started: '2026-01-01T00:00:00Z' },
    });
    const licenseId = Number(program.record.id);
    const kind = 'program-license-assignments';
    const keepers = group('Keepers', ['ada@groups.test', 'ben@groups.test']);
    const leavers = group('Leavers', ['cy@groups.test']);
    await engine.invoke('licences.assignGroup', { profileId, kind, licenseId, groupId: keepers });
    const given = await engine.invoke('licences.assignGroup', { profileId, kind, licenseId, groupId: leavers });
    expect(given.name).toBe('Leavers');
    const page = await engine.invoke('licences.seats', { profileId, kind, licenseId });
    expect(page.canKeepGroupSeats).toBe(true);
    expect(page.groups.map((g) => [g.name, g.people, g.holding])).toEqual([
      ['Keepers', 2, 2],
      ['Leavers', 1, 1],
    ]);
    expect(page.licence.used).toBe(3);

    const keep = page.groups.find((g) => g.name === 'Keepers')!;
    await engine.invoke('licences.releaseGroup', {
      profileId,
      kind,
      licenseId,
      assignmentId: keep.id,
      keepSeats: true,
    });
    const leave = page.groups.find((g) => g.name === 'Leavers')!;
    await engine.invoke('licences.releaseGroup', { profileId, kind, licenseId, assignmentId: leave.id });
    sdk();
    const groups = await CatalogService.catalogLicensesProgramAssignmentGroupRetrieve({ licenseId });
    expect(groups.count).toBe(0);
    const seats = await CatalogService.catalogLicensesProgramAssignmentRetrieve({ licenseId });
    expect(seats.results.map((s) => s.email).sort()).toEqual(['ada@groups.test', 'ben@groups.test']);
  });

  it('course: the people’s seats go with the group; keeping them is refused (the spec’s call has no such flag)', async () => {
    const { engine, profileId } = await connect(server, { key: 'env-only' });
    const course = await engine.invoke('resources.create', {
      profileId,
      kind: 'course-licenses',
      values: { name: 'Page course', count: 6, course_id: 'course-v1:main+PAGE+2027' },
    });
    const licenseId = Number(course.record.id);
    const kind = 'course-license-assignments';
    const crew = group('Course crew', ['ada@groups.test', 'cy@groups.test']);
    await engine.invoke('licences.assignGroup', { profileId, kind, licenseId, groupId: crew });
    const page = await engine.invoke('licences.seats', { profileId, kind, licenseId });
    expect(page.canKeepGroupSeats).toBe(false);
    expect(page.groups).toMatchObject([{ name: 'Course crew', people: null, holding: null }]);
    expect(page.seats).toHaveLength(2);
    const assignmentId = page.groups[0]!.id;
    await expect(
      engine.invoke('licences.releaseGroup', { profileId, kind, licenseId, assignmentId, keepSeats: true }),
    ).rejects.toMatchObject({ code: 'validation' });
    await engine.invoke('licences.releaseGroup', { profileId, kind, licenseId, assignmentId });
    sdk();
    expect((await CatalogService.catalogLicensesCourseAssignmentRetrieve({ licenseId })).count).toBe(0);
    const missing = engine.invoke('licences.releaseGroup', { profileId, kind, licenseId, assignmentId });
    await expect(missing).rejects.toMatchObject({ code: 'not_found' });
  });
});
