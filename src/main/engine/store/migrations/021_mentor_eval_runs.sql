-- A mentor's evaluation runs (issue 16, "Evaluations"): the platform runs an evaluation and answers a report id, but
-- lists no reports, so the runs started from this app are kept here with their reports, per tenant connection and
-- mentor, to be listed with their time and compared side by side.
CREATE TABLE mentor_eval_runs (
  id            INTEGER PRIMARY KEY,
  profile_id    TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- The mentor's unique_id (or the name it was given by).
  mentor        TEXT NOT NULL,
  evaluation_id INTEGER NOT NULL,
  job_id        TEXT,
  -- The platform's report id, once the execution answered.
  report_id     INTEGER,
  started_at    TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('sending', 'waiting', 'ready', 'failed')),
  error         TEXT,
  -- The report as read (JSON), once ready.
  report        TEXT CHECK (report IS NULL OR json_valid(report))
) STRICT;
CREATE INDEX mentor_eval_runs_by_mentor ON mentor_eval_runs (profile_id, mentor, id);
