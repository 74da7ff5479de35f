import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  AuthScheme,
  Profile,
  ProfileAddInput,
  ProfileTryInput,
  ProfileUpdateInput,
  SecretSource,
} from '../../../shared/contract';
import {
  originOf,
  ProfileAddInput as AddSchema,
  ProfileTryInput as TrySchema,
  ProfileUpdateInput as UpdateSchema,
} from '../../../shared/contract';
import { conflict, EngineError, invalid, notFound } from '../errors';
import { KeychainUnavailableError, type SecretStore } from '../secrets';
import type { ProfileRow, ProfileStore } from './store';

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
  store: ProfileStore;
  secrets: SecretStore;
  /** MENTOR_ADMIN_API_KEY, the key of one tenant (null when unset). */
  envKey: string | null;
  /** The one profile MENTOR_ADMIN_API_KEY serves, by name or id (the CLI's `--profile`); default: see `envKeyFor`. */
  apiKeyFor?: string | undefined;
}

/**
 * Tenant connections: rows in SQLite, secrets in the keychain under the profile id (or, for this session only, in
 * memory). MENTOR_ADMIN_API_KEY serves one profile, never every one: the one named by `apiKeyFor`, else the one
 * active when the engine started, else the first (other than the local sandbox) to become active after that.
 */
export class Profiles {
  private readonly store: ProfileStore;
  private readonly secrets: SecretStore;
  private readonly envKey: string | null;
  private readonly apiKeyFor: string | undefined;
  /** The profile the environment's key serves, once decided; it never moves for the life of the engine. */
  private envBound: string | null = null;
  /** Keys kept for this session only: in this process's memory, never in SQLite, a file or a log. */
  private readonly sessionSecrets = new Map<string, string>();

  private sandboxSecret: () => string | null = () => null;

  constructor(deps: ProfilesDeps) {
    this.store = deps.store;
    this.secrets = deps.secrets;
    this.envKey = deps.envKey;
    this.apiKeyFor = deps.apiKeyFor;
    this.bindEnvKey(this.activeId());
  }

  /** The environment's key starts serving `id` if it serves no profile yet (and `id` is not the sandbox). */
  private bindEnvKey(id: string | null): void {
    if (this.envBound || this.apiKeyFor !== undefined || !id || !this.envKey) return;
    if (!this.isSandbox(id)) this.envBound = id;
  }

  /** The profile MENTOR_ADMIN_API_KEY serves right now, or null (unset, or no profile chosen yet). */
  envKeyFor(): string | null {
    if (!this.envKey) return null;
    if (this.apiKeyFor === undefined) return this.envBound;
    return this.store.idByRef(this.apiKeyFor);
  }

  private usesEnvKey(row: ProfileRow): boolean {
    return !row.is_sandbox && this.envKeyFor() === row.id;
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
    const now = new Date().toISOString();
    const existing = this.store.sandboxId();
    if (existing) {
      const row = this.row(existing);
      this.store.update(existing, { ...row, base_url: at.url, org: at.org, username: at.user }, now);
      return existing;
    }
    let unique = name;
    for (let n = 2; this.findByName(unique); n++) unique = `${name} (${n})`;
    const id = randomUUID();
    const profile = { id, name: unique, baseUrl: at.url, org: at.org, username: at.user, at: now };
    this.store.insert({ ...profile, authScheme: 'Api-Key', isSandbox: true }, false);
    return id;
  }

  async list(): Promise<Profile[]> {
    return Promise.all(this.store.all().map((row) => this.present(row)));
  }

  async get(id: string): Promise<Profile> {
    return this.present(this.row(id));
  }

  findByName(name: string): Profile['id'] | null {
    return this.store.idByName(name);
  }

  /** The display name, for messages ("Nothing is cached for <name> yet"); read without touching the keychain. */
  nameOf(id: string): string {
    return this.row(id).name;
  }

  /** The username the connection acts as, read without touching the keychain; null for an unknown id. */
  usernameOf(id: string): string | null {
    return this.store.usernameOf(id);
  }

  /** Which tenant the connection points at (base URL, org, username); null for an unknown id. See TenantIdentity. */
  tenantOf(id: string): string | null {
    return this.store.tenantOf(id);
  }

  /** The org and username a connection acts as, read without touching the keychain. */
  scope(id: string): { org: string; username: string } {
    const row = this.row(id);
    return { org: row.org, username: row.username };
  }

  isSandbox(id: string): boolean {
    return this.row(id).is_sandbox === 1;
  }

  activeId(): string | null {
    return this.store.activeId();
  }

