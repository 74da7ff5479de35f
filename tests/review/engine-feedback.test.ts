/**
 * Negative feedback in the review queue, through a real engine against the demo sandbox: conversations rated down
 * (chat-history's `rating` -1) are items beside the logs, filtered by source, counted per mentor, opened at the rated
 * answer, marked, exported and searched like them; their delete is refused (no call deletes a rating), a conversation
 * deleted since says so, and a key that may not read chat history still refreshes the logs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { createEngine, type Engine } from '../../src/main/engine';
import { FEEDBACK_DAYS } from '../../src/main/engine/review/feedback';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { parseFaults } from '../../src/server/faults';
import type { ReviewFilter } from '../../src/shared/contract';
import { failure } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir, uniqueService } from '../helpers/temp';

let server: Sandbox;
let engine: Engine;
let profileId: string;
const FEEDBACK: ReviewFilter = { state: 'all', sources: ['Negative feedback'] };

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  engine = await createEngine({
    dataDir: tempDir('review-feedback-'),
    shell: 'test',
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_API_KEY: server.apiKey },
  });
  profileId = (
    await engine.invoke('profiles.add', {
      name: 'Sandbox',
      baseUrl: server.url,
      org: server.org,
      username: server.user,
      makeActive: true,
    })
  ).id;
  expect((await engine.invoke('review.sync', { profileId })).error).toBeNull();
  return () => engine.close();
});

/** The tenant's conversations rated down since the first day the queue reads, by session id. */
function ratedDown(): Map<string, { username: string; mentor: string }> {
  const since = new Date(Date.now() - FEEDBACK_DAYS * 86_400_000).toISOString().slice(0, 10);
  const rows = server.db
    .prepare(
      `SELECT session_id, username, mentor_unique_id AS mentor FROM chat_sessions
       WHERE org = ? AND rating = -1 AND started_at >= ?`,
    )
    .all(server.org, since) as { session_id: string; username: string; mentor: string }[];
  return new Map(rows.map((r) => [r.session_id, r]));
}

