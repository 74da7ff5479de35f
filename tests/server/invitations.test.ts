import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { invitationsArea } from '../../src/server/areas/invitations';
import { call, sandbox, type Call } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const ROOT = '/api/catalog/invitations';
type Kind = 'platform' | 'course' | 'program';

interface Invitation {
  id: number;
  user_id: number | null;
  username: string | null;
  email: string | null;
  created: string;
  started: string | null;
  expired: string | null;
  source: string | null;
  redirect_to: string | null;
  active: boolean;
  metadata: Record<string, unknown>;
  platform_key?: string;
  course_id?: string;
  program_key?: string;
}
interface Page {
  count: number;
  next_page: string | null;
  previous_page: string | null;
  results: Invitation[];
}
interface Bulk {
  successes: number;
  error_codes: string[];
}

let server: Sandbox;
let course: string;
let program: string;
const OTHER_COURSE = 'course-v1:riverside+FY100+2026';

/** Checks status and, where the spec declares that status for the operation, the body against the spec. */
function expectContract(method: string, template: string, res: Call, status: number, detail?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectSpecValid(method, template, status, res.body);
  if (detail !== undefined) expect(res.body).toEqual({ detail });
}

/** For statuses the spec does not declare on an operation (404 on a list): the platform's `{detail}` shape. */
function expectDetail(res: Call, status: number, detail: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ detail });
}

async function list(kind: Kind, query = ''): Promise<Page> {
  const res = await call(server, 'GET', `${ROOT}/${kind}/?platform_key=${server.org}${query}`);
  expectContract('get', `${ROOT}/${kind}/`, res, 200);
  return res.body as Page;
}

async function bulk(kind: Kind, rows: unknown[], extra: Record<string, unknown> = {}): Promise<Bulk> {
  const res = await call(server, 'POST', `${ROOT}/${kind}/bulk/`, {
    json: { platform_key: server.org, invitation_data: rows, ...extra },
  });
  expectContract('post', `${ROOT}/${kind}/bulk/`, res, 200);
  return res.body as Bulk;
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea] });
  course = (
    server.db.prepare(`SELECT course_id FROM courses WHERE org = ? ORDER BY id LIMIT 1`).get(server.org) as {
      course_id: string;
    }
  ).course_id;
  program = (
    server.db.prepare(`SELECT program_key FROM programs WHERE org = ? ORDER BY id LIMIT 1`).get(server.org) as {
      program_key: string;
    }
  ).program_key;
});

