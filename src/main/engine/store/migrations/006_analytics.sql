-- Analytics answers cached per tenant, call and parameters (canonical JSON), with the time they were fetched: the
-- dashboards render from here at once and stand in for the tenant when it cannot be reached.
CREATE TABLE analytics_cache (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  call       TEXT NOT NULL,
  params     TEXT NOT NULL,
  value      TEXT NOT NULL CHECK (json_valid(value)),
  as_of      TEXT NOT NULL,
  PRIMARY KEY (profile_id, call, params)
) STRICT, WITHOUT ROWID;

-- Scheduled exports. `last_slot` is the scheduled instant that last ran (written before the run starts, so a
-- crash never runs a slot twice); the runs themselves are export jobs whose params carry the schedule id.
CREATE TABLE analytics_schedules (
  id         TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  dataset    TEXT NOT NULL,
  cadence    TEXT NOT NULL CHECK (cadence IN ('daily', 'weekly')),
  weekday    INTEGER CHECK (weekday BETWEEN 0 AND 6),
  time       TEXT NOT NULL,
  time_zone  TEXT NOT NULL,
  range_days INTEGER NOT NULL CHECK (range_days > 0),
  folder     TEXT NOT NULL,
  mentor     TEXT,
  options    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
  enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  last_slot  TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX analytics_schedules_by_profile ON analytics_schedules (profile_id, name);

-- Exports list their jobs by schedule.
CREATE INDEX jobs_export_schedule ON jobs (json_extract(params, '$.scheduleId'), created_at) WHERE kind = 'export';
