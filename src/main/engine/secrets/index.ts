/** Tenants' keys: the OS keychain, or MENTOR_ADMIN_API_KEY for one tenant. */
export {
  createKeychain,
  DEFAULT_KEYCHAIN_SERVICE,
  KeychainUnavailableError,
  secretFromEnv,
  type SecretStore,
} from './keychain';
