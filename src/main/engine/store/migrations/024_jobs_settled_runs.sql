-- Runs of consecutive job items settled alike in one write (a bulk request's answer: 500 people "added"), instead of
-- a write per item. An item a run covers whose own row still says 'pending' is in the run's state and phase; an item
-- settled otherwise (a batch's exceptions: unknown, already, failed) has its own row written as before, which wins.
-- Only the job journal reads and writes it (jobs/journal.ts); the journal reads a job's items through it.
CREATE TABLE job_item_runs (
  job_id     TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  low        INTEGER NOT NULL,
  high       INTEGER NOT NULL CHECK (high >= low),
  state      TEXT NOT NULL CHECK (state IN ('done', 'skipped')),
  phase      TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (job_id, low)
) STRICT, WITHOUT ROWID;
