/** Tenant connections: rows in SQLite (ProfileStore), keys in the OS keychain, one of them active. */
export { Profiles, NO_KEY_MESSAGE, requireSecret, type Connection } from './profiles';
export { ProfileStore, type TenantIdentity } from './store';
