/**
 * The sandbox's licences, seats and access requests against the vendor spec: answers valid for their status, the
 * spec's 404 messages, admin-only manage calls (a learner's key is refused) and one tenant never seeing another's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { accessRequestStore, licencesArea } from '../../src/server/areas/licences';
import { call, sandbox, type Call } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const ROOT = '/api/catalog/licenses/user';
const ASSIGN = `${ROOT}/assignment/`;
const GROUP = `${ROOT}/assignment/group/`;
const MANAGE = '/api/catalog/access_requests/course/manage/';

let server: Sandbox;

function expectContract(method: string, template: string, res: Call, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectSpecValid(method, template, status, res.body);
}

const student = () =>
  server.db
    .prepare("SELECT id, email FROM users WHERE org = ? AND role = 'student' ORDER BY id DESC LIMIT 1")
    .get(server.org) as { id: number; email: string };

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [licencesArea] });
});

describe('licences', () => {
  it('lists the seeded licences in the catalog envelope with seats used, newest first', async () => {
    const res = await call(server, 'GET', `${ROOT}/?platform_key=${server.org}`);
    expectContract('get', `${ROOT}/`, res, 200);
    const page = res.body as { count: number; results: { id: number; name: string; usage_count: number }[] };
    expect(page.count).toBe(3);
    expect(page.results.map((l) => l.name)).toEqual(['Summer school 2026', 'Pilot cohort', 'Campus seats 2026']);
    expect(page.results.every((l) => l.usage_count > 0)).toBe(true);
  });

  it('creates and updates a licence; an update of no licence is the spec’s 404', async () => {
    const made = await call(server, 'POST', `${ROOT}/create/`, {
      json: { platform_key: server.org, name: 'Nurses 2027', count: 3 },
    });
    expectContract('post', `${ROOT}/create/`, made, 200);
    const id = (made.body as { id: number }).id;
    const updated = await call(server, 'POST', `${ROOT}/update/`, { json: { license_id: id, count: 4 } });
    expectContract('post', `${ROOT}/update/`, updated, 200);
    expect(updated.body).toMatchObject({ id, count: 4, name: 'Nurses 2027', active: true, usage_count: 0 });
    const missing = await call(server, 'POST', `${ROOT}/update/`, { json: { license_id: 9999, count: 1 } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "Not found - license doesn't exist" });
    const bad = await call(server, 'POST', `${ROOT}/create/`, { json: { name: 'no key' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty('platform_key');
  });

  it('gives a seat by email, answers the same seat twice, releases it; the spec’s messages for what is not there', async () => {
    const made = await call(server, 'POST', `${ROOT}/create/`, {
      json: { platform_key: server.org, name: 'Two seats', count: 2 },
    });
    const license = (made.body as { id: number }).id;
    const person = student();
    const given = await call(server, 'POST', `${ASSIGN}?license_id=${license}`, {
      json: { license_id: license, email: person.email.toUpperCase() },
    });
    expectContract('post', ASSIGN, given, 200);
    const again = await call(server, 'POST', `${ASSIGN}?license_id=${license}`, {
      json: { license_id: license, user_id: person.id },
    });
    expect((again.body as { id: number }).id).toBe((given.body as { id: number }).id);
    const listed = await call(server, 'GET', `${ASSIGN}?license_id=${license}`);
    expectContract('get', ASSIGN, listed, 200);
    expect((listed.body as { count: number }).count).toBe(1);

    const nobody = await call(server, 'POST', `${ASSIGN}?license_id=${license}`, {
      json: { license_id: license, email: 'nobody@nowhere.test' },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ detail: "Not found - license or user doesn't exist" });
    const check = await call(server, 'GET', `${ROOT}/assignment/check/?email=nobody@nowhere.test`, { key: null });
    expect(check.status).toBe(404);
    expect(check.body).toEqual({ detail: 'No active license assignment exists for the email' });
    expect((await call(server, 'GET', `${ROOT}/assignment/check/?email=${person.email}`, { key: null })).status).toBe(
      200,
    );

    const id = (given.body as { id: number }).id;
    const released = await call(server, 'DELETE', `${ASSIGN}?license_id=${license}&assignment_id=${id}`);
    expect(released.status).toBe(200);
    const twice = await call(server, 'DELETE', `${ASSIGN}?license_id=${license}&assignment_id=${id}`);
    expect(twice.body).toEqual({ detail: "Not found - assignment doesn't exist" });
    const noQuery = await call(server, 'POST', ASSIGN, { json: { license_id: license, email: person.email } });
    expect(noQuery.status).toBe(400);
    expect(noQuery.body).toEqual({ license_id: ['This field is required.'] });
  });

  it('gives a whole user group seats and takes them back with the group', async () => {
    const db = server.db;
    const group = Number(
      db.prepare('INSERT INTO user_groups (org, name) VALUES (?, ?)').run(server.org, 'Night shift').lastInsertRowid,
    );
    const people = db
      .prepare("SELECT id FROM users WHERE org = ? AND role = 'student' LIMIT 3")
      .pluck()
      .all(server.org);
    for (const user of people) db.prepare('INSERT INTO user_group_members VALUES (?, ?)').run(group, user);
    const made = await call(server, 'POST', `${ROOT}/create/`, { json: { platform_key: server.org, count: 5 } });
    const license = (made.body as { id: number }).id;
    const given = await call(server, 'POST', `${GROUP}?license_id=${license}`, {
      json: { license_id: license, group_id: group },
    });
    expectContract('post', GROUP, given, 200);
    expect(given.body).toMatchObject({ group_name: 'Night shift', license_id: license });
    const seats = await call(server, 'GET', `${ASSIGN}?license_id=${license}`);
    expect((seats.body as { count: number }).count).toBe(3);
    expectContract('get', GROUP, await call(server, 'GET', `${GROUP}?license_id=${license}`), 200);
    const id = (given.body as { id: number }).id;
    expect((await call(server, 'DELETE', `${GROUP}?license_id=${license}&assignment_id=${id}`)).status).toBe(200);
    expect(((await call(server, 'GET', `${ASSIGN}?license_id=${license}`)).body as { count: number }).count).toBe(0);
    const noGroup = await call(server, 'POST', `${GROUP}?license_id=${license}`, {
      json: { license_id: license, group_id: 9999 },
    });
    expect(noGroup.body).toEqual({ detail: "Not found - license or group doesn't exist" });
  });
});

describe('course, program and platform licences', () => {
  it('lists the seeded ones apart from user licences, creates and updates each; the spec’s 404 words', async () => {
    for (const [family, extra, missing] of [
      ['course', { course_id: 'course-v1:main+NEW1+2027' }, "Not found - license doesn't exist"],
      [
        'program',
        { program_key: 'program-v1:main+NEW+2027', started: '2026-12-01T00:00:00Z' },
        'Not found - license does not exist',
      ],
      ['platform', {}, "Not found - license doesn't exist"],
    ] as const) {
      const base = `/api/catalog/licenses/${family}`;
      const listed = await call(server, 'GET', `${base}/`);
      expectContract('get', `${base}/`, listed, 200);
      expect((listed.body as { count: number }).count).toBe(1);
      const made = await call(server, 'POST', `${base}/create/`, {
        json: { platform_key: server.org, name: `New ${family}`, count: 5, ...extra },
      });
      expectContract('post', `${base}/create/`, made, 200);
      const id = (made.body as { id: number }).id;
      const changed = await call(server, 'POST', `${base}/update/`, { json: { license_id: id, count: 6 } });
      expectContract('post', `${base}/update/`, changed, 200);
      expect(changed.body).toMatchObject({ id, count: 6, ...extra });
      // A user licence is not a licence of this family.
      const other = await call(server, 'POST', `${base}/update/`, { json: { license_id: 1, count: 1 } });
      expect(other.body).toEqual({ detail: missing });
      expect((await call(server, 'GET', `${base}/`, { key: server.studentKey })).status).toBe(403);
    }
    const users = await call(server, 'GET', `${ROOT}/`);
    expect((users.body as { results: { name: string }[] }).results.map((l) => l.name)).not.toContain('New course');
  });
});

describe('access requests', () => {
  it('lists the open requests and reviews one; a request of no one is the spec’s 404', async () => {
    const res = await call(server, 'GET', `${MANAGE}?platform_key=${server.org}&reviewed=false`);
    expectContract('get', MANAGE, res, 200);
    const open = (res.body as { results: { id: number; reviewed: boolean; approved: boolean | null }[] }).results;
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((r) => !r.reviewed && r.approved === null)).toBe(true);
    const approved = await call(server, 'POST', MANAGE, { json: { request_id: open[0]!.id, approved: true } });
    expectContract('post', MANAGE, approved, 200);
    expect(approved.body).toMatchObject({ id: open[0]!.id, reviewed: true, approved: true });
    const reviewed = await call(server, 'GET', `${MANAGE}?reviewed=true`);
    expect((reviewed.body as { results: { id: number }[] }).results.map((r) => r.id)).toContain(open[0]!.id);
    const missing = await call(server, 'POST', MANAGE, { json: { request_id: 99999, approved: false } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "Not found - platform or access request doesn't exist" });
    const bad = await call(server, 'POST', MANAGE, { json: { approved: false } });
    expect(bad.body).toEqual({ request_id: ['This field is required.'] });
  });

  it('keeps one request per person and course, as the platform does: asking again leaves the one there is', async () => {
    const res = await call(server, 'GET', `${MANAGE}?platform_key=${server.org}`);
    const all = (res.body as { results: { user_id: number; course_id: string }[] }).results;
    const pairs = all.map((r) => `${r.user_id} ${r.course_id}`);
    expect(all.length).toBeGreaterThan(4);
    expect(new Set(pairs).size, pairs.join('\n')).toBe(pairs.length);
    const first = all[0]!;
    accessRequestStore(server.db).add(server.org, first.user_id, first.course_id, new Date().toISOString());
    const again = await call(server, 'GET', `${MANAGE}?platform_key=${server.org}`);
    expect((again.body as { count: number }).count).toBe(all.length);
  });
});

describe('who may', () => {
  it('refuses the manage calls to a learner and to no key', async () => {
    for (const [method, path] of [
      ['GET', `${ROOT}/`],
      ['GET', MANAGE],
      ['GET', `${ASSIGN}?license_id=1`],
    ] as const) {
      expect((await call(server, method, path, { key: server.studentKey })).status).toBe(403);
      expect((await call(server, method, path, { key: null })).status).toBe(401);
    }
    const post = await call(server, 'POST', MANAGE, {
      key: server.studentKey,
      json: { request_id: 1, approved: true },
    });
    expect(post.status).toBe(403);
  });

  it('keeps each tenant’s licences and requests to itself', async () => {
    const other = server.otherOrg;
    const theirs = await call(server, 'GET', `${ROOT}/`, { key: other.apiKey });
    expect((theirs.body as { count: number }).count).toBe(0);
    expect((await call(server, 'GET', MANAGE, { key: other.apiKey })).body).toMatchObject({ count: 0 });
    const named = await call(server, 'GET', `${ROOT}/?platform_key=${server.org}`, { key: other.apiKey });
    expect(named.status).toBe(404);
    const seat = await call(server, 'POST', `${ASSIGN}?license_id=1`, {
      key: other.apiKey,
      json: { license_id: 1, email: student().email },
    });
    expect(seat.body).toEqual({ detail: "Not found - license or user doesn't exist" });
    const review = await call(server, 'POST', MANAGE, { key: other.apiKey, json: { request_id: 1, approved: true } });
    expect(review.status).toBe(404);
    const release = await call(server, 'DELETE', `${ASSIGN}?license_id=1&assignment_id=1`, { key: other.apiKey });
    expect(release.status).toBe(404);
  });
});
