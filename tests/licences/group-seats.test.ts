/**
 * User groups holding course and program licences in the sandbox against the vendor spec
 * (`licenses/{course,program}/assignment/group/`): answers valid for their status, everyone in the group given a seat,
 * listed, filtered (the program family's filters), taken back with the people's seats or, for a program licence with
 * `remove_user_assignments=false`, without them; a program licence that cannot seat the whole group gives no one a
 * seat; the spec's 404s, admins only, one tenant never seeing another's; and the open email check counting a program
 * licence's email-only seat.
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

type Family = 'course' | 'program';

async function licence(family: Family, count: number, org = server.org, key = server.apiKey): Promise<number> {
  const extra =
    family === 'course'
      ? { course_id: 'course-v1:main+GROUP+2027' }
      : { program_key: 'program-v1:main+GROUP', started: '2026-01-01T00:00:00Z' };
  const made = await call(server, 'POST', `/api/catalog/licenses/${family}/create/`, {
    key,
    json: { platform_key: org, name: `${family} group seats`, count, ...extra },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return (made.body as { id: number }).id;
}

/** A user group of the tenant with `size` of its learners in it. */
function group(name: string, size: number, org = server.org): { id: number; members: number[] } {
  const id = Number(
    server.db.prepare('INSERT INTO user_groups (org, name) VALUES (?, ?)').run(org, name).lastInsertRowid,
  );
  const members = server.db
    .prepare("SELECT id FROM users WHERE org = ? AND role = 'student' AND is_active = 1 ORDER BY id LIMIT ?")
    .pluck()
    .all(org, size) as number[];
  for (const user of members) server.db.prepare('INSERT INTO user_group_members VALUES (?, ?)').run(id, user);
  return { id, members };
}

const seatCount = async (family: Family, license: number) =>
  (
    (await call(server, 'GET', `/api/catalog/licenses/${family}/assignment/?license_id=${license}`)).body as {
      count: number;
    }
  ).count;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [licencesArea] });
});

