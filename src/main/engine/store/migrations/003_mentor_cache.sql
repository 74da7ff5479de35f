-- What the tenant last answered for the mentors and documents screens, per tenant connection. The API is the truth:
-- these rows let a list render at once (and while offline), then refresh in the background.

-- One row per cached list ('mentors', or 'documents:<mentor unique id>'): when it was fetched and how the last
-- refresh went. A list without a row has never been fetched.
CREATE TABLE cached_lists (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  list       TEXT NOT NULL,
  -- Base URL, org and username the rows came from: rows of a connection that has since been changed are ignored.
  tenant     TEXT NOT NULL,
  -- When the rows were last fetched in full.
  as_of      TEXT NOT NULL,
  -- The last refresh attempt, failed or not: background refreshes are throttled on it.
  checked_at TEXT NOT NULL,
  -- Why the last refresh failed; cleared by the next one that works.
  error      TEXT,
  PRIMARY KEY (profile_id, list)
) STRICT;

CREATE TABLE cached_mentors (
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  unique_id   TEXT NOT NULL,
  name        TEXT NOT NULL,
  -- The order the API gave (newest first); mentors created here go before it.
  position    INTEGER NOT NULL,
  -- The contract's Mentor, validated on the way in and on the way out.
  data        TEXT NOT NULL CHECK (json_valid(data)),
  -- The mentor's updated_at when its settings (description, visibility) were read: unchanged means no need to
  -- read them again on the next refresh.
  settings_of TEXT,
  PRIMARY KEY (profile_id, unique_id)
) STRICT;
CREATE INDEX cached_mentors_by_name ON cached_mentors (profile_id, name);

CREATE TABLE cached_documents (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- The mentor's unique id (the documents' pathway).
  mentor     TEXT NOT NULL,
  id         TEXT NOT NULL,
  position   INTEGER NOT NULL,
  -- The contract's MentorDocument.
  data       TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (profile_id, mentor, id)
) STRICT;
