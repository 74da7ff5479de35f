/** The review queue through a real engine against a real sandbox: sync, filters, marks, views, item, delete, CSV, traces. */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { createEngine, type Engine } from '../../src/main/engine';
import type { Sandbox } from '../../src/server/app';
import { analyticsArea } from '../../src/server/areas/analytics';
import { mentorsArea } from '../../src/server/areas/mentors';
import { reviewArea } from '../../src/server/areas/review';
import { SnapshotStore } from '../../src/main/engine/resources/snapshot-store';
import { FEEDBACK_DAYS } from '../../src/main/engine/review/feedback';
import type { ReviewItem } from '../../src/shared/contract';
import { failure } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir, uniqueService } from '../helpers/temp';

let server: Sandbox;
let engine: Engine;
let profileId: string;
let dataDir: string;

beforeAll(async () => {
  server = await sandbox({ seed: 'demo', areas: [mentorsArea, analyticsArea, reviewArea] });
  dataDir = tempDir('review-engine-');
  engine = await createEngine({
    dataDir,
    shell: 'test',
    keychainService: uniqueService(),
    env: { MENTOR_ADMIN_API_KEY: server.apiKey },
  });
  const profile = await engine.invoke('profiles.add', {
    name: 'Sandbox',
    baseUrl: server.url,
    org: server.org,
    username: server.user,
    makeActive: true,
  });
  profileId = profile.id;
  return () => engine.close();
});

const serverLogs = () =>
  server.db.prepare('SELECT count(*) FROM review_logs WHERE org = ?').pluck().get(server.org) as number;
/** Conversations rated down that started in the days the queue reads (FEEDBACK_DAYS, from that day on). */
const serverRatedDown = () =>
  server.db
    .prepare('SELECT count(*) FROM chat_sessions WHERE org = ? AND rating = -1 AND started_at >= ?')
    .pluck()
    .get(server.org, new Date(Date.now() - FEEDBACK_DAYS * 86_400_000).toISOString().slice(0, 10)) as number;
/** A moderation or safety log whose conversation still exists. */
const isLiveLog = (i: ReviewItem) =>
  i.source !== 'Negative feedback' && !i.prompt.startsWith('This conversation was deleted');