  /** Stores the secret first, then the row; if the row cannot be written the secret is taken back. */
  async add(input: AddValues | ProfileAddInput, options: { isSandbox?: boolean } = {}): Promise<Profile> {
    const values = AddSchema.parse(input);
    this.assertNameFree(values.name);
    const id = randomUUID();
    const session = values.keyStorage === 'session';
    if (values.secret && !session) await this.secrets.set(id, values.secret);
    const now = new Date().toISOString();
    try {
      const profile = {
        id,
        name: values.name,
        baseUrl: values.baseUrl,
        org: values.org,
        username: values.username,
        authScheme: values.authScheme,
        isSandbox: options.isSandbox ?? false,
        at: now,
      };
      this.store.insert(profile, values.makeActive ?? false);
    } catch (error) {
      if (values.secret && !session) await this.secrets.delete(id).catch(() => false);
      throw error;
    }
    if (values.secret && session) this.sessionSecrets.set(id, values.secret);
    if (this.activeId() === id) this.bindEnvKey(id);
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
    const newOrigin = values.baseUrl !== undefined && originOf(values.baseUrl) !== originOf(row.base_url);
    if (newOrigin && values.secret === undefined && (await this.hasOwnSecret(row.id))) {
      throw invalid(
        'secret',
        `The base URL now points at another server (${originOf(values.baseUrl!)}): the stored key was given for ` +
          `${originOf(row.base_url)} and is never sent elsewhere. Enter the key for the new address, or remove the stored key.`,
      );
    }
    // The keychain is changed first: if it refuses, the row is left as it was.
    if (values.secret === null) {
      await this.secrets.delete(row.id);
      this.sessionSecrets.delete(row.id);
    } else if (values.secret !== undefined && values.keyStorage === 'session') {
      // A key for this session replaces the stored one (gone from the keychain when it can be reached).
      await this.secrets.delete(row.id).catch((error: unknown) => {
        if (!(error instanceof KeychainUnavailableError)) throw error;
      });
      this.sessionSecrets.set(row.id, values.secret);
    } else if (values.secret !== undefined) {
      await this.secrets.set(row.id, values.secret);
      this.sessionSecrets.delete(row.id);
    }

    const fields = {
      name: values.name ?? row.name,
      base_url: values.baseUrl ?? row.base_url,
      org: values.org ?? row.org,
      username: values.username ?? row.username,
      auth_scheme: values.authScheme ?? row.auth_scheme,
    };
    this.store.update(row.id, fields, new Date().toISOString());
    return this.get(row.id);
  }

  /** Removes the stored key first so no orphan secret is left behind; if the keychain refuses, nothing changes. */
  async remove(id: string): Promise<{ wasActive: boolean }> {
    const row = this.row(id);
    if (row.is_sandbox) {
      throw conflict('The local sandbox cannot be removed: the app starts it and recreates its profile at every start');
    }
    await this.secrets.delete(row.id);
    this.sessionSecrets.delete(row.id);
    this.store.delete(row.id);
    return { wasActive: row.is_active === 1 };
  }

  async setActive(id: string): Promise<Profile> {
    const row = this.row(id);
    this.store.activate(row.id);
    this.bindEnvKey(row.id);
    return this.get(row.id);
  }

  /**
   * Everything needed to call the tenant. The environment's key (for the one profile it serves) wins, then a key
   * for this session, then the keychain's.
   */
  async connection(id: string): Promise<Connection> {
    const row = this.row(id);
    const secret = row.is_sandbox
      ? this.sandboxSecret()
      : this.usesEnvKey(row)
        ? this.envKey
        : (this.sessionSecrets.get(row.id) ?? (await this.secrets.get(row.id)));
    return {
      profileId: row.id,
      baseUrl: row.base_url,
      org: row.org,
      username: row.username,
      authScheme: row.auth_scheme,
      secret,
    };
  }

  /**
   * A connection as typed in the Add/Edit dialog, never saved: the typed key; else, when editing, the profile's own
   * key — only while the address keeps its origin (a key never goes to a server it was not given for). A keychain
   * that cannot be read leaves the test without a key (it still checks the address); `keyUnreadable` says so.
   */
  async trial(input: ProfileTryInput): Promise<{ connection: Connection; keyUnreadable: boolean }> {
    const values = TrySchema.parse(input);
    let secret = values.secret ?? null;
    let keyUnreadable = false;
    if (!secret && values.id) {
      const row = this.row(values.id);
      if (originOf(values.baseUrl) === originOf(row.base_url)) {
        try {
          secret = (await this.connection(row.id)).secret;
        } catch (error) {
          if (!(error instanceof KeychainUnavailableError)) throw error;
          keyUnreadable = true;
        }
      }
    }
    return {
      connection: {
        profileId: values.id ?? '',
        baseUrl: values.baseUrl,
        org: values.org,
        username: values.username,
        authScheme: values.authScheme,
        secret,
      },
      keyUnreadable,
    };
  }

  private row(id: string): ProfileRow {
    const row = this.store.row(id);
    if (!row) throw notFound(`No tenant connection with id '${id}'`);
    return row;
  }

  private assertNameFree(name: string): void {
    if (this.findByName(name)) throw conflict(`A tenant connection named '${name}' already exists`);
  }

  /** A key of the profile's own (this session's or the keychain's), as opposed to the environment's. */
  private async hasOwnSecret(id: string): Promise<boolean> {
    if (this.sessionSecrets.has(id)) return true;
    try {
      return (await this.secrets.get(id)) !== null;
    } catch (error) {
      // An unreachable keychain sends nothing either.
      if (error instanceof KeychainUnavailableError) return false;
      throw error;
    }
  }

  private async secretSource(row: ProfileRow): Promise<SecretSource> {
    if (row.is_sandbox) return this.sandboxSecret() ? 'sandbox' : 'none';
    const id = row.id;
    if (this.usesEnvKey(row)) return 'env';
    if (this.sessionSecrets.has(id)) return 'session';
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
      hasSecret: ['keychain', 'env', 'session', 'sandbox'].includes(secretSource),
      secretSource,
      isSandbox: row.is_sandbox === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}

export const NO_KEY_MESSAGE =
  'This tenant connection has no key: add one in Settings → Tenants (for this session only if the OS keychain is ' +
  'unavailable), or start the app for this tenant with MENTOR_ADMIN_API_KEY.';

export function requireSecret(connection: Connection): string {
  if (!connection.secret) {
    throw new EngineError('validation', NO_KEY_MESSAGE);
  }
  return connection.secret;
}