describe('invitations: demo catalog and lists', () => {
  it('seeds 40 courses, 3 programs and 500 invitations across the three kinds', async () => {
    const count = (sql: string) => (server.db.prepare(sql).get(server.org) as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM courses WHERE org = ?')).toBe(40);
    expect(count('SELECT count(*) AS n FROM programs WHERE org = ?')).toBe(3);
    const totals = await Promise.all(
      (['platform', 'course', 'program'] as const).map(async (kind) => (await list(kind)).count),
    );
    expect(totals.reduce((a, b) => a + b, 0)).toBe(500);
    expect(Math.min(...totals)).toBeGreaterThan(0);
    const platform = (await list('platform', '&page_size=500')).results;
    expect(platform.some((i) => i.active && i.email && !i.user_id)).toBe(true); // pending
    expect(platform.some((i) => !i.active && i.user_id)).toBe(true); // accepted
    expect(platform.some((i) => i.email === null)).toBe(true); // blank
  });

  it('pages newest first by default, sorts on request and filters', async () => {
    const first = await list('platform', '&page_size=10');
    const ids = first.results.map((i) => i.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(first.previous_page).toBeNull();
    expect(new URL(first.next_page!).searchParams.get('page')).toBe('2');
    const second = await list('platform', '&page_size=10&page=2');
    expect(second.results[0]!.id).toBeLessThan(ids.at(-1)!);
    expect(second.previous_page).not.toBeNull();
    const ascending = (await list('platform', '&page_size=10&sort=id')).results.map((i) => i.id);
    expect([...ascending].sort((a, b) => a - b)).toEqual(ascending);
    const beyond = await list('platform', '&page_size=10&page=999');
    expect(beyond.results).toEqual([]);
    expect(beyond.next_page).toBeNull();

    const inactive = await list('platform', '&active=false&page_size=200');
    expect(inactive.results.every((i) => !i.active)).toBe(true);
    const sample = inactive.results.find((i) => i.email)!;
    const byEmail = await list('platform', `&email=${encodeURIComponent(sample.email!.toUpperCase())}`);
    expect(byEmail.results.map((i) => i.id)).toContain(sample.id);
    const bySource = await list('platform', '&source=csv-import&page_size=200');
    expect(bySource.count).toBeGreaterThan(0);
    expect(bySource.results.every((i) => i.source === 'csv-import')).toBe(true);
    const accepted = inactive.results.find((i) => i.username)!;
    expect(
      (await list('platform', `&username=${accepted.username}`)).results.every((i) => i.username === accepted.username),
    ).toBe(true);
    const byMetadata = await list('platform', '&first_name=nora&page_size=200');
    expect(byMetadata.results.every((i) => i.metadata.first_name === 'nora')).toBe(true);

    const courseList = await list('course', `&course_id=${encodeURIComponent(course)}&page_size=200`);
    expect(courseList.results.every((i) => i.course_id === course)).toBe(true);
    const programList = await call(
      server,
      'GET',
      `${ROOT}/program/?program_key=${encodeURIComponent(program)}&page_size=200`,
    );
    expectContract('get', `${ROOT}/program/`, programList, 200);
    expect((programList.body as Page).results.every((i) => i.program_key === program)).toBe(true);

    expectContract('get', `${ROOT}/platform/`, await call(server, 'GET', `${ROOT}/platform/?sort=-nonsense`), 400);
    expectContract('get', `${ROOT}/platform/`, await call(server, 'GET', `${ROOT}/platform/?active=maybe`), 400);
  });
});

describe('invitations: create and delete', () => {
  it('creates a platform invitation and refuses bad, duplicate and member addresses', async () => {
    const path = `${ROOT}/platform/`;
    const created = await call(server, 'POST', path, {
      json: {
        platform_key: server.org,
        email: 'new.person@example.org',
        source: server.user,
        redirect_to: 'https://learn.example/x',
        team: 'blue',
      },
    });
    expectContract('post', path, created, 200);
    expect(created.body).toMatchObject({
      email: 'new.person@example.org',
      active: true,
      platform_key: server.org,
      source: server.user,
      user_id: null,
      metadata: { team: 'blue' },
    });
    expect((await list('platform')).results[0]!.id).toBe((created.body as Invitation).id);

    const refuse = async (json: Record<string, unknown>, status: number, detail?: string) =>
      expectContract(
        'post',
        path,
        await call(server, 'POST', path, { json: { platform_key: server.org, ...json } }),
        status,
        detail,
      );
    await refuse({ email: 'not-an-email' }, 400);
    await refuse({ email: 'NEW.PERSON@example.org' }, 400); // already invited, compared case-insensitively
    await refuse({ email: 'learner0005@northbridge.example' }, 400); // already a member
    await refuse({ username: 'learner0006' }, 400);
    await refuse({ email: 'x@example.org', redirect_to: 'javascript:alert(1)' }, 400);
    await refuse({}, 400);
    expectContract('post', path, await call(server, 'POST', path, { json: { email: 'x@example.org' } }), 400);
    await refuse(
      { platform_key: server.otherOrg.org, email: 'x@example.org' },
      404,
      "Not found - platform doesn't exist",
    );
  });

  it('creates course and program invitations only for the tenant’s own courses and programs', async () => {
    const coursePath = `${ROOT}/course/`;
    const ok = await call(server, 'POST', coursePath, {
      json: { course_id: course, email: 'course.invitee@example.org' },
    });
    expectContract('post', coursePath, ok, 200);
    expect(ok.body).toMatchObject({ course_id: course, email: 'course.invitee@example.org' });
    for (const course_id of ['course-v1:nowhere+X+1', OTHER_COURSE]) {
      const res = await call(server, 'POST', coursePath, { json: { course_id, email: 'a@example.org' } });
      expectContract('post', coursePath, res, 404, "Not found - course doesn't exist");
    }
    const programPath = `${ROOT}/program/`;
    const programOk = await call(server, 'POST', programPath, {
      json: { program_key: program, email: 'program.invitee@example.org', enrollment_config: { start: '2027-01-10' } },
    });
    expectContract('post', programPath, programOk, 200);
    const missing = await call(server, 'POST', programPath, {
      json: { program_key: 'riverside+foundation-year', email: 'a@example.org' },
    });
    expectContract('post', programPath, missing, 404, "Not found - program doesn't exist");
  });

  it('deletes by id or by address (200, no body) and answers 404 for unknown invitations', async () => {
    const created = (
      await call(server, 'POST', `${ROOT}/platform/`, { json: { platform_key: server.org, email: 'gone@example.org' } })
    ).body as Invitation;
    const path = `${ROOT}/platform/`;
    const removed = await call(server, 'DELETE', `${path}?platform_key=${server.org}&id=${created.id}`);
    expectContract('delete', path, removed, 200);
    expect(removed.body).toBeNull();
    expect((await list('platform', '&email=gone@example.org')).count).toBe(0);
    const again = await call(server, 'DELETE', `${path}?platform_key=${server.org}&id=${created.id}`);
    expectContract('delete', path, again, 404, "Not found - invitation doesn't exist");

    await call(server, 'POST', `${ROOT}/course/`, { json: { course_id: course, email: 'drop.me@example.org' } });
    const coursePath = `${ROOT}/course/`;
    const byEmail = await call(
      server,
      'DELETE',
      `${coursePath}?course_id=${encodeURIComponent(course)}&email=drop.me@example.org`,
    );
    expectContract('delete', coursePath, byEmail, 200);
    expectContract('delete', coursePath, await call(server, 'DELETE', `${coursePath}?email=x@example.org`), 400);
  });
});

describe('invitations: bulk', () => {
  it('reports every refused row with its code, index and address, and never invites anyone twice', async () => {
    const rows = [
      { email: 'ada.new@example.org', first_name: 'Ada', company_name: 'Acme' },
      { email: 'not an email' },
      { email: 'ADA.NEW@example.org' },
      { email: 'learner0007@northbridge.example' },
      { email: 'bo.new@example.org', platform_key: server.otherOrg.org },
      { username: 'learner0008' },
      {},
      { email: 'bo.new@example.org' },
    ];
    const first = await bulk('platform', rows);
    expect(first).toEqual({
      successes: 2,
      error_codes: [
        'invalid_email:1:not an email',
        'duplicate_in_request:2:ADA.NEW@example.org',
        'already_member:3:learner0007@northbridge.example',
        'platform_not_found:4:bo.new@example.org',
        'already_member:5:learner0008',
        'missing_email:6:',
      ],
    });
    const ada = (await list('platform', '&email=ada.new@example.org')).results;
    expect(ada).toHaveLength(1);
    expect(ada[0]!.metadata).toEqual({ first_name: 'Ada', company_name: 'Acme' });

    const again = await bulk('platform', rows);
    expect(again.successes).toBe(0);
    expect(again.error_codes).toContain('already_invited:0:ada.new@example.org');
    expect(again.error_codes).toContain('already_invited:7:bo.new@example.org');
    expect((await list('platform', '&email=ada.new@example.org')).count).toBe(1);
    expect((await list('platform', '&email=bo.new@example.org')).count).toBe(1);
  });

  it('takes a user group without an owner: the owner is optional, the group is kept with the invitation', async () => {
    // The spec: "Any additional parameters will be added as metadata"; `user_group_owner_email` is optional.
    const result = await bulk('platform', [
      { email: 'grouped.alone@example.org', user_group: 'Nursing 2026 — Cohort A' },
      { email: 'grouped.owned@example.org', user_group: 'Cohort B', user_group_owner_email: 'tutor@example.org' },
    ]);
    expect(result).toEqual({ successes: 2, error_codes: [] });
    const [alone] = (await list('platform', '&email=grouped.alone@example.org')).results;
    expect(alone!.metadata).toEqual({ user_group: 'Nursing 2026 — Cohort A' });
    const [owned] = (await list('platform', '&email=grouped.owned@example.org')).results;
    expect(owned!.metadata).toEqual({ user_group: 'Cohort B', user_group_owner_email: 'tutor@example.org' });
  });

  it('checks course rows against their course and its enrolled members', async () => {
    const enrolled = (await list('course', '&active=false&page_size=500')).results.find((i) => i.user_id && i.email)!;
    const result = await bulk('course', [
      { course_id: course, email: 'course.bulk@example.org' },
      { course_id: OTHER_COURSE, email: 'course.bulk@example.org' },
      { course_id: 'course-v1:nowhere+X+1', email: 'z@example.org' },
      { course_id: enrolled.course_id, email: enrolled.email },
      { email: 'no.course@example.org' },
    ]);
    expect(result).toEqual({
      successes: 1,
      error_codes: [
        'course_not_found:1:course.bulk@example.org',
        'course_not_found:2:z@example.org',
        `already_member:3:${enrolled.email}`,
        'missing_course_id:4:no.course@example.org',
      ],
    });
    const programs = await bulk('program', [
      { program_key: program, email: 'p1@example.org' },
      { program_key: program, email: 'P1@example.org' },
    ]);
    expect(programs).toEqual({ successes: 1, error_codes: ['duplicate_in_request:1:P1@example.org'] });
  });

  it('takes thousands of rows in one quick request', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ email: `bulk${i}@load.example.org`, source: 'load-test' }));
    const started = Date.now();
    const result = await bulk('platform', rows);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toEqual({ successes: 5000, error_codes: [] });
    expect((await list('platform', '&source=load-test')).count).toBe(5000);
  });

  it('refuses a malformed bulk body', async () => {
    const path = `${ROOT}/platform/bulk/`;
    expectContract('post', path, await call(server, 'POST', path, { json: { platform_key: server.org } }), 400);
    expectContract('post', path, await call(server, 'POST', path, { json: { invitation_data: 'nope' } }), 400);
  });
});