describe('group seats of course and program licences', () => {
  for (const family of ['course', 'program'] as const) {
    const GROUP = `/api/catalog/licenses/${family}/assignment/group/`;
    it(`${family}: gives the whole group seats, lists the group, takes it back with the people's seats`, async () => {
      const id = await licence(family, 10);
      const crew = group(`${family} crew`, 3);
      const given = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        json: { license_id: id, group_id: crew.id, platform_key: server.org },
      });
      expectContract('post', GROUP, given, 200);
      expect(given.body).toMatchObject({
        group_id: crew.id,
        group_name: `${family} crew`,
        license_id: id,
        active: true,
      });
      if (family === 'course') expect(given.body).toMatchObject({ course_id: 'course-v1:main+GROUP+2027' });
      else expect(given.body).toMatchObject({ program_key: 'program-v1:main+GROUP', user_count: 3, assigned_count: 3 });
      expect(await seatCount(family, id)).toBe(3);

      // The same group again is the same group seat (the spec's "create or update").
      const again = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        json: { license_id: id, group_id: crew.id },
      });
      expect((again.body as { id: number }).id).toBe((given.body as { id: number }).id);

      const listed = await call(server, 'GET', `${GROUP}?license_id=${id}&platform_key=${server.org}`);
      expectContract('get', GROUP, listed, 200);
      expect((listed.body as { results: { group_name: string }[] }).results.map((g) => g.group_name)).toEqual([
        `${family} crew`,
      ]);

      const assignment = (given.body as { id: number }).id;
      const removed = await call(server, 'DELETE', `${GROUP}?license_id=${id}&assignment_id=${assignment}`);
      expect(removed.status).toBe(200);
      expect(await seatCount(family, id)).toBe(0);
      const twice = await call(server, 'DELETE', `${GROUP}?license_id=${id}&assignment_id=${assignment}`);
      expect(twice.status).toBe(404);
      expect(twice.body).toEqual({ detail: "Not found - assignment doesn't exist" });
    });

    it(`${family}: the spec's 404 for a group or licence that is not there, 400 for what is missing`, async () => {
      const id = await licence(family, 5);
      const noGroup = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        json: { license_id: id, group_id: 9999 },
      });
      expect(noGroup.status).toBe(404);
      expect(noGroup.body).toEqual({ detail: "Not found - license or group doesn't exist" });
      // A user licence is not of this family.
      const user = await call(server, 'POST', '/api/catalog/licenses/user/create/', {
        json: { platform_key: server.org, name: 'user', count: 5 },
      });
      const crew = group(`${family} other`, 1);
      const userId = (user.body as { id: number }).id;
      const wrongFamily = await call(server, 'POST', `${GROUP}?license_id=${userId}`, {
        json: { license_id: userId, group_id: crew.id },
      });
      expect(wrongFamily.body).toEqual({ detail: "Not found - license or group doesn't exist" });
      const noBody = await call(server, 'POST', `${GROUP}?license_id=${id}`, { json: { license_id: id } });
      expect(noBody.status).toBe(400);
      expect(noBody.body).toEqual({ group_id: ['This field is required.'] });
      const noQuery = await call(server, 'GET', GROUP);
      expect(noQuery.body).toEqual({ license_id: ['This field is required.'] });
    });
  }

  it('program: keeps the people’s seats when remove_user_assignments is false; filters by group and active', async () => {
    const GROUP = '/api/catalog/licenses/program/assignment/group/';
    const id = await licence('program', 10);
    const crew = group('keepers', 2);
    const given = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
      json: { license_id: id, group_id: crew.id },
    });
    const other = group('others', 1);
    await call(server, 'POST', `${GROUP}?license_id=${id}`, {
      json: { license_id: id, group_id: other.id, active: false },
    });
    const byGroup = await call(server, 'GET', `${GROUP}?license_id=${id}&group_id=${crew.id}`);
    expectContract('get', GROUP, byGroup, 200);
    expect((byGroup.body as { count: number }).count).toBe(1);
    const inactive = await call(server, 'GET', `${GROUP}?license_id=${id}&active=false`);
    expect((inactive.body as { results: { group_name: string }[] }).results.map((g) => g.group_name)).toEqual([
      'others',
    ]);

    const assignment = (given.body as { id: number }).id;
    const kept = await call(
      server,
      'DELETE',
      `${GROUP}?license_id=${id}&assignment_id=${assignment}&remove_user_assignments=false`,
    );
    expect(kept.status).toBe(200);
    const seats = await call(server, 'GET', `/api/catalog/licenses/program/assignment/?license_id=${id}`);
    const held = (seats.body as { results: { user_id: number; direct: boolean }[] }).results;
    // Kept, the seats are the people's own from then on.
    expect(held.filter((s) => crew.members.includes(s.user_id)).map((s) => s.direct)).toEqual([true, true]);
    expect((await call(server, 'GET', `${GROUP}?license_id=${id}&group_id=${crew.id}`)).body).toMatchObject({
      count: 0,
    });
  });

  it('program: a group larger than the free seats gives no one a seat (the spec’s notes)', async () => {
    const GROUP = '/api/catalog/licenses/program/assignment/group/';
    const id = await licence('program', 2);
    const crew = group('too many', 3);
    const refused = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
      json: { license_id: id, group_id: crew.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      non_field_errors: ['The license does not have enough available seats for all users in the group.'],
    });
    expect(await seatCount('program', id)).toBe(0);
    expect((await call(server, 'GET', `${GROUP}?license_id=${id}`)).body).toMatchObject({ count: 0 });
    // Someone of the group who holds a seat already needs no other: two free seats then seat the other two.
    await call(server, 'POST', `/api/catalog/licenses/program/assignment/?license_id=${id}`, {
      json: { license_id: id, user_id: crew.members[0] },
    });
    const bigger = await call(server, 'POST', `/api/catalog/licenses/program/create/`, {
      json: {
        platform_key: server.org,
        name: 'three',
        count: 3,
        program_key: 'program-v1:main+G3',
        started: '2026-01-01T00:00:00Z',
      },
    });
    const three = (bigger.body as { id: number }).id;
    await call(server, 'POST', `/api/catalog/licenses/program/assignment/?license_id=${three}`, {
      json: { license_id: three, user_id: crew.members[0] },
    });
    const fits = await call(server, 'POST', `${GROUP}?license_id=${three}`, {
      json: { license_id: three, group_id: crew.id },
    });
    expectContract('post', GROUP, fits, 200);
    expect(fits.body).toMatchObject({ user_count: 3, assigned_count: 3 });
  });

  it('admins only, and each tenant’s group seats to itself', async () => {
    for (const family of ['course', 'program'] as const) {
      const GROUP = `/api/catalog/licenses/${family}/assignment/group/`;
      const id = await licence(family, 5);
      const crew = group(`${family} private`, 1);
      await call(server, 'POST', `${GROUP}?license_id=${id}`, { json: { license_id: id, group_id: crew.id } });
      expect((await call(server, 'GET', `${GROUP}?license_id=${id}`, { key: server.studentKey })).status).toBe(403);
      expect((await call(server, 'GET', `${GROUP}?license_id=${id}`, { key: null })).status).toBe(401);
      const learnerGives = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        key: server.studentKey,
        json: { license_id: id, group_id: crew.id },
      });
      expect(learnerGives.status).toBe(403);
      const other = server.otherOrg;
      expect((await call(server, 'GET', `${GROUP}?license_id=${id}`, { key: other.apiKey })).body).toMatchObject({
        count: 0,
      });
      const theirGroup = group(`${family} theirs`, 0, other.org);
      const crossed = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        key: other.apiKey,
        json: { license_id: id, group_id: crew.id },
      });
      expect(crossed.status).toBe(404);
      // Our licence with their group: no.
      const mixed = await call(server, 'POST', `${GROUP}?license_id=${id}`, {
        json: { license_id: id, group_id: theirGroup.id },
      });
      expect(mixed.status).toBe(404);
      const listed = (await call(server, 'GET', `${GROUP}?license_id=${id}`)).body as { results: { id: number }[] };
      const release = await call(server, 'DELETE', `${GROUP}?license_id=${id}&assignment_id=${listed.results[0]!.id}`, {
        key: other.apiKey,
      });
      expect(release.status).toBe(404);
      expect((await call(server, 'GET', `${GROUP}?license_id=${id}`)).body).toMatchObject({ count: 1 });
    }
  });
});

