/**
 * Contract tests of what the sandbox serves for a learner's data requests (issue 18): `memories/` (the spec's
 * PaginatedUserMemoryList) and `clear-chathistory` (204), a learner reaching only their own, another tenant none of
 * it; and, after an erasure through the real engine, every endpoint that served the person serves nothing of them —
 * read raw and through the vendor SDK.
 */
import { AiAnalyticsService, AiMentorService, CoreService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect, waitForJob } from '../helpers/engine';
import { call, sandbox } from '../helpers/sandbox';
import { expectSpecValid } from '../helpers/spec';
import { requireKeychainSession } from '../helpers/temp';
import { mentorOf, personData, seedPerson } from '../person/fixture';

let server: Sandbox;
let mentor: string;
const SPEC = '/api/ai-mentor/orgs/{org}/users/{user_id}';
const path = (user: string, rest: string) => `/api/ai-mentor/orgs/${server.org}/users/${user}/${rest}`;

beforeAll(async () => {
  server = await sandbox();
  mentor = await mentorOf(server);
});

describe('sandbox: memories/', () => {
  it('answers the learner’s memories across mentors, one per mentor and category with its entries, spec-valid', async () => {
    await seedPerson(server, 'jo-memories', mentor);
    const answer = await call(server, 'GET', path('jo-memories', 'memories/'));
    expect(answer.status).toBe(200);
    expectSpecValid('get', `${SPEC}/memories/`, 200, answer.body);
    const body = answer.body as { count: number; results: { mentor: string; category: string; entries: unknown[] }[] };
    expect(body.count).toBe(2);
    expect(body.results.map((m) => [m.mentor, m.category, m.entries.length])).toEqual([
      [mentor, 'knowledge_gaps', 1],
      [mentor, 'lessons_learned', 1],
    ]);
    const filtered = await call(server, 'GET', path('jo-memories', 'memories/?category=lessons_learned'));
    expect((filtered.body as { count: number }).count).toBe(1);
    const paged = await call(server, 'GET', path('jo-memories', 'memories/?page_size=1&page=2'));
    expect(paged.body).toMatchObject({ count: 2, next: null });
  });

  it('lets a learner read only their own, another tenant none, and says when there is no such user', async () => {
    const own = await call(server, 'GET', path(server.studentUser, 'memories/'), { key: server.studentKey });
    expect(own.status).toBe(200);
    const others = await call(server, 'GET', path('jo-memories', 'memories/'), { key: server.studentKey });
    expect(others.status).toBe(403);
    const stranger = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/jo-memories/memories/`;
    expect((await call(server, 'GET', stranger, { key: server.otherOrg.apiKey })).status).toBe(404);
    const nobody = await call(server, 'GET', path('nobody-here', 'memories/'));
    expect(nobody).toMatchObject({ status: 404, body: { detail: 'User not found.' } });
  });
});

describe('sandbox: clear-chathistory', () => {
  it('clears every conversation of the learner (204), no one else’s; a learner may clear only their own', async () => {
    await seedPerson(server, 'kim-clear', mentor, { conversations: 3 });
    await seedPerson(server, 'lou-keeps', mentor, { conversations: 2 });
    const refused = await call(server, 'DELETE', path('kim-clear', 'clear-chathistory'), { key: server.studentKey });
    expect(refused.status).toBe(403);
    const stranger = `/api/ai-mentor/orgs/${server.otherOrg.org}/users/kim-clear/clear-chathistory`;
    expect((await call(server, 'DELETE', stranger, { key: server.otherOrg.apiKey })).status).toBe(404);
    expect(((await personData(server, 'kim-clear')).chats.body as { count: number }).count).toBe(3);
    const cleared = await call(server, 'DELETE', path('kim-clear', 'clear-chathistory'));
    expect(cleared).toMatchObject({ status: 204, body: null });
    expect(((await personData(server, 'kim-clear')).chats.body as { count: number }).count).toBe(0);
    expect(((await personData(server, 'lou-keeps')).chats.body as { count: number }).count).toBe(2);
    const messages = server.db
      .prepare(
        "SELECT COUNT(*) FROM chat_messages WHERE session_pk IN (SELECT id FROM chat_sessions WHERE username = 'kim-clear')",
      )
      .pluck()
      .get();
    expect(messages).toBe(0);
    // Again: nothing left, still 204.
    expect((await call(server, 'DELETE', path('kim-clear', 'clear-chathistory'))).status).toBe(204);
  });
});

describe('sandbox: an erased person is gone from every endpoint that served them', () => {
  it('after the engine’s erasure, raw reads and the vendor SDK find nothing of them', async () => {
    requireKeychainSession();
    await seedPerson(server, 'max-erased', mentor, { conversations: 2 });
    const before = await personData(server, 'max-erased');
    expect((before.chats.body as { count: number }).count).toBe(2);
    expect((before.memories.body as { count: number }).count).toBe(2);
    expect(before.profile.body).toHaveLength(1);
    expect((before.edx.body as { count: number }).count).toBe(1);

    const c = await connect(server);
    const started = await c.engine.invoke('person.erase', { user: 'max-erased', confirm: 'max-erased' });
    expect((await waitForJob(c.engine, started.jobId)).state).toBe('completed');

    const after = await personData(server, 'max-erased');
    expect((after.chats.body as { count: number }).count).toBe(0);
    // The person is no longer the tenant's: the learner paths do not know them, the user list does not name them.
    for (const read of [after.memories, after.profile, after.edx]) {
      if (read.status === 200)
        expect(JSON.stringify(read.body)).not.toMatch(/max-erased (gap|lesson|climbs)|course-v1/);
      else expect(read.status).toBe(404);
    }
    expect(JSON.stringify(after.users.body)).not.toContain('max-erased');
    const rows = server.db
      .prepare("SELECT COUNT(*) FROM resource_store WHERE org = ? AND data LIKE '%max-erased%'")
      .pluck()
      .get(server.org);
    expect(rows).toBe(0);

    OpenAPI.BASE = server.url;
    OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
    // The SDK's declarations leave `userId` out of its parameter types (its comments swallow it); it sends it.
    type Args<F extends (args: never) => unknown> = Parameters<F>[0];
    const chats = await AiAnalyticsService.aiAnalyticsOrgsUsersChatHistoryList({
      org: server.org,
      userId: server.user,
      filterUserId: 'max-erased',
    } as Args<typeof AiAnalyticsService.aiAnalyticsOrgsUsersChatHistoryList>);
    expect(chats.count).toBe(0);
    const memories = await AiMentorService.aiMentorOrgsUsersMemoriesList({
      org: server.org,
      userId: 'max-erased',
    } as Args<typeof AiMentorService.aiMentorOrgsUsersMemoriesList>)
      .then((page) => page.results)
      .catch(() => []);
    expect(memories).toEqual([]);
    const profile = await AiMentorService.aiMentorOrgsUsersAiUserProfileMemoryList({
      org: server.org,
      userId: 'max-erased',
    } as Args<typeof AiMentorService.aiMentorOrgsUsersAiUserProfileMemoryList>).catch(() => []);
    expect(profile).toEqual([]);
    const users = (await CoreService.coreUsersSearchRetrieve({ pageSize: 1000 })) as unknown as {
      results: { username: string }[];
    };
    expect(users.results.map((u) => u.username)).not.toContain('max-erased');
    expect(users.results.length).toBeGreaterThan(0);
  });
});
