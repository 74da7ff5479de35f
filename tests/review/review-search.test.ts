/**
 * A text search of the review queue reads its candidates from a trigram index (migration 026) when few items hold
 * the text, and scans otherwise. Either way it must answer what the scan answers ("prompt or reason holds the text,
 * lower-cased"): the same items in the same order, the same total and counts per mentor. The scan is run here as SQL
 * beside the store and compared over searches of every kind (accents, quotes, FTS syntax, short, common), filters,
 * two tenants, and after the items change. The index is shown to be read (an item taken out of the index alone is not
 * found), and the migration keeps a queue cached before it.
 */
import { mkdtempSync, readdirSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewStore, type CachedItem } from '../../src/main/engine/review/store';
import { INDEXED_SEARCH_MOST, openDatabase, type Db } from '../../src/main/engine/store';
import { REVIEW_SOURCES, type ReviewFilter } from '../../src/shared/contract';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '../../src/main/engine/store/migrations');
const WORDS = ['Müller', 'O"Brien', 'AND*NEAR(x)', 'straße', 'İstanbul', 'Zoë', 'prompt injection', 'essay', '数学'];
const REASONS = ['Harassment', 'Self-harm risk', 'Academic dishonesty', 'Rated down by the learner'];

let dir: string;
let db: Db;
let store: ReviewStore;

function addProfile(target: Db, id: string): void {
  const at = new Date().toISOString();
  target
    .prepare(
      `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
       VALUES (?, ?, 'http://127.0.0.1:1', ?, 'admin', 'Api-Key', ?, ?)`,
    )
    .run(id, id, id, at, at);
}

function items(count: number, salt = ''): CachedItem[] {
  return Array.from({ length: count }, (_, n) => {
    const source = REVIEW_SOURCES[n % 3]!;
    const feedback = source === 'Negative feedback';
    return {
      id: feedback ? `feedback:session-${n}` : `${source === 'Safety System' ? 'safety' : 'moderation'}:${n}`,
      source,
      logId: feedback ? null : n,
      session: feedback ? `session-${n}` : null,
      messageIndex: feedback ? 3 : null,
      learner: `learner${n % 11}`,
      email: `learner${n % 11}@example.org`,
      mentorId: (n % 4) + 1,
      prompt: `Message number ${n}${salt}: ${WORDS[n % WORDS.length]} and ${WORDS[(n * 5) % WORDS.length]}`,
      reason: REASONS[n % REASONS.length]!,
      createdAt: new Date(Date.UTC(2026, 0, 1) + n * 600_000).toISOString(),
    };
  });
}

const MENTORS = [1, 2, 3, 4].map((id) => ({ id, uniqueId: `m${id}`, name: `Mentor ${id}` }));

/** The scan the search must equal: ids in the queue's order, and totals per mentor. */
function scan(profileId: string, filter: ReviewFilter & { search: string }) {
  const where = [
    'profile_id = @profileId',
    '(instr(lower(prompt), @search) > 0 OR instr(lower(reason), @search) > 0)',
    ...(filter.sources ? ['source IN (SELECT value FROM json_each(@sources))'] : []),
    ...(filter.learner ? ['(learner = @learner OR email = @learner)'] : []),
    ...(filter.from ? ['created_at >= @from'] : []),
  ].join(' AND ');
  const params = {
    profileId,
    search: filter.search.toLowerCase(),
    sources: JSON.stringify(filter.sources ?? []),
    learner: filter.learner ?? null,
    from: filter.from ?? null,
  };
  const mentors = db
    .prepare(`SELECT mentor_id AS id, count(*) AS total FROM review_items WHERE ${where} GROUP BY mentor_id ORDER BY 1`)
    .all(params) as { id: number; total: number }[];
  const ids = db
    .prepare(
      `SELECT id FROM review_items WHERE ${where} ${filter.mentor ? 'AND mentor_id = @mentor' : ''}
       ORDER BY created_at DESC, id`,
    )
    .pluck()
    .all({ ...params, mentor: filter.mentor ?? null }) as string[];
  return { ids, mentors };
}

const SEARCHES = [
  'müller',
  'MÜLLER',
  'o"brien',
  '"',
  'and*near(x)',
  'near(',
  'straße',
  'İstanbul',
  '数学',
  'number 123',
  'number 1',
  'message',
  'rated down',
  'ss',
  'a',
  'nothing holds this',
];

