/** Badges (the spec's "credentials"), their issuers, uploaded images and the assertions that award them. */
export const credentialsSchema = `
CREATE TABLE IF NOT EXISTS credential_issuers (
  entity_id TEXT PRIMARY KEY,
  org TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  icon_image TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS credential_badges (
  entity_id TEXT PRIMARY KEY,
  org TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  issuer TEXT,
  credential_type TEXT,
  icon_image TEXT NOT NULL DEFAULT '',
  criteria_text TEXT NOT NULL DEFAULT '',
  course TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS credential_badges_org ON credential_badges(org, name);
CREATE TABLE IF NOT EXISTS credential_assertions (
  entity_id TEXT PRIMARY KEY,
  org TEXT NOT NULL,
  badge TEXT NOT NULL REFERENCES credential_badges(entity_id) ON DELETE CASCADE,
  username TEXT NOT NULL,
  email TEXT NOT NULL,
  issued_on TEXT NOT NULL,
  narrative TEXT,
  revoked INTEGER NOT NULL DEFAULT 0,
  revocation_reason TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS credential_assertions_once ON credential_assertions(badge, username);
CREATE INDEX IF NOT EXISTS credential_assertions_day ON credential_assertions(org, issued_on);
CREATE TABLE IF NOT EXISTS credential_images (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL,
  name TEXT,
  type TEXT NOT NULL,
  bytes BLOB NOT NULL
);
`;
