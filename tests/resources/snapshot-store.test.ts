/**
 * The history of single records (resource_snapshots) as a bulk change writes it: many parents in one call, each with
 * how it was found only when it had no history yet, and the record as the cache keeps it, its text made once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptRecord } from '../../src/main/engine/resources/cache';
import { SnapshotStore } from '../../src/main/engine/resources/snapshot-store';
import { openDatabase, type Db } from '../../src/main/engine/store/database';
import { mentorPublicSettings, mentorSettings } from '../../src/shared/resources';
import { tempDir } from '../helpers/temp';

let dbs: Db[] = [];
afterEach(() => {
  dbs.forEach((db) => db.close());
  dbs = [];
});

function store() {
  const db = openDatabase(join(tempDir(), 'app.sqlite'));
  dbs.push(db);
  for (const id of ['p', 'q']) {
    db.prepare(
      `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
         VALUES (?, ?, 'u', 'o', 'n', 'Api-Key', 'x', 'x')`,
    ).run(id, id);
  }
  return { db, snapshots: new SnapshotStore(db) };
}

const KIND = mentorSettings.kind;
const settings = (name: string, disclaimer: string) => ({ unique_id: name, mentor_name: name, disclaimer });

describe('SnapshotStore.keepAll', () => {
  it('keeps how a parent was found only before its first save, however long the histories of the others are', () => {
    const { snapshots } = store();
    // `a` has a long history, `b` none; `b` also has one under another tenant connection, which is not its here.
    for (let i = 0; i < 5; i++) {
      snapshots.keep('p', KIND, 'a', { before: settings('a', `${i}`), after: settings('a', `${i + 1}`), changed: [] });
    }
    snapshots.keep('q', KIND, 'b', { before: settings('b', 'other'), after: settings('b', 'other'), changed: [] });
    const ids = snapshots.keepAll('p', KIND, [
      { key: 'a', before: settings('a', '5'), after: settings('a', 'six'), changed: ['disclaimer'] },
      { key: 'b', before: settings('b', 'was'), after: settings('b', 'six'), changed: ['disclaimer'] },
    ]);
    expect(snapshots.list('p', KIND, 'a').map((s) => s.reason)).toEqual([
      'saved',
      'saved',
      'saved',
      'saved',
      'saved',
      'saved',
      'found',
    ]);
    const b = snapshots.list('p', KIND, 'b');
    expect(b.map((s) => [s.reason, s.record.disclaimer])).toEqual([
      ['saved', 'six'],
      ['found', 'was'],
    ]);
    expect(ids).toEqual([snapshots.list('p', KIND, 'a')[0]!.id, b[0]!.id]);
  });

  it('keeps a record handed in as the cache keeps it: whole, without the fields never kept', () => {
    const { snapshots } = store();
    const answer = {
      ...settings('a', 'new'),
      mcp_servers: [{ name: 'Docs', url: 'https://mcp.example.org', credentials: 'secret-token' }],
    };
    const kept = KeptRecord.of(mentorSettings, answer);
    snapshots.keepAll('p', KIND, [{ key: 'a', before: null, after: kept, changed: ['disclaimer'] }]);
    const [snapshot] = snapshots.list('p', KIND, 'a');
    expect(snapshot!.record).toEqual({
      ...settings('a', 'new'),
      mcp_servers: [{ name: 'Docs', url: 'https://mcp.example.org' }],
    });
    expect(JSON.stringify(snapshot!.record)).not.toContain('secret-token');
  });

  it('refuses a record kept for another kind rather than file it under this one', () => {
    const { snapshots } = store();
    const other = KeptRecord.of(mentorPublicSettings, settings('a', 'x'));
    expect(other.kind).not.toBe(KIND);
    expect(() => snapshots.keepAll('p', KIND, [{ key: 'a', before: null, after: other, changed: [] }])).toThrow(
      /kept in the history of/,
    );
    expect(snapshots.list('p', KIND, 'a')).toEqual([]);
  });
});
