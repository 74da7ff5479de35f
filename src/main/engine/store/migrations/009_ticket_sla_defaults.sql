-- A tenant's SLA targets for views that set none of their own: a table of its own, so no view call can touch it.
CREATE TABLE ticket_sla_defaults (
  profile_id          TEXT PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  first_reply_hours   REAL,
  resolution_hours    REAL,
  updated_at          TEXT NOT NULL
) STRICT;
