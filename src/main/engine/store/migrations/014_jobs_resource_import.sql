-- The resource kit's CSV import runs as a job of its own kind ('resource-import'). SQLite cannot change a CHECK in
-- place and a migration runs inside a transaction (foreign keys stay on), so `jobs` is rebuilt the long way: the rows
-- that refer to jobs are set aside first (dropping the old table deletes them by ON DELETE CASCADE), then put back.
CREATE TEMP TABLE keep_job_items AS SELECT * FROM job_items;
CREATE TEMP TABLE keep_train_job_leases AS SELECT * FROM train_job_leases;
CREATE TEMP TABLE keep_invite_inflight AS SELECT * FROM invite_inflight;

CREATE TABLE jobs_rebuilt (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('train', 'invite', 'export', 'ticket-reply', 'resource-import')),
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
  finished_at TEXT,
  runner TEXT,
  runner_pid INTEGER,
  runner_host TEXT,
  runner_seen_at INTEGER,
  waiting_since TEXT,
  retry_at TEXT,
  gives_up_at TEXT,
  wait_limit_minutes INTEGER CHECK (wait_limit_minutes > 0)
) STRICT;
INSERT INTO jobs_rebuilt SELECT * FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_rebuilt RENAME TO jobs;
CREATE INDEX jobs_by_state ON jobs (state, created_at);
CREATE INDEX jobs_by_kind ON jobs (kind, created_at);
CREATE INDEX jobs_export_schedule ON jobs (json_extract(params, '$.scheduleId'), created_at) WHERE kind = 'export';
CREATE INDEX jobs_by_created ON jobs (created_at);

INSERT INTO job_items SELECT * FROM keep_job_items;
INSERT INTO train_job_leases SELECT * FROM keep_train_job_leases;
INSERT INTO invite_inflight SELECT * FROM keep_invite_inflight;
DROP TABLE keep_job_items;
DROP TABLE keep_train_job_leases;
DROP TABLE keep_invite_inflight;
