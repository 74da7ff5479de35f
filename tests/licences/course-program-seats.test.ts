/**
 * Course and program licence seats in the sandbox against the vendor spec (`licenses/{course,program}/assignment/`):
 * answers valid for their status, a seat given, listed and released, the spec's 404 messages, a program licence that
 * keeps a seat for an email with no account and refuses one past its count (the spec's notes on its request), the
 * families kept apart, admins only, and one tenant never seeing another's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { licencesArea } from '../../src/server/areas/licences';
import { call, sandbox, type Call } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;

function expectContract(method: string, template: string, res: Call, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectSpecValid(method, template, status, res.body);
}

const students = () =>
  server.db
    .prepare("SELECT id, email FROM users WHERE org = ? AND role = 'student' ORDER BY id DESC LIMIT 3")
    .all(server.org) as { id: number; email: string }[];

async function licence(family: 'course' | 'program', count: number): Promise<number> {
  const extra =
    family === 'course'
      ? { course_id: 'course-v1:main+SEAT+2027' }
      : { program_key: 'program-v1:main+S', started: '2026-01-01T00:00:00Z' };
  const made = await call(server, 'POST', `/api/catalog/licenses/${family}/create/`, {
    json: { platform_key: server.org, name: `${family} seats`, count, ...extra },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return (made.body as { id: number }).id;
}

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [licencesArea] });
});

describe('course and program licence seats', () => {
  for (const family of ['course', 'program'] as const) {
    const ASSIGN = `/api/catalog/licenses/${family}/assignment/`;
    it(`${family}: gives a seat by email and by user id, lists and releases it; the spec's 404s`, async () => {
      const id = await licence(family, 5);
      const [a, b] = students();
      const byEmail = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
        json: { license_id: id, email: a!.email, platform_key: server.org },
      });
      expectContract('post', ASSIGN, byEmail, 200);
      expect(byEmail.body).toMatchObject({ user_id: a!.id, email: a!.email, license_id: id, active: true });
      if (family === 'course') expect(byEmail.body).toMatchObject({ course_id: 'course-v1:main+SEAT+2027' });
      else expect(byEmail.body).toMatchObject({ program_key: 'program-v1:main+S', direct: true });
      const byId = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
        json: { license_id: id, user_id: b!.id },
      });
      expectContract('post', ASSIGN, byId, 200);

      const listed = await call(server, 'GET', `${ASSIGN}?license_id=${id}&platform_key=${server.org}`);
      expectContract('get', ASSIGN, listed, 200);
      expect((listed.body as { count: number }).count).toBe(2);
      const list = await call(server, 'GET', `/api/catalog/licenses/${family}/?platform_key=${server.org}`);
      const held = (list.body as { results: { id: number; usage_count: number }[] }).results.find((l) => l.id === id);
      expect(held?.usage_count).toBe(2);

      const seat = (byEmail.body as { id: number }).id;
      const released = await call(server, 'DELETE', `${ASSIGN}?license_id=${id}&assignment_id=${seat}`);
      expect(released.status).toBe(200);
      const gone = await call(server, 'DELETE', `${ASSIGN}?license_id=${id}&assignment_id=${seat}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: "Not found - assignment doesn't exist" });

      const noBody = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, { json: { license_id: id } });
      expect(noBody.status).toBe(400);
      // A user licence's id is not a course's or program's: each family has its own seats.
      const user = await call(server, 'POST', '/api/catalog/licenses/user/create/', {
        json: { platform_key: server.org, name: 'user', count: 5 },
      });
      const userId = (user.body as { id: number }).id;
      const wrongFamily = await call(server, 'POST', `${ASSIGN}?license_id=${userId}`, {
        json: { license_id: userId, user_id: a!.id },
      });
      expect(wrongFamily.status).toBe(404);
      expect(wrongFamily.body).toEqual({ detail: "Not found - license or user doesn't exist" });
    });
  }

  it('course: an email with no account is the spec’s 404; seats past the count are kept (the spec names no refusal)', async () => {
    const ASSIGN = '/api/catalog/licenses/course/assignment/';
    const id = await licence('course', 1);
    const nobody = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
      json: { license_id: id, email: 'nobody@nowhere.test' },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ detail: "Not found - license or user doesn't exist" });
    for (const person of students().slice(0, 2)) {
      const res = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
        json: { license_id: id, user_id: person.id },
      });
      expect(res.status).toBe(200);
    }
  });

  it('program: keeps a seat for an email with no account, refuses one past its count, a held seat given again', async () => {
    const ASSIGN = '/api/catalog/licenses/program/assignment/';
    const id = await licence('program', 2);
    const pending = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
      json: { license_id: id, email: 'new.person@nowhere.test' },
    });
    expectContract('post', ASSIGN, pending, 200);
    expect(pending.body).toMatchObject({ user_id: null, username: null, email: 'new.person@nowhere.test' });
    const [a, b] = students();
    expect(
      (await call(server, 'POST', `${ASSIGN}?license_id=${id}`, { json: { license_id: id, user_id: a!.id } })).status,
    ).toBe(200);
    const full = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, { json: { license_id: id, user_id: b!.id } });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ non_field_errors: ['The license has no available seats.'] });
    // Someone holding a seat is answered their seat, full or not.
    const again = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
      json: { license_id: id, user_id: a!.id },
    });
    expect(again.status).toBe(200);
    const listed = await call(server, 'GET', `${ASSIGN}?license_id=${id}`);
    expectContract('get', ASSIGN, listed, 200);
    const seats = (listed.body as { results: { id: number; email: string | null }[] }).results;
    expect(seats).toHaveLength(2);
    const emailSeat = seats.find((s) => s.email === 'new.person@nowhere.test')!;
    const released = await call(server, 'DELETE', `${ASSIGN}?license_id=${id}&assignment_id=${emailSeat.id}`);
    expect(released.status).toBe(200);
    expect(
      (await call(server, 'POST', `${ASSIGN}?license_id=${id}`, { json: { license_id: id, user_id: b!.id } })).status,
    ).toBe(200);
  });

  it('admins only, and each tenant’s seats to itself', async () => {
    const id = await licence('course', 3);
    const ASSIGN = '/api/catalog/licenses/course/assignment/';
    expect((await call(server, 'GET', `${ASSIGN}?license_id=${id}`, { key: server.studentKey })).status).toBe(403);
    expect((await call(server, 'GET', `${ASSIGN}?license_id=${id}`, { key: null })).status).toBe(401);
    const other = server.otherOrg;
    const theirs = await call(server, 'GET', `${ASSIGN}?license_id=${id}`, { key: other.apiKey });
    expect(theirs.body).toMatchObject({ count: 0 });
    const give = await call(server, 'POST', `${ASSIGN}?license_id=${id}`, {
      key: other.apiKey,
      json: { license_id: id, email: students()[0]!.email },
    });
    expect(give.status).toBe(404);
    const named = await call(server, 'GET', `${ASSIGN}?license_id=${id}&platform_key=${server.org}`, {
      key: other.apiKey,
    });
    expect(named.status).toBe(404);
  });
});
