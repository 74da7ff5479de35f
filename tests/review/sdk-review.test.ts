/**
 * The vendor SDK reads back what the app writes in the review area: a moderation log deleted through the queue is
 * gone, and a session pinned or unpinned from the session view is (or is no longer) among the learner's pins.
 */
import { AiMentorService, OpenAPI } from '@iblai/iblai-api';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/server/app';
import { connect, type Connected } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { requireKeychainSession } from '../helpers/temp';

let server: Sandbox;
let c: Connected;

beforeAll(async () => {
  requireKeychainSession();
  server = await sandbox({ seed: 'demo' });
  OpenAPI.BASE = server.url;
  OpenAPI.HEADERS = { Authorization: `Api-Key ${server.apiKey}` };
});
// The helpers close each test's engine after it.
beforeEach(async () => {
  c = await connect(server);
});

describe('review area read back by the vendor SDK', () => {
  it('a log deleted from the queue is gone for the SDK', async () => {
    await c.engine.invoke('review.sync', {});
    const { items } = await c.engine.invoke('review.list', {
      filter: { state: 'all', sources: ['Moderation System'] },
    });
    const item = items[0]!;
    const path = { org: server.org, userId: server.user, id: item.logId! };
    expect((await AiMentorService.aiMentorOrgsUsersModerationLogsRetrieve(path)).prompt).toBe(item.prompt);
    await c.engine.invoke('review.delete', { id: item.id });
    await expect(AiMentorService.aiMentorOrgsUsersModerationLogsRetrieve(path)).rejects.toMatchObject({ status: 404 });
    // The SDK's declared argument type leaves out `userId`, which its code reads for the path.
    const listed = await AiMentorService.aiMentorOrgsUsersModerationLogsList({
      org: server.org,
      userId: server.user,
      pageSize: 1000,
    } as Parameters<typeof AiMentorService.aiMentorOrgsUsersModerationLogsList>[0]);
    expect(listed.results.some((l) => l.id === item.logId)).toBe(false);
  });

  it('a session pinned and unpinned by the app reads back through the SDK', async () => {
    const pins = new Set(server.db.prepare('SELECT session_id FROM session_pins').pluck().all() as string[]);
    const { username, session_id: session } = (
      server.db.prepare('SELECT username, session_id FROM chat_sessions WHERE org = ? ORDER BY id').all(server.org) as {
        username: string;
        session_id: string;
      }[]
    ).find((s) => !pins.has(s.session_id))!;
    const read = () =>
      AiMentorService.aiMentorOrgsUsersPinMessageList({
        org: server.org,
        userId: username,
        sessionId: session,
      } as Parameters<typeof AiMentorService.aiMentorOrgsUsersPinMessageList>[0]);
    expect(await read()).toEqual([]);
    await c.engine.invoke('sessions.pin', { learner: username, session, pinned: true });
    expect((await read()).map((p) => p.session_id)).toEqual([session]);
    await c.engine.invoke('sessions.pin', { learner: username, session, pinned: false });
    expect(await read()).toEqual([]);
  });
});
