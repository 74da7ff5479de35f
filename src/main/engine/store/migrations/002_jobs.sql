-- The job journal: a job and all its items are written before the first request is sent; the runner resumes
-- from here after a quit, a crash or kill -9. The journal is the truth; screens are views of it.
CREATE TABLE jobs (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('train', 'invite', 'export', 'ticket-reply')),
  profile_id  TEXT REFERENCES profiles (id) ON DELETE SET NULL,
  title       TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'paused', 'waiting', 'completed', 'failed', 'cancelled')),
  reason      TEXT,
  error       TEXT,
  phase       TEXT NOT NULL DEFAULT '',
  params      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  counts      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(counts)),
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  started_at  TEXT,
  finished_at TEXT
) STRICT;
CREATE INDEX jobs_by_state ON jobs (state, created_at);
CREATE INDEX jobs_by_kind ON jobs (kind, created_at);

CREATE TABLE job_items (
  id         INTEGER PRIMARY KEY,
  job_id     TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  -- Idempotency key inside the job, e.g. a relative file path or an email + target.
  key        TEXT NOT NULL,
  label      TEXT NOT NULL,
  state      TEXT NOT NULL CHECK (state IN ('pending', 'active', 'done', 'failed', 'skipped')),
  phase      TEXT NOT NULL DEFAULT '',
  bytes      INTEGER NOT NULL DEFAULT 0,
  attempts   INTEGER NOT NULL DEFAULT 0,
  error      TEXT,
  data       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data)),
  updated_at TEXT NOT NULL,
  UNIQUE (job_id, key)
) STRICT;
CREATE INDEX job_items_by_state ON job_items (job_id, state, id);
