import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { catalogueArea } from '../../src/server/areas/catalogue';
import { invitationsArea } from '../../src/server/areas/invitations';
import { call, sandbox, type Call } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

const ROOT = '/api/catalog';
let server: Sandbox;

function expectContract(method: string, template: string, res: Call, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectSpecValid(method, `${ROOT}${template}`, status, res.body);
}

const get = (path: string, key?: string | null) => call(server, 'GET', `${ROOT}${path}`, { key });
const post = (path: string, json: unknown, key?: string | null) =>
  call(server, 'POST', `${ROOT}${path}`, { json, key });
const del = (path: string, key?: string | null) => call(server, 'DELETE', `${ROOT}${path}`, { key });

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [invitationsArea, catalogueArea] });
});

describe('catalogue sandbox: courses, pathways, programs', () => {
  it('lists the tenant’s courses, pathways and programs as the spec answers them, never another tenant’s', async () => {
    const courses = await get(`/courses/?org=${server.org}`);
    expectContract('get', '/courses/', courses, 200);
    const list = courses.body as { course_id: string; org: string }[];
    expect(list).toHaveLength(40);
    expect(list.every((course) => course.org === server.org)).toBe(true);
    const pathways = await get(`/pathways/?platform_key=${server.org}`);
    expectContract('get', '/pathways/', pathways, 200);
    expect((pathways.body as { name: string }[]).map((p) => p.name).sort()).toEqual([
      'Business basics',
      'Data foundations',
      'Health sciences start',
    ]);
    const programs = await get(`/programs/?org=${server.org}`);
    expectContract('get', '/programs/', programs, 200);
    expect(programs.body).toHaveLength(3);
    // Another tenant's org is refused, and its key sees only its own catalogue.
    expect((await get(`/courses/?org=riverside`)).status).toBe(404);
    const theirs = await call(server, 'GET', `${ROOT}/courses/`, { key: server.otherOrg.apiKey });
    expect((theirs.body as { course_id: string }[]).map((c) => c.course_id)).toEqual([
      'course-v1:riverside+FY100+2026',
    ]);
  });

  it('adds, updates and removes a course (administrators only); learners may browse but not change it', async () => {
    const id = 'course-v1:northbridge+NEW100+2026';
    const body = { course_id: id, org: server.org, name: 'New course', slug: 'new100' };
    const refused = await post('/courses/', body, server.studentKey);
    expect(refused.status).toBe(403);
    const created = await post('/courses/', body);
    expectContract('post', '/courses/', created, 201);
    expect(created.body).toEqual({ course_id: id, name: 'New course', slug: 'new100', org: server.org });
    const updated = await post('/courses/', { ...body, name: 'Renamed' });
    expectContract('post', '/courses/', updated, 200);
    expect((await get(`/courses/?course_id=${encodeURIComponent(id)}`, server.studentKey)).body).toEqual([
      { ...body, name: 'Renamed' },
    ]);
    const missing = await post('/courses/', { name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ course_id: ['This field is required.'], org: ['This field is required.'] });
    expect((await post('/courses/', { ...body, slug: 'not a slug' })).status).toBe(400);
    expect((await del(`/courses/?course_id=${encodeURIComponent(id)}`, server.studentKey)).status).toBe(403);
    const removed = await del(`/courses/?course_id=${encodeURIComponent(id)}`);
    expectContract('delete', '/courses/', removed, 200);
    const again = await del(`/courses/?course_id=${encodeURIComponent(id)}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: "Not found - course doesn't exist" });
    // Another tenant cannot remove this tenant's course.
    const ours = 'course-v1:northbridge+CS101+2026';
    const other = await call(server, 'DELETE', `${ROOT}/courses/?course_id=${encodeURIComponent(ours)}`, {
      key: server.otherOrg.apiKey,
    });
    expect(other.status).toBe(404);
  });

  it('creates a program and a pathway, searches programs, and refuses a learner', async () => {
    const program = {
      program_id: 'ai-literacy',
      name: 'AI Literacy',
      org: server.org,
      course_list: [{ course_id: 'course-v1:northbridge+CS101+2026', position: 1 }],
    };
    expect((await post('/programs/', program, server.studentKey)).status).toBe(403);
    const created = await post('/programs/', program);
    expectContract('post', '/programs/', created, 201);
    const missing = await post('/programs/', { name: 'x' });
    expect(missing.body).toEqual({
      course_list: ['This field is required.'],
      program_id: ['This field is required.'],
    });
    const found = await post(`/search/programs/?org=${server.org}&query=literacy`, {});
    expect((found.body as { name: string }[]).map((p) => p.name)).toEqual(['AI Literacy']);
    const byCourse = await get(`/programs/?course_id=${encodeURIComponent('course-v1:northbridge+CS101+2026')}`);
    expect((byCourse.body as { name: string }[]).map((p) => p.name)).toContain('AI Literacy');

    const owner = server.db.prepare(`SELECT id FROM users WHERE username = ?`).pluck().get(server.user) as number;
    const pathway = await post('/pathways/', { pathway_id: 'ai-path', name: 'AI path', path: [], user_id: owner });
    expectContract('post', '/pathways/', pathway, 201);
    const noOwner = await post('/pathways/', { name: 'x', path: [] });
    expect(noOwner.body).toEqual({ user_id: ['This field is required.'] });
    expect((await del('/pathways/?pathway_id=ai-path')).status).toBe(400);
    expectContract('delete', '/pathways/', await del(`/pathways/?pathway_id=ai-path&user_id=${owner}`), 200);
    // "Add or update": the same program_id again updates it (200) and keeps its id; another tenant can neither
    // update nor remove it, and removes only a pathway of its own.
    const again = await post('/programs/', { ...program, name: 'AI Literacy II' });
    expectContract('post', '/programs/', again, 200);
    expect(again.body).toMatchObject({ id: (created.body as { id: number }).id, name: 'AI Literacy II' });
    const foreign = { key: server.otherOrg.apiKey };
    const theirUpdate = await call(server, 'POST', `${ROOT}/programs/`, {
      ...foreign,
      json: { ...program, name: 'X' },
    });
    expect(theirUpdate.status).toBe(404);
    expect(theirUpdate.body).toEqual({ detail: 'Organization not found' });
    const theirDelete = await call(
      server,
      'DELETE',
      `${ROOT}/programs/?org=${server.otherOrg.org}&program_id=ai-literacy`,
      foreign,
    );
    expect(theirDelete.status).toBe(404);
    const pathwayAgain = await post('/pathways/', { pathway_id: 'ai-path', name: 'AI path', path: [], user_id: owner });
    expect(pathwayAgain.status).toBe(201);
    const theirPathway = await call(server, 'DELETE', `${ROOT}/pathways/?pathway_id=ai-path&user_id=${owner}`, foreign);
    expect(theirPathway.status).toBe(404);
    expect((await get('/pathways/?pathway_id=ai-path')).body).toHaveLength(1);
    expect((await get(`/programs/?program_id=ai-literacy`)).body).toMatchObject([{ name: 'AI Literacy II' }]);
    expectContract('delete', '/programs/', await del(`/programs/?org=${server.org}&program_id=ai-literacy`), 200);
    expect((await del(`/programs/?org=${server.org}&program_id=ai-literacy`)).body).toEqual({
      detail: "Not found - program doesn't exist",
    });
  });

  it('reads and edits course and program metadata by field; the public read is a learner’s', async () => {
    const course = encodeURIComponent('course-v1:northbridge+CS101+2026');
    expect((await get(`/metadata/course/?course_id=${course}`)).body).toEqual({ level: 'intro' });
    const set = await post(`/metadata/course/duration_hours/?course_id=${course}`, { course_id: 'x', metadata: 12 });
    expect(set.body).toEqual({ duration_hours: 12 });
    expect((await get(`/metadata/course-public/duration_hours/?course_id=${course}`, server.studentKey)).body).toEqual({
      duration_hours: 12,
    });
    expect((await get(`/metadata/course/?course_id=${course}`, server.studentKey)).status).toBe(403);
    expect(
      (await post(`/metadata/course/level/?course_id=${course}`, { metadata: 'x' }, server.studentKey)).status,
    ).toBe(403);
    const absent = await get(`/metadata/course/nothing_here/?course_id=${course}`);
    expect(absent.status).toBe(404);
    expect(absent.body).toEqual({ detail: 'Metadata not found' });
    const replaced = await post(`/metadata/course/?course_id=${course}`, {
      course_id: 'x',
      metadata: { a: 1 },
      update: false,
    });
    expect(replaced.body).toEqual({ a: 1 });
    expect((await get(`/metadata/program/?program_id=data-science`)).body).toEqual({ language: 'en' });
    expect((await get(`/metadata/program/?program_id=nope`)).status).toBe(404);
  });
});

describe('catalogue sandbox: enrolments', () => {
  it('searches course enrolments page by page, newest first, within the tenant', async () => {
    const first = await get(`/enrollment/courses/search/?platform_key=${server.org}&page_size=5`);
    expect(first.status).toBe(200);
    const page = first.body as { count: number; next_page: number | null; results: Record<string, unknown>[] };
    expect(page.results).toHaveLength(5);
    expect(page.next_page).toBe(2);
    // Each result is the spec's CourseEnrollmentSearchResponse.
    for (const result of page.results) expectSpecValid('get', `${ROOT}/enrollment/courses/search/`, 200, result);
    const created = page.results.map((r) => String(r.created));
    expect([...created].sort().reverse()).toEqual(created);
    expect((await get(`/enrollment/courses/search/`, server.studentKey)).status).toBe(403);
    const theirs = await call(server, 'GET', `${ROOT}/enrollment/courses/search/`, { key: server.otherOrg.apiKey });
    const usernames = (theirs.body as { results: { username: string }[] }).results.map((r) => r.username);
    expect(usernames.every((u) => u.startsWith('riverside') || !u.includes('northbridge'))).toBe(true);
  });

  it('enrols and unenrols one person in a program; enrolling again answers the same enrolment', async () => {
    const learner = server.db
      .prepare(
        `SELECT username FROM users WHERE org = ? AND role = 'student' AND id NOT IN
         (SELECT user_id FROM catalog_enrollments WHERE kind = 'program') ORDER BY id LIMIT 1`,
      )
      .pluck()
      .get(server.org) as string;
    const query = `?username=${learner}&program_id=data-science&platform_key=${server.org}`;
    expect((await get(`/enrollment/programs/${query}`)).status).toBe(404);
    const enrolled = await post(`/enrollment/programs/${query}`, {});
    expectContract('post', '/enrollment/programs/', enrolled, 200);
    const again = await post(`/enrollment/programs/${query}`, {});
    expect((again.body as { created: string }).created).toBe((enrolled.body as { created: string }).created);
    const search = await get(`/enrollment/programs/search/?program_id=data-science&username=${learner}`);
    expectContract('get', '/enrollment/programs/search/', search, 200);
    expect((search.body as { count: number }).count).toBe(1);
    expect((await post(`/enrollment/programs/?username=nobody-here&program_id=data-science`, {})).body).toEqual({
      detail: "Not found - user doesn't exist",
    });
    expect((await post(`/enrollment/programs/?username=${learner}&program_id=gone`, {})).body).toEqual({
      detail: "Not found - program doesn't exist",
    });
    expect((await post(`/enrollment/programs/?username=${learner}`, {})).status).toBe(400);
    // A learner cannot enrol others through the managing call, nor through self/.
    expect((await post(`/enrollment/programs/${query}`, {}, server.studentKey)).status).toBe(403);
    const selfOther = await post(`/enrollment/programs/self/${query}`, {}, server.studentKey);
    expect(selfOther.status).toBe(403);
    expect(selfOther.body).toEqual({ detail: 'Permission denied' });
    const selfOwn = await post(`/enrollment/programs/self/?program_id=data-science`, {}, server.studentKey);
    expectContract('post', '/enrollment/programs/self/', selfOwn, 200);
    expect((selfOwn.body as { username: string }).username).toBe(server.studentUser);
    expect((await del(`/enrollment/programs/self/?program_id=data-science`, server.studentKey)).status).toBe(204);
    expectContract('delete', '/enrollment/programs/', await del(`/enrollment/programs/${query}`), 200);
    expect((await get(`/enrollment/programs/${query}`)).status).toBe(404);
    // Another tenant's key does not reach this tenant's program.
    const other = await call(
      server,
      'POST',
      `${ROOT}/enrollment/programs/?username=${learner}&program_id=data-science`,
      {
        key: server.otherOrg.apiKey,
        json: {},
      },
    );
    expect(other.status).toBe(404);
  });

  it('enrols and unenrols one person in a pathway with the spec’s defaults', async () => {
    const query = `?username=${server.studentUser}&pathway_id=data-foundations`;
    await del(`/enrollment/pathways/${query}`);
    const enrolled = await post(`/enrollment/pathways/${query}`, {});
    expectContract('post', '/enrollment/pathways/', enrolled, 200);
    expect((enrolled.body as { active: boolean }).active).toBe(true);
    const read = await get(`/enrollment/pathways/${query}`);
    expectContract('get', '/enrollment/pathways/', read, 200);
    expect((read.body as { metadata: unknown }).metadata).toEqual({});
    expect((await post(`/enrollment/pathways/${query}`, {}, server.studentKey)).status).toBe(403);
    const ended = await del(`/enrollment/pathways/${query}`);
    expectContract('delete', '/enrollment/pathways/', ended, 200);
    expect((ended.body as { active: boolean; ended: string | null }).active).toBe(false);
    // active=true (the default) no longer finds it; active=false does.
    expect((await get(`/enrollment/pathways/${query}`)).status).toBe(404);
    expect((await get(`/enrollment/pathways/${query}&active=false`)).status).toBe(200);
    expect((await post(`/enrollment/pathways/?username=${server.studentUser}&pathway_id=gone`, {})).body).toEqual({
      detail: "Not found - pathway doesn't exist",
    });
    const self = await post(`/enrollment/pathways/self/?pathway_id=data-foundations`, {}, server.studentKey);
    expectContract('post', '/enrollment/pathways/self/', self, 200);
  });
});