function compare(profileId: string): void {
  for (const search of SEARCHES) {
    const filters: (ReviewFilter & { search: string })[] = [
      { state: 'all', search },
      { state: 'all', search, sources: ['Negative feedback'] },
      { state: 'all', search, mentor: 2 },
      { state: 'all', search, learner: 'learner3' },
      { state: 'all', search, from: '2026-01-10' },
    ];
    for (const filter of filters) {
      const want = scan(profileId, filter);
      const page = store.list(profileId, filter, 0, 5000);
      const label = JSON.stringify(filter);
      expect(
        page.items.map((i) => i.id),
        label,
      ).toEqual(want.ids);
      expect(page.total, label).toBe(want.ids.length);
      expect(
        page.mentors.map((m) => ({ id: m.id, total: m.total })).sort((a, b) => a.id - b.id),
        label,
      ).toEqual(want.mentors);
    }
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'review-search-'));
  db = openDatabase(join(dir, 'mentor-admin.sqlite'));
  store = new ReviewStore(db);
  addProfile(db, 'alpha');
  addProfile(db, 'beta');
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('review queue text search', () => {
  it('answers what the scan answers, through the index or not, before and after the items change', () => {
    store.replace('alpha', items(3000), MENTORS, REVIEW_SOURCES);
    store.replace('beta', items(400, ' beta'), MENTORS, REVIEW_SOURCES);
    // Both ways are exercised: a text most items hold (scan) and texts a few hold (index).
    const held = (text: string) =>
      db.prepare('SELECT count(*) FROM review_items_text WHERE review_items_text MATCH ?').pluck().get(`"${text}"`);
    expect(held('message')).toBeGreaterThan(INDEXED_SEARCH_MOST);
    expect(held('number 123')).toBeLessThan(INDEXED_SEARCH_MOST);
    compare('alpha');
    compare('beta');

    // A sync that rewrites prompts, drops items and adds others; a removed item.
    const next = items(2500, ' again').map((item, n) => (n % 7 === 0 ? { ...item, prompt: 'Straße müller' } : item));
    store.replace('alpha', next, MENTORS, REVIEW_SOURCES);
    store.remove('alpha', next[10]!.id);
    compare('alpha');
    compare('beta');
    // A source replaced alone (its read worked, another's failed) keeps the others' items.
    store.replace('beta', [], MENTORS, ['Negative feedback']);
    expect(store.list('beta', { state: 'all', sources: ['Negative feedback'] }, 0, 10).total).toBe(0);
    expect(store.list('beta', { state: 'all' }, 0, 10).total).toBeGreaterThan(200);
    compare('beta');
  });

  it('reads its candidates from the index when few items hold the text', () => {
    store.replace('alpha', items(3000), MENTORS, REVIEW_SOURCES);
    const target = store.list('alpha', { state: 'all', search: 'number 2345:' }, 0, 10).items;
    expect(target).toHaveLength(1);
    const row = db
      .prepare("SELECT rid, prompt, reason FROM review_items WHERE profile_id = 'alpha' AND id = ?")
      .get(target[0]!.id) as { rid: number; prompt: string; reason: string };
    // Out of the index only: the scan would still find it, the indexed search does not.
    db.prepare(
      "INSERT INTO review_items_text (review_items_text, rowid, prompt, reason) VALUES ('delete', ?, ?, ?)",
    ).run(row.rid, row.prompt, row.reason);
    try {
      expect(store.list('alpha', { state: 'all', search: 'number 2345:' }, 0, 10).total).toBe(0);
      // A text most items hold is searched by the scan: the item is found.
      const common = store.list('alpha', { state: 'all', search: 'message' }, 0, 5000);
      expect(common.items.map((i) => i.id)).toContain(target[0]!.id);
    } finally {
      db.prepare('INSERT INTO review_items_text (rowid, prompt, reason) VALUES (?, ?, ?)').run(
        row.rid,
        row.prompt,
        row.reason,
      );
    }
    expect(store.list('alpha', { state: 'all', search: 'number 2345:' }, 0, 10).total).toBe(1);
  });

  it('keeps a queue cached before the migration: items, marks, counts, and its search', () => {
    const oldDir = join(dir, 'migrations-025');
    mkdirSync(oldDir);
    for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < '026')) {
      copyFileSync(join(MIGRATIONS, file), join(oldDir, file));
    }
    const path = join(dir, 'old.sqlite');
    const old = openDatabase(path, { migrationsDir: oldDir });
    addProfile(old, 'alpha');
    const insert = old.prepare(
      `INSERT INTO review_items (profile_id, id, source, log_id, learner, email, mentor_id, prompt, reason, created_at)
       VALUES ('alpha', ?, 'Safety System', ?, 'ann', 'ann@example.org', ?, ?, 'Self-harm risk', ?)`,
    );
    for (let n = 0; n < 50; n++)
      insert.run(`safety:${n}`, n, (n % 2) + 1, `Old message ${n}`, `2026-01-0${(n % 9) + 1}`);
    old.prepare("INSERT INTO review_marks VALUES ('alpha', 'safety:7', 'admin', '2026-02-01')").run();
    old.close();

    const migrated = openDatabase(path);
    try {
      const queue = new ReviewStore(migrated);
      const all = queue.list('alpha', { state: 'all' }, 0, 100);
      expect(all.total).toBe(50);
      expect(all.items.find((i) => i.id === 'safety:7')).toMatchObject({
        reviewedBy: 'admin',
        logId: 7,
        session: null,
      });
      expect(all.mentors.map((m) => [m.id, m.total, m.open]).sort()).toEqual([
        [1, 25, 25],
        [2, 25, 24],
      ]);
      expect(queue.list('alpha', { state: 'all', search: 'MESSAGE 17' }, 0, 10).items.map((i) => i.id)).toEqual([
        'safety:17',
      ]);
      // The kept counts still follow marks after the rebuild (their triggers were made again).
      queue.mark('alpha', ['safety:8'], 'admin', true);
      expect(queue.list('alpha', { state: 'open' }, 0, 0).total).toBe(48);
    } finally {
      migrated.close();
    }
  });
});