describe('review queue (engine)', () => {
  it('syncs both kinds of log and negative feedback into one queue, newest first, with mentor names and counts per mentor', async () => {
    const synced = await engine.invoke('review.sync', { profileId });
    expect(synced.error).toBeNull();
    expect(serverRatedDown()).toBeGreaterThan(0);
    expect(synced.total).toBe(serverLogs() + serverRatedDown());
    const page = await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 });
    expect(page.total).toBe(serverLogs() + serverRatedDown());
    expect(new Set(page.items.map((i) => i.source))).toEqual(
      new Set(['Moderation System', 'Safety System', 'Negative feedback']),
    );
    const times = page.items.map((i) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.items.every((i) => i.mentorName)).toBe(true);
    expect(page.mentors.reduce((n, m) => n + m.total, 0)).toBe(page.total);
    const top = page.mentors[0]!;
    const byMentor = await engine.invoke('review.list', { profileId, filter: { state: 'all', mentor: top.id } });
    expect(byMentor.total).toBe(top.total);
    const safety = await engine.invoke('review.list', {
      profileId,
      filter: { state: 'all', sources: ['Safety System'] },
    });
    expect(safety.total).toBe(
      server.db.prepare("SELECT count(*) FROM review_logs WHERE org = ? AND kind = 'safety'").pluck().get(server.org),
    );
    const learner = page.items[0]!.learner;
    const mine = await engine.invoke('review.list', { profileId, filter: { state: 'all', learner }, limit: 5000 });
    expect(mine.items.every((i) => i.learner === learner)).toBe(true);
    const day = page.items[0]!.createdAt.slice(0, 10);
    const that = await engine.invoke('review.list', {
      profileId,
      filter: { state: 'all', from: day, to: day },
      limit: 5000,
    });
    expect(that.items.every((i) => i.createdAt.slice(0, 10) === day)).toBe(true);
    expect(that.items.length).toBeGreaterThan(0);
  });

  it('marks items reviewed with who and when, per tenant; open hides them; unknown ids are named', async () => {
    const open = await engine.invoke('review.list', { profileId, filter: {}, limit: 3 });
    const ids = open.items.map((i) => i.id);
    const result = await engine.invoke('review.mark', { profileId, ids: [...ids, 'safety:999999'] });
    expect(result).toEqual({ marked: 3, unknown: ['safety:999999'] });
    const reviewed = await engine.invoke('review.list', { profileId, filter: { state: 'reviewed' } });
    expect(reviewed.items.map((i) => i.id).sort()).toEqual([...ids].sort());
    expect(reviewed.items.every((i) => i.reviewedBy === server.user && i.reviewedAt)).toBe(true);
    const after = await engine.invoke('review.list', { profileId, filter: {}, limit: 3 });
    expect(after.items.map((i) => i.id)).not.toContain(ids[0]);
    expect(after.total).toBe(open.total - 3);
    // A second tenant connection sees none of this tenant's queue or marks.
    const other = await engine.invoke('profiles.add', {
      name: 'Other',
      baseUrl: server.url,
      org: server.otherOrg.org,
      username: server.otherOrg.user,
    });
    const foreign = await engine.invoke('review.list', { profileId: other.id, filter: { state: 'all' } });
    expect(foreign.total).toBe(0);
    await engine.invoke('review.mark', { profileId, ids: [ids[0]!], reviewed: false });
    expect((await engine.invoke('review.list', { profileId, filter: { state: 'reviewed' } })).total).toBe(2);
  });

  it('opens an item at the flagged message of its conversation; a deleted conversation says so', async () => {
    const page = await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 });
    const flagged = page.items.find(isLiveLog)!;
    const detail = await engine.invoke('review.get', { profileId, id: flagged.id });
    expect(detail.conversation.available).toBe(true);
    const message = detail.conversation.messages[detail.conversation.flaggedIndex!]!;
    expect(message).toMatchObject({ role: 'learner', content: flagged.prompt });
    const truth = server.db
      .prepare(
        `SELECT s.session_id FROM review_logs l JOIN chat_messages m ON m.id = l.message_pk
         JOIN chat_sessions s ON s.id = m.session_pk WHERE l.id = ? AND l.kind = ?`,
      )
      .pluck()
      .get(flagged.logId, flagged.source === 'Safety System' ? 'safety' : 'moderation');
    expect(detail.conversation.session).toBe(truth);
    const gone = page.items.find((i) => i.prompt.startsWith('This conversation was deleted'))!;
    const goneDetail = await engine.invoke('review.get', { profileId, id: gone.id });
    expect(goneDetail.conversation.available).toBe(false);
    expect(goneDetail.conversation.reason).toMatch(/conversation no longer exists/);
    expect((await failure(engine, 'review.get', { profileId, id: 'moderation:0' })).code).toBe('not_found');
  });

  it("shows the mentor's safety settings from the snapshot kept before the message", async () => {
    const page = await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 });
    const item = page.items.find(isLiveLog)!;
    const detail = await engine.invoke('review.get', { profileId, id: item.id });
    expect(detail.settings).toBeNull();
    // The mentor editor's snapshots (the one owner of the table writes them); one before, one after the message.
    const { openDatabase } = await import('../../src/main/engine/store');
    const db = openDatabase(`${dataDir}/mentor-admin.sqlite`);
    try {
      const snapshots = new SnapshotStore(db);
      const uniqueId = detail.conversation.mentorUniqueId!;
      const before = new Date(Date.parse(item.createdAt) - 86_400_000).toISOString();
      const later = new Date(Date.parse(item.createdAt) + 3_600_000).toISOString();
      snapshots.keep(
        profileId,
        'mentor-settings',
        uniqueId,
        { before: null, after: { safety_system_prompt: 'Old prompt' }, changed: ['safety_system_prompt'] },
        before,
      );
      snapshots.keep(
        profileId,
        'mentor-settings',
        uniqueId,
        { before: null, after: { safety_system_prompt: 'New prompt' }, changed: ['safety_system_prompt'] },
        later,
      );
    } finally {
      db.close();
    }
    const again = await engine.invoke('review.get', { profileId, id: item.id });
    expect(again.settings).toMatchObject({ safetyPrompt: 'Old prompt' });
    expect(again.settings!.note).toMatch(/last change before this message/);
  });

  it('saves views, exports an injection-safe CSV and deletes a log on the tenant', async () => {
    const view = await engine.invoke('review.saveView', {
      profileId,
      name: 'Safety, open',
      filter: { sources: ['Safety System'], state: 'open' },
    });
    expect(await engine.invoke('review.views', { profileId })).toEqual([view]);
    expect((await failure(engine, 'review.saveView', { profileId, name: ' ', filter: {} })).code).toBe('validation');
    await engine.invoke('review.deleteView', { profileId, id: view.id });
    expect(await engine.invoke('review.views', { profileId })).toEqual([]);

    const target = (await engine.invoke('review.list', { profileId, filter: { sources: ['Safety System'] }, limit: 1 }))
      .items[0]!;
    server.db
      .prepare("UPDATE review_logs SET reason = '=HYPERLINK(\"http://x\")' WHERE id = ? AND kind = 'safety'")
      .run(target.logId);
    await engine.invoke('review.sync', { profileId });
    const file = await engine.invoke('review.export', {
      profileId,
      filter: { state: 'all', sources: ['Safety System'] },
    });
    const rows = Papa.parse<string[]>(file.csv.trim()).data;
    expect(rows[0]).toContain('reason');
    expect(rows).toHaveLength(file.rows + 1);
    const cell = rows.find((r) => r[0] === target.id)![8];
    expect(cell).toBe('\'=HYPERLINK("http://x")');

    await engine.invoke('review.delete', { profileId, id: target.id });
    expect(
      server.db.prepare("SELECT count(*) FROM review_logs WHERE id = ? AND kind = 'safety'").pluck().get(target.logId),
    ).toBe(0);
    expect(
      (await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 })).items.map((i) => i.id),
    ).not.toContain(target.id);
  });

  it('keeps the cached queue with a reason when the tenant is unreachable', async () => {
    const before = (await engine.invoke('review.list', { profileId, filter: { state: 'all' } })).total;
    server.setFaults('error5xx=1');
    try {
      const synced = await engine.invoke('review.sync', { profileId });
      expect(synced.error).toBeTruthy();
      expect(synced.total).toBe(before);
      const page = await engine.invoke('review.list', { profileId, filter: { state: 'all' } });
      expect(page.total).toBe(before);
      expect(page.sync.error).toBeTruthy();
    } finally {
      server.setFaults('');
    }
  });
});

