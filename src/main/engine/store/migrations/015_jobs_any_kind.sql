-- foreign_keys: off
-- Job kinds are the contract's (JobKind, checked by zod before anything is written): the journal no longer lists
-- them, so an area that adds a kind (the resource kit's bulk changes) needs no migration. SQLite cannot drop a CHECK
-- in place: the table is rebuilt with every column and index it had (002, 006, 010, 012, 014).
CREATE TABLE jobs_rebuilt (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind <> ''),
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
INSERT INTO jobs_rebuilt (id, kind, profile_id, title, state, reason, error, phase, params, counts, created_at,
    updated_at, started_at, finished_at, runner, runner_pid, runner_host, runner_seen_at, waiting_since, retry_at,
    gives_up_at, wait_limit_minutes)
  SELECT id, kind, profile_id, title, state, reason, error, phase, params, counts, created_at, updated_at, started_at,
    finished_at, runner, runner_pid, runner_host, runner_seen_at, waiting_since, retry_at, gives_up_at,
    wait_limit_minutes
  FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_rebuilt RENAME TO jobs;
CREATE INDEX jobs_by_state ON jobs (state, created_at);
CREATE INDEX jobs_by_kind ON jobs (kind, created_at);
CREATE INDEX jobs_export_schedule ON jobs (json_extract(params, '$.scheduleId'), created_at) WHERE kind = 'export';
CREATE INDEX jobs_by_created ON jobs (created_at);
