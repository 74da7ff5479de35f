import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuthScheme, Profile, ProfileAddInput, ProfileUpdateInput, SecretSource } from '../../../shared/contract';
import { ProfileAddInput as AddSchema, ProfileUpdateInput as UpdateSchema } from '../../../shared/contract';
import { conflict, EngineError, notFound } from '../errors';
import type { Db } from '../store/database';
import { KeychainUnavailableError, secretFromEnv, type SecretStore } from '../secrets/keychain';

interface ProfileRow {
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

/** What a platform client needs to reach a tenant; carries the secret, so it never crosses the bridge. */
export interface Connection {
  profileId: string;
  baseUrl: string;
  org: string;
  username: string;
  authScheme: AuthScheme;
  secret: string | null;
}

type AddValues = z.output<typeof AddSchema>;
type UpdateValues = z.output<typeof UpdateSchema>;

export interface ProfilesDeps {
  db: Db;
  secrets: SecretStore;
  env: NodeJS.ProcessEnv;
}

/** Tenant connections: rows in SQLite, secrets in the keychain under the profile id. */
export class Profiles {
  private readonly db: Db;
  private readonly secrets: SecretStore;
  private readonly env: NodeJS.ProcessEnv;

  private sandboxSecret: () => string | null = () => null;

  constructor(deps: ProfilesDeps) {
    this.db = deps.db;
    this.secrets = deps.secrets;
    this.env = deps.env;
  }

  /** The local sandbox's key lives in memory, handed over by the sandbox manager. */
  setSandboxSecretProvider(provider: () => string | null): void {
    this.sandboxSecret = provider;
  }

  /**
   * Creates the sandbox profile on first start (active only when no other tenant is), or points it at the
   * sandbox's new port on later starts. Returns its id.
   */
  upsertSandboxProfile(name: string, at: { url: string; org: string; user: string }): string {
    const existing = this.db.prepare('SELECT id FROM profiles WHERE is_sandbox = 1').get() as
      { id: string } | undefined;
    const now = new Date().toISOString();
    if (existing) {
      this.db
        .prepare('UPDATE profiles SET base_url = ?, org = ?, username = ?, updated_at = ? WHERE id = ?')
        .run(at.url, at.org, at.user, now, existing.id);
      return existing.id;
    }
    let unique = name;
    for (let n = 2; this.findByName(unique); n++) unique = `${name} (${n})`;
    const id = randomUUID();
    this.db.transaction(() => {
      const makeActive = this.activeId() === null;
      this.db
        .prepare(
          `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, is_active, is_sandbox, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'Api-Key', ?, 1, ?, ?)`,
        )
        .run(id, unique, at.url, at.org, at.user, makeActive ? 1 : 0, now, now);
    })();
    return id;
  }

  async list(): Promise<Profile[]> {
    const rows = this.db.prepare('SELECT * FROM profiles ORDER BY is_active DESC, name').all() as ProfileRow[];
    return Promise.all(rows.map((row) => this.present(row)));
  }

  async get(id: string): Promise<Profile> {
    return this.present(this.row(id));
  }

