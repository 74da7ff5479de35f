-- Local history of single records that keep one (a mentor's settings, see `history` in the declarations): every
-- save here keeps the record as the platform answered it, per tenant connection, kind and parent (the mentor), so
-- two saves can be compared field by field and an earlier one saved again.
CREATE TABLE resource_snapshots (
  id         INTEGER PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  -- The parent's id (a mentor's unique_id).
  key        TEXT NOT NULL,
  taken_at   TEXT NOT NULL,
  -- 'found': as the record was before the first save from this app; 'saved'; 'reverted' (to `reverted_to`).
  reason     TEXT NOT NULL CHECK (reason IN ('found', 'saved', 'reverted')),
  -- The snapshot reverted to, for 'reverted'.
  reverted_to INTEGER,
  -- The fields this save changed (JSON array of names); empty for 'found'.
  changed    TEXT NOT NULL CHECK (json_valid(changed)),
  data       TEXT NOT NULL CHECK (json_valid(data))
) STRICT;
CREATE INDEX resource_snapshots_by_key ON resource_snapshots (profile_id, kind, key, id);
