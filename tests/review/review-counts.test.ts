/**
 * The review queue's counts per mentor (kept by migration 024's triggers) and its learner filter (read from the
 * learner and email indexes) must answer exactly what counting the items gives. Here that is computed in plain
 * TypeScript over what was handed to the store, and compared after every kind of change: a sync that replaces the
 * cache (a log moving to another mentor or source, an id listed twice), marks and unmarks, a removed log (its mark
 * kept) coming back, rows written straight into the table, and another tenant removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewStore, type CachedItem } from '../../src/main/engine/review/store';
import { openDatabase, type Db } from '../../src/main/engine/store';
import { REVIEW_SOURCES, type ReviewFilter } from '../../src/shared/contract';

let dir: string;
let db: Db;
let store: ReviewStore;
/** What the store was given, per tenant: the logs by id and the marked ids. */
const model = new Map<string, { logs: Map<string, CachedItem>; marks: Set<string> }>();

function addProfile(id: string): void {
  const at = new Date().toISOString();
  db.prepare(
    `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
       VALUES (?, ?, 'http://127.0.0.1:1', ?, 'admin', 'Api-Key', ?, ?)`,
  ).run(id, id, id, at, at);
  model.set(id, { logs: new Map(), marks: new Set() });
}

const log = (n: number, mentorId: number, safety = n % 3 === 0): CachedItem => ({
  id: `${safety ? 'safety' : 'moderation'}:${n}`,
  source: safety ? 'Safety System' : 'Moderation System',
  logId: n,
  session: null,
  messageIndex: null,
  learner: `learner${n % 7}`,
  email: `person${n % 5}@example.org`,
  mentorId,
  prompt: `Message ${n}`,
  reason: 'Harassment',
  createdAt: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString(),
});

function sync(profileId: string, logs: CachedItem[]): void {
  store.replace(
    profileId,
    logs,
    [1, 2, 3].map((id) => ({ id, uniqueId: `m${id}`, name: `Mentor ${id}` })),
    REVIEW_SOURCES,
  );
  const m = model.get(profileId)!;
  m.logs = new Map(logs.map((l) => [l.id, l]));
}

function mark(profileId: string, ids: string[], reviewed: boolean): void {
  store.mark(profileId, ids, 'admin', reviewed);
  const m = model.get(profileId)!;
  for (const id of ids.filter((id) => m.logs.has(id))) {
    if (reviewed) m.marks.add(id);
    else m.marks.delete(id);
  }
}

const FILTERS: ReviewFilter[] = [
  { state: 'open' },
  { state: 'all' },
  { state: 'reviewed' },
  { state: 'open', sources: ['Safety System'] },
  { state: 'all', mentor: 2 },
  { state: 'open', learner: 'learner3' },
  { state: 'all', learner: 'person4@example.org', sources: ['Moderation System'] },
  { state: 'reviewed', from: '2026-01-02', to: '2026-01-04' },
  { state: 'open', search: 'message 1' },
];

/** The counts per mentor, total and ids the filter gives, by counting the model's logs. */
function expected(profileId: string, filter: ReviewFilter) {
  const { logs, marks } = model.get(profileId)!;
  const matches = [...logs.values()].filter(
    (l) =>
      (!filter.sources || filter.sources.includes(l.source)) &&
      (!filter.learner || l.learner === filter.learner || l.email === filter.learner) &&
      (!filter.from || l.createdAt >= filter.from) &&
      (!filter.to || l.createdAt < `${filter.to}T99`) &&
      (!filter.search || l.prompt.toLowerCase().includes(filter.search)),
  );
  const mentors = new Map<number, { total: number; open: number }>();
  for (const l of matches) {
    const m = mentors.get(l.mentorId) ?? { total: 0, open: 0 };
    m.total++;
    if (!marks.has(l.id)) m.open++;
    mentors.set(l.mentorId, m);
  }
  const shown = matches.filter(
    (l) =>
      (filter.mentor === undefined || l.mentorId === filter.mentor) &&
      (filter.state === 'all' || (filter.state === 'reviewed') === marks.has(l.id)),
  );
  return {
    mentors: [...mentors].map(([id, m]) => ({ id, ...m })).sort((a, b) => a.id - b.id),
    ids: shown.map((l) => l.id).sort(),
  };
}

function check(profileId: string): void {
  for (const filter of FILTERS) {
    const page = store.list(profileId, filter, 0, 5000);
    const want = expected(profileId, filter);
    const got = page.mentors.map((m) => ({ id: m.id, total: m.total, open: m.open })).sort((a, b) => a.id - b.id);
    expect(got, JSON.stringify(filter)).toEqual(want.mentors);
    expect(page.total, JSON.stringify(filter)).toBe(want.ids.length);
    expect(page.items.map((i) => i.id).sort(), JSON.stringify(filter)).toEqual(want.ids);
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'review-counts-'));
  db = openDatabase(join(dir, 'mentor-admin.sqlite'));
  store = new ReviewStore(db);
  addProfile('alpha');
  addProfile('beta');
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review queue counts per mentor', () => {
  it('answer what counting the items gives, through syncs, marks, removals and direct writes', () => {
    const logs = Array.from({ length: 120 }, (_, n) => log(n, (n % 3) + 1));
    sync('alpha', logs);
    sync('beta', logs.slice(0, 40));
    check('alpha');

    mark(
      'alpha',
      logs.filter((_, n) => n % 4 === 0).map((l) => l.id),
      true,
    );
    mark('beta', [logs[0]!.id, logs[1]!.id], true);
    check('alpha');
    check('beta');
    mark('alpha', [logs[0]!.id, logs[8]!.id, 'moderation:99999'], false);
    check('alpha');

    // A sync where logs move to another mentor or source, one is gone (its mark kept) and one id comes twice.
    const moved = logs.slice(1).map((l, n) => (n % 5 === 0 ? { ...l, mentorId: (l.mentorId % 3) + 1 } : l));
    moved.push({ ...moved[3]!, mentorId: 3 });
    sync('alpha', moved);
    check('alpha');

    store.remove('alpha', logs[4]!.id);
    model.get('alpha')!.logs.delete(logs[4]!.id);
    check('alpha');
    // The removed log comes back with the next sync: still reviewed, as its mark was kept.
    sync('alpha', logs);
    model.get('alpha')!.marks.add(logs[4]!.id);
    check('alpha');

    // Rows written straight into the tables (as the benchmark fills the cache) are counted too.
    const extra = log(500, 2);
    db.prepare(
      `INSERT INTO review_items (profile_id, id, source, log_id, learner, email, mentor_id, prompt, reason, created_at)
       VALUES ('alpha', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      extra.id,
      extra.source,
      extra.logId,
      extra.learner,
      extra.email,
      2,
      extra.prompt,
      extra.reason,
      extra.createdAt,
    );
    db.prepare("INSERT INTO review_marks (profile_id, id, reviewed_by, reviewed_at) VALUES ('alpha', ?, 'x', 'y')").run(
      extra.id,
    );
    model.get('alpha')!.logs.set(extra.id, extra);
    model.get('alpha')!.marks.add(extra.id);
    check('alpha');

    // Another tenant's removal touches nothing here; its own counts go with it.
    db.prepare("DELETE FROM profiles WHERE id = 'beta'").run();
    check('alpha');
    expect(db.prepare("SELECT count(*) FROM review_counts WHERE profile_id = 'beta'").pluck().get()).toBe(0);
  });
});
