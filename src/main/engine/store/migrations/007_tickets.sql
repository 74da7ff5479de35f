-- The support ticket queue: a cache of each tenant's tickets and threads (the API is the truth), full-text indexes
-- over them, and fields that exist only in this app (claim, priority, tags, read state, drafts, views, canned
-- replies). Cache rows are replaced by sync; local rows are never touched by it.

CREATE TABLE ticket_cache (
  -- Local row id: the rowid of the full-text index.
  rid                  INTEGER PRIMARY KEY,
  profile_id           TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  id                   INTEGER NOT NULL,
  user_id              INTEGER,
  username             TEXT NOT NULL,
  email                TEXT NOT NULL,
  full_name            TEXT NOT NULL,
  session              TEXT,
  subject              TEXT NOT NULL,
  description          TEXT NOT NULL,
  status               TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'closed')),
  mentor_id            TEXT NOT NULL,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  resolved_at          TEXT,
  -- Derived from the cached thread (kept in step whenever messages arrive).
  message_count        INTEGER NOT NULL DEFAULT 0,
  last_message_at      TEXT,
  first_staff_reply_at TEXT,
  -- max(updated_at, last_message_at): "last activity" and unread markers.
  activity_at          TEXT NOT NULL,
  -- Since when the requester waits for staff; '~' (after every timestamp) when closed or staff spoke last, so
  -- "waiting longest" reads an index.
  waiting_since        TEXT NOT NULL DEFAULT '~',
  UNIQUE (profile_id, id)
) STRICT;
-- The list indexes (one per view and order); the first sync of a tenant drops and rebuilds them around its bulk load
-- (tickets/cache.ts holds the same definitions and a test keeps the two equal).
CREATE INDEX ticket_cache_created ON ticket_cache (profile_id, created_at, id);
CREATE INDEX ticket_cache_status_created ON ticket_cache (profile_id, status, created_at, id);
CREATE INDEX ticket_cache_activity ON ticket_cache (profile_id, activity_at, id);
CREATE INDEX ticket_cache_status_activity ON ticket_cache (profile_id, status, activity_at, id);
CREATE INDEX ticket_cache_waiting ON ticket_cache (profile_id, waiting_since, id);
CREATE INDEX ticket_cache_status_waiting ON ticket_cache (profile_id, status, waiting_since, id);
CREATE INDEX ticket_cache_mentor ON ticket_cache (profile_id, mentor_id, created_at, id);

CREATE TABLE ticket_messages (
  mid        INTEGER PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  id         INTEGER NOT NULL,
  ticket_id  INTEGER NOT NULL,
  sender     INTEGER,
  message    TEXT NOT NULL,
  timestamp  TEXT NOT NULL,
  UNIQUE (profile_id, id)
) STRICT;
CREATE INDEX ticket_messages_thread ON ticket_messages (profile_id, ticket_id, timestamp, id);

-- One full-text row per ticket (rowid = rid): its subject, description, requester and the text of its whole thread,
-- so a search is one index lookup and words may match across fields; `facets` holds tokens for the tenant, status
-- and mentor, so counts of a view's search hits come from the index alone. Contentless: the text lives in the
-- tables above; a ticket's row is rewritten when its thread, text, status or mentor change.
CREATE VIRTUAL TABLE ticket_fts USING fts5 (
  subject, description, requester, thread, facets,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

-- Where each tenant's sync stands.
CREATE TABLE ticket_sync (
  profile_id          TEXT PRIMARY KEY REFERENCES profiles (id) ON DELETE CASCADE,
  first_synced_at     TEXT,
  last_synced_at      TEXT,
  -- Activity up to this instant (server clock) counts as read until a ticket is opened.
  read_baseline       TEXT,
  -- The newest updated_at fetched: incremental syncs read from here (minus an overlap).
  tickets_watermark   TEXT,
  -- The server's message count at the last message sync: new messages come after it.
  messages_known      INTEGER NOT NULL DEFAULT 0,
  -- Older thread pages still to fetch (newest first); 0 when every thread is cached.
  backfill_next_page  INTEGER NOT NULL DEFAULT 0,
  backfill_page_size  INTEGER NOT NULL DEFAULT 1000,
  server_messages     INTEGER NOT NULL DEFAULT 0,
  -- The platform user id of the tenant connection (learned from its first reply).
  my_user_id          INTEGER
) STRICT;

CREATE TABLE ticket_mentors (
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  unique_id  TEXT NOT NULL,
  name       TEXT NOT NULL,
  PRIMARY KEY (profile_id, unique_id)
) STRICT;

-- Local-only: never sent to the platform, kept when a ticket is refreshed (and its draft when it is deleted).
CREATE TABLE ticket_local (
  profile_id       TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  ticket_id        INTEGER NOT NULL,
  assignee         TEXT,
  priority         TEXT CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  tags             TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
  read_at          TEXT,
  unread_forced    INTEGER NOT NULL DEFAULT 0,
  draft            TEXT,
  draft_updated_at TEXT,
  PRIMARY KEY (profile_id, ticket_id)
) STRICT;
CREATE INDEX ticket_local_assignee ON ticket_local (profile_id, assignee);

CREATE TABLE ticket_views (
  profile_id          TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- 'saved:<n>' for custom views; a built-in or mentor view id when only its SLA targets are set.
  id                  TEXT NOT NULL,
  name                TEXT,
  filter              TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(filter)),
  sort                TEXT,
  first_reply_hours   REAL,
  resolution_hours    REAL,
  created_at          TEXT NOT NULL,
  PRIMARY KEY (profile_id, id)
) STRICT;

CREATE TABLE ticket_canned_replies (
  id         INTEGER PRIMARY KEY,
  title      TEXT NOT NULL,
  body       TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
