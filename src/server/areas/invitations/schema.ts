/**
 * The catalog: courses (shared with the analytics area, which may create and fill the table first — hence the
 * exact same statement), programs, enrolments, and invitations to the platform, a course or a program.
 */
export const invitationsSchema = `
CREATE TABLE IF NOT EXISTS courses(id INTEGER PRIMARY KEY, course_id TEXT UNIQUE, org, name, created_at);
CREATE TABLE IF NOT EXISTS programs (
  id INTEGER PRIMARY KEY,
  program_key TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  program_type TEXT NOT NULL DEFAULT 'certificate',
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS catalog_enrollments (
  kind TEXT NOT NULL CHECK (kind IN ('course', 'program')),
  target TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  PRIMARY KEY (kind, target, user_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS catalog_enrollments_user ON catalog_enrollments(user_id);
CREATE TABLE IF NOT EXISTS catalog_invitations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('platform', 'course', 'program')),
  org TEXT NOT NULL REFERENCES orgs(key),
  -- The org key, course_id or program_key invited to.
  target TEXT NOT NULL,
  email TEXT COLLATE NOCASE,
  username TEXT,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  source TEXT,
  redirect_to TEXT,
  active INTEGER NOT NULL DEFAULT 1,
  metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
  enrollment_config TEXT CHECK (enrollment_config IS NULL OR json_valid(enrollment_config)),
  created TEXT NOT NULL,
  started TEXT,
  expired TEXT
);
CREATE INDEX IF NOT EXISTS catalog_invitations_list ON catalog_invitations(org, kind, id);
CREATE INDEX IF NOT EXISTS catalog_invitations_email ON catalog_invitations(org, kind, email);
CREATE INDEX IF NOT EXISTS catalog_invitations_source ON catalog_invitations(org, kind, source, id);
CREATE INDEX IF NOT EXISTS catalog_invitations_username ON catalog_invitations(org, kind, username);
CREATE INDEX IF NOT EXISTS catalog_invitations_active ON catalog_invitations(org, kind, active, id);
CREATE INDEX IF NOT EXISTS catalog_invitations_target ON catalog_invitations(kind, target, id);
CREATE INDEX IF NOT EXISTS catalog_invitations_target_email ON catalog_invitations(kind, target, email, active);
CREATE INDEX IF NOT EXISTS catalog_invitations_check ON catalog_invitations(email, kind, active);
CREATE INDEX IF NOT EXISTS catalog_invitations_blank ON catalog_invitations(kind, target, source, id)
  WHERE email IS NULL AND user_id IS NULL;
`;
