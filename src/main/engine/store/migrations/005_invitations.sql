-- CSV imports of people to invite. An import keeps every row of the file here so the wizard can page, fix cells in
-- place, drop rows and go back a step without losing work; nothing is sent until the admin confirms.
CREATE TABLE invite_imports (
  id          TEXT PRIMARY KEY,
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  path        TEXT NOT NULL,
  -- The engine wrote the file itself (text sent by the page): it is deleted with the import.
  owned       INTEGER NOT NULL DEFAULT 0 CHECK (owned IN (0, 1)),
  size        INTEGER NOT NULL,
  sha256      TEXT,
  -- How the file is read: encoding, bom, delimiter, newline, headerRow, headers, mapping.
  settings    TEXT NOT NULL CHECK (json_valid(settings)),
  -- The settings the stored rows were read with (NULL until read): rows are stale when they differ.
  parsed_with TEXT,
  target      TEXT CHECK (target IS NULL OR json_valid(target)),
  options     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
  -- The target the already-invited / member check ran for.
  checked_for TEXT,
  state       TEXT NOT NULL CHECK (state IN ('sniffed', 'parsing', 'parsed', 'checking', 'ready', 'failed', 'started')),
  phase       TEXT NOT NULL DEFAULT '',
  rows_read   INTEGER NOT NULL DEFAULT 0,
  bytes_read  INTEGER NOT NULL DEFAULT 0,
  notices     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(notices)),
  error       TEXT,
  job_id      TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;

-- One row per data record of the file. `status` is derived from problems, dup_of and remote, kept in the table so
-- that filtering a million rows to the ones with problems is an index range.
CREATE TABLE invite_import_rows (
  import_id              TEXT NOT NULL REFERENCES invite_imports (id) ON DELETE CASCADE,
  line                   INTEGER NOT NULL,
  email                  TEXT NOT NULL DEFAULT '',
  first_name             TEXT NOT NULL DEFAULT '',
  last_name              TEXT NOT NULL DEFAULT '',
  company_name           TEXT NOT NULL DEFAULT '',
  user_group             TEXT NOT NULL DEFAULT '',
  user_group_owner_email TEXT NOT NULL DEFAULT '',
  -- The address as sent (international domains in ASCII form), lower-cased: duplicates and checks compare it.
  email_key              TEXT,
  problems               TEXT CHECK (problems IS NULL OR json_valid(problems)),
  dup_of                 INTEGER,
  remote                 TEXT CHECK (remote IS NULL OR remote IN ('invited', 'member')),
  status                 TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'duplicate', 'already_invited', 'already_member')),
  dropped                INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1)),
  edited                 INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  PRIMARY KEY (import_id, line)
) STRICT, WITHOUT ROWID;
CREATE INDEX invite_import_rows_by_status ON invite_import_rows (import_id, dropped, status, line);
CREATE INDEX invite_import_rows_by_email ON invite_import_rows (import_id, email_key, line);

-- The admin's fixes and drops, by line and field: they survive reading the file again with other settings.
CREATE TABLE invite_import_edits (
  import_id TEXT NOT NULL REFERENCES invite_imports (id) ON DELETE CASCADE,
  line      INTEGER NOT NULL,
  -- A field name, or 'dropped' with value '1' / '0'.
  field     TEXT NOT NULL,
  value     TEXT NOT NULL,
  PRIMARY KEY (import_id, line, field)
) STRICT, WITHOUT ROWID;

-- Column mappings the admin chose, per tenant, by normalised header ('' = ignore the column).
CREATE TABLE invite_column_memory (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  header     TEXT NOT NULL,
  field      TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, header)
) STRICT, WITHOUT ROWID;

-- Who was invited where, per tenant: the idempotency key (email, target) of invite jobs across re-runs and resumes.
CREATE TABLE invite_sent (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- 'platform:<org>', 'course:<course_id>' or 'program:<program_key>'.
  target     TEXT NOT NULL,
  email_key  TEXT NOT NULL,
  job_id     TEXT,
  at         TEXT NOT NULL,
  PRIMARY KEY (profile_id, target, email_key)
) STRICT, WITHOUT ROWID;

-- Chunks of an invite job posted but not yet recorded (one row per chunk, deleted with its answer). After a crash
-- their rows are asked about on the platform before anything is sent again.
CREATE TABLE invite_inflight (
  job_id   TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  chunk    INTEGER NOT NULL,
  item_ids TEXT NOT NULL CHECK (json_valid(item_ids)),
  PRIMARY KEY (job_id, chunk)
) STRICT;
