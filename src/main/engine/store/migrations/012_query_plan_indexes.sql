-- Indexes the hot queries' plans were missing (tests/engine/query-plans.test.ts explains every one of them).
-- The jobs list, newest first: read backwards from here to the page's end instead of sorting the whole journal.
CREATE INDEX jobs_by_created ON jobs (created_at);
-- A job's items in journal order (the rowid, `id`, follows `job_id` in the index): a page of a 100,000-item job is
-- read in order up to its end instead of sorting every item of the job.
CREATE INDEX job_items_by_job ON job_items (job_id);