  findByName(name: string): Profile['id'] | null {
    const row = this.db.prepare('SELECT id FROM profiles WHERE name = ?').get(name) as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** The display name, for messages ("Nothing is cached for <name> yet"); read without touching the keychain. */
  nameOf(id: string): string {
    return this.row(id).name;
  }

  isSandbox(id: string): boolean {
    return this.row(id).is_sandbox === 1;
  }

  activeId(): string | null {
    const row = this.db.prepare('SELECT id FROM profiles WHERE is_active = 1').get() as { id: string } | undefined;
    return row?.id ?? null;
  }

  /** Stores the secret first, then the row; if the row cannot be written the secret is taken back. */
  async add(input: AddValues | ProfileAddInput, options: { isSandbox?: boolean } = {}): Promise<Profile> {
    const values = AddSchema.parse(input);
    this.assertNameFree(values.name);
    const id = randomUUID();
    if (values.secret) await this.secrets.set(id, values.secret);
    const now = new Date().toISOString();
    try {
      this.db.transaction(() => {
        const makeActive = values.makeActive || this.activeId() === null;
        if (makeActive) this.db.prepare('UPDATE profiles SET is_active = 0 WHERE is_active = 1').run();
        this.db
          .prepare(
            `INSERT INTO profiles (id, name, base_url, org, username, auth_scheme, is_active, is_sandbox, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            id,
            values.name,
            values.baseUrl,
            values.org,
            values.username,
            values.authScheme,
            makeActive ? 1 : 0,
            options.isSandbox ? 1 : 0,
            now,
            now,
          );
      })();
    } catch (error) {
      if (values.secret) await this.secrets.delete(id).catch(() => false);
      throw error;
    }
    return this.get(id);
  }

  async update(input: UpdateValues | ProfileUpdateInput): Promise<Profile> {
    const values = UpdateSchema.parse(input);
    const row = this.row(values.id);
    if (row.is_sandbox && Object.keys(values).some((key) => key !== 'id' && key !== 'name')) {
      throw new EngineError(
        'validation',
        'Only the name of the local sandbox can be changed: the app manages its address and key',
      );
    }
    if (values.name !== undefined && values.name.toLowerCase() !== row.name.toLowerCase()) {
      this.assertNameFree(values.name);
    }
    // The keychain is changed first: if it refuses, the row is left as it was.
    if (values.secret === null) await this.secrets.delete(row.id);
    else if (values.secret !== undefined) await this.secrets.set(row.id, values.secret);

    this.db
      .prepare(
        `UPDATE profiles SET name = ?, base_url = ?, org = ?, username = ?, auth_scheme = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        values.name ?? row.name,
        values.baseUrl ?? row.base_url,
        values.org ?? row.org,
        values.username ?? row.username,
        values.authScheme ?? row.auth_scheme,
        new Date().toISOString(),
        row.id,
      );
    return this.get(row.id);
  }

  /** Removes the stored key first so no orphan secret is left behind; if the keychain refuses, nothing changes. */
  async remove(id: string): Promise<{ wasActive: boolean }> {
    const row = this.row(id);
    if (row.is_sandbox) {
      throw conflict('The local sandbox cannot be removed: the app starts it and recreates its profile at every start');
    }
    await this.secrets.delete(row.id);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM profiles WHERE id = ?').run(row.id);
      if (row.is_active) {
        // Another tenant becomes active so the app always has one when any exist.
        this.db
          .prepare('UPDATE profiles SET is_active = 1 WHERE id = (SELECT id FROM profiles ORDER BY created_at LIMIT 1)')
          .run();
      }
    })();
    return { wasActive: row.is_active === 1 };
  }

  async setActive(id: string): Promise<Profile> {
    const row = this.row(id);
    this.db.transaction(() => {
      this.db.prepare('UPDATE profiles SET is_active = 0 WHERE is_active = 1').run();
      this.db.prepare('UPDATE profiles SET is_active = 1 WHERE id = ?').run(row.id);
    })();
    return this.get(row.id);
  }

  /** Everything needed to call the tenant. The env override wins over the keychain and is never stored. */
  async connection(id: string): Promise<Connection> {
    const row = this.row(id);
    const secret = row.is_sandbox
      ? this.sandboxSecret()
      : (secretFromEnv(this.env) ?? (await this.secrets.get(row.id)));
    return {
      profileId: row.id,
      baseUrl: row.base_url,
      org: row.org,
      username: row.username,
      authScheme: row.auth_scheme,
      secret,
    };
  }

  private row(id: string): ProfileRow {
    const row = this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(id) as ProfileRow | undefined;
    if (!row) throw notFound(`No tenant connection with id '${id}'`);
    return row;
  }

  private assertNameFree(name: string): void {
    if (this.findByName(name)) throw conflict(`A tenant connection named '${name}' already exists`);
  }

  private async secretSource(row: ProfileRow): Promise<SecretSource> {
    if (row.is_sandbox) return this.sandboxSecret() ? 'sandbox' : 'none';
    const id = row.id;
    if (secretFromEnv(this.env)) return 'env';
    try {
      return (await this.secrets.get(id)) ? 'keychain' : 'none';
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return 'unavailable';
      throw error;
    }
  }

  private async present(row: ProfileRow): Promise<Profile> {
    const secretSource = await this.secretSource(row);
    return {
      id: row.id,
      name: row.name,
      baseUrl: row.base_url,
      org: row.org,
      username: row.username,
      authScheme: row.auth_scheme,
      isActive: row.is_active === 1,
      hasSecret: secretSource === 'keychain' || secretSource === 'env' || secretSource === 'sandbox',
      secretSource,
      isSandbox: row.is_sandbox === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}

export function requireSecret(connection: Connection): string {
  if (!connection.secret) {
    throw new EngineError(
      'validation',
      'This tenant connection has no key. Add one in Settings → Tenants, or set MENTOR_ADMIN_API_KEY.',
    );
  }
  return connection.secret;
}
