/**
 * Many lists marked read at once (a bulk change's mentors' settings, one statement): each is fresh as of that time
 * under the connection's tenant, a failure noted before is cleared, and no other connection's list is touched.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/engine/store/database';
import { ListFreshness } from '../../src/main/engine/store/list-freshness';
import { tempDir } from '../helpers/temp';

let dbs: Db[] = [];
afterEach(() => {
  dbs.forEach((db) => db.close());
  dbs = [];
});

describe('ListFreshness.readAtAll', () => {
  it('marks every list read at the time given, for this connection only, clearing a noted failure', () => {
    const db = openDatabase(join(tempDir(), 'app.sqlite'));
    dbs.push(db);
    for (const id of ['p', 'q']) {
      db.prepare(
        `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at)
           VALUES (?, ?, 'u', 'o', 'n', 'Api-Key', 'x', 'x')`,
      ).run(id, id);
    }
    const freshness = new ListFreshness(db, (profileId) => `tenant of ${profileId}`);
    const lists = Array.from({ length: 50 }, (_, i) => `kit:mentor-settings/m${i}`);
    freshness.readAt('p', lists[3]!, '2026-01-01T00:00:00.000Z');
    freshness.refreshFailed('p', lists[3]!, 'down', '2026-01-02T00:00:00.000Z');
    freshness.readAt('q', lists[4]!, '2026-01-01T00:00:00.000Z');

    freshness.readAtAll('p', lists, '2026-02-01T00:00:00.000Z');
    const metas = freshness.metas('p', lists);
    expect(metas.size).toBe(lists.length);
    for (const list of lists) {
      expect(metas.get(list)).toEqual({
        asOf: '2026-02-01T00:00:00.000Z',
        checkedAt: '2026-02-01T00:00:00.000Z',
        error: null,
      });
    }
    expect(freshness.meta('q', lists[4]!)).toEqual({
      asOf: '2026-01-01T00:00:00.000Z',
      checkedAt: '2026-01-01T00:00:00.000Z',
      error: null,
    });
    expect(freshness.meta('q', lists[5]!)).toBeNull();
    // Read under another tenant (the connection's address changed): not this tenant's list any more.
    const moved = new ListFreshness(db, () => 'another tenant');
    expect(moved.meta('p', lists[0]!)).toBeNull();
  });
});
