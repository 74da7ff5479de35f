/**
 * A search of the resource cache (resources.list with `search`): answered through the trigram index (migration 018)
 * for 3 characters or more that few records hold, by a scan otherwise. Either way the answer must be exactly what "the record's search
 * fields contain the text, case aside" gives: the same records, in the same order (position, then id), the same total.
 * Here that meaning is computed in plain TypeScript over the records handed to the cache, and compared with the
 * cache's answer over varied searches, filters, pages and two tenants, before and after the records change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEXED_SEARCH_MOST, ResourceCache, type FieldEquals } from '../../src/main/engine/resources/cache';
import { ProfileStore } from '../../src/main/engine/profiles';
import { openDatabase, type Db } from '../../src/main/engine/store';
import { RESOURCES } from '../../src/shared/resources';

const users = RESOURCES.users;
type Person = { user_id: number; name: string | null; username: string; email: string; is_staff: boolean };

const FIRST = ['Ada', 'José', 'María', 'Chen', 'Zoë', 'Łukasz', 'Øystein', 'İsmail', 'Ada-Marie', 'O"Brien'];
const LAST = ['García', 'Dubois', 'Müller', 'Ito', 'Haddad', 'Nakamura', "O'Neil", 'Ng', 'Straße', 'AND*NEAR'];

/** People with names, usernames and emails of every kind a search meets: accents, quotes, FTS syntax, no name. */
function people(org: string, count: number, from = 0): Person[] {
  return Array.from({ length: count }, (_, n) => {
    const i = from + n;
    const name = i % 17 === 0 ? null : `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
    const username = i % 13 === 0 ? `user.${i}+tag` : `${org}-person${String(i).padStart(5, '0')}`;
    return { user_id: i + 1, name, username, email: `${username}@${org}.example`, is_staff: i % 3 === 0 };
  });
}

/**
 * What a search means: the declared fields' text (joined by a line, so a search may span two) holds it, lower-cased
 * on both sides; a filter compares a field as SQLite's json_extract reads it (true is 1).
 */
function expected(records: Person[], search: string, where: FieldEquals[] = []): Person[] {
  const text = search.trim().toLowerCase();
  const field = (person: Person, name: string) => {
    const value = (person as Record<string, unknown>)[name];
    return typeof value === 'boolean' ? Number(value) : value;
  };
  return records.filter(
    (person) =>
      users.search
        .map((name) => field(person, name))
        .filter((value) => value !== null && value !== undefined)
        .map(String)
        .join('\n')
        .toLowerCase()
        .includes(text) && where.every(({ field: name, value }) => field(person, name) === value),
  );
}

const SEARCHES = [
  // Shorter than a trigram: the scan.
  'a',
  'Ø',
  'ng',
  '  ad ',
  // Names, any case, with accents and the letters whose lower case is special.
  'ada',
  'ADA',
  'garcía',
  'GARCÍA',
  'garcia',
  'zoë',
  'straße',
  'i̇smail',
  'łukasz müller',
  'ada-marie',
  // Usernames and emails, whole and in part, with @, dots and +.
  'acme-person00042',
  'acme-person000',
  'person0004',
  '@acme.example',
  'user.13+tag@acme.example',
  '.example',
  '+tag',
  // Quotes and FTS5 syntax, which must be literal text.
  'o"brien',
  '"',
  '""',
  '"ada"',
  "o'neil",
  'and*near',
  '*',
  'near(',
  'ada OR chen',
  'ada AND',
  '^ada',
  'name:ada',
  '-chen',
  '(ng)',
  // Across fields (the search text joins them by a line), and matching nothing.
  'dubois\nacme',
  'nobody at all',
];

let dir: string;
let db: Db;
let cache: ResourceCache;

function addProfile(id: string, org: string): void {
  const at = new Date().toISOString();
  db.prepare(
    `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
       VALUES (?, ?, 'http://127.0.0.1:1', ?, 'admin', 'Api-Key', ?, ?)`,
  ).run(id, id, org, at, at);
}

/** The cache's whole answer, page by page, and the total each page gave. */
function answer(profileId: string, search: string, where: FieldEquals[] = [], pageSize = 40) {
  const ids: number[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const { records, total } = cache.page(profileId, 'users', { search, where, page, pageSize });
    totals.add(total);
    ids.push(...records.map((record) => record.user_id as number));
    if (records.length < pageSize) break;
  }
  return { ids, totals: [...totals] };
}

function expectSame(profileId: string, records: Person[], search: string, where: FieldEquals[] = []) {
  const want = expected(records, search, where).map((person) => person.user_id);
  const got = answer(profileId, search, where);
  expect({ search, where, ids: got.ids, totals: got.totals }).toEqual({
    search,
    where,
    ids: want,
    totals: [want.length],
  });
}

/** FTS5's own check that the trigram index holds exactly the records' text. */
const indexIntact = () =>
  db.prepare("INSERT INTO resource_records_text (resource_records_text, rank) VALUES ('integrity-check', 1)").run();

let acme: Person[];
let beta: Person[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cache-search-'));
  db = openDatabase(join(dir, 'mentor-admin.sqlite'));
  cache = new ResourceCache(db, () => {}, new ProfileStore(db));
  addProfile('acme', 'acme');
  addProfile('beta', 'beta');
  acme = people('acme', 1500);
  // The other tenant has people of the same names (and some of the same ids), never to be shown under acme.
  beta = people('beta', 700, 400);
  cache.replace('acme', users, acme);
  cache.replace('beta', users, beta);
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('searching the cache', () => {
  it('answers every search as the plain substring test does: the same records, order and total, per tenant', () => {
    for (const search of SEARCHES) {
      expectSame('acme', acme, search);
      expectSame('beta', beta, search);
    }
    // Some searches find a lot, some a few, some none: the comparison covers each case.
    expect(expected(acme, 'ada').length).toBeGreaterThan(100);
    expect(expected(acme, 'o"brien').length).toBeGreaterThan(0);
    expect(expected(acme, 'and*near').length).toBeGreaterThan(0);
    expect(expected(acme, 'garcía').length).toBeGreaterThan(0);
    expect(expected(acme, 'user.13+tag@acme.example')).toHaveLength(1);
    // '.example' is in every record of both tenants: too many for the index, so the scan answers it.
    expect(acme.length + beta.length).toBeGreaterThan(INDEXED_SEARCH_MOST);
  });

  it('combines a search with filters on record fields', () => {
    for (const search of ['ada', 'ng', 'garcía', 'acme-person0001', '@acme.example', 'nobody at all']) {
      expectSame('acme', acme, search, [{ field: 'is_staff', value: 1 }]);
      expectSame('acme', acme, search, [{ field: 'username', value: 'acme-person00042' }]);
    }
  });

  it('stays exact after records are added, renamed, removed, appended and the list re-read; a deleted tenant leaves nothing', () => {
    const current = [...acme];
    // A new person first (as a create puts them), one renamed, one removed.
    const created: Person = {
      user_id: 99_001,
      name: 'Nadia García-Ito',
      username: 'nadia',
      email: 'nadia@acme.example',
      is_staff: false,
    };
    cache.put('acme', users, created);
    current.unshift(created);
    const renamed = { ...current[10]!, name: 'Renamed Person', email: 'renamed@acme.example' };
    cache.put('acme', users, renamed);
    current[10] = renamed;
    cache.remove('acme', 'users', String(current[20]!.user_id));
    current.splice(20, 1);
    for (const search of ['garcía', 'nadia', 'renamed', current[10 + 1]!.username, 'ada', 'ng']) {
      expectSame('acme', current, search);
    }
    // The old name of the renamed person is gone from the index too.
    expectSame('acme', current, acme[10]!.username);

    // A re-read: the first page replaces the list, later pages append (one of them repeats an id the list shifted).
    const next = people('acme', 900, 300);
    cache.replace('acme', users, next.slice(0, 300));
    cache.append('acme', users, next.slice(299, 900), 299);
    for (const search of ['ada', 'acme-person0001', 'acme-person0035', 'garcía', 'nadia', 'ng']) {
      expectSame('acme', next, search);
    }
    indexIntact();

    db.prepare("DELETE FROM profiles WHERE id = 'beta'").run();
    indexIntact();
    const left = db
      .prepare('SELECT count(*) FROM resource_records_text WHERE resource_records_text MATCH \'"beta"\'')
      .pluck()
      .get();
    expect(left).toBe(0);
    expectSame('acme', next, 'ada');
  });

  it('asks the trigram index for 3 characters or more, and scans for fewer (which have no trigram) or for a common text', () => {
    const records = people('acme', INDEXED_SEARCH_MOST + 100);
    cache.replace('acme', users, records);
    // '@acme.example' is in every record, more than the index is asked about: the scan answers it.
    for (const search of ['ada', 'ad', '@acme.example']) expectSame('acme', records, search);
    // With the index emptied, the searches that go through it lose their answer, a short one does not.
    db.prepare("INSERT INTO resource_records_text (resource_records_text) VALUES ('delete-all')").run();
    expect(cache.page('acme', 'users', { search: 'ada', page: 1, pageSize: 25 }).total).toBe(0);
    expectSame('acme', records, 'ad');
    db.prepare("INSERT INTO resource_records_text (resource_records_text) VALUES ('rebuild')").run();
    indexIntact();
  });
});