describe('the open email check', () => {
  it('counts a program licence’s email-only seat, and no longer once it is released or the licence ends', async () => {
    const CHECK = '/api/catalog/licenses/user/assignment/check/';
    const email = 'Not.Yet@Signed.Up';
    expect((await call(server, 'GET', `${CHECK}?email=${email}`, { key: null })).status).toBe(404);
    const id = await licence('program', 3);
    const seat = await call(server, 'POST', `/api/catalog/licenses/program/assignment/?license_id=${id}`, {
      json: { license_id: id, email: email.toLowerCase() },
    });
    expect(seat.body).toMatchObject({ user_id: null });
    const held = await call(server, 'GET', `${CHECK}?email=${encodeURIComponent(email)}`, { key: null });
    expectContract('get', CHECK, held, 200);
    // The licence ends: the seat no longer gives access.
    await call(server, 'POST', '/api/catalog/licenses/program/update/', {
      json: { license_id: id, expired: '2026-01-02T00:00:00Z' },
    });
    expect((await call(server, 'GET', `${CHECK}?email=${email}`, { key: null })).status).toBe(404);
    await call(server, 'POST', '/api/catalog/licenses/program/update/', { json: { license_id: id, expired: null } });
    expect((await call(server, 'GET', `${CHECK}?email=${email}`, { key: null })).status).toBe(200);
    const seatId = (seat.body as { id: number }).id;
    await call(server, 'DELETE', `/api/catalog/licenses/program/assignment/?license_id=${id}&assignment_id=${seatId}`);
    const gone = await call(server, 'GET', `${CHECK}?email=${email}`, { key: null });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: 'No active license assignment exists for the email' });
  });
});
