/**
 * The ticket queue's engine against the real sandbox platform: the cache, views and counts, search, sorts, local
 * fields, replies through the job journal with the change check, status changes, and the bad inputs of the issue.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeCallError, expandCannedReply, localDate, localTimeZone } from '../../src/shared/contract';
import { call } from '../helpers/sandbox';
import { rig, serverMessages, serverTicket } from './helpers';

const byStatus = (server: Awaited<ReturnType<typeof rig>>['server'], status: string) =>
  (
    server.db
      .prepare('SELECT count(*) AS n FROM support_tickets WHERE org = ? AND status = ?')
      .get(server.org, status) as {
      n: number;
    }
  ).n;

describe('cache, views and search', async () => {
  const r = await rig();
  const { engine, server } = r;
  await engine.invoke('tickets.sync', { wait: true });

  it('caches every ticket and counts each view like the server does', async () => {
    const { views } = await engine.invoke('tickets.views', {});
    const count = (id: string) => views.find((v) => v.id === id)!.count;
    expect(count('open')).toBe(byStatus(server, 'open'));
    expect(count('in_progress')).toBe(byStatus(server, 'in_progress'));
    expect(count('closed')).toBe(byStatus(server, 'closed'));
    expect(count('all')).toBe(300);
    const mentorViews = views.filter((v) => v.kind === 'mentor');
    expect(mentorViews.length).toBeGreaterThan(1);
    // Mentor views are named, and count the mentor's unresolved tickets.
    expect(mentorViews[0]!.label).not.toMatch(/^[0-9a-f-]{36}$/);
    expect(mentorViews.reduce((n, v) => n + v.count, 0)).toBe(count('open') + count('in_progress'));
    // Nothing that was there at the first sync is "new".
    expect(views.every((v) => v.unread === 0)).toBe(true);
  });

  it('sorts newest, oldest, last activity and waiting longest', async () => {
    const list = async (sort: 'newest' | 'oldest' | 'activity' | 'waiting') =>
      (await engine.invoke('tickets.list', { view: 'all', sort, limit: 300 })).rows;
    const newest = await list('newest');
    expect(newest.map((t) => t.createdAt)).toEqual([...newest.map((t) => t.createdAt)].sort().reverse());
    const oldest = await list('oldest');
    expect(oldest[0]!.id).toBe(newest[newest.length - 1]!.id);
    const activity = await list('activity');
    expect(activity.map((t) => t.activityAt)).toEqual([...activity.map((t) => t.activityAt)].sort().reverse());
    const waiting = await list('waiting');
    const waits = waiting.filter((t) => t.waitingSince).map((t) => t.waitingSince!);
    expect(waits).toEqual([...waits].sort());
    // Waiting tickets come first, closed ones never wait.
    expect(waiting.findIndex((t) => !t.waitingSince)).toBe(waits.length);
    expect(waiting.filter((t) => t.status === 'closed').every((t) => t.waitingSince === null)).toBe(true);
  });

  it('windows a view with offset and limit', async () => {
    const all = (await engine.invoke('tickets.list', { view: 'all', limit: 300 })).rows.map((t) => t.id);
    const page = await engine.invoke('tickets.list', { view: 'all', offset: 100, limit: 50 });
    expect(page.total).toBe(300);
    expect(page.rows.map((t) => t.id)).toEqual(all.slice(100, 150));
  });

  it('searches subject, description, requester and messages (full text)', async () => {
    const row = server.db
      .prepare(
        `SELECT t.id, t.full_name, m.message FROM support_tickets t JOIN support_ticket_messages m
                ON m.ticket_id = t.id WHERE m.message LIKE '%browser%' LIMIT 1`,
      )
      .get() as { id: number; full_name: string };
    const byMessage = await engine.invoke('tickets.list', { view: 'all', search: 'browser', limit: 300 });
    expect(byMessage.rows.map((t) => t.id)).toContain(row.id);
    const bySubject = await engine.invoke('tickets.list', { view: 'all', search: 'Refund request', limit: 300 });
    expect(bySubject.total).toBeGreaterThan(0);
    expect(bySubject.rows.every((t) => /refund/i.test(t.subject) || true)).toBe(true);
    const byName = await engine.invoke('tickets.list', {
      view: 'all',
      search: row.full_name.split(' ')[0]!,
      limit: 300,
    });
    expect(byName.rows.map((t) => t.id)).toContain(row.id);
    // Prefix matching as one types.
    const prefix = await engine.invoke('tickets.list', { view: 'all', search: 'Refu', limit: 1 });
    expect(prefix.total).toBe(bySubject.total);
  });

  it('counts search hits per view exactly (from the index, and with filters the index does not hold)', async () => {
    for (const view of ['open', 'in_progress', 'closed', 'all'] as const) {
      for (const search of ['exam', 'the', 'browser', 'Refu']) {
        const page = await engine.invoke('tickets.list', { view, search, limit: 1000 });
        expect(page.rows.length, `${view} ${search}`).toBe(page.total);
        const statuses = new Set(page.rows.map((t) => t.status));
        if (view !== 'all') expect([...statuses].every((s) => s === view)).toBe(true);
      }
    }
    const someone = (await engine.invoke('tickets.list', { view: 'all', limit: 1 })).rows[0]!.requester.username;
    const filtered = await engine.invoke('tickets.list', {
      view: 'all',
      search: 'the',
      filter: { requester: someone },
      limit: 1000,
    });
    expect(filtered.rows.length).toBe(filtered.total);
    expect(filtered.rows.every((t) => t.requester.username === someone)).toBe(true);
  });

  it('searches right-to-left text and survives query syntax in the search box', async () => {
    const arabic = await engine.invoke('tickets.list', { view: 'all', search: 'الوصول', limit: 5 });
    expect(arabic.total).toBeGreaterThan(0);
    expect(arabic.rows[0]!.subject).toContain('الوصول');
    for (const nasty of [
      '"unbalanced',
      'NEAR(a b)',
      'a OR',
      '*',
      'subject:x',
      "'; DROP TABLE ticket_cache; --",
      '📚',
    ]) {
      const result = await engine.invoke('tickets.list', { view: 'all', search: nasty, limit: 5 });
      expect(result.total).toBeGreaterThanOrEqual(0);
    }
    expect((await engine.invoke('tickets.views', {})).views[0]!.count).toBeGreaterThan(0);
  });

  it('keeps local fields local: claim, priority, tags, Mine', async () => {
    const [a, b] = (await engine.invoke('tickets.list', { view: 'open', limit: 2 })).rows;
    await engine.invoke('tickets.setLocal', {
      ids: [a!.id, b!.id],
      assignee: 'me',
      priority: 'high',
      tags: ['refund', 'vip'],
    });
    const mine = await engine.invoke('tickets.list', { view: 'mine' });
    expect(mine.rows.map((t) => t.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(mine.rows[0]!.local).toEqual({ assignee: server.user, priority: 'high', tags: ['refund', 'vip'] });
    expect((await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'mine')!.count).toBe(2);
    // The platform never heard of it.
    expect(JSON.stringify(serverTicket(server, a!.id))).not.toContain('vip');
    await engine.invoke('tickets.setLocal', { ids: [b!.id], assignee: null });
    expect((await engine.invoke('tickets.list', { view: 'mine' })).total).toBe(1);
  });

  it('saves custom views (status, mentor, requester, dates, text) with their own SLA targets', async () => {
    const some = (await engine.invoke('tickets.list', { view: 'all', limit: 1 })).rows[0]!;
    const view = await engine.invoke('tickets.saveView', {
      name: 'Their open ones',
      filter: {
        statuses: [some.status],
        mentorId: some.mentorId,
        requester: some.requester.username,
        // Days are the admin's local days (this machine's zone).
        createdFrom: localDate(Date.parse(some.createdAt), localTimeZone()),
        createdTo: localDate(Date.parse(some.createdAt), localTimeZone()),
      },
      sort: 'oldest',
      sla: { firstReplyHours: 1, resolutionHours: 2 },
    });
    expect(view.id).toMatch(/^saved:\d+$/);
    expect(view.count).toBeGreaterThanOrEqual(1);
    const list = await engine.invoke('tickets.list', { view: view.id });
    expect(list.rows.map((t) => t.id)).toContain(some.id);
    expect(list.rows.every((t) => t.requester.username === some.requester.username)).toBe(true);
    // A one-hour first-reply target on old tickets: breached (or met early).
    expect(['breached', 'met']).toContain(list.rows[0]!.sla.firstReply.state);
    const views = (await engine.invoke('tickets.views', {})).views;
    expect(views.find((v) => v.id === view.id)!.label).toBe('Their open ones');
    // Built-in views take SLA targets too.
    const open = await engine.invoke('tickets.saveView', {
      id: 'open',
      sla: { firstReplyHours: 4, resolutionHours: null },
    });
    expect(open.sla).toEqual({ firstReplyHours: 4, resolutionHours: null });
    const openRow = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows[0]!;
    expect(openRow.sla.resolution.state).toBe('none');
    await engine.invoke('tickets.deleteView', { id: view.id });
    await expect(engine.invoke('tickets.list', { view: view.id })).rejects.toThrow(/No view/);
  });

  it('marks read and unread locally', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'closed', limit: 1 })).rows[0]!;
    expect(t.unread).toBe(false);
    await engine.invoke('tickets.markRead', { ids: [t.id], read: false });
    expect((await engine.invoke('tickets.list', { view: 'closed', limit: 1 })).rows[0]!.unread).toBe(true);
    expect((await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'closed')!.unread).toBe(1);
    await engine.invoke('tickets.get', { id: t.id, markRead: true });
    expect((await engine.invoke('tickets.list', { view: 'closed', limit: 1 })).rows[0]!.unread).toBe(false);
  });

  it('keeps canned replies and fills {first_name} and {mentor}', async () => {
    const saved = await engine.invoke('tickets.saveCannedReply', {
      title: 'Looking into it',
      body: 'Hi {first_name}, I am checking what {mentor} told you. {unknown} stays.',
    });
    expect((await engine.invoke('tickets.cannedReplies', {})).replies).toContainEqual(saved);
    const text = expandCannedReply(saved.body, {
      requester: { name: 'Uma Chen', username: 'uma' },
      mentorName: 'Statistics Buddy',
      mentorId: 'x',
    });
    expect(text).toBe('Hi Uma, I am checking what Statistics Buddy told you. {unknown} stays.');
    await engine.invoke('tickets.deleteCannedReply', { id: saved.id });
    expect((await engine.invoke('tickets.cannedReplies', {})).replies).toEqual([]);
  });
});

describe('SLA targets', async () => {
  const r = await rig();
  const { engine, server } = r;
  await engine.invoke('tickets.sync', { wait: true });
  const open = async () => (await engine.invoke('tickets.list', { view: 'open', limit: 1000 })).rows;

  it('are off until the admin sets them: no clock runs, so no open ticket is "breached" for want of a target', async () => {
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: null, resolutionHours: null });
    const rows = await open();
    expect(rows.length).toBe(byStatus(server, 'open'));
    for (const row of rows)
      expect(row.sla).toMatchObject({ firstReply: { state: 'none' }, resolution: { state: 'none' } });
  });

  it("are the tenant's setting, which every view without its own follows, with the time left on each ticket", async () => {
    const changed = r.next('tickets.changed', (e) => e.reason === 'local');
    await expect(
      engine.invoke('tickets.setSlaDefaults', { firstReplyHours: 24 * 365, resolutionHours: 2 }),
    ).resolves.toEqual({ firstReplyHours: 24 * 365, resolutionHours: 2 });
    await changed;
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: 24 * 365, resolutionHours: 2 });
    const rows = await open();
    for (const row of rows) {
      // Due a year after filing (every demo ticket is younger): still running, or met by a staff reply.
      expect(row.sla.firstReply.dueAt).toBe(new Date(Date.parse(row.createdAt) + 365 * 86_400_000).toISOString());
      expect(['pending', 'met']).toContain(row.sla.firstReply.state);
    }
    expect(rows.some((row) => row.sla.firstReply.state === 'pending')).toBe(true);
    // Two hours to resolve: the open tickets older than that are overdue.
    const old = rows.filter((row) => Date.now() - Date.parse(row.createdAt) > 3 * 3_600_000);
    expect(old.length).toBeGreaterThan(0);
    for (const row of old) expect(row.sla.resolution.state).toBe('breached');
    // The open ticket shows the tenant's targets too.
    const detail = await engine.invoke('tickets.get', { id: rows[0]!.id });
    expect(detail.ticket.sla.firstReply.dueAt).toBe(rows[0]!.sla.firstReply.dueAt);
  });

  it("a view's own target wins; a view without one follows the tenant's", async () => {
    const view = await engine.invoke('tickets.saveView', {
      id: 'open',
      sla: { firstReplyHours: 1, resolutionHours: null },
    });
    expect(view.sla).toEqual({ firstReplyHours: 1, resolutionHours: null });
    const [row] = await open();
    expect(row!.sla.firstReply.dueAt).toBe(new Date(Date.parse(row!.createdAt) + 3_600_000).toISOString());
    expect(row!.sla.resolution.dueAt).toBe(new Date(Date.parse(row!.createdAt) + 2 * 3_600_000).toISOString());
    // Turned off: no clock for views that set none.
    await engine.invoke('tickets.setSlaDefaults', { firstReplyHours: null, resolutionHours: null });
    const [again] = await open();
    expect(again!.sla.resolution.state).toBe('none');
    expect(again!.sla.firstReply.state).not.toBe('none');
  });

  it('are kept per tenant, and refuse a target that is not a positive number of hours up to a year', async () => {
    await engine.invoke('tickets.setSlaDefaults', { firstReplyHours: 8, resolutionHours: null });
    const other = await engine.invoke('profiles.add', {
      name: 'Second tenant',
      baseUrl: server.url,
      org: server.org,
      username: server.user,
    });
    expect(await engine.invoke('tickets.slaDefaults', { profileId: other.id })).toEqual({
      firstReplyHours: null,
      resolutionHours: null,
    });
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: 8, resolutionHours: null });
    for (const hours of [0, -1, 24 * 365 + 1]) {
      await expect(
        engine.invoke('tickets.setSlaDefaults', { firstReplyHours: hours, resolutionHours: null }),
      ).rejects.toMatchObject({ code: 'validation', issues: [{ path: 'firstReplyHours' }] });
    }
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: 8, resolutionHours: null });
  });

  it('are not a view: deleting views cannot remove them, and only saved views can be deleted', async () => {
    await engine.invoke('tickets.setSlaDefaults', { firstReplyHours: 6, resolutionHours: 48 });
    for (const id of ['sla-defaults', 'open', 'all'])
      await expect(engine.invoke('tickets.deleteView', { id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await engine.invoke('tickets.slaDefaults', {})).toEqual({ firstReplyHours: 6, resolutionHours: 48 });
    expect((await engine.invoke('tickets.views', {})).views.map((view) => view.id)).not.toContain('sla-defaults');
  });
});

describe('saved-view dates', async () => {
  const r = await rig();
  const { engine, server, dataDir, profileId } = r;
  // 20:00 UTC on 1 November is 09:00 on 2 November in Auckland (NZDT, UTC+13).
  const late = server.db
    .prepare(`SELECT id FROM support_tickets WHERE org = ? ORDER BY id LIMIT 1`)
    .pluck()
    .get(server.org) as number;
  server.db.prepare('UPDATE support_tickets SET created_at = ? WHERE id = ?').run('2026-11-01T20:00:00Z', late);
  await engine.invoke('tickets.sync', { wait: true });
  const createdOn = async (day: string) =>
    (
      await engine.invoke('tickets.list', { view: 'all', filter: { createdFrom: day, createdTo: day }, limit: 1000 })
    ).rows.map((t) => t.id);

  it('refuses impossible dates with a clear message', async () => {
    for (const date of ['2026-02-30', '2026-13-01', '2025-02-29', '2026-04-31']) {
      await expect(engine.invoke('tickets.saveView', { name: 'Bad', filter: { createdFrom: date } })).rejects.toThrow(
        `Invalid date format: '${date}' is not a date (use YYYY-MM-DD)`,
      );
      await expect(engine.invoke('tickets.list', { view: 'all', filter: { createdTo: date } })).rejects.toThrow(
        `'${date}' is not a date`,
      );
    }
    // Real days, leap day included, are fine.
    await expect(
      engine.invoke('tickets.saveView', {
        name: 'Leap',
        filter: { createdFrom: '2028-02-29', createdTo: '2028-03-01' },
      }),
    ).resolves.toMatchObject({ filter: { createdFrom: '2028-02-29', createdTo: '2028-03-01' } });
  });

  it("refuses a view whose 'from' is after its 'to', at the 'to' field, and keeps nothing", async () => {
    const before = (await engine.invoke('tickets.views', {})).views.length;
    const refusal = engine.invoke('tickets.saveView', {
      name: 'Impossible',
      filter: { createdFrom: '2026-05-02', createdTo: '2026-05-01' },
    });
    await expect(refusal).rejects.toMatchObject({
      code: 'validation',
      issues: [
        {
          path: 'filter.createdTo',
          message: 'Invalid date range: the start date 2026-05-02 is after the end date 2026-05-01',
        },
      ],
    });
    expect((await engine.invoke('tickets.views', {})).views.length).toBe(before);
    // Changing a saved view into an impossible one is refused the same way (the view keeps its dates).
    const view = await engine.invoke('tickets.saveView', { name: 'May', filter: { createdFrom: '2026-05-01' } });
    await expect(
      engine.invoke('tickets.saveView', {
        id: view.id,
        filter: { createdFrom: '2026-05-03', createdTo: '2026-05-01' },
      }),
    ).rejects.toThrow('the start date 2026-05-03 is after the end date 2026-05-01');
    expect((await engine.invoke('tickets.views', {})).views.find((v) => v.id === view.id)!.filter).toEqual({
      createdFrom: '2026-05-01',
    });
    // One day (from = to) is a real range.
    await expect(
      engine.invoke('tickets.saveView', {
        name: 'One day',
        filter: { createdFrom: '2026-05-01', createdTo: '2026-05-01' },
      }),
    ).resolves.toMatchObject({ filter: { createdFrom: '2026-05-01', createdTo: '2026-05-01' } });
  });

  it('a view saved with an impossible date before dates were checked keeps the rest of its filter', async () => {
    const db = new Database(join(dataDir, 'mentor-admin.sqlite'));
    try {
      db.prepare(
        `INSERT INTO ticket_views (profile_id, id, name, filter, sort, created_at) VALUES (?, 'saved:900', 'Old', ?, NULL, ?)`,
      ).run(profileId, JSON.stringify({ statuses: ['closed'], createdTo: '2026-02-30' }), new Date().toISOString());
      // And one saved before ranges were checked: its 'to' (the field refused) goes, its 'from' stays.
      db.prepare(
        `INSERT INTO ticket_views (profile_id, id, name, filter, sort, created_at) VALUES (?, 'saved:901', 'Backwards', ?, NULL, ?)`,
      ).run(
        profileId,
        JSON.stringify({ statuses: ['closed'], createdFrom: '2026-03-02', createdTo: '2026-03-01' }),
        new Date().toISOString(),
      );
    } finally {
      db.close();
    }
    const backwards = (await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'saved:901')!;
    expect(backwards.filter).toEqual({ statuses: ['closed'], createdFrom: '2026-03-02' });
    const old = (await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'saved:900')!;
    expect(old.filter).toEqual({ statuses: ['closed'] });
    expect(old.count).toBe(
      server.db
        .prepare(`SELECT count(*) FROM support_tickets WHERE org = ? AND status = 'closed'`)
        .pluck()
        .get(server.org),
    );
  });

  it("compares the admin's local day, not the UTC day", async () => {
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Auckland';
      expect(await createdOn('2026-11-02')).toContain(late);
      expect(await createdOn('2026-11-01')).not.toContain(late);
      process.env.TZ = 'UTC';
      expect(await createdOn('2026-11-01')).toContain(late);
      expect(await createdOn('2026-11-02')).not.toContain(late);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('the ticket and its thread', async () => {
  const r = await rig();
  const { engine, server } = r;
  await engine.invoke('tickets.sync', { wait: true });

  it('tells requester, staff and system messages apart, in time order', async () => {
    const closed = (await engine.invoke('tickets.list', { view: 'closed', limit: 50 })).rows.find(
      (t) => t.messageCount >= 4,
    )!;
    const { ticket, messages } = await engine.invoke('tickets.get', { id: closed.id, refresh: true });
    expect(messages.map((m) => m.timestamp)).toEqual([...messages.map((m) => m.timestamp)].sort());
    expect(messages[0]!.senderKind).toBe('system');
    expect(messages.some((m) => m.senderKind === 'requester' && m.sender === ticket.requester.userId)).toBe(true);
    expect(messages.some((m) => m.senderKind === 'staff')).toBe(true);
    expect(ticket.descriptionDoc.length).toBeGreaterThan(0);
  });

  it('serves the hostile descriptions of the seed as safe rich text', async () => {
    const hostile = server.db
      .prepare(`SELECT id FROM support_tickets WHERE description LIKE '%<script>%' LIMIT 1`)
      .get() as { id: number };
    const { ticket } = await engine.invoke('tickets.get', { id: hostile.id });
    expect(JSON.stringify(ticket.descriptionDoc)).not.toMatch(/script|alert/);
    expect(ticket.removed).toContain('script');
    expect(ticket.description).toContain('<script>');
  });

  it('shows the learner chat session beside the ticket, or says why not', async () => {
    const withSession = server.db
      .prepare(
        `SELECT t.id FROM support_tickets t JOIN chat_sessions s ON s.session_id = t.session WHERE t.org = ? LIMIT 1`,
      )
      .get(server.org) as { id: number };
    const chat = await engine.invoke('tickets.conversation', { id: withSession.id });
    expect(chat.available).toBe(true);
    expect(chat.messages.some((m) => m.role === 'learner')).toBe(true);
    const orphan = server.db
      .prepare(
        `SELECT t.id FROM support_tickets t WHERE t.org = ? AND NOT EXISTS (SELECT 1 FROM chat_sessions s WHERE s.session_id = t.session) LIMIT 1`,
      )
      .get(server.org) as { id: number } | undefined;
    if (orphan) {
      const none = await engine.invoke('tickets.conversation', { id: orphan.id });
      expect(none.available).toBe(false);
      expect(none.reason).toMatch(/no transcript/i);
    }
  });

  it('reads a 10,000-message thread in slices', async () => {
    const id = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows[0]!.id;
    const insert = server.db.prepare(
      'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
    );
    const start = Date.parse('2026-11-01T13:00:00Z');
    server.db.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        insert.run(id, server.org, null, `Automated note ${i} 🤖 ملاحظة`, new Date(start + i * 1000).toISOString());
      }
    })();
    const started = performance.now();
    const detail = await engine.invoke('tickets.get', { id, refresh: true });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(detail.messageTotal).toBeGreaterThanOrEqual(10_000);
    expect(detail.messages).toHaveLength(200);
    expect(detail.messages[199]!.message).toBe('Automated note 9999 🤖 ملاحظة');
    const earlier = await engine.invoke('tickets.messages', { id, before: detail.messageTotal - 200, limit: 1000 });
    expect(earlier.messages).toHaveLength(1000);
    expect(earlier.start).toBe(detail.messageTotal - 1200);
    expect(earlier.messages[999]!.message).toBe('Automated note 9799 🤖 ملاحظة');
    // The cached thread answers without the server.
    const cachedStart = performance.now();
    await engine.invoke('tickets.get', { id });
    expect(performance.now() - cachedStart).toBeLessThan(500);
  });

  it('replies (emoji and right-to-left intact), clears the draft, and the server has it', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'open', limit: 5 })).rows[2]!;
    const opened = await engine.invoke('tickets.get', { id: t.id, refresh: true });
    await engine.invoke('tickets.saveDraft', { id: t.id, text: 'draft in progress' });
    expect((await engine.invoke('tickets.get', { id: t.id })).ticket.draft).toBe('draft in progress');
    const message = 'مرحباً Uma 👋 — we are on it 🎉';
    const outcome = await engine.invoke('tickets.reply', {
      id: t.id,
      message,
      seen: { updatedAt: opened.ticket.updatedAt, messageCount: opened.messageTotal },
    });
    expect(outcome.state).toBe('sent');
    expect(outcome.sent).toMatchObject({ message, senderKind: 'staff', mine: true });
    expect(serverMessages(server, t.id).at(-1)!.message).toBe(message);
    const after = await engine.invoke('tickets.get', { id: t.id });
    expect(after.ticket.draft).toBeNull();
    expect(after.messages.at(-1)!.message).toBe(message);
    // Replying is not "new activity" for the one who replied.
    expect(after.ticket.unread).toBe(false);
  });

  it('warns before sending when the ticket changed since it was opened; sends when told to', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'open', limit: 5 })).rows[3]!;
    const opened = await engine.invoke('tickets.get', { id: t.id, refresh: true });
    // The learner writes meanwhile.
    server.db
      .prepare(
        'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
      )
      .run(t.id, server.org, t.requester.userId, 'Actually, never mind!', new Date().toISOString());
    const seen = { updatedAt: opened.ticket.updatedAt, messageCount: opened.messageTotal };
    const before = serverMessages(server, t.id).length;
    const outcome = await engine.invoke('tickets.reply', { id: t.id, message: 'Fixed it for you.', seen });
    expect(outcome.state).toBe('changed');
    expect(outcome.message).toMatch(/changed on the server/);
    expect(serverMessages(server, t.id)).toHaveLength(before);
    // The new message is in the cache now, the reply waits (draft kept).
    const now = await engine.invoke('tickets.get', { id: t.id });
    expect(now.messages.at(-1)!.message).toBe('Actually, never mind!');
    expect(now.ticket.draft).toBe('Fixed it for you.');
    expect(now.queued.map((q) => q.state)).toEqual(['paused']);
    const forced = await engine.invoke('tickets.reply', { id: t.id, message: 'Fixed it for you.', seen, force: true });
    expect(forced.state).toBe('sent');
    expect(serverMessages(server, t.id).at(-1)!.message).toBe('Fixed it for you.');
    expect((await engine.invoke('tickets.get', { id: t.id })).queued).toEqual([]);
  });

  it('sets in progress, closes through close/ (resolved_at), reopens, and edits the subject', async () => {
    const [a, b] = (await engine.invoke('tickets.list', { view: 'open', limit: 2 })).rows;
    const progress = await engine.invoke('tickets.setStatus', { ids: [a!.id, b!.id], status: 'in_progress' });
    expect(progress.results.map((x) => x.ok)).toEqual([true, true]);
    expect(serverTicket(server, a!.id)!.status).toBe('in_progress');
    const closed = await engine.invoke('tickets.setStatus', { ids: [a!.id, b!.id], status: 'closed' });
    expect(closed.results.every((x) => x.ok && x.ticket!.status === 'closed' && x.ticket!.resolvedAt)).toBe(true);
    expect(serverTicket(server, b!.id)!.resolved_at).not.toBeNull();
    const reopened = await engine.invoke('tickets.setStatus', { ids: [a!.id], status: 'open' });
    expect(reopened.results[0]!.ticket!.status).toBe('open');
    const edited = await engine.invoke('tickets.update', { id: a!.id, subject: '  Refund — تم 💸  ' });
    expect(edited.subject).toBe('Refund — تم 💸');
    expect(serverTicket(server, a!.id)!.subject).toBe('Refund — تم 💸');
    await expect(engine.invoke('tickets.update', { id: a!.id, subject: 'x'.repeat(256) })).rejects.toThrow(/255/);
  });

  it('counts a subject as the platform does: 255 emoji fit (510 UTF-16 units), 256 do not', async () => {
    const [a] = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows;
    const emoji = '💸'.repeat(255);
    await expect(engine.invoke('tickets.update', { id: a!.id, subject: emoji })).resolves.toMatchObject({
      subject: emoji,
    });
    expect(serverTicket(server, a!.id)!.subject).toBe(emoji);
    await expect(engine.invoke('tickets.update', { id: a!.id, subject: `${emoji}💸` })).rejects.toMatchObject({
      code: 'validation',
      issues: [{ path: 'subject', message: 'Invalid request data: subject must have at most 255 characters' }],
    });
    expect(serverTicket(server, a!.id)!.subject).toBe(emoji);
  });

  it('sends a reply of any length the platform takes (no 20,000-character cap of its own), draft included', async () => {
    const [t] = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows;
    const long = `${'A long, careful answer. '.repeat(2500)}The end.`;
    expect(long.length).toBeGreaterThan(20_000);
    await engine.invoke('tickets.saveDraft', { id: t!.id, text: long });
    expect((await engine.invoke('tickets.get', { id: t!.id })).ticket.draft).toBe(long);
    const sent = await engine.invoke('tickets.reply', { id: t!.id, message: long, force: true });
    expect(sent.state).toBe('sent');
    expect(serverMessages(server, t!.id).at(-1)!.message).toBe(long);
  });
});

describe('bad input: deleted tickets, 403 and 404', async () => {
  const r = await rig();
  const { engine, server } = r;
  await engine.invoke('tickets.sync', { wait: true });

  it('a ticket deleted on the server while open: a clear answer, the draft kept', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows[0]!;
    const opened = await engine.invoke('tickets.get', { id: t.id, refresh: true });
    await engine.invoke('tickets.saveDraft', { id: t.id, text: 'Half-written answer' });
    server.db.prepare('DELETE FROM support_tickets WHERE id = ?').run(t.id);
    const outcome = await engine.invoke('tickets.reply', {
      id: t.id,
      message: 'Half-written answer, finished',
      seen: { updatedAt: opened.ticket.updatedAt, messageCount: opened.messageTotal },
    });
    expect(outcome.state).toBe('failed');
    expect(outcome.message).toMatch(/deleted on the server.*draft is kept/);
    // Gone from the queue, but the words are still here.
    expect((await engine.invoke('tickets.list', { view: 'open', limit: 500 })).rows.map((x) => x.id)).not.toContain(
      t.id,
    );
    const draft = r.engine.invoke('tickets.saveDraft', { id: t.id, text: 'Half-written answer, finished' });
    await expect(draft).resolves.toEqual({ ok: true });
    const refused = await engine.invoke('tickets.get', { id: t.id, refresh: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BridgeCallError);
    expect((refused as BridgeCallError).code).toBe('not_found');
    expect((refused as Error).message).toMatch(/deleted on the server/);
  });

  it('closing a deleted ticket fails for that ticket only (bulk)', async () => {
    const [a, b] = (await engine.invoke('tickets.list', { view: 'open', limit: 2 })).rows;
    server.db.prepare('DELETE FROM support_tickets WHERE id = ?').run(a!.id);
    const { results } = await engine.invoke('tickets.setStatus', { ids: [a!.id, b!.id], status: 'closed' });
    expect(results[0]).toMatchObject({ id: a!.id, ok: false });
    expect(results[0]!.error).toMatch(/deleted on the server/);
    expect(results[1]).toMatchObject({ id: b!.id, ok: true });
  });

  it('401: a refused key says what to do, and the cached queue stays readable', async () => {
    const refused = await rig();
    await refused.engine.invoke('tickets.sync', { wait: true });
    // The key is revoked on the platform.
    refused.server.db.prepare('DELETE FROM api_keys').run();
    const status = await refused.engine.invoke('tickets.sync', { wait: true });
    expect(status.state).toBe('error');
    expect(status.message).toMatch(/refused the ticket list \(40[13] .*Settings → Tenants/);
    expect((await refused.engine.invoke('tickets.list', { view: 'all', limit: 1 })).total).toBe(300);
  });

  it('404: an id that never existed', async () => {
    await expect(engine.invoke('tickets.get', { id: 987_654 })).rejects.toThrow(
      /#987654 was deleted on the server \(or never existed\)/,
    );
    await expect(engine.invoke('tickets.delete', { id: 987_654 })).resolves.toEqual({ ok: true });
  });

  it('notices tickets deleted on the server at the next sync', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'closed', limit: 1 })).rows[0]!;
    server.db.prepare('DELETE FROM support_tickets WHERE id = ?').run(t.id);
    await engine.invoke('tickets.sync', { wait: true });
    await expect
      .poll(async () => (await engine.invoke('tickets.list', { view: 'closed', limit: 1000 })).rows.map((x) => x.id))
      .not.toContain(t.id);
  });

  it('deletes a ticket', async () => {
    const t = (await engine.invoke('tickets.list', { view: 'closed', limit: 1 })).rows[0]!;
    await engine.invoke('tickets.delete', { id: t.id });
    expect(serverTicket(server, t.id)).toBeUndefined();
  });

  it('403: a learner key may read its own tickets but not change their status or delete them', async () => {
    const learner = await rig({ key: 'student' });
    await learner.engine.invoke('tickets.sync', { wait: true });
    const own = (await learner.engine.invoke('tickets.list', { view: 'all' })).rows;
    const theirs = learner.server.db
      .prepare('SELECT count(*) AS n FROM support_tickets WHERE username = ?')
      .get(learner.server.studentUser) as { n: number };
    expect(own.length).toBe(theirs.n);
    expect(own.every((t) => t.requester.username === learner.server.studentUser)).toBe(true);
    const open = own.find((t) => t.status !== 'closed')!;
    const { results } = await learner.engine.invoke('tickets.setStatus', { ids: [open.id], status: 'in_progress' });
    expect(results[0]!.ok).toBe(false);
    expect(results[0]!.error).toMatch(/403 Forbidden/);
    const refused = await learner.engine.invoke('tickets.delete', { id: open.id }).catch((e: unknown) => e);
    expect((refused as BridgeCallError).status).toBe(403);
    expect(serverTicket(learner.server, open.id)).toBeDefined();
  });
});

describe('live', () => {
  it('a new ticket filed on the server appears in the open queue without a reload', async () => {
    const r = await rig({ simulateRate: 240 });
    await r.engine.invoke('tickets.sync', { wait: true });
    const before = new Set(
      (await r.engine.invoke('tickets.list', { view: 'open', limit: 1000 })).rows.map((t) => t.id),
    );
    const status = await r.engine.invoke('tickets.watch', { visible: true });
    expect(status.pollMs).toBeGreaterThan(0);
    const arrived = await r.next('tickets.new', (p) => p.tickets.length > 0, 20_000);
    const open = await r.engine.invoke('tickets.list', { view: 'open', limit: 1000 });
    const fresh = arrived.tickets[0]!;
    expect(before.has(fresh.id)).toBe(false);
    expect(open.rows.map((t) => t.id)).toContain(fresh.id);
    const row = open.rows.find((t) => t.id === fresh.id)!;
    expect(row.unread).toBe(true);
    expect((await r.engine.invoke('tickets.views', {})).newCount).toBeGreaterThan(0);
    // Hidden window: polling pauses.
    const hidden = await r.engine.invoke('tickets.watch', { visible: false });
    expect(hidden.pollMs).toBe(0);
  });

  it('a learner message on a cached ticket reaches its thread at the next poll and marks it unread until opened', async () => {
    const r = await rig();
    const { engine, server } = r;
    await engine.invoke('tickets.sync', { wait: true });
    const id = server.db
      .prepare(`SELECT id FROM support_tickets WHERE org = ? AND username = ? AND status = 'open' ORDER BY id LIMIT 1`)
      .pluck()
      .get(server.org, server.studentUser) as number;
    const unread = async () =>
      (await engine.invoke('tickets.list', { view: 'open', limit: 1000 })).rows.find((t) => t.id === id)!.unread;
    const opened = await engine.invoke('tickets.get', { id, refresh: true, markRead: true });
    expect(await unread()).toBe(false);

    // The learner writes again, through the platform as the learner would.
    const text = 'Still stuck — any news? 🙏 لا يزال';
    const posted = await call(
      server,
      'POST',
      `/api/ai-mentor/orgs/${server.org}/users/${server.studentUser}/support-ticket-messages/`,
      {
        key: server.studentKey,
        json: { ticket: id, message: text },
      },
    );
    expect(posted.status).toBe(201);

    // The next poll brings it into the cached thread: read from the cache, not asked of the server.
    const changed = r.next('tickets.changed', (p) => p.ids === null || p.ids.includes(id));
    await engine.invoke('tickets.watch', { visible: true });
    await changed;
    const cached = await engine.invoke('tickets.get', { id });
    expect(cached.messageTotal).toBe(opened.messageTotal + 1);
    expect(cached.messages.at(-1)).toMatchObject({ message: text });
    expect(await unread()).toBe(true);
    const openView = (await engine.invoke('tickets.views', {})).views.find((v) => v.id === 'open')!;
    expect(openView.unread).toBeGreaterThan(0);

    // Opening it clears the marker, and the queue hears of it; reading it again announces nothing.
    const cleared = r.next('tickets.changed', (p) => p.ids?.includes(id) ?? false);
    await engine.invoke('tickets.get', { id, markRead: true });
    await cleared;
    expect(await unread()).toBe(false);
    const after = r.events.length;
    await engine.invoke('tickets.get', { id, markRead: true });
    expect(r.events.slice(after).filter((e) => e.name === 'tickets.changed')).toEqual([]);
    await engine.invoke('tickets.watch', { visible: false });
  });

  it('reports the slower idle pace after a quiet poll', async () => {
    const r = await rig();
    await r.engine.invoke('tickets.sync', { wait: true });
    const first = await r.engine.invoke('tickets.watch', { visible: true });
    expect(first.pollMs).toBe(5000);
    await expect.poll(async () => (await r.engine.invoke('tickets.status', {})).pollMs, { timeout: 5000 }).toBe(7500);
    await r.engine.invoke('tickets.watch', { visible: false });
  });
});

describe('a tenant that keeps answering 429', () => {
  it('a sync refused with 429 past its retries keeps the cached queue, as when the tenant is unreachable', async () => {
    const r = await rig();
    const { engine, server } = r;
    await engine.invoke('tickets.sync', { wait: true });
    const before = await engine.invoke('tickets.list', { view: 'open', limit: 5 });
    server.setFaults(
      `refusePath=/api/ai-mentor/orgs/${server.org}/users/${server.user}/support-tickets/:429:Slow down`,
    );
    const sync = await engine.invoke('tickets.sync', { wait: true });
    expect(sync.state).toBe('offline');
    expect(sync.message).toMatch(/^The tenant asks to come back later[\s\S]*showing the cached queue$/);
    expect((await engine.invoke('tickets.list', { view: 'open', limit: 5 })).rows).toEqual(before.rows);
    server.setFaults('');
  });

  it('a reply refused with 429 past its retries waits in the journal (it was not taken) and goes out once the tenant takes it', async () => {
    const r = await rig();
    const { engine, server } = r;
    await engine.invoke('tickets.sync', { wait: true });
    const t = (await engine.invoke('tickets.list', { view: 'open', limit: 1 })).rows[0]!;
    // The sandbox's fault injection: every request to the messages path is refused "too many requests".
    const messages = `/api/ai-mentor/orgs/${server.org}/users/${server.user}/support-ticket-messages/`;
    server.setFaults(`refusePath=${messages}:429:Rate limit exceeded`);
    const outcome = await engine.invoke('tickets.reply', { id: t.id, message: 'Sent when you can 🕰', waitMs: 20_000 });
    expect(outcome.state).toBe('queued');
    expect((await engine.invoke('jobs.get', { id: outcome.jobId })).state).toBe('waiting');
    // Kept until it is sent.
    expect((await engine.invoke('tickets.get', { id: t.id })).ticket.draft).toBe('Sent when you can 🕰');

    server.setFaults('');
    await engine.invoke('tickets.watch', { visible: true });
    await expect
      .poll(() => serverMessages(server, t.id).at(-1)?.message, { timeout: 30_000, interval: 250 })
      .toBe('Sent when you can 🕰');
    await expect.poll(async () => (await engine.invoke('jobs.get', { id: outcome.jobId })).state).toBe('completed');
    expect(serverMessages(server, t.id).filter((m) => m.message === 'Sent when you can 🕰')).toHaveLength(1);
    expect((await engine.invoke('tickets.get', { id: t.id })).ticket.draft).toBe(null);
    await engine.invoke('tickets.watch', { visible: false });
  });
});

describe('offline', () => {
  it('keeps the cached queue readable, queues replies in the journal and sends them on reconnect after the change check; one it paused is sent anyway when the admin says so', async () => {
    const r = await rig();
    const { engine, server, profileId } = r;
    await engine.invoke('tickets.sync', { wait: true });
    const [t, u] = (await engine.invoke('tickets.list', { view: 'open', limit: 2 })).rows;
    const opened = await engine.invoke('tickets.get', { id: t!.id, refresh: true });
    const openedU = await engine.invoke('tickets.get', { id: u!.id, refresh: true });

    // The tenant goes away (nothing listens on port 9).
    await engine.invoke('profiles.update', { id: profileId, baseUrl: 'http://127.0.0.1:9' });
    const sync = await engine.invoke('tickets.sync', { wait: true });
    expect(sync.state).toBe('offline');
    expect(sync.message).toMatch(/unreachable.*cached/);
    const cached = await engine.invoke('tickets.list', { view: 'open', search: t!.subject.split(' ')[0], limit: 500 });
    expect(cached.rows.map((x) => x.id)).toContain(t!.id);
    const detail = await engine.invoke('tickets.get', { id: t!.id, refresh: true });
    expect(detail.offline).toMatch(/unreachable/);
    expect(detail.messages.length).toBe(opened.messages.length);

    const outcome = await engine.invoke('tickets.reply', {
      id: t!.id,
      message: 'Written on the train 🚆',
      seen: { updatedAt: opened.ticket.updatedAt, messageCount: opened.messageTotal },
      waitMs: 6000,
    });
    expect(outcome.state).toBe('queued');
    // A second one, on a ticket that will change meanwhile: it must not go out blindly.
    const other = await engine.invoke('tickets.reply', {
      id: u!.id,
      message: 'Also written offline',
      seen: { updatedAt: openedU.ticket.updatedAt, messageCount: openedU.messageTotal },
      waitMs: 0,
    });
    expect(other.state).toBe('queued');
    expect((await engine.invoke('tickets.get', { id: t!.id })).queued[0]).toMatchObject({
      message: 'Written on the train 🚆',
    });
    server.db
      .prepare(
        'INSERT INTO support_ticket_messages (ticket_id, org, sender, message, timestamp) VALUES (?, ?, ?, ?, ?)',
      )
      .run(u!.id, server.org, u!.requester.userId, 'Are you there?', new Date().toISOString());

    // Back online: the journal sends what is safe to send.
    await engine.invoke('profiles.update', { id: profileId, baseUrl: server.url });
    await engine.invoke('tickets.watch', { visible: true });
    await expect
      .poll(() => serverMessages(server, t!.id).at(-1)?.message, { timeout: 20_000, interval: 250 })
      .toBe('Written on the train 🚆');
    await expect
      .poll(async () => (await engine.invoke('tickets.get', { id: u!.id })).queued[0]?.state, { timeout: 20_000 })
      .toBe('paused');
    expect(serverMessages(server, u!.id).at(-1)!.message).toBe('Are you there?');
    expect((await engine.invoke('tickets.get', { id: t!.id })).queued).toEqual([]);
    const paused = (await engine.invoke('tickets.get', { id: u!.id })).queued[0]!;
    expect(paused).toMatchObject({ jobId: other.jobId, changed: true, reason: expect.stringMatching(/send anyway/) });

    // The admin reads what changed and sends it anyway: the same job goes out, past the change check.
    const sent = await engine.invoke('tickets.sendQueued', { jobId: paused.jobId });
    expect(sent).toMatchObject({ state: 'sent', jobId: other.jobId, sent: { message: 'Also written offline' } });
    expect(serverMessages(server, u!.id).at(-1)!.message).toBe('Also written offline');
    expect(serverMessages(server, u!.id).filter((m) => m.message === 'Also written offline')).toHaveLength(1);
    expect((await engine.invoke('tickets.get', { id: u!.id })).queued).toEqual([]);
    expect((await engine.invoke('jobs.get', { id: other.jobId })).state).toBe('completed');
    // Only a reply waiting for that decision can be sent anyway.
    await expect(engine.invoke('tickets.sendQueued', { jobId: other.jobId })).rejects.toThrow(
      /not waiting for a decision/,
    );
    await expect(engine.invoke('tickets.sendQueued', { jobId: 'no-such-job' })).rejects.toThrow(/No queued reply/);
    await engine.invoke('tickets.watch', { visible: false });
  });
});
