-- This app's copy of a tenant's invitation lists, one per target ('platform:<org>', 'course:<id>', 'program:<key>').
-- The platform filters addresses exactly; partial searches (part of an address or a name) are answered from this
-- copy, with the time it was read, and so is the list while the tenant cannot be reached.
CREATE TABLE invite_list_cache (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  target     TEXT NOT NULL,
  id         INTEGER NOT NULL,
  email      TEXT,
  username   TEXT,
  -- "First Last" from the invitation's metadata (names imported from CSV files live there).
  name       TEXT,
  source     TEXT,
  active     INTEGER NOT NULL CHECK (active IN (0, 1)),
  -- The invitation as the platform answered it.
  data       TEXT NOT NULL CHECK (json_valid(data)),
  -- The read that last saw it: rows an entire read did not see were deleted on the platform.
  generation INTEGER NOT NULL,
  PRIMARY KEY (profile_id, target, id)
) STRICT, WITHOUT ROWID;

-- When a whole list was last read, and by which read (its generation).
CREATE TABLE invite_list_synced (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  target     TEXT NOT NULL,
  generation INTEGER NOT NULL,
  synced_at  TEXT NOT NULL,
  PRIMARY KEY (profile_id, target)
) STRICT, WITHOUT ROWID;