describe('negative feedback in the review queue (engine)', () => {
  it('lists every conversation rated down as an item of its own source, with its learner and mentor', async () => {
    const truth = ratedDown();
    expect(truth.size).toBeGreaterThan(10);
    const page = await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 5000 });
    expect(page.total).toBe(truth.size);
    expect(page.items.map((i) => i.session).sort()).toEqual([...truth.keys()].sort());
    for (const item of page.items) {
      expect(item).toMatchObject({ source: 'Negative feedback', logId: null, id: `feedback:${item.session}` });
      expect(item.learner).toBe(truth.get(item.session!)!.username);
      expect(item.mentorName).toBeTruthy();
    }
    // Counted per mentor like the logs, and the mentor filter reads them.
    expect(page.mentors.reduce((n, m) => n + m.total, 0)).toBe(truth.size);
    const top = page.mentors[0]!;
    const mine = await engine.invoke('review.list', {
      profileId,
      filter: { ...FEEDBACK, mentor: top.id },
      limit: 5000,
    });
    expect(mine.total).toBe(top.total);
    const logsOnly = await engine.invoke('review.list', {
      profileId,
      filter: { state: 'all', sources: ['Moderation System', 'Safety System'] },
      limit: 5000,
    });
    expect(logsOnly.items.some((i) => i.source === 'Negative feedback')).toBe(false);
  });

  it("opens an item at the rated answer, which the learner's seeded feedback names", async () => {
    // A conversation with a feedback entry: the entry's answer is the one the item points at.
    const seeded = server.db
      .prepare(
        `SELECT f.session, f.ai_response FROM review_feedback f JOIN chat_sessions s ON s.session_id = f.session
         WHERE f.org = ? AND f.rating = -1 AND s.rating = -1 ORDER BY f.inserted_at DESC LIMIT 1`,
      )
      .get(server.org) as { session: string; ai_response: string };
    const detail = await engine.invoke('review.get', { profileId, id: `feedback:${seeded.session}` });
    expect(detail.conversation).toMatchObject({ available: true, session: seeded.session, reason: null });
    const rated = detail.conversation.messages[detail.conversation.flaggedIndex!]!;
    expect(rated).toMatchObject({ role: 'mentor', content: seeded.ai_response });
    expect(detail.item.prompt).toBe(seeded.ai_response.slice(0, 2000));
    expect(
      detail.conversation.messages.slice(detail.conversation.flaggedIndex! + 1).some((m) => m.role === 'mentor'),
    ).toBe(false);
  });

  it('marks, exports and searches feedback like logs; refuses to delete it', async () => {
    const [first, second] = (await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 2 })).items;
    expect((await engine.invoke('review.mark', { profileId, ids: [first!.id] })).marked).toBe(1);
    const reviewed = await engine.invoke('review.list', { profileId, filter: { ...FEEDBACK, state: 'reviewed' } });
    expect(reviewed.items.map((i) => i.id)).toEqual([first!.id]);
    expect(reviewed.items[0]!.reviewedBy).toBe(server.user);

    const file = await engine.invoke('review.export', { profileId, filter: FEEDBACK });
    const [header, ...rows] = Papa.parse<string[]>(file.csv.trim()).data;
    expect(rows).toHaveLength(file.rows);
    const row = rows.find((r) => r[0] === second!.id)!;
    expect(row[header!.indexOf('session')]).toBe(second!.session);
    expect(row[header!.indexOf('source')]).toBe('Negative feedback');

    const text = second!.prompt.slice(3, 30).toUpperCase();
    const found = await engine.invoke('review.list', { profileId, filter: { state: 'all', search: text } });
    expect(found.items.map((i) => i.id)).toContain(second!.id);

    const refused = await failure(engine, 'review.delete', { profileId, id: second!.id });
    expect(refused.code).toBe('validation');
    expect(refused.message).toMatch(/mark it reviewed/);
    expect(
      server.db.prepare('SELECT count(*) FROM chat_sessions WHERE session_id = ?').pluck().get(second!.session),
    ).toBe(1);
  });

  it('says when a rated conversation no longer exists', async () => {
    const item = (await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 5000 })).items.at(-1)!;
    const pk = server.db.prepare('SELECT id FROM chat_sessions WHERE session_id = ?').pluck().get(item.session);
    server.db.prepare('DELETE FROM chat_session_topics WHERE session_pk = ?').run(pk);
    server.db.prepare('DELETE FROM chat_messages WHERE session_pk = ?').run(pk);
    server.db.prepare('DELETE FROM chat_sessions WHERE id = ?').run(pk);
    const detail = await engine.invoke('review.get', { profileId, id: item.id });
    expect(detail.conversation.available).toBe(false);
    expect(detail.conversation.reason).toMatch(/conversation no longer exists/);
    // The next sync no longer lists it.
    await engine.invoke('review.sync', { profileId });
    const ids = (await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 5000 })).items.map(
      (i) => i.id,
    );
    expect(ids).not.toContain(item.id);
  });

  it('refreshes the logs and keeps the cached feedback when chat history is refused', async () => {
    const before = await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 0 });
    const logId = server.db
      .prepare("SELECT id FROM review_logs WHERE org = ? AND kind = 'moderation' ORDER BY id LIMIT 1")
      .pluck()
      .get(server.org) as number;
    server.db.prepare("DELETE FROM review_logs WHERE id = ? AND kind = 'moderation'").run(logId);
    server.setFaults({
      ...parseFaults(''),
      refusePaths: [{ path: `/api/ai-analytics/orgs/${server.org}/users/${server.user}/chat-history/`, status: 403 }],
    });
    try {
      const synced = await engine.invoke('review.sync', { profileId });
      expect(synced.error).toMatch(/^Negative feedback not refreshed: .*403/);
      const after = await engine.invoke('review.list', { profileId, filter: FEEDBACK, limit: 0 });
      expect(after.total).toBe(before.total);
      const all = await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 });
      expect(all.items.map((i) => i.id)).not.toContain(`moderation:${logId}`);
    } finally {
      server.setFaults('');
    }
  });
});
