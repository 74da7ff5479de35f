/** The ticket cache's schema: the list indexes the first sync rebuilds are exactly the ones migration 007 creates. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/engine/store/database';
import { LIST_INDEXES, TicketCache } from '../../src/main/engine/tickets/cache';
import { tempDir } from '../helpers/temp';

const indexSql = (db: ReturnType<typeof openDatabase>) =>
  new Map(
    (
      db
        .prepare(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ticket_cache' AND sql IS NOT NULL`,
        )
        .all() as { name: string; sql: string }[]
    ).map((r) => [r.name, r.sql.replace(/\s+/g, ' ')]),
  );

describe('ticket cache schema', () => {
  it('rebuilds the same list indexes the migration made, and restores dropped ones on open', () => {
    const db = openDatabase(join(tempDir(), 'app.sqlite'));
    const fromMigration = indexSql(db);
    expect([...fromMigration.keys()].sort()).toEqual(LIST_INDEXES.map(([name]) => name).sort());
    const cache = new TicketCache(db);
    cache.dropIndexes();
    expect(indexSql(db).size).toBe(0);
    // A first sync cut short by a crash: the next start puts them back.
    new TicketCache(db);
    const rebuilt = indexSql(db);
    for (const [name, sql] of fromMigration) expect(rebuilt.get(name)?.replace('IF NOT EXISTS ', '')).toBe(sql);
    db.close();
  });
});
