/**
 * The mentors area's own tables. Mentor rows live in `mentors` (mentor-store.ts); the many per-mentor flags and UI
 * settings are kept in its `settings` JSON column, so the shared table is never altered.
 */
export const mentorsAreaSchema = `
CREATE INDEX IF NOT EXISTS mentors_org_slug ON mentors(org, slug);
CREATE TABLE IF NOT EXISTS mentor_audiences (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  description TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (org, name)
);
CREATE TABLE IF NOT EXISTS mentor_categories (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  description TEXT,
  category_group INTEGER,
  audience_id INTEGER NOT NULL REFERENCES mentor_audiences(id),
  created_at TEXT NOT NULL,
  UNIQUE (org, name)
);
CREATE INDEX IF NOT EXISTS mentor_categories_audience ON mentor_categories(audience_id);
CREATE TABLE IF NOT EXISTS mentor_category_audiences (
  category_id INTEGER NOT NULL REFERENCES mentor_categories(id) ON DELETE CASCADE,
  audience_id INTEGER NOT NULL REFERENCES mentor_audiences(id) ON DELETE CASCADE,
  PRIMARY KEY (category_id, audience_id)
);
CREATE INDEX IF NOT EXISTS mentor_category_audiences_audience ON mentor_category_audiences(audience_id);
CREATE TABLE IF NOT EXISTS mentor_category_links (
  mentor_id INTEGER NOT NULL REFERENCES mentors(id),
  category_id INTEGER NOT NULL REFERENCES mentor_categories(id) ON DELETE CASCADE,
  PRIMARY KEY (mentor_id, category_id)
);
CREATE INDEX IF NOT EXISTS mentor_category_links_category ON mentor_category_links(category_id);
`;

/** A mentor's sharable link (the spec's `ShareableMentorLink`): at most one per mentor. */
export const sharableLinksSchema = `
CREATE TABLE IF NOT EXISTS mentor_sharable_links (
  id INTEGER PRIMARY KEY,
  mentor_id INTEGER NOT NULL UNIQUE REFERENCES mentors(id),
  token TEXT NOT NULL UNIQUE,
  enabled INTEGER NOT NULL DEFAULT 1,
  inserted_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;

/** The tenant's ElevenLabs voices and each mentor's custom voice (areas/mentors/voice.ts). */
export const voiceSchema = `
CREATE TABLE IF NOT EXISTS elevenlabs_voices (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  owner TEXT NOT NULL,
  language TEXT NOT NULL,
  description TEXT NOT NULL,
  sample_bytes INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (org, name)
);
CREATE TABLE IF NOT EXISTS mentor_custom_voices (
  mentor_id INTEGER PRIMARY KEY REFERENCES mentors(id),
  provider TEXT NOT NULL,
  name TEXT
);
`;
