-- The review queue (issue 18): the tenant's moderation and safety logs cached per tenant connection (the platform
-- lists them page by page; the queue filters, counts and pages 100,000 of them locally), the reviewed state this
-- machine keeps (who and when: the platform has none), and saved views.
CREATE TABLE review_items (
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- 'moderation:ID' or 'safety:ID': the endpoint and the log's id.
  id          TEXT NOT NULL,
  source      TEXT NOT NULL CHECK (source IN ('Moderation System', 'Safety System')),
  log_id      INTEGER NOT NULL,
  learner     TEXT NOT NULL,
  email       TEXT NOT NULL,
  mentor_id   INTEGER NOT NULL,
  prompt      TEXT NOT NULL,
  reason      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (profile_id, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX review_items_by_time ON review_items (profile_id, created_at DESC, id);
CREATE INDEX review_items_by_mentor ON review_items (profile_id, mentor_id, created_at DESC);

CREATE TABLE review_marks (
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  id          TEXT NOT NULL,
  reviewed_by TEXT NOT NULL,
  reviewed_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, id)
) STRICT, WITHOUT ROWID;

-- Mentor names by the integer id the logs carry (the mentor list is read with the logs).
CREATE TABLE review_mentors (
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  mentor_id   INTEGER NOT NULL,
  unique_id   TEXT NOT NULL,
  name        TEXT NOT NULL,
  PRIMARY KEY (profile_id, mentor_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE review_views (
  id          INTEGER PRIMARY KEY,
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  filter      TEXT NOT NULL CHECK (json_valid(filter)),
  UNIQUE (profile_id, name)
) STRICT;

CREATE TABLE review_sync (
  profile_id  TEXT PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  synced_at   TEXT,
  error       TEXT
) STRICT;
