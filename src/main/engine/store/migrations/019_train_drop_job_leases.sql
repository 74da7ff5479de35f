-- A training job no longer keeps a lease of its own: the job runner's claim in the journal (jobs.runner, runner_pid,
-- runner_host, runner_seen_at: one live process per job, heartbeat and takeover of a dead one) is the same guarantee.
DROP TABLE train_job_leases;