describe('traces (engine)', () => {
  it('opens the trace of a flagged conversation as a timeline of spans with totals', async () => {
    const page = await engine.invoke('review.list', { profileId, filter: { state: 'all' }, limit: 5000 });
    const item = page.items.find(isLiveLog)!;
    const detail = await engine.invoke('review.get', { profileId, id: item.id });
    const { traces } = await engine.invoke('review.traceOf', { profileId, session: detail.conversation.session! });
    expect(traces).toHaveLength(1);
    const trace = await engine.invoke('review.trace', { profileId, id: traces[0]!.id });
    expect(trace.spans.length).toBeGreaterThan(1);
    const generations = trace.spans.filter((s) => s.type === 'GENERATION');
    expect(generations.every((s) => s.model && s.totalTokens && s.latencyMs !== null)).toBe(true);
    expect(trace.totals.cost).toBeCloseTo(
      generations.reduce((n, s) => n + (s.cost ?? 0), 0),
      5,
    );
    expect((await failure(engine, 'review.trace', { profileId, id: 'nope' })).code).toBe('not_found');
  });

  it('reads a trace of thousands of spans and ranks the slowest traces', async () => {
    const big = server.db
      .prepare(
        'SELECT trace_id FROM review_observations WHERE org = ? GROUP BY trace_id ORDER BY count(*) DESC LIMIT 1',
      )
      .pluck()
      .get(server.org) as string;
    const trace = await engine.invoke('review.trace', { profileId, id: big });
    expect(trace.spans.length).toBeGreaterThan(3000);
    expect(trace.totals.tools).toBeGreaterThan(3000);
    const slowest = await engine.invoke('review.traces', { profileId, rank: 'slowest', limit: 5 });
    expect(slowest.traces).toHaveLength(5);
    const latencies = slowest.traces.map((t) => t.latencyMs ?? 0);
    expect([...latencies].sort((a, b) => b - a)).toEqual(latencies);
  }, 120_000);
});
