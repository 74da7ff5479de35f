import { createRequire } from 'node:module';
import type * as Keyring from '@napi-rs/keyring';

/** Where secrets live. The only implementation is the OS keychain; the interface lets the engine stay testable. */
export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** Resolves true when something was deleted. */
  delete(account: string): Promise<boolean>;
  status(): Promise<{ available: boolean; message: string }>;
}

export const DEFAULT_KEYCHAIN_SERVICE = 'mentor-admin';
/** An account that never exists, looked up to see whether the keychain answers. */
const PROBE_ACCOUNT = '__mentor-admin-probe__';

/** The OS keychain could not be used; the message says what to do. Nothing was stored or removed. */
export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `The OS keychain is not available (${reason}). ` +
        'On Linux, install and unlock a Secret Service such as GNOME Keyring or KWallet. Meanwhile a key can be kept ' +
        'for this session only (Add or Edit tenant), or MENTOR_ADMIN_API_KEY can supply the key of one tenant.',
    );
    this.name = 'KeychainUnavailableError';
  }
}

let loaded: typeof Keyring | null = null;

/**
 * @napi-rs/keyring, loaded at the first use of the keychain (a command that never needs a key never loads the native
 * module, and one that cannot be loaded makes the keychain unavailable rather than the engine), with require: an ES
 * module importing this CommonJS package pays a scan of its exports at every start.
 */
function keyring(): typeof Keyring {
  return (loaded ??= createRequire(import.meta.url)('@napi-rs/keyring') as typeof Keyring);
}

/**
 * The OS keychain through @napi-rs/keyring: the macOS Keychain, the Windows Credential Manager or the Linux
 * Secret Service. Entries are (service, account = profile id).
 */
export function createKeychain(service: string = DEFAULT_KEYCHAIN_SERVICE): SecretStore {
  const entry = (account: string) => new (keyring().AsyncEntry)(service, account);
  // Without a Secret Service the first lookup of a process answers "no entry" and only later calls fail: one
  // throwaway lookup first, so no real call ever takes that false "no key" for an answer.
  let primed: Promise<void> | null = null;
  const prime = () =>
    (primed ??= entry(PROBE_ACCOUNT)
      .getPassword()
      .then(
        () => undefined,
        () => undefined,
      ));
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      await prime();
      return await work();
    } catch (error) {
      throw new KeychainUnavailableError(error);
    }
  };
  return {
    get: (account) => guarded(() => entry(account).getPassword()),
    set: (account, secret) => guarded(() => entry(account).setPassword(secret)),
    delete: (account) => guarded(() => entry(account).deletePassword()),
    async status() {
      try {
        // A lookup of an account that never exists proves the store answers without touching real entries.
        await prime();
        await entry(PROBE_ACCOUNT).getPassword();
        return { available: true, message: 'OS keychain available' };
      } catch (error) {
        return { available: false, message: new KeychainUnavailableError(error).message };
      }
    },
  };
}

export const API_KEY_ENV = 'MENTOR_ADMIN_API_KEY';

/**
 * `MENTOR_ADMIN_API_KEY`, for scripts, CI and machines without a keychain: the key of one tenant (see Profiles), read,
 * never persisted.
 */
export function secretFromEnv(env: NodeJS.ProcessEnv): string | null {
  const value = env[API_KEY_ENV]?.trim();
  return value ? value : null;
}
