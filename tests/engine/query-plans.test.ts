/**
 * The hot queries read through indexes, never by scanning a whole table: the ticket queue (every view, order and
 * filter, searches with few and many hits, the view counts, a ticket and its thread, the sync's writes), the job
 * journal (lists, items, totals) and the exports list. The queries are the engine's own, recorded as it answers real
 * calls over a database built by the real migrations and filled the real way: two tenants' tickets synced from two
 * demo sandboxes, local claims, tags and read marks, a real export, and journals of thousands of items written by
 * the job store. Every statement the engine ran on its database is then explained (EXPLAIN QUERY PLAN, with its own
 * parameters).
 *
 * The app never gathers statistics (no ANALYZE), so SQLite plans from the schema alone, the same at any size: these
 * are the plans it runs. (With statistics it may rightly prefer reading a small table whole, so such a test would be
 * about the data's size, not about the indexes.)
 */
import Database, { type Statement } from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/main/engine';
import { JobJournal, type NewItem } from '../../src/main/engine/jobs/journal';
import { openDatabase } from '../../src/main/engine/store/database';
import type { CallInput, CallName } from '../../src/shared/contract';
import { connect, waitForJob } from '../helpers/engine';
import { sandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/temp';

/** The tables that grow with use: none of them may be read whole. */
const HOT_TABLES = ['ticket_cache', 'ticket_messages', 'ticket_local', 'jobs', 'job_items', 'analytics_cache'];

interface Recorded {
  sql: string;
  args: unknown[];
  /** Which call ran it. */
  call: string;
}

/**
 * Every statement run on the database in `file` while `body` runs (better-sqlite3's statements share one class; the
 * sandboxes' own databases are left out).
 */
async function recordStatements(
  file: string,
  call: string,
  body: () => Promise<unknown>,
  into: Recorded[],
): Promise<void> {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: Statement, ...args: unknown[]) {
      if (this.database.name === file) into.push({ sql: this.source, args, call });
      return original.apply(this, args);
    };
  }
  try {
    await body();
  } finally {
    for (const [method, original] of originals) proto[method] = original;
  }
}

const EXPLAINABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|REPLACE)\b/i;

/** The plan's lines, with the tables its aliases stand for (`SCAN t` reads ticket_cache when `t` is its alias). */
function explain(db: Database.Database, query: Recorded): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.args) as { detail: string }[];
  const aliases = new Map<string, string>();
  for (const [, table, alias] of query.sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    if (alias && !/^(ON|WHERE|JOIN|LEFT|CROSS|INNER|GROUP|ORDER|LIMIT|USING|SET)$/i.test(alias))
      aliases.set(alias, table!);
  }
  return rows.map(({ detail }) =>
    detail.replace(/^(SCAN|SEARCH) (\w+)/, (whole, verb: string, name: string) =>
      aliases.has(name) ? `${verb} ${aliases.get(name)} AS ${name}` : whole,
    ),
  );
}

/** A plan line that reads a hot table row by row from the first to the last. */
const fullScan = (line: string) =>
  HOT_TABLES.some((table) => new RegExp(`^SCAN ${table}\\b`).test(line)) && !/ USING (COVERING )?INDEX /.test(line);

let engine: Engine;
let dataDir: string;
const databaseFile = () => join(dataDir, 'mentor-admin.sqlite');
const queries: Recorded[] = [];
/**
 * Pages of long lists in their own order (the ticket queue's views, a job's items, the jobs and exports lists): read
 * from an index in that order up to the page's end, never sorted whole. A search, or a view as narrow as "mine"
 * (led by the claims' index), may sort what it found.
 */
const orderedPages: Recorded[] = [];

async function record<N extends CallName>(name: N, input: CallInput<N>, options: { page?: RegExp } = {}) {
  const before = queries.length;
  await recordStatements(databaseFile(), `${name} ${JSON.stringify(input)}`, () => engine.invoke(name, input), queries);
  if (options.page) orderedPages.push(...queries.slice(before).filter((query) => options.page!.test(query.sql)));
}

const PAGE = /ORDER BY[^()]*LIMIT/;

