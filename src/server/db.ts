import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/**
 * The sandbox's own SQLite file. Each area brings its tables as idempotent `CREATE … IF NOT EXISTS` SQL, applied
 * at every start: the sandbox is a local stand-in platform, its data can always be re-seeded.
 */
/** The sandbox's files hold its users' keys: owner-only folders and files, whatever the umask. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function openSandboxDb(dataDir: string, schemas: string[]): Db {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = join(dataDir, 'sandbox.sqlite');
  // SQLite gives its -wal and -shm files the database file's mode; ones an older version made are tightened.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (process.platform !== 'win32') {
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
  // Inside the Electron app the sandbox runs on Electron's runtime and needs its ABI's SQLite build.
  const nativeBinding = process.env.SANDBOX_NATIVE_BINDING;
  const db = new Database(file, {
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
