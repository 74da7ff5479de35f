-- Erasure reports (issue 18, "Erase a person"): what was erased of whom, when and by whom, kept on this computer per
-- tenant connection as the proof an admin answers an erasure request with. The platform keeps no record of it.
CREATE TABLE person_erasures (
  id           TEXT PRIMARY KEY,
  profile_id   TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  job_id       TEXT NOT NULL UNIQUE,
  user_id      TEXT NOT NULL,
  username     TEXT NOT NULL,
  email        TEXT,
  requested_by TEXT NOT NULL,
  requested_at TEXT NOT NULL,
  finished_at  TEXT,
  state        TEXT NOT NULL CHECK (state IN ('running', 'erased', 'failed')),
  -- Per step, as JSON: [{step, planned, erased}].
  steps        TEXT NOT NULL CHECK (json_valid(steps)),
  digest       TEXT
) STRICT;
CREATE INDEX person_erasures_by_profile ON person_erasures (profile_id, requested_at);