/** Journals as big as real ones: a 5,000-file training, a 2,000-row import, a 400-page export, 40 small jobs. */
function writeJournals(file: string, profileIds: string[]) {
  const db = openDatabase(file);
  const store = new JobJournal(db);
  const states = ['done', 'done', 'done', 'failed', 'skipped', 'pending'] as const;
  const items = (count: number, key: (i: number) => string): NewItem[] =>
    Array.from({ length: count }, (_, i) => ({
      key: key(i),
      label: key(i),
      state: states[i % states.length],
      bytes: 1000 + i,
      ...(i % 6 === 3 ? { error: `Upload refused (${i})` } : {}),
    }));
  store.create({
    kind: 'train',
    profileId: profileIds[0]!,
    title: 'Calculus notes',
    params: { mentor: 'm' },
    items: items(5000, (i) => `notes/week-${Math.floor(i / 100)}/note-${i}.md`),
    state: 'failed',
  });
  store.create({
    kind: 'invite',
    profileId: profileIds[1]!,
    title: 'Spring cohort',
    params: {},
    items: items(2000, (i) => `learner${i}@example.org platform`),
    state: 'completed',
  });
  store.create({
    kind: 'export',
    profileId: profileIds[0]!,
    title: 'Chat history',
    params: { dataset: 'chat-history', path: '/tmp/chat-history.csv', scheduleId: 'weekly' },
    items: [
      { key: 'file', label: '/tmp/chat-history.csv' },
      ...items(400, (i) => `page:${String(i).padStart(6, '0')}`),
    ],
    state: 'cancelled',
  });
  for (let j = 0; j < 40; j++) {
    store.create({
      kind: (['train', 'invite', 'export', 'ticket-reply'] as const)[j % 4]!,
      profileId: profileIds[j % 2]!,
      title: `Job ${j}`,
      params: {},
      items: items(5, (i) => `item-${i}`),
      state: (['completed', 'failed', 'cancelled', 'paused'] as const)[j % 4],
    });
  }
  db.close();
}

/** What the screens and the command line ask of the engine, recorded query by query. */
async function recordHotQueries() {
  const mentor = (await engine.invoke('tickets.list', { view: 'all', limit: 1 })).rows[0]!.mentorId;
  const { rows: all } = await engine.invoke('tickets.list', { view: 'all', limit: 50 });
  const word = all[0]!.subject.split(/\s+/).find((w) => w.length > 3)!;

  // The ticket queue: every view in every order, a deep page, each filter, searches with few and many hits.
  for (const view of ['open', 'in_progress', 'closed', 'all', 'mine', `mentor:${mentor}`] as const) {
    for (const sort of ['newest', 'oldest', 'activity', 'waiting'] as const) {
      await record('tickets.list', { view, sort, limit: 50 }, view === 'mine' ? {} : { page: PAGE });
    }
  }
  await record('tickets.list', { view: 'all', sort: 'activity', offset: 250, limit: 50 }, { page: PAGE });
  for (const filter of [
    { requester: 'learner00' },
    { createdFrom: '2026-01-01', createdTo: '2026-12-31' },
    { priority: 'high' as const },
    { tag: 'billing' },
    { unreadOnly: true },
    { text: word },
    { statuses: ['open' as const, 'closed' as const], mentorId: mentor },
  ]) {
    await record('tickets.list', { view: 'all', filter, limit: 50 });
  }
  await record('tickets.list', { view: 'open', search: word, limit: 50 });
  await record('tickets.list', { view: 'all', search: 'zzqx', limit: 50 });
  await record('tickets.views', {});
  await record('tickets.get', { id: all[3]!.id, markRead: true });
  await record('tickets.messages', { id: all[3]!.id });
  await record('tickets.sync', { wait: true });

  // The job journal and the exports.
  const { jobs } = await engine.invoke('jobs.list', { limit: 100 });
  const biggest = jobs.find((job) => job.title === 'Calculus notes')!;
  await record('jobs.list', {}, { page: PAGE });
  await record('jobs.list', { kind: 'train' }, { page: PAGE });
  await record('jobs.list', { states: ['failed', 'paused'] });
  await record('jobs.list', { offset: 20, limit: 20 }, { page: PAGE });
  await record('jobs.get', { id: biggest.id });
  await record('jobs.items', { id: biggest.id }, { page: PAGE });
  await record('jobs.items', { id: biggest.id, offset: 4000, limit: 200 }, { page: PAGE });
  await record('jobs.items', { id: biggest.id, states: ['failed'] });
  await record('jobs.items', { id: biggest.id, search: 'week-7' });
  await record('analytics.exports', {}, { page: PAGE });
  await record('analytics.exports', { scheduleId: 'weekly' }, { page: PAGE });
  const exported = jobs.find((job) => job.kind === 'export' && job.state === 'completed')!;
  await record('analytics.export', { id: exported.id });
}

