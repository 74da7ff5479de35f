-- The resource kit's copy of what each tenant answered, per kind (src/shared/resources/): lists open from here at
-- once and while the tenant cannot be reached, then refresh. Secrets (a token's key) are never written here.

-- One row per cached kind: when its records were read and how the last refresh went.
CREATE TABLE resource_lists (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  -- Base URL, org and username the rows came from: rows of a connection that has since been changed are ignored.
  tenant     TEXT NOT NULL,
  -- When the records were last read in full (or, for kinds the platform cannot list, last added or looked up).
  as_of      TEXT NOT NULL,
  -- The last refresh attempt, failed or not: background refreshes are throttled on it.
  checked_at TEXT NOT NULL,
  -- Why the last refresh failed; cleared by the next one that works.
  error      TEXT,
  PRIMARY KEY (profile_id, kind)
) STRICT, WITHOUT ROWID;

CREATE TABLE resource_records (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  id         TEXT NOT NULL,
  -- The order the platform gave; records created here go before it.
  position   INTEGER NOT NULL,
  -- The declared search fields' text, lower-cased: what a search looks in.
  search     TEXT NOT NULL,
  -- The record as the platform answered it, less the fields never kept (see revealOnce in the declarations).
  data       TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (profile_id, kind, id)
) STRICT, WITHOUT ROWID;
CREATE INDEX resource_records_order ON resource_records (profile_id, kind, position);