describe('invitations: blank, redeem and check', () => {
  it('creates blank invitations and redeems them one by one until none is left', async () => {
    const blank = await call(server, 'POST', `${ROOT}/platform/blank/`, {
      json: { platform_key: server.org, source: 'test-fair', count: 2, metadata: { booth: 7 } },
    });
    expectContract('post', `${ROOT}/platform/blank/`, blank, 200);
    expect(blank.body).toEqual({ successes: 2, error_codes: [] });
    const blanks = await list('platform', '&source=test-fair');
    expect(blanks.results.every((i) => i.email === null && i.active && i.metadata.booth === 7)).toBe(true);

    const redeemPath = `${ROOT}/platform/redeem/`;
    const redeemed = await call(server, 'POST', redeemPath, {
      json: { platform_key: server.org, source: 'test-fair', email: 'visitor@example.org' },
    });
    expectContract('post', redeemPath, redeemed, 200);
    expect(redeemed.body).toMatchObject({
      email: 'visitor@example.org',
      source: 'test-fair',
      started: expect.any(String),
      metadata: { booth: 7 },
    });
    expect(
      (
        await call(server, 'POST', redeemPath, {
          json: { platform_key: server.org, source: 'test-fair', email: 'visitor2@example.org' },
        })
      ).status,
    ).toBe(200);
    const none = await call(server, 'POST', redeemPath, {
      json: { platform_key: server.org, source: 'test-fair', email: 'late@example.org' },
    });
    expectContract('post', redeemPath, none, 404, 'Not found - no blank invitation available');
    expectContract(
      'post',
      redeemPath,
      await call(server, 'POST', redeemPath, { json: { platform_key: server.org, source: 'test-fair' } }),
      400,
    );

    const badBlank = await call(server, 'POST', `${ROOT}/platform/blank/`, {
      json: { platform_key: server.org, source: 'x', count: 0 },
    });
    expectContract('post', `${ROOT}/platform/blank/`, badBlank, 400);
    const foreign = await call(server, 'POST', `${ROOT}/platform/blank/`, {
      json: { platform_key: server.otherOrg.org, source: 'x', count: 1 },
    });
    expectContract('post', `${ROOT}/platform/blank/`, foreign, 404, "Not found - platform doesn't exist");
    const noCourse = await call(server, 'POST', `${ROOT}/course/blank/`, {
      json: { course_id: OTHER_COURSE, source: 'x', count: 1 },
    });
    expectContract('post', `${ROOT}/course/blank/`, noCourse, 404, "Not found - course doesn't exist");
  });

  it('enrols a known learner who redeems a course invitation, who then counts as a member', async () => {
    const blank = await call(server, 'POST', `${ROOT}/course/blank/`, {
      json: { course_id: course, source: 'course-codes', count: 1 },
    });
    expectContract('post', `${ROOT}/course/blank/`, blank, 200);
    const path = `${ROOT}/course/redeem/`;
    const redeemed = await call(server, 'POST', path, {
      json: { course_id: course, source: 'course-codes', username: 'learner0009' },
    });
    expectContract('post', path, redeemed, 200);
    expect(redeemed.body).toMatchObject({
      username: 'learner0009',
      email: 'learner0009@northbridge.example',
      user_id: expect.any(Number),
    });
    expect(await bulk('course', [{ course_id: course, email: 'learner0009@northbridge.example' }])).toEqual({
      successes: 0,
      error_codes: ['already_member:0:learner0009@northbridge.example'],
    });

    const programBlank = await call(server, 'POST', `${ROOT}/program/blank/`, {
      json: { program_key: program, source: 'p-codes', count: 1 },
    });
    expectContract('post', `${ROOT}/program/blank/`, programBlank, 200);
    const programRedeem = await call(server, 'POST', `${ROOT}/program/redeem/`, {
      json: { program_key: program, source: 'p-codes', email: 'someone@example.org' },
    });
    expectContract('post', `${ROOT}/program/redeem/`, programRedeem, 200);
    const none = await call(server, 'POST', `${ROOT}/program/redeem/`, {
      json: { program_key: program, source: 'p-codes', email: 'x@example.org' },
    });
    expectContract('post', `${ROOT}/program/redeem/`, none, 404, 'Not found - no blank invitation available');
  });

  it('answers the public check: 200 for a live invitation, 404 otherwise, 400 for a bad address', async () => {
    await call(server, 'POST', `${ROOT}/platform/`, {
      json: { platform_key: server.org, email: 'checked@example.org' },
    });
    const path = `${ROOT}/platform/check/`;
    const live = await call(server, 'GET', `${path}?email=CHECKED@example.org`, { key: null });
    expectContract('get', path, live, 200);
    expectContract(
      'get',
      path,
      await call(server, 'GET', `${path}?email=nobody@example.org`, { key: null }),
      404,
      'No active invitation exists for the email',
    );
    expectContract('get', path, await call(server, 'GET', `${path}?email=bad`, { key: null }), 400);
    expectContract('get', path, await call(server, 'GET', path, { key: null }), 400);
    // A revoked (inactive) invitation does not count.
    const created = (await list('platform', '&email=checked@example.org')).results[0]!;
    await call(server, 'DELETE', `${ROOT}/platform/?id=${created.id}`);
    expectContract('get', path, await call(server, 'GET', `${path}?email=checked@example.org`, { key: null }), 404);
  });
});

