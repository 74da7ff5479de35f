import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from '../private-files';
import { loadMigrations, type Migration } from './migrations';

/**
 * better-sqlite3 is a CommonJS package: required, not imported, as an ES module importing it pays a scan of its
 * exports (cjs-module-lexer) at every start of every command.
 */
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export type Db = BetterSqlite3.Database;

export interface OpenDatabaseOptions {
  /** Path of an Electron-ABI build of better-sqlite3 (the app); Node uses the default build. */
  nativeBinding?: string;
  /** Defaults to the `migrations/` folder beside this module (copied beside the bundle by the build). */
  migrationsDir?: string;
}

/** The data was written by a newer version of the app: refuse it and leave the file untouched. */
export class NewerDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `The data in ${file} was written by a newer version of Mentor Admin (schema ${found}; this version knows up to ${known}). ` +
        'Update Mentor Admin to open it; nothing was changed.',
    );
    this.name = 'NewerDatabaseError';
  }
}

export function defaultMigrationsDir(): string {
  // Beside this module in the sources, beside the bundle once built (electron.vite.config.ts copies them).
  return join(dirname(fileURLToPath(import.meta.url)), 'migrations');
}

/** Reads `user_version` without writing anything (a read-only handle does not touch the journal mode). */
function readSchemaVersion(file: string, nativeBinding: string | undefined): number {
  if (!existsSync(file)) return 0;
  const probe = new Database(file, { readonly: true, fileMustExist: true, ...bindingOption(nativeBinding) });
  try {
    return probe.pragma('user_version', { simple: true }) as number;
  } finally {
    probe.close();
  }
}

function bindingOption(nativeBinding: string | undefined): BetterSqlite3.Options {
  return nativeBinding ? { nativeBinding } : {};
}

/**
 * Opens (creating if needed) the app's SQLite database: WAL, foreign keys on, and every pending migration applied
 * in its own transaction. A database from a newer version is refused before anything is written to it.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const migrations = loadMigrations(options.migrationsDir ?? defaultMigrationsDir());
  const latest = migrations.length;
  const found = readSchemaVersion(file, options.nativeBinding);
  if (found > latest) throw new NewerDatabaseError(file, found, latest);

  ensurePrivateDir(dirname(file));
  // SQLite gives its -wal and -shm files the database file's mode: owner-only from the start.
  ensurePrivateFile(file);
  for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
  const db = new Database(file, { timeout: 5000, ...bindingOption(options.nativeBinding) });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The first line of a migration that rebuilds a table other tables reference. */
const FOREIGN_KEYS_OFF = '-- foreign_keys: off';

/** Applies pending migrations; an already-applied migration whose file changed is an error, never re-run. */
export function migrate(db: Db, migrations: Migration[], file = 'the database'): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL
  ) STRICT`);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new NewerDatabaseError(file, current, migrations.length);

  const applied = db.prepare('SELECT version, sha256 FROM schema_migrations').all() as {
    version: number;
    sha256: string;
  }[];
  for (const row of applied) {
    const migration = migrations[row.version - 1];
    if (migration && migration.sha256 !== row.sha256) {
      throw new Error(
        `Migration ${migration.version}_${migration.name} was edited after it was applied; add a new one`,
      );
    }
  }

  const record = db.prepare('INSERT INTO schema_migrations (version, name, sha256, applied_at) VALUES (?, ?, ?, ?)');
  for (const migration of migrations.slice(current)) {
    // Rebuilding a table that others reference (SQLite's 12 steps) needs foreign keys off, or dropping the old
    // table would cascade into its children; they are checked before the migration commits.
    const rebuild = migration.sql.startsWith(FOREIGN_KEYS_OFF);
    const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
    if (rebuild && enforced) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        if (rebuild && (db.pragma('foreign_key_check') as unknown[]).length) {
          throw new Error(`Migration ${migration.version}_${migration.name} left rows that break a foreign key`);
        }
        record.run(migration.version, migration.name, migration.sha256, new Date().toISOString());
        db.pragma(`user_version = ${migration.version}`);
      })();
    } finally {
      if (rebuild && enforced) db.pragma('foreign_keys = ON');
    }
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}
