/**
 * Contract tests of the sandbox's mentor memory: memory settings per mentor, a learner's current memory, history and
 * progress, and deleting memory entries by category. Every success answer is checked against the vendor spec; a
 * tenant admin may name any learner of the tenant as `{user_id}`, a learner only themself; another tenant's admin
 * reaches none of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { remember } from '../../src/server/areas/mentors/memory';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let mentor: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const OTHER_LEARNER = 'memory-learner';
const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
const path = (user: string, rest: string) => `/api/ai-mentor/orgs/${server.org}/users/${user}/${rest}`;

beforeAll(async () => {
  server = await sandbox();
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name: 'Memory Mentor' },
  });
  expect(made.status).toBe(201);
  mentor = String((made.body as { unique_id: string }).unique_id);
  server.db
    .prepare(
      `INSERT INTO users (username, email, first_name, last_name, org, role, department_id, date_joined, last_login)
       VALUES (?, ?, 'Mia', 'Moreau', ?, 'student', NULL, ?, ?)`,
    )
    .run(OTHER_LEARNER, 'mia@northbridge.example', server.org, at(1), at(1));
  const learnerMemory = (category: string, value: string, day: number, username = OTHER_LEARNER) =>
    remember(server.db, server.org, { username, mentor, category, value, at: at(day) });
  learnerMemory('knowledge_gaps', 'the chain rule', 2);
  learnerMemory('lessons_learned', 'limits', 2);
  learnerMemory('lessons_learned', 'derivatives', 3);
  learnerMemory('help_requests', 'explain integrals', 3);
  learnerMemory('help_requests', 'own question', 3, server.studentUser);
});

describe('sandbox: memory settings', () => {
  it('answers a new mentor’s settings empty, saves what an admin posts and reads it back', async () => {
    const url = path(server.user, `mentors/${mentor}/memory-settings/`);
    const empty = await call(server, 'GET', url);
    expect(empty.status).toBe(200);
    expectSpecValid('get', `${SPEC}/mentors/{mentor}/memory-settings/`, 200, empty.body);
    expect(empty.body).toEqual({
      item_type: null,
      item_identifier: null,
      learner_advance_correct_rate: null,
      learner_advance_question_count: null,
    });
    const saved = await call(server, 'POST', url, {
      json: { item_type: 'course', item_identifier: 'course-v1:main+101+01', learner_advance_correct_rate: 0.75 },
    });
    expect(saved.status).toBe(200);
    expectSpecValid('post', `${SPEC}/mentors/{mentor}/memory-settings/`, 200, saved.body);
    expect((await call(server, 'GET', url)).body).toEqual({
      item_type: 'course',
      item_identifier: 'course-v1:main+101+01',
      learner_advance_correct_rate: 0.75,
      learner_advance_question_count: null,
    });
  });

  it('refuses a wrong type at its field, a learner’s write, an unknown mentor and another tenant', async () => {
    const url = path(server.user, `mentors/${mentor}/memory-settings/`);
    const bad = await call(server, 'POST', url, { json: { learner_advance_question_count: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ learner_advance_question_count: ['A valid integer is required.'] });
    const student = await call(server, 'POST', path(server.studentUser, `mentors/${mentor}/memory-settings/`), {
      key: server.studentKey,
      json: { item_type: 'program' },
    });
    expect(student.status).toBe(403);
    const unknown = await call(server, 'GET', path(server.user, 'mentors/no-such-mentor/memory-settings/'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Mentor or settings not found' });
    const other = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${server.otherOrg.user}/mentors/${mentor}/memory-settings/`;
    const stranger = await call(server, 'GET', other, { key: server.otherOrg.apiKey });
    expect(stranger.status).toBe(404);
    const crossed = await call(server, 'GET', url, { key: server.otherOrg.apiKey });
    expect(crossed.status).toBe(404);
    expect(crossed.body).toEqual({ detail: 'Organization not found' });
  });
});

describe('sandbox: a learner’s memory', () => {
  it('answers an admin the current memory, the history and the progress of any learner of the tenant', async () => {
    const current = await call(server, 'GET', path(OTHER_LEARNER, `mentors/${mentor}/current-memory/`));
    expect(current.status).toBe(200);
    expectSpecValid('get', `${SPEC}/mentors/{mentor}/current-memory/`, 200, current.body);
    expect(current.body).toEqual({
      knowledge_gaps: ['the chain rule'],
      lessons_learned: ['limits', 'derivatives'],
      help_requests: ['explain integrals'],
    });

    const history = await call(server, 'GET', path(OTHER_LEARNER, `mentors/${mentor}/historical-memory/`));
    expect(history.status).toBe(200);
    // The spec's example answers a list of its schema's snapshots: each one is checked against the schema.
    const snapshots = history.body as unknown[];
    expect(snapshots).toHaveLength(2);
    for (const snapshot of snapshots)
      expectSpecValid('get', `${SPEC}/mentors/{mentor}/historical-memory/`, 200, snapshot);
    expect(snapshots[0]).toMatchObject({
      student: OTHER_LEARNER,
      mentor_unique_id: mentor,
      inserted_at: '2026-11-03 10:00:00',
      data: [
        { kind: 'LessonsLearned', content: 'derivatives' },
        { kind: 'HelpRequest', content: 'explain integrals' },
      ],
    });

    const progress = await call(server, 'GET', path(OTHER_LEARNER, `mentors/${mentor}/memory-progress/`));
    expect(progress.status).toBe(200);
    expectSpecValid('get', `${SPEC}/mentors/{mentor}/memory-progress/`, 200, progress.body);
    expect(progress.body).toMatchObject({ item_name: 'course-v1:main+101+01', current_unit: 2, all_units: 4 });
  });

  it('lets a learner read only their own memory, and another tenant’s admin none of it', async () => {
    const own = await call(server, 'GET', path(server.studentUser, `mentors/${mentor}/current-memory/`), {
      key: server.studentKey,
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ help_requests: ['own question'] });
    const others = await call(server, 'GET', path(OTHER_LEARNER, `mentors/${mentor}/current-memory/`), {
      key: server.studentKey,
    });
    expect(others.status).toBe(403);
    const stranger = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${OTHER_LEARNER}/mentors/${mentor}/current-memory/`;
    expect((await call(server, 'GET', stranger, { key: server.otherOrg.apiKey })).status).toBe(404);
    const unknown = await call(server, 'GET', path('nobody-here', `mentors/${mentor}/current-memory/`));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Mentor or memory not found' });
  });

  it('deletes a category of a learner’s memories, then answers that there is none', async () => {
    const url = path(OTHER_LEARNER, 'memory-entries/lessons_learned/');
    const deleted = await call(server, 'DELETE', url);
    expect(deleted.status).toBe(200);
    const current = await call(server, 'GET', path(OTHER_LEARNER, `mentors/${mentor}/current-memory/`));
    expect(current.body).toMatchObject({ lessons_learned: [], knowledge_gaps: ['the chain rule'] });
    const again = await call(server, 'DELETE', url);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Memory not found.' });
    const student = await call(server, 'DELETE', path(OTHER_LEARNER, 'memory-entries/help_requests/'), {
      key: server.studentKey,
    });
    expect(student.status).toBe(403);
  });
});

describe('sandbox: a learner’s profile memory', () => {
  it('adds, lists, changes and deletes entries by tag; a learner only their own; tenants apart', async () => {
    const url = path(OTHER_LEARNER, 'ai-user-profile-memory/');
    const made = await call(server, 'POST', url, { json: { tag: 'favorite-animal', detail: 'a cat' } });
    expect(made.status).toBe(200);
    expectSpecValid('post', `${SPEC}/ai-user-profile-memory/`, 200, made.body);
    await call(server, 'POST', url, { json: { tag: 'favorite-animal', detail: 'a fox' } });
    const listed = await call(server, 'GET', url);
    expect(listed.status).toBe(200);
    expectSpecValid('get', `${SPEC}/ai-user-profile-memory/`, 200, listed.body);
    expect(listed.body).toEqual([{ tag: 'favorite-animal', detail: 'a fox' }]);

    const blank = await call(server, 'POST', url, { json: { tag: ' ', detail: 'x' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ tag: ['This field may not be blank.'] });
    expect((await call(server, 'GET', url, { key: server.studentKey })).status).toBe(403);
    const other = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${OTHER_LEARNER}/ai-user-profile-memory/`;
    expect((await call(server, 'GET', other, { key: server.otherOrg.apiKey })).status).toBe(404);

    expect((await call(server, 'DELETE', `${url}favorite-animal/`)).status).toBe(204);
    expect((await call(server, 'DELETE', `${url}favorite-animal/`)).status).toBe(404);
    expect((await call(server, 'GET', url)).body).toEqual([]);
  });
});

describe('sandbox: a learner’s edX memory', () => {
  it('pages, filters, reads and deletes a learner’s records; a learner only their own; tenants apart', async () => {
    const { rememberCourse } = await import('../../src/server/areas/mentors/memory');
    for (const course of ['course-v1:main+CALC+2026', 'course-v1:main+CHEM+2026']) {
      rememberCourse(server.db, server.org, {
        username: OTHER_LEARNER,
        student: 42,
        course_id: course,
        data: { last_block: 'unit-3' },
        at: at(5),
      });
    }
    const url = path(OTHER_LEARNER, 'edx-memory/');
    const page = await call(server, 'GET', `${url}?page_size=1`);
    expect(page.status).toBe(200);
    expectSpecValid('get', `${SPEC}/edx-memory/`, 200, page.body);
    const body = page.body as { count: number; next: string | null; results: { id: number }[] };
    expect(body.count).toBe(2);
    expect(body.next).toContain('page=2');
    const chem = await call(server, 'GET', `${url}?course_id=course-v1:main%2BCHEM%2B2026`);
    const found = (chem.body as { results: { id: number; course_id: string }[] }).results;
    expect(found.map((r) => r.course_id)).toEqual(['course-v1:main+CHEM+2026']);
    const one = await call(server, 'GET', `${url}${found[0]!.id}/`);
    expectSpecValid('get', `${SPEC}/edx-memory/{id}/`, 200, one.body);
    expect(one.body).toMatchObject({ username: OTHER_LEARNER, data: { last_block: 'unit-3' } });

    expect((await call(server, 'GET', url, { key: server.studentKey })).status).toBe(403);
    const other = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/${OTHER_LEARNER}/edx-memory/`;
    expect((await call(server, 'GET', other, { key: server.otherOrg.apiKey })).status).toBe(404);

    expect((await call(server, 'DELETE', `${url}${found[0]!.id}/`)).status).toBe(204);
    expect((await call(server, 'DELETE', `${url}${found[0]!.id}/`)).status).toBe(404);
    expect(((await call(server, 'GET', url)).body as { count: number }).count).toBe(1);
  });
});
