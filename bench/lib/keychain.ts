import type { SecretStore } from '../../src/main/engine/secrets/keychain';

/** The benches give the engine its key in MENTOR_ADMIN_API_KEY: they need no OS keychain. */
export const noKeychain: SecretStore = {
  get: async () => null,
  set: async () => {},
  delete: async () => false,
  status: async () => ({ available: true, message: 'not used' }),
};
