import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { defaultMigrationsDir, migrate, NewerDatabaseError, openDatabase } from '../../src/main/engine/store/database';
import { loadMigrations } from '../../src/main/engine/store/migrations';
import { tempDir } from '../helpers/temp';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('store', () => {
  it('opens with WAL and foreign keys and applies every migration, tracked by user_version', () => {
    const file = join(tempDir(), 'db.sqlite');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const migrations = loadMigrations(defaultMigrationsDir());
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const recorded = db.prepare('SELECT version, sha256 FROM schema_migrations ORDER BY version').all();
    expect(recorded).toEqual(migrations.map((m) => ({ version: m.version, sha256: m.sha256 })));
    db.close();
    // Opening again applies nothing twice.
    const again = openDatabase(file);
    expect(again.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length });
    again.close();
  });

  it('rebuilds the job journal for any job kind without losing the items, training or invitation rows that refer to it', () => {
    const file = join(tempDir(), 'db.sqlite');
    const all = loadMigrations(defaultMigrationsDir());
    const at = all.findIndex((m) => m.name === 'jobs_any_kind');
    const db = new Database(file);
    db.pragma('foreign_keys = ON');
    migrate(db, all.slice(0, at));
    db.prepare(
      "INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j1', 'invite', 'Invite', 'completed', 'x', 'x')",
    ).run();
    db.prepare(
      "INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j3', 'resource-import', 'I', 'paused', 'x', 'x')",
    ).run();
    db.prepare(
      "INSERT INTO job_items (job_id, key, label, state, updated_at) VALUES ('j1', 'a@example.com', 'a', 'done', 'x')",
    ).run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j0', 'resource-bulk', 'B', 'queued', 'x', 'x')",
        )
        .run(),
    ).toThrow(/CHECK constraint/);
    migrate(db, all);
    expect(db.prepare('SELECT id, kind FROM jobs ORDER BY id').all()).toEqual([
      { id: 'j1', kind: 'invite' },
      { id: 'j3', kind: 'resource-import' },
    ]);
    expect(db.prepare('SELECT count(*) FROM job_items').pluck().get()).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.prepare(
      "INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j2', 'resource-bulk', 'B', 'queued', 'x', 'x')",
    ).run();
    // The items still belong to their job: deleting it takes them along.
    db.prepare("DELETE FROM jobs WHERE id = 'j1'").run();
    expect(db.prepare('SELECT count(*) FROM job_items').pluck().get()).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it("drops the training job's own lease table (the runner's claim in the journal is the one lease), keeping the jobs", () => {
    const all = loadMigrations(defaultMigrationsDir());
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      all.slice(
        0,
        all.findIndex((m) => m.name === 'train_drop_job_leases'),
      ),
    );
    db.prepare(
      "INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('t1', 'train', 'Train', 'running', 'x', 'x')",
    ).run();
    db.prepare(
      "INSERT INTO train_job_leases (job_id, owner, host, pid, heartbeat_at) VALUES ('t1', 'o', 'h', 1, 0)",
    ).run();
    migrate(db, all);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    expect(tables).not.toContain('train_job_leases');
    expect(db.prepare('SELECT id FROM jobs').pluck().all()).toEqual(['t1']);
    db.close();
  });

  it("moves the resource kit's list freshness into cached_lists, beside the mentors area's lists", () => {
    const all = loadMigrations(defaultMigrationsDir());
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      all.slice(
        0,
        all.findIndex((m) => m.name === 'one_list_freshness'),
      ),
    );
    db.prepare(
      "INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, created_at, updated_at) VALUES ('p', 'P', 'u', 'o', 'n', 'Api-Key', 'x', 'x')",
    ).run();
    db.prepare(
      "INSERT INTO resource_lists (profile_id, kind, tenant, as_of, checked_at, error) VALUES ('p', 'api-tokens', 'u o n', 'a', 'c', 'down')",
    ).run();
    db.prepare(
      "INSERT INTO cached_lists (profile_id, list, tenant, as_of, checked_at, error) VALUES ('p', 'mentors', 'u o n', 'a', 'c', NULL)",
    ).run();
    migrate(db, all);
    expect(db.prepare('SELECT list, tenant, as_of, checked_at, error FROM cached_lists ORDER BY list').all()).toEqual([
      { list: 'kit:api-tokens', tenant: 'u o n', as_of: 'a', checked_at: 'c', error: 'down' },
      { list: 'mentors', tenant: 'u o n', as_of: 'a', checked_at: 'c', error: null },
    ]);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    expect(tables).not.toContain('resource_lists');
    db.close();
  });

  it('refuses a database written by a newer version and leaves the file untouched', () => {
    const dir = tempDir();
    const file = join(dir, 'db.sqlite');
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.exec('CREATE TABLE future (x)');
    raw.pragma('user_version = 999');
    raw.close();
    const before = sha(file);
    expect(() => openDatabase(file)).toThrow(NewerDatabaseError);
    expect(() => openDatabase(file)).toThrow(
      /newer version of Mentor Admin \(schema 999; this version knows up to \d+\)/,
    );
    expect(sha(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses an applied migration that was edited afterwards', () => {
    const dir = tempDir();
    const migrationsDir = join(dir, 'migrations');
    mkdirSync(migrationsDir);
    writeFileSync(join(migrationsDir, '001_one.sql'), 'CREATE TABLE one (x);');
    const db = new Database(join(dir, 'db.sqlite'));
    migrate(db, loadMigrations(migrationsDir));
    writeFileSync(join(migrationsDir, '001_one.sql'), 'CREATE TABLE one (x, y);');
    expect(() => migrate(db, loadMigrations(migrationsDir))).toThrow(/edited after it was applied/);
    db.close();
  });

  it('rolls back a failing migration as a whole and keeps the earlier version', () => {
    const dir = tempDir();
    const migrationsDir = join(dir, 'migrations');
    mkdirSync(migrationsDir);
    copyFileSync(
      join(defaultMigrationsDir(), '001_profiles_and_settings.sql'),
      join(migrationsDir, '001_profiles_and_settings.sql'),
    );
    writeFileSync(join(migrationsDir, '002_broken.sql'), 'CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);');
    const db = new Database(join(dir, 'db.sqlite'));
    expect(() => migrate(db, loadMigrations(migrationsDir))).toThrow(/no such table: nowhere/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });

  it('rejects badly named or gapped migration files', () => {
    const dir = tempDir();
    writeFileSync(join(dir, '001_a.sql'), '');
    writeFileSync(join(dir, '003_c.sql'), '');
    expect(() => loadMigrations(dir)).toThrow(/without gaps/);
    const other = tempDir();
    writeFileSync(join(other, 'init.sql'), '');
    expect(() => loadMigrations(other)).toThrow(/must look like 001_name.sql/);
  });
});

describe('migration 001: profiles and settings', () => {
  it('allows at most one active profile, a unique name regardless of case, and known auth schemes only', () => {
    const db = openDatabase(join(tempDir(), 'db.sqlite'));
    const insert = db.prepare(
      `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, is_active, created_at, updated_at)
       VALUES (?, ?, 'https://x', 'o', 'u', ?, ?, 'now', 'now')`,
    );
    insert.run('a', 'Main', 'Api-Key', 1);
    expect(() => insert.run('b', 'Other', 'Token', 1)).toThrow(/UNIQUE/);
    expect(() => insert.run('c', 'MAIN', 'Token', 0)).toThrow(/UNIQUE/);
    expect(() => insert.run('d', 'Fourth', 'Basic', 0)).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO settings (key, value) VALUES ('theme', 'not json')").run()).toThrow(/CHECK/);
    db.close();
  });
});

describe('migration 014: the resource-import job kind', () => {
  it('rebuilds jobs with the new kind allowed, keeping every job and the items, runs and ledgers that refer to them', () => {
    const migrations = loadMigrations(defaultMigrationsDir());
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.slice(0, 13));
    const at = '2026-01-01T00:00:00Z';
    db.prepare(
      `INSERT INTO jobs (id, kind, title, state, created_at, updated_at, runner) VALUES ('j1', 'invite', 'Invite', 'paused', ?, ?, 'r1')`,
    ).run(at, at);
    db.prepare(
      `INSERT INTO job_items (job_id, key, label, state, updated_at) VALUES ('j1', 'line:2', 'a@b.c', 'done', ?)`,
    ).run(at);
    expect(() =>
      db
        .prepare(
          `INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j0', 'resource-import', 't', 'queued', ?, ?)`,
        )
        .run(at, at),
    ).toThrow(/CHECK/);

    // Up to 014 itself: 015 lifts the CHECK on kinds altogether (tested above).
    migrate(db, migrations.slice(0, migrations.findIndex((m) => m.name === 'jobs_resource_import') + 1));
    expect(db.prepare('SELECT id, kind, runner FROM jobs').all()).toEqual([{ id: 'j1', kind: 'invite', runner: 'r1' }]);
    expect(db.prepare('SELECT count(*) AS n FROM job_items').get()).toEqual({ n: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The items still belong to `jobs` (not to the table it was rebuilt from): deleting the job deletes them.
    expect(
      String((db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'job_items'`).get() as { sql: string }).sql),
    ).toMatch(/REFERENCES jobs \(id\)/);
    db.prepare(
      `INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j2', 'resource-import', 'Import', 'queued', ?, ?)`,
    ).run(at, at);
    db.prepare(`DELETE FROM jobs WHERE id = 'j1'`).run();
    expect(db.prepare('SELECT count(*) AS n FROM job_items').get()).toEqual({ n: 0 });
    expect(() =>
      db
        .prepare(
          `INSERT INTO jobs (id, kind, title, state, created_at, updated_at) VALUES ('j3', 'bogus', 't', 'queued', ?, ?)`,
        )
        .run(at, at),
    ).toThrow(/CHECK/);
    expect(
      (
        db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE tbl_name = 'jobs' AND type = 'index'`).get() as {
          n: number;
        }
      ).n,
    ).toBeGreaterThanOrEqual(4);
  });
});
