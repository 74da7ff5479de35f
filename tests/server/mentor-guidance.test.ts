/**
 * Contract tests of the sandbox's mentor guidance: the linked course (`link-course/`), scenarios (`scenarios/`,
 * `edit-scenarios/`) and the auto memory prompt. Success answers are checked against the vendor spec; DRF's words for
 * bad input at its field; learners and other tenants reach none of the admins' calls.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { DEFAULT_AUTO_MEMORY_PROMPT } from '../../src/server/areas/mentors/guidance';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
let mentor: string;
const USER_SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}';
const LINK_SPEC = '/api/ai-mentor/orgs/{org}/mentors/{mentor}/link-course/';
const userPath = (rest: string, org = server.org, user = server.user) =>
  `/api/ai-mentor/orgs/${org}/users/${user}/mentors/${mentor}/${rest}`;
const linkPath = (org = server.org) => `/api/ai-mentor/orgs/${org}/mentors/${mentor}/link-course/`;

beforeAll(async () => {
  server = await sandbox();
  const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
    json: { name: 'Guided Mentor' },
  });
  expect(made.status).toBe(201);
  mentor = String((made.body as { unique_id: string }).unique_id);
});

describe('sandbox: link a mentor to a course', () => {
  it('answers an unlinked mentor, links it to the course posted and reads it back', async () => {
    const before = await call(server, 'GET', linkPath());
    expect(before.status).toBe(200);
    expectSpecValid('get', LINK_SPEC, 200, before.body);
    expect(before.body).toEqual({ mentor_unique_id: mentor, course_id: null, is_linked: false });
    const linked = await call(server, 'POST', linkPath(), { json: { course_id: 'course-v1:main+CS101+2026' } });
    expect(linked.status).toBe(200);
    expectSpecValid('post', LINK_SPEC, 200, linked.body);
    expect((await call(server, 'GET', linkPath())).body).toEqual({
      mentor_unique_id: mentor,
      course_id: 'course-v1:main+CS101+2026',
      is_linked: true,
    });
  });

  it('refuses a missing or blank course at its field, a learner, an unknown mentor and another tenant', async () => {
    expect((await call(server, 'POST', linkPath(), { json: {} })).body).toEqual({
      course_id: ['This field is required.'],
    });
    const blank = await call(server, 'POST', linkPath(), { json: { course_id: ' ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ course_id: ['This field may not be blank.'] });
    expect((await call(server, 'GET', linkPath(), { key: server.studentKey })).status).toBe(403);
    const unknown = await call(server, 'GET', `/api/ai-mentor/orgs/${server.org}/mentors/nobody/link-course/`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Mentor not found' });
    expect((await call(server, 'GET', linkPath(), { key: server.otherOrg.apiKey })).status).toBe(404);
    const theirs = await call(server, 'GET', linkPath(server.otherOrg.org), { key: server.otherOrg.apiKey });
    expect(theirs.status).toBe(404);
  });
});

describe('sandbox: scenarios', () => {
  const scenario = {
    display: 'Chat',
    name: 'chat',
    prompts: [
      { summary: 'Give Me a Summary', content: 'please give me a summary of this topic', icon: 'add' },
      { summary: 'Ask Some Questions', content: 'ask the user some questions' },
    ],
  };

  it('answers 404 before any is saved, then the one scenario the schema describes', async () => {
    const none = await call(server, 'GET', userPath('scenarios/'));
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'Mentor or scenarios not found' });
    const saved = await call(server, 'PUT', userPath('edit-scenarios/'), { json: scenario });
    expect(saved.status).toBe(200);
    expectSpecValid('put', `${USER_SPEC}/edit-scenarios/`, 200, saved.body);
    const read = await call(server, 'GET', userPath('scenarios/'));
    expect(read.status).toBe(200);
    expectSpecValid('get', `${USER_SPEC}/scenarios/`, 200, read.body);
    expect(read.body).toEqual(scenario);
  });

  it('refuses the examples’ list, missing fields at their place, a learner’s edit and another tenant', async () => {
    const list = await call(server, 'PUT', userPath('edit-scenarios/'), { json: [scenario] });
    expect(list.status).toBe(400);
    expect(list.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    const missing = await call(server, 'PUT', userPath('edit-scenarios/'), {
      json: { name: 'plan', prompts: [{ summary: 'Plan' }] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ 'prompts.0.content': ['This field is required.'] });
    const student = await call(server, 'PUT', userPath('edit-scenarios/', server.org, server.studentUser), {
      key: server.studentKey,
      json: scenario,
    });
    expect(student.status).toBe(403);
    const other = userPath('scenarios/', server.otherOrg.org, server.otherOrg.user);
    expect((await call(server, 'GET', other, { key: server.otherOrg.apiKey })).status).toBe(404);
  });
});

describe('sandbox: auto memory prompt', () => {
  it('answers the platform’s prompt, keeps one set and resets it', async () => {
    const url = userPath('auto-memory-prompt/');
    const first = await call(server, 'GET', url);
    expect(first.status).toBe(200);
    expectSpecValid('get', `${USER_SPEC}/auto-memory-prompt/`, 200, first.body);
    expect(first.body).toEqual({ auto_memory_prompt: DEFAULT_AUTO_MEMORY_PROMPT });
    const set = await call(server, 'POST', url, {
      json: { auto_memory_prompt: 'Note what the learner struggles with.' },
    });
    expect(set.status).toBe(200);
    expectSpecValid('post', `${USER_SPEC}/auto-memory-prompt/`, 200, set.body);
    expect((await call(server, 'GET', url)).body).toEqual({
      auto_memory_prompt: 'Note what the learner struggles with.',
    });
    expect((await call(server, 'POST', url, { json: { reset: true } })).body).toEqual({
      auto_memory_prompt: DEFAULT_AUTO_MEMORY_PROMPT,
    });
  });

  it('refuses a blank prompt at its field, a learner and another tenant', async () => {
    const url = userPath('auto-memory-prompt/');
    const blank = await call(server, 'POST', url, { json: { auto_memory_prompt: '' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ auto_memory_prompt: ['This field may not be blank.'] });
    const student = userPath('auto-memory-prompt/', server.org, server.studentUser);
    expect((await call(server, 'GET', student, { key: server.studentKey })).status).toBe(403);
    expect((await call(server, 'GET', url, { key: server.otherOrg.apiKey })).status).toBe(404);
  });
});
