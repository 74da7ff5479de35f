/**
 * Licence seats from a CSV file through the CLI against a real sandbox: `import license-assignments FILE --license`
 * (dry run names the rows that will not fit and the people with no account; the real run gives seats, reports the
 * platform's own words per row, and sends nothing twice when run again), the kit's `create|get licenses` on the
 * catalog's page envelope, and the vendor SDK reading back the seats the app gave.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { cli } from '../helpers/cli';
import { sandbox } from '../helpers/sandbox';
import { accessRequestStore } from '../../src/server/areas/licences';
import { tempDir } from '../helpers/temp';

let server: Sandbox;
let dataDir: string;
const run = (args: string[]) =>
  cli(['--data-dir', dataDir, ...args], {
    env: { ...process.env, MENTOR_ADMIN_API_KEY: server.apiKey, MENTOR_ADMIN_SANDBOX: 'off' },
  });

beforeAll(async () => {
  server = await sandbox();
  dataDir = tempDir('seats-cli-');
  const insert = server.db.prepare(
    `INSERT INTO users (username, email, org, role, date_joined) VALUES (?, ?, ?, 'student', '2026-01-01T00:00:00Z')`,
  );
  for (const name of ['ada', 'ben', 'cy']) insert.run(`seat-${name}`, `${name}@seats.test`, server.org);
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

const reportOf = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(','));

describe('mentor-admin import license-assignments', () => {
  it('dry run, then seats given, then nothing sent twice; the SDK reads them back', async () => {
    const made = await run(['create', 'licenses', '--set', 'name=Two seats', '--set', 'count=2', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const license = String(made.lines[0]!.id);
    const listed = await run(['get', 'licenses', '--json']);
    expect(listed.lines.map((l) => l.name)).toContain('Two seats');

    const file = join(dataDir, 'seats.csv');
    writeFileSync(
      file,
      'Email\nada@seats.test\nBEN@seats.test\nnobody@seats.test\ncy@seats.test\nseat-ada\nada@seats.test\n',
    );
    const dryReport = join(dataDir, 'dry.csv');
    const dry = await run([
      'import',
      'license-assignments',
      file,
      '--license',
      license,
      '--dry-run',
      '--report',
      dryReport,
      '--json',
    ]);
    expect(dry.code).toBe(1);
    const drySummary = JSON.parse(dry.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    // Line 7 names ada again: sent once, reported as a repeat of line 2; cy (line 5) is counted as not fitting only.
    expect(drySummary).toMatchObject({
      dryRun: true,
      wouldAdd: 2,
      overSeats: 1,
      unknown: 1,
      invalid: 1,
      already: 0,
      repeated: 1,
    });
    const dryRows = reportOf(dryReport);
    // Line 5 (cy) is the third new person of a two-seat licence: it will not fit.
    expect(dryRows.find((row) => row[0] === '5')).toEqual([
      '5',
      'cy@seats.test',
      'will not fit',
      "Will not fit: beyond the licence's 2 seats",
    ]);
    expect(dryRows.find((row) => row[0] === '4')?.[3]).toBe('No account for nobody@seats.test on this tenant');
    expect(dryRows.find((row) => row[0] === '6')?.[2]).toBe('invalid');
    expect(dryRows.find((row) => row[0] === '7')?.slice(2)).toEqual([
      'repeated in the file',
      'Repeated in the file (row 2)',
    ]);
    expect(server.db.prepare('SELECT count(*) FROM license_assignments').pluck().get()).toBe(0);

    const report = join(dataDir, 'sent.csv');
    const sent = await run(['import', 'license-assignments', file, '--license', license, '--report', report, '--json']);
    expect(sent.code).toBe(1);
    const summary = JSON.parse(sent.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(summary).toMatchObject({
      added: 3,
      overSeats: 1,
      unknown: 1,
      invalid: 1,
      already: 0,
      repeated: 1,
      failed: 0,
    });
    const rows = reportOf(report);
    expect(rows.find((row) => row[0] === '4')).toEqual([
      '4',
      'nobody@seats.test',
      'unknown',
      "Not found - license or user doesn't exist",
    ]);
    expect(rows.find((row) => row[0] === '5')?.[3]).toBe("Beyond the licence's 2 seats");

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await CatalogService.catalogLicensesUserAssignmentRetrieve({ licenseId: Number(license) });
    expect(read.results.map((seat) => seat.email).sort()).toEqual([
      'ada@seats.test',
      'ben@seats.test',
      'cy@seats.test',
    ]);

    // The same file again: everyone holds a seat, nothing is sent.
    const again = await run(['import', 'license-assignments', file, '--license', license, '--json']);
    const second = JSON.parse(again.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(second).toMatchObject({ added: 0, already: 3, repeated: 1, unknown: 1 });
    expect(server.db.prepare('SELECT count(*) FROM license_assignments').pluck().get()).toBe(3);
  });

  it('course and program licences: a dry run says which rows will not fit, seats given, released; the SDK reads them', async () => {
    const file = join(dataDir, 'family-seats.csv');
    writeFileSync(file, 'Email\nada@seats.test\nben@seats.test\nnew.person@seats.test\ncy@seats.test\n');
    const summaryOf = (out: { stdout: string }) =>
      JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

    const course = await run([
      'create',
      'course-licenses',
      '--set',
      'name=Two course seats',
      '--set',
      'count=2',
      '--set',
      'course_id=course-v1:main+SEATS+2027',
      '--json',
    ]);
    expect(course.code, course.stderr).toBe(0);
    const courseId = String(course.lines[0]!.id);
    const dryReport = join(dataDir, 'course-dry.csv');
    const dry = await run([
      'import',
      'course-license-assignments',
      file,
      '--license',
      courseId,
      '--dry-run',
      '--report',
      dryReport,
      '--json',
    ]);
    expect(summaryOf(dry)).toMatchObject({ dryRun: true, wouldAdd: 2, overSeats: 1, unknown: 1 });
    expect(reportOf(dryReport).find((row) => row[0] === '5')?.[3]).toBe("Will not fit: beyond the licence's 2 seats");
    const sent = await run(['import', 'course-license-assignments', file, '--license', courseId, '--json']);
    expect(summaryOf(sent)).toMatchObject({ added: 3, overSeats: 1, unknown: 1, failed: 0 });

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const courseSeats = await CatalogService.catalogLicensesCourseAssignmentRetrieve({ licenseId: Number(courseId) });
    expect(courseSeats.results.map((seat) => seat.email).sort()).toEqual([
      'ada@seats.test',
      'ben@seats.test',
      'cy@seats.test',
    ]);

    // A program licence keeps a seat for an email with no account, and refuses seats past its count (the spec).
    const program = await run([
      'create',
      'program-licenses',
      '--set',
      'name=Two program seats',
      '--set',
      'count=2',
      '--set',
      'program_key=program-v1:main+SEATS',
      '--set',
      'started=2026-01-01T00:00:00Z',
      '--json',
    ]);
    expect(program.code, program.stderr).toBe(0);
    const programId = String(program.lines[0]!.id);
    const programDryReport = join(dataDir, 'program-dry.csv');
    const programDry = await run([
      'import',
      'program-license-assignments',
      file,
      '--license',
      programId,
      '--dry-run',
      '--report',
      programDryReport,
      '--json',
    ]);
    expect(summaryOf(programDry)).toMatchObject({ wouldAdd: 2, overSeats: 2, unknown: 0 });
    const dryRows = reportOf(programDryReport);
    expect(dryRows.find((row) => row[0] === '4')?.[3]).toBe("Will not fit: beyond the licence's 2 seats");
    const programReport = join(dataDir, 'program-sent.csv');
    const programSent = await run([
      'import',
      'program-license-assignments',
      file,
      '--license',
      programId,
      '--report',
      programReport,
      '--json',
    ]);
    expect(summaryOf(programSent)).toMatchObject({ added: 2, overSeats: 2, invalid: 2 });
    expect(reportOf(programReport).find((row) => row[0] === '4')).toEqual([
      '4',
      'new.person@seats.test',
      'invalid',
      'The license has no available seats.',
    ]);
    const programSeats = await CatalogService.catalogLicensesProgramAssignmentRetrieve({
      licenseId: Number(programId),
    });
    expect(programSeats.results.map((seat) => seat.email).sort()).toEqual(['ada@seats.test', 'ben@seats.test']);

    // A released seat is free again: the email with no account now takes it.
    const seat = programSeats.results.find((s) => s.email === 'ada@seats.test')!;
    OpenAPI.BASE = server.url;
    await CatalogService.catalogLicensesProgramAssignmentDestroy({
      licenseId: Number(programId),
      assignmentId: seat.id,
    });
    const emailOnly = join(dataDir, 'email-only.csv');
    writeFileSync(emailOnly, 'Email\nnew.person@seats.test\n');
    const pending = await run(['import', 'program-license-assignments', emailOnly, '--license', programId, '--json']);
    expect(summaryOf(pending)).toMatchObject({ added: 1, unknown: 0 });
    const after = await CatalogService.catalogLicensesProgramAssignmentRetrieve({ licenseId: Number(programId) });
    expect(after.results.find((s) => s.email === 'new.person@seats.test')).toMatchObject({ user_id: null });
  });

  it('access requests: listed and approved through the kit, the SDK reads the review back', async () => {
    const user = server.db.prepare("SELECT id FROM users WHERE username = 'seat-ben'").pluck().get() as number;
    accessRequestStore(server.db).add(server.org, user, 'course-v1:main+DS101+2026', new Date().toISOString());
    const open = await run(['get', 'access-requests', '--where', 'reviewed=false', '--json']);
    expect(open.code, open.stderr).toBe(0);
    const id = String(open.lines.find((r) => r.username === 'seat-ben')!.id);
    const approved = await run(['update', 'access-requests', id, '--set', 'approved=true', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.lines[0]).toMatchObject({ reviewed: true, approved: true });
    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    const read = await CatalogService.catalogAccessRequestsCourseManageRetrieve({ reviewed: true });
    expect(read.results.find((r) => String(r.id) === id)).toMatchObject({ approved: true, username: 'seat-ben' });
  });

  it('refuses without --license, and names the licence that is not there', async () => {
    const file = join(dataDir, 'one.csv');
    writeFileSync(file, 'Email\nada@seats.test\n');
    const bare = await run(['import', 'license-assignments', file]);
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('needs --license ID');
    const missing = await run(['import', 'license-assignments', file, '--license', '9999', '--json']);
    const summary = JSON.parse(missing.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(summary).toMatchObject({ unknown: 1, added: 0 });
  });
});
