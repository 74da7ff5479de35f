-- The journal says which process runs a job (or holds it waiting to retry), so no other process starts it too and
-- every process obeys the journal's state: a pause or cancel written by one stops the run of another.
ALTER TABLE jobs ADD COLUMN runner TEXT;             -- the holding runner's own id; NULL when no process holds it
ALTER TABLE jobs ADD COLUMN runner_pid INTEGER;
ALTER TABLE jobs ADD COLUMN runner_host TEXT;
ALTER TABLE jobs ADD COLUMN runner_seen_at INTEGER;  -- the holder's heartbeat (ms since the epoch)
-- Waiting for an unreachable tenant: since when, the next try, and when the job gives up and pauses.
ALTER TABLE jobs ADD COLUMN waiting_since TEXT;
ALTER TABLE jobs ADD COLUMN retry_at TEXT;
ALTER TABLE jobs ADD COLUMN gives_up_at TEXT;
-- This job's own waiting limit in minutes (mentor-admin jobs resume --wait-limit); NULL: the app's setting.
ALTER TABLE jobs ADD COLUMN wait_limit_minutes INTEGER CHECK (wait_limit_minutes > 0);
