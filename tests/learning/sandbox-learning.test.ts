/**
 * Contract tests of the sandbox's course suggestions (`/api/catalog/suggestions/course/manage/`, `bulk/`, `group/`)
 * and reviews (`reviews/{course,program}/`, `info/`, `update/`): answers valid against the vendor spec, the manage
 * calls refused to learners, a learner writing only their own review, one tenant's rows never reached from another.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
beforeAll(async () => {
  server = await sandbox({ seed: 'demo' });
}, 120_000);

const S = '/api/catalog/suggestions/course/manage/';
const G = '/api/catalog/suggestions/course/manage/group/';
const B = '/api/catalog/suggestions/course/manage/bulk/';
const R = '/api/catalog/reviews/course/';
const P = '/api/catalog/reviews/program/';
type Page<T> = { count: number; next_page: unknown; results: T[] };
type Suggestion = { id: number; user_id: number; username: string; course_id: string; visible: boolean };
type Review = { course_id: string; username: string; rating: number | null; visible: boolean; title: string };

const pk = () => `platform_key=${server.org}`;
const course = () =>
  server.db
    .prepare('SELECT course_id FROM courses WHERE org = ? ORDER BY id DESC LIMIT 1')
    .pluck()
    .get(server.org) as string;
const learner = (n: number) =>
  server.db
    .prepare(`SELECT id, username FROM users WHERE org = ? AND role = 'student' ORDER BY id LIMIT 1 OFFSET ?`)
    .get(server.org, n) as { id: number; username: string };

describe('sandbox: course suggestions', () => {
  it('lists the seeded suggestions, newest first, in pages (each a spec CourseSuggestionDetail), searchable', async () => {
    const listed = await call(server, 'GET', `${S}?${pk()}&page_size=5`);
    expect(listed.status).toBe(200);
    expectSpecValid('get', S, 200, listed.body);
    const page = listed.body as Page<Suggestion>;
    expect(page.count).toBeGreaterThan(5);
    expect(page.results).toHaveLength(5);
    expect(page.next_page).toBeTruthy();
    const ids = page.results.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const who = page.results[0]!.username;
    const found = (await call(server, 'GET', `${S}?${pk()}&query=${who}`)).body as Page<Suggestion>;
    expect(found.results.every((s) => s.username === who)).toBe(true);
  });

  it('suggests a course to a person once (a second POST updates it), and withdraws it', async () => {
    const person = learner(30);
    const json = { platform_key: server.org, course_id: course(), user_id: String(person.id), visible: true };
    const made = await call(server, 'POST', S, { json });
    expect(made.status).toBe(200);
    expectSpecValid('post', S, 200, made.body);
    const first = made.body as Suggestion;
    expect(first).toMatchObject({ user_id: person.id, username: person.username, course_id: course(), visible: true });
    const again = await call(server, 'POST', S, { json: { ...json, visible: false } });
    expect(again.body).toMatchObject({ id: first.id, visible: false });
    const gone = await call(server, 'DELETE', `${S}?${pk()}&suggestion_id=${first.id}`);
    expect(gone.status).toBe(200);
    expect((await call(server, 'DELETE', `${S}?${pk()}&suggestion_id=${first.id}`)).status).toBe(404);
  });

  it('says what is wrong: a missing field, an unknown course or person, a missing suggestion_id', async () => {
    expect(await call(server, 'POST', S, { json: { platform_key: server.org, user_id: '1' } })).toMatchObject({
      status: 400,
      body: { course_id: ['This field is required.'] },
    });
    expect(
      await call(server, 'POST', S, { json: { platform_key: server.org, course_id: 'course-v1:x+y+z', user_id: '1' } }),
    ).toMatchObject({ status: 404, body: { detail: "Not found - course doesn't exist" } });
    expect(
      await call(server, 'POST', S, { json: { platform_key: server.org, course_id: course(), user_id: '999999' } }),
    ).toMatchObject({ status: 404, body: { detail: 'Not found - user does not exist' } });
    expect((await call(server, 'DELETE', `${S}?${pk()}`)).status).toBe(400);
    expect((await call(server, 'GET', S)).status).toBe(400);
  });

  it('suggests in bulk: successes counted, a bad row named in error_codes, nothing else stopped', async () => {
    const [a, b] = [learner(31), learner(32)];
    const answer = await call(server, 'POST', B, {
      json: {
        platform_key: server.org,
        suggestion_data: [
          { course_id: course(), user_id: a.id },
          { course_id: course(), username: b.username },
          { course_id: course(), user_id: 999_999 },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expectSpecValid('post', B, 200, answer.body);
    expect(answer.body).toEqual({ successes: 2, error_codes: ['2: Not found - user does not exist'] });
    const listed = (await call(server, 'GET', `${S}?${pk()}&query=${b.username}`)).body as Page<Suggestion>;
    expect(listed.results.map((s) => s.course_id)).toContain(course());
  });

  it('suggests a course to a user group with its member count, and withdraws it', async () => {
    const group = server.db
      .prepare('SELECT id, name FROM user_groups WHERE org = ? ORDER BY id DESC LIMIT 1')
      .get(server.org) as { id: number; name: string };
    const made = await call(server, 'POST', G, {
      json: { platform_key: server.org, course_id: course(), group_id: group.id },
    });
    expect(made.status).toBe(200);
    expectSpecValid('post', G, 200, made.body);
    const members = server.db
      .prepare('SELECT count(*) FROM user_group_members WHERE group_id = ?')
      .pluck()
      .get(group.id);
    expect(made.body).toMatchObject({ group_id: group.id, group_name: group.name, user_count: members });
    const listed = await call(server, 'GET', `${G}?${pk()}`);
    expectSpecValid('get', G, 200, listed.body);
    const id = (made.body as { id: number }).id;
    expect((listed.body as Page<{ id: number }>).results.map((s) => s.id)).toContain(id);
    expect(
      await call(server, 'POST', G, { json: { platform_key: server.org, course_id: course(), group_id: 999_999 } }),
    ).toMatchObject({ status: 404, body: { detail: 'Not found - group does not exist' } });
    expect((await call(server, 'DELETE', `${G}?${pk()}&suggestion_id=${id}`)).status).toBe(200);
    // A person's suggestion is not a group's: the group call does not remove it.
    const personal = (await call(server, 'GET', `${S}?${pk()}&page_size=1`)).body as Page<Suggestion>;
    expect((await call(server, 'DELETE', `${G}?${pk()}&suggestion_id=${personal.results[0]!.id}`)).status).toBe(404);
  });

  it('keeps every manage call to administrators', async () => {
    const key = server.studentKey;
    for (const [method, path] of [
      ['GET', `${S}?${pk()}`],
      ['POST', S],
      ['DELETE', `${S}?${pk()}&suggestion_id=1`],
      ['POST', B],
      ['GET', `${G}?${pk()}`],
      ['POST', G],
    ] as const) {
      const answer = await call(server, method, path, { key, ...(method === 'POST' && { json: {} }) });
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('sandbox: reviews', () => {
  it('lists course and program reviews with reviewer and rating, filtered by course, with its info', async () => {
    const listed = await call(server, 'GET', `${R}?${pk()}&page_size=100`);
    expect(listed.status).toBe(200);
    expectSpecValid('get', R, 200, listed.body);
    const reviews = (listed.body as Page<Review>).results;
    expect(reviews.length).toBeGreaterThan(3);
    expect(reviews.some((r) => !r.visible)).toBe(true);
    const one = reviews.find((r) => r.visible)!;
    const byCourse = (await call(server, 'GET', `${R}?${pk()}&course_id=${encodeURIComponent(one.course_id)}`))
      .body as Page<Review>;
    expect(byCourse.results.every((r) => r.course_id === one.course_id)).toBe(true);
    const info = await call(server, 'GET', `${R}info/?course_id=${encodeURIComponent(one.course_id)}`);
    expectSpecValid('get', `${R}info/`, 200, info.body);
    const visible = byCourse.results.filter((r) => r.visible);
    const mean = visible.reduce((sum, r) => sum + (r.rating ?? 0), 0) / visible.length;
    expect(info.body).toMatchObject({ course_id: one.course_id, count: visible.length });
    expect((info.body as { avg_rating: number }).avg_rating).toBeCloseTo(mean);
    const programs = await call(server, 'GET', `${P}?${pk()}`);
    expectSpecValid('get', P, 200, programs.body);
    expect((programs.body as Page<unknown>).count).toBeGreaterThan(0);
  });

  it('an administrator hides a review and shows it again; what the change does not name stays', async () => {
    const review = ((await call(server, 'GET', `${R}?${pk()}&page_size=100`)).body as Page<Review>).results.find(
      (r) => r.visible,
    )!;
    const hidden = await call(server, 'POST', `${R}update/`, {
      json: { course_id: review.course_id, username: review.username, visible: false },
    });
    expect(hidden.status).toBe(200);
    expectSpecValid('post', `${R}update/`, 200, hidden.body);
    expect(hidden.body).toMatchObject({ visible: false, rating: review.rating, title: review.title });
    const titled = await call(server, 'POST', `${R}update/`, {
      json: { course_id: review.course_id, username: review.username, title: 'Edited by a moderator' },
    });
    expect(titled.body).toMatchObject({ visible: false, title: 'Edited by a moderator' });
  });

  it('a learner writes their own review (201) but not another’s (403); bad input is a 400 or 404', async () => {
    const me = server.db
      .prepare('SELECT username FROM users WHERE username = ?')
      .pluck()
      .get(server.studentUser) as string;
    const mine = await call(server, 'POST', `${R}update/`, {
      key: server.studentKey,
      json: { course_id: course(), username: me, rating: 4, title: 'Mine', content: 'Fine' },
    });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ username: me, rating: 4, visible: true });
    const other = learner(5).username === me ? learner(6) : learner(5);
    expect(
      (
        await call(server, 'POST', `${R}update/`, {
          key: server.studentKey,
          json: { course_id: course(), username: other.username },
        })
      ).status,
    ).toBe(403);
    expect(await call(server, 'POST', `${R}update/`, { json: { course_id: course() } })).toMatchObject({
      status: 400,
      body: { username: ['This field is required.'] },
    });
    expect(
      (await call(server, 'POST', `${R}update/`, { json: { course_id: course(), username: me, rating: 'five' } }))
        .status,
    ).toBe(400);
    expect(
      await call(server, 'POST', `${R}update/`, { json: { course_id: 'course-v1:x+y+z', username: me } }),
    ).toMatchObject({ status: 404, body: { detail: "Not found - course doesn't exist" } });
    const removed = await call(
      server,
      'DELETE',
      `${R}update/?course_id=${encodeURIComponent(course())}&username=${me}`,
    );
    expect(removed.status).toBe(200);
    expect(
      (await call(server, 'DELETE', `${R}update/?course_id=${encodeURIComponent(course())}&username=${me}`)).status,
    ).toBe(404);
  });
});

describe('sandbox: suggestions and reviews are each tenant’s own', () => {
  it("never lists, changes or removes another tenant's suggestions and reviews", async () => {
    const other = server.otherOrg;
    const mine = (await call(server, 'GET', `${S}?${pk()}&page_size=100`)).body as Page<Suggestion>;
    const theirs = (await call(server, 'GET', `${S}?platform_key=${other.org}&page_size=100`, { key: other.apiKey }))
      .body as Page<Suggestion>;
    expect(theirs.count).toBeGreaterThan(0);
    const mineIds = new Set(mine.results.map((s) => s.id));
    expect(theirs.results.some((s) => mineIds.has(s.id))).toBe(false);
    // Naming the other tenant with one's own key: refused; removing their suggestion by id: not found.
    expect((await call(server, 'GET', `${S}?platform_key=${other.org}`)).status).toBe(404);
    expect((await call(server, 'DELETE', `${S}?${pk()}&suggestion_id=${theirs.results[0]!.id}`)).status).toBe(404);
    const theirReviews = (await call(server, 'GET', `${R}?platform_key=${other.org}`, { key: other.apiKey }))
      .body as Page<Review>;
    const myReviews = (await call(server, 'GET', `${R}?${pk()}&page_size=100`)).body as Page<Review>;
    const theirCourse = theirReviews.results[0]!.course_id;
    expect(myReviews.results.some((r) => r.course_id === theirCourse)).toBe(false);
    expect(
      await call(server, 'POST', `${R}update/`, {
        json: { course_id: theirCourse, username: theirReviews.results[0]!.username, visible: false },
      }),
    ).toMatchObject({ status: 404 });
  });
});

describe('sandbox: a person’s skills, roles and skill points', () => {
  it('answers desired and reported skills and roles (spec-valid) and skill points for a learner', async () => {
    const who = learner(0).username;
    for (const path of [
      '/api/catalog/skills/desired/',
      '/api/catalog/skills/reported/',
      '/api/catalog/roles/desired/',
      '/api/catalog/roles/reported/',
    ]) {
      const answer = await call(server, 'GET', `${path}?username=${who}`);
      expect(answer.status, path).toBe(200);
      expectSpecValid('get', path, 200, answer.body);
    }
    const desired = (await call(server, 'GET', `/api/catalog/skills/desired/?username=${who}`)).body as {
      skills: { name: string }[];
    };
    expect(desired.skills.length).toBeGreaterThan(0);
    const points = await call(server, 'GET', `/api/catalog/milestones/skill_points/user/?username=${who}`);
    expect(points.status).toBe(200);
    const body = points.body as { total_points: number; skills: { points: number }[] };
    expect(body.total_points).toBe(body.skills.reduce((sum, s) => sum + s.points, 0));
    expect(body.total_points).toBeGreaterThan(0);
  });

  it('a learner reads only their own; an unknown person or another tenant’s is not found', async () => {
    const key = server.studentKey;
    expect((await call(server, 'GET', '/api/catalog/skills/desired/', { key })).status).toBe(200);
    const other = learner(5).username === server.studentUser ? learner(6) : learner(5);
    expect((await call(server, 'GET', `/api/catalog/skills/desired/?username=${other.username}`, { key })).status).toBe(
      403,
    );
    expect(await call(server, 'GET', '/api/catalog/milestones/skill_points/user/?username=nobody-here')).toMatchObject({
      status: 404,
      body: { detail: 'User not found' },
    });
    expect(
      (
        await call(server, 'GET', `/api/catalog/roles/reported/?username=${learner(0).username}`, {
          key: server.otherOrg.apiKey,
        })
      ).status,
    ).toBe(404);
  });
});
