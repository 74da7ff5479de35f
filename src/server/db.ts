import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * The sandbox's own SQLite file. Each area brings its tables as idempotent `CREATE … IF NOT EXISTS` SQL, applied
 * at every start: the sandbox is a local stand-in platform, its data can always be re-seeded.
 */
export function openSandboxDb(dataDir: string, schemas: string[]): Db {
  mkdirSync(dataDir, { recursive: true });
  // Inside the Electron app the sandbox runs on Electron's runtime and needs its ABI's SQLite build.
  const nativeBinding = process.env.SANDBOX_NATIVE_BINDING;
  const db = new Database(join(dataDir, 'sandbox.sqlite'), {
    timeout: 5000,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -65536');
  db.transaction(() => {
    for (const sql of schemas) db.exec(sql);
  })();
  return db;
}
