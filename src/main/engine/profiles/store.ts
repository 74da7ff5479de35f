/** The `profiles` table: tenant connections as rows (their keys are never here: see Profiles). */
import type { AuthScheme } from '../../../shared/contract';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store';

export interface ProfileRow {
  id: string;
  name: string;
  base_url: string;
  org: string;
  username: string;
  auth_scheme: AuthScheme;
  is_active: 0 | 1;
  is_sandbox: 0 | 1;
  created_at: string;
  updated_at: string;
}

export interface NewProfile {
  id: string;
  name: string;
  baseUrl: string;
  org: string;
  username: string;
  authScheme: AuthScheme;
  isSandbox: boolean;
  at: string;
}

export type ProfileFields = Pick<ProfileRow, 'name' | 'base_url' | 'org' | 'username' | 'auth_scheme'>;

/** Answers which tenant a connection points at; the caches that key rows by tenant take this, not the table. */
export interface TenantIdentity {
  /**
   * Base URL, org and username of a connection (null for an unknown id): rows cached under another value were
   * fetched from another tenant.
   */
  tenantOf(profileId: string): string | null;
}

export class ProfileStore implements TenantIdentity {
  constructor(private readonly db: Db) {}

  /** Prepared once: caches ask it for every row they read or write. */
  private tenantStatement: Statement | undefined;

  tenantOf(id: string): string | null {
    this.tenantStatement ??= this.db.prepare('SELECT base_url, org, username FROM profiles WHERE id = ?');
    const row = this.tenantStatement.get(id) as Pick<ProfileRow, 'base_url' | 'org' | 'username'> | undefined;
    return row ? `${row.base_url} ${row.org} ${row.username}` : null;
  }

  row(id: string): ProfileRow | undefined {
    return this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(id) as ProfileRow | undefined;
  }

  /** The active one first, then by name. */
  all(): ProfileRow[] {
    return this.db.prepare('SELECT * FROM profiles ORDER BY is_active DESC, name').all() as ProfileRow[];
  }

  idByName(name: string): string | null {
    return (this.db.prepare('SELECT id FROM profiles WHERE name = ?').pluck().get(name) as string | undefined) ?? null;
  }

  /** The profile an id or a name (any case) names. */
  idByRef(ref: string): string | null {
    const id = this.db
      .prepare('SELECT id FROM profiles WHERE id = ? OR lower(name) = lower(?)')
      .pluck()
      .get(ref, ref) as string | undefined;
    return id ?? null;
  }

  usernameOf(id: string): string | null {
    return (
      (this.db.prepare('SELECT username FROM profiles WHERE id = ?').pluck().get(id) as string | undefined) ?? null
    );
  }

  activeId(): string | null {
    return (this.db.prepare('SELECT id FROM profiles WHERE is_active = 1').pluck().get() as string | undefined) ?? null;
  }

  sandboxId(): string | null {
    return (
      (this.db.prepare('SELECT id FROM profiles WHERE is_sandbox = 1').pluck().get() as string | undefined) ?? null
    );
  }

  /** Adds a profile; it becomes the active one when asked, or when none is. */
  insert(profile: NewProfile, makeActive: boolean): void {
    this.db.transaction(() => {
      const active = makeActive || this.activeId() === null;
      if (active) this.db.prepare('UPDATE profiles SET is_active = 0 WHERE is_active = 1').run();
      this.db
        .prepare(
          `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, is_active, is_sandbox, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          profile.id,
          profile.name,
          profile.baseUrl,
          profile.org,
          profile.username,
          profile.authScheme,
          active ? 1 : 0,
          profile.isSandbox ? 1 : 0,
          profile.at,
          profile.at,
        );
    })();
  }

  update(id: string, fields: ProfileFields, at: string): void {
    this.db
      .prepare(
        `UPDATE profiles SET name = ?, base_url = ?, org = ?, username = ?, auth_scheme = ?, updated_at = ? WHERE id = ?`,
      )
      .run(fields.name, fields.base_url, fields.org, fields.username, fields.auth_scheme, at, id);
  }

  /** Removes a profile; when it was the active one, the oldest left becomes active (the app always has one). */
  delete(id: string): void {
    this.db.transaction(() => {
      const wasActive = this.activeId() === id;
      this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
      if (wasActive) {
        this.db
          .prepare('UPDATE profiles SET is_active = 1 WHERE id = (SELECT id FROM profiles ORDER BY created_at LIMIT 1)')
          .run();
      }
    })();
  }

  activate(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('UPDATE profiles SET is_active = 0 WHERE is_active = 1').run();
      this.db.prepare('UPDATE profiles SET is_active = 1 WHERE id = ?').run(id);
    })();
  }
}
