-- Tenant connections. Secrets are never stored here: they live in the OS keychain, keyed by profile id.
CREATE TABLE profiles (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL COLLATE NOCASE UNIQUE,
  base_url    TEXT NOT NULL,
  org         TEXT NOT NULL,
  username    TEXT NOT NULL,
  auth_scheme TEXT NOT NULL CHECK (auth_scheme IN ('Api-Key', 'Api-Token', 'Token', 'Bearer')),
  is_active   INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
  is_sandbox  INTEGER NOT NULL DEFAULT 0 CHECK (is_sandbox IN (0, 1)),
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;

-- At most one active profile, enforced by the database rather than by memory.
CREATE UNIQUE INDEX profiles_single_active ON profiles (is_active) WHERE is_active = 1;

-- Application settings as JSON values, one row per key.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL CHECK (json_valid(value))
) STRICT;