describe('invitations: roles and tenants', () => {
  it('refuses students with 403 and anonymous callers with 401 on every management operation', async () => {
    const student = { key: server.studentKey };
    const operations: [string, string, unknown][] = [
      ['get', `${ROOT}/platform/`, undefined],
      ['post', `${ROOT}/platform/`, { platform_key: server.org, email: 'a@example.org' }],
      ['delete', `${ROOT}/platform/`, undefined],
      ['post', `${ROOT}/platform/bulk/`, { platform_key: server.org, invitation_data: [] }],
      ['post', `${ROOT}/platform/blank/`, { platform_key: server.org, source: 's', count: 1 }],
      ['post', `${ROOT}/platform/redeem/`, { platform_key: server.org, source: 's', email: 'a@example.org' }],
      ['get', `${ROOT}/course/`, undefined],
      ['post', `${ROOT}/course/bulk/`, { invitation_data: [] }],
      ['get', `${ROOT}/program/`, undefined],
      ['post', `${ROOT}/program/blank/`, { program_key: program, source: 's', count: 1 }],
    ];
    for (const [method, path, json] of operations) {
      const query = method === 'post' ? '' : `?platform_key=${server.org}`;
      expectContract(
        method,
        path,
        await call(server, method.toUpperCase(), path + query, { ...student, json }),
        403,
        'Forbidden',
      );
      expectContract(method, path, await call(server, method.toUpperCase(), path + query, { key: null, json }), 401);
    }
  });

  it('answers 404 for another tenant’s platform_key and never returns its invitations', async () => {
    expectDetail(
      await call(server, 'GET', `${ROOT}/platform/?platform_key=${server.otherOrg.org}`),
      404,
      'Organization not found',
    );
    expectDetail(
      await call(server, 'GET', `${ROOT}/course/?platform_key=${server.otherOrg.org}`),
      404,
      'Organization not found',
    );
    const bulkForeign = await call(server, 'POST', `${ROOT}/platform/bulk/`, {
      json: { platform_key: server.otherOrg.org, invitation_data: [{ email: 'a@example.org' }] },
    });
    expectDetail(bulkForeign, 404, 'Organization not found');

    // The other tenant invites someone; the main tenant cannot see or delete it.
    const other = { key: server.otherOrg.apiKey };
    const theirs = await call(server, 'POST', `${ROOT}/course/`, {
      ...other,
      json: { course_id: OTHER_COURSE, email: 'rivers@example.org' },
    });
    expectContract('post', `${ROOT}/course/`, theirs, 200);
    const theirId = (theirs.body as Invitation).id;
    const ownList = await call(server, 'GET', `${ROOT}/course/?page_size=1000`, other);
    expect((ownList.body as Page).results.map((i) => i.course_id)).toEqual([OTHER_COURSE]);
    expect((await list('course', '&page_size=1000')).results.map((i) => i.id)).not.toContain(theirId);
    const steal = await call(server, 'DELETE', `${ROOT}/course/?id=${theirId}`);
    expectContract('delete', `${ROOT}/course/`, steal, 404, "Not found - invitation doesn't exist");
    const mainCourse = await call(server, 'POST', `${ROOT}/course/`, {
      ...other,
      json: { course_id: course, email: 'x@example.org' },
    });
    expectContract('post', `${ROOT}/course/`, mainCourse, 404, "Not found - course doesn't exist");
  });
});
