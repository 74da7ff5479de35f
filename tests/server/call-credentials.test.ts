/**
 * Contract tests of the sandbox's `create-call-credentials/`: a mentor with a call configuration answers the spec's
 * CallAuthenticationResponse (a signed participant token for the mentor's room); the required fields are refused at
 * their fields; an unknown mentor, another mentor's session and another tenant are 'No mentor or session found'; a
 * mentor without a call configuration is the spec's 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';

let server: Sandbox;
const mentors: Record<string, string> = {};
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}/mentors/{mentor}/create-call-credentials/';
const SESSION = '5b0c2f7e-9d1a-4c33-8a51-1f2e3d4c5b6a';
const url = (mentor: string, org = server.org, user = server.user) =>
  `/api/ai-mentor/orgs/${org}/users/${user}/mentors/${mentor}/create-call-credentials/`;

beforeAll(async () => {
  server = await sandbox();
  for (const name of ['Voice Coach', 'Quiet Coach']) {
    const made = await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/`, {
      json: { name },
    });
    mentors[name] = String((made.body as { unique_id: string }).unique_id);
  }
  await call(server, 'POST', `/api/ai-mentor/orgs/${server.org}/users/${server.user}/call-configurations/`, {
    json: { mentor: mentors['Voice Coach'], mode: 'realtime' },
  });
});

describe('sandbox: call credentials', () => {
  it('answers a signed participant token for the mentor’s room', async () => {
    const mentor = mentors['Voice Coach']!;
    const answer = await call(server, 'POST', url(mentor), {
      json: { session_id: SESSION, pathway: mentor, enable_video: true },
    });
    expect(answer.status).toBe(200);
    expectSpecValid('post', SPEC, 200, answer.body);
    const body = answer.body as { room_name: string; participant_name: string; participant_token: string };
    expect(body.room_name).toBe(`mentor-audio-call-${mentor}|${server.org}`);
    expect(body.participant_name).toBe(server.user);
    const [, payload] = body.participant_token.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({
      sub: server.user,
      video: { room: body.room_name, canPublishVideo: true },
    });
    // A learner starts their own calls.
    const learner = await call(server, 'POST', url(mentor, server.org, server.studentUser), {
      key: server.studentKey,
      json: { session_id: SESSION, pathway: mentor },
    });
    expect(learner.status).toBe(200);
  });

  it('refuses missing fields at their fields, an unknown mentor or session, a mentor without calls, another tenant', async () => {
    const mentor = mentors['Voice Coach']!;
    const missing = await call(server, 'POST', url(mentor), { json: { enable_video: 'yes' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      session_id: ['This field is required.'],
      pathway: ['This field is required.'],
      enable_video: ['Must be a valid boolean.'],
    });
    const unknown = await call(server, 'POST', url('no-such-mentor'), { json: { session_id: SESSION, pathway: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'No mentor or session found' });
    const quiet = mentors['Quiet Coach']!;
    const unconfigured = await call(server, 'POST', url(quiet), { json: { session_id: SESSION, pathway: quiet } });
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body).toEqual({
      detail: 'Invalid request parameters or improperly configured IBL Call Pro credentials',
    });
    const other = await call(server, 'POST', url(mentor, server.otherOrg.org, server.otherOrg.user), {
      key: server.otherOrg.apiKey,
      json: { session_id: SESSION, pathway: mentor },
    });
    expect(other.status).toBe(404);
    const crossed = await call(server, 'POST', url(mentor), {
      key: server.otherOrg.apiKey,
      json: { session_id: SESSION, pathway: mentor },
    });
    expect([401, 403, 404]).toContain(crossed.status);
    // Another mentor's chat session is not this mentor's.
    const session = 'c7d1e2f3-0a4b-4c5d-9e8f-7a6b5c4d3e2f';
    server.db
      .prepare(
        `INSERT INTO chat_sessions (session_id, org, mentor_unique_id, username, started_at, ended_at, model, provider)
         VALUES (?, ?, ?, ?, '2026-11-02T10:00:00Z', '2026-11-02T10:05:00Z', 'gpt-4o', 'openai')`,
      )
      .run(session, server.org, mentors['Quiet Coach'], server.studentUser);
    const theirs = await call(server, 'POST', url(mentor), { json: { session_id: session, pathway: mentor } });
    expect(theirs.status).toBe(404);
  });
});
