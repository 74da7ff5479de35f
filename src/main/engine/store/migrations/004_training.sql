-- Training mentors from folders. A preview is what a scan found (nothing was sent); a job is started from it.

CREATE TABLE train_previews (
  id          TEXT PRIMARY KEY,
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  mentor_id   TEXT NOT NULL,
  mentor_name TEXT NOT NULL,
  -- Files above this size were classed too_large; the job keeps to the same limit.
  max_file_bytes INTEGER NOT NULL,
  -- The contract's Preview without its files (counts, sizes per type, estimate, warnings).
  summary     TEXT NOT NULL CHECK (json_valid(summary)),
  -- The job started from this preview: starting it again answers the same job.
  job_id      TEXT,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL
) STRICT;
CREATE INDEX train_previews_by_expiry ON train_previews (expires_at);

CREATE TABLE train_preview_files (
  preview_id    TEXT NOT NULL REFERENCES train_previews (id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  path          TEXT NOT NULL,
  relative_path TEXT NOT NULL,
  type          TEXT NOT NULL,
  size          INTEGER NOT NULL,
  class         TEXT NOT NULL,
  reason        TEXT,
  sha256        TEXT,
  -- Platform document ids a changed file replaces once it is trained (JSON array).
  supersedes    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(supersedes)),
  mtime_ms      REAL,
  PRIMARY KEY (preview_id, seq)
) STRICT;
CREATE INDEX train_preview_files_by_path ON train_preview_files (preview_id, relative_path, seq);
CREATE INDEX train_preview_files_by_class ON train_preview_files (preview_id, class, relative_path);

-- What this app uploaded to each mentor: a file's content (relative path + SHA-256) and the document it became.
-- A row is claimed before the upload is sent, so two jobs never send the same content twice, and it tells a later
-- preview what a document holds when the platform does not return content hashes.
CREATE TABLE train_uploads (
  profile_id    TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  mentor_id     TEXT NOT NULL,
  relative_path TEXT NOT NULL,
  sha256        TEXT NOT NULL,
  job_id        TEXT NOT NULL,
  item_id       INTEGER NOT NULL,
  document_id   TEXT,
  task_id       TEXT,
  status        TEXT NOT NULL CHECK (status IN ('uploading', 'pending', 'trained', 'failed')),
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  PRIMARY KEY (profile_id, mentor_id, relative_path, sha256)
) STRICT, WITHOUT ROWID;
-- No other index: every upload writes here twice (claim, answer), and lookups by document are rare and per mentor.

-- Which process runs a training job now, so a job is never run by two processes (the app and the CLI) at once.
CREATE TABLE train_job_leases (
  job_id       TEXT PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  owner        TEXT NOT NULL,
  host         TEXT NOT NULL,
  pid          INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
) STRICT;