beforeAll(async () => {
  const [first, second] = await Promise.all([sandbox({ seed: 'demo' }), sandbox({ seed: 'demo' })]);
  const connected = await connect(first!);
  ({ engine, dataDir } = connected);
  const other = await engine.invoke('profiles.add', {
    name: 'Second campus',
    baseUrl: second!.url,
    org: second!.org,
    username: second!.user,
    secret: second!.apiKey,
  });
  const profileIds = [connected.profileId, other.id];
  for (const profileId of profileIds) await engine.invoke('tickets.sync', { profileId, full: true, wait: true });

  // Local fields on a share of the tickets, as support staff leave them.
  const { rows } = await engine.invoke('tickets.list', { view: 'all', limit: 200 });
  const ids = rows.map((row) => row.id);
  await engine.invoke('tickets.setLocal', {
    ids: ids.slice(0, 60),
    assignee: 'me',
    priority: 'high',
    tags: ['billing'],
  });
  await engine.invoke('tickets.setLocal', { ids: ids.slice(60, 90), priority: 'urgent', tags: ['login', 'vip'] });
  await engine.invoke('tickets.markRead', { ids: ids.slice(0, 120), read: true });
  await engine.invoke('tickets.markRead', { ids: ids.slice(120, 130), read: false });
  await engine.invoke('tickets.saveDraft', { id: ids[0]!, text: 'Thanks, looking into it.' });

  // A real export, page by page.
  const started = await engine.invoke('analytics.exportStart', {
    dataset: 'chat-history',
    range: { preset: '30d' },
    timeZone: 'UTC',
    folder: tempDir(),
    pageSize: 20,
  });
  expect((await waitForJob(engine, started.id, ['completed', 'failed', 'cancelled'], 120_000)).state).toBe('completed');
  writeJournals(databaseFile(), profileIds);
  await recordHotQueries();
}, 300_000);

afterAll(async () => {
  await engine?.close();
});

describe('the hot queries', () => {
  it('are recorded from the engine answering the screens and the command line', () => {
    const explained = queries.filter((q) => EXPLAINABLE.test(q.sql));
    expect(new Set(explained.map((q) => q.sql)).size).toBeGreaterThan(40);
    expect(orderedPages.length).toBeGreaterThanOrEqual(25);
  });

  it('use an index and never scan a growing table; pages of long lists are read in order, not sorted', () => {
    const db = new Database(databaseFile());
    try {
      const scans: string[] = [];
      const seen = new Set<string>();
      for (const query of queries) {
        if (!EXPLAINABLE.test(query.sql) || seen.has(query.sql)) continue;
        seen.add(query.sql);
        const plan = explain(db, query);
        if (plan.some(fullScan)) scans.push(`${query.call}\n  ${query.sql.trim()}\n  → ${plan.join('\n  → ')}`);
      }
      expect.soft(scans, `full scans:\n${scans.join('\n\n')}`).toEqual([]);

      const sorted = orderedPages
        .map((query) => ({ query, plan: explain(db, query) }))
        .filter(({ plan }) => plan.some((line) => /USE TEMP B-TREE FOR ORDER BY/.test(line)));
      expect(
        sorted.map(({ query, plan }) => `${query.call}\n  ${query.sql.trim()}\n  → ${plan.join('\n  → ')}`),
        'pages sorted whole',
      ).toEqual([]);
    } finally {
      db.close();
    }
  });
});
