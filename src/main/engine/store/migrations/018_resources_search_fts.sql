-- A search of a kind's cached records (resources.list with a search) is a substring test of each record's search
-- text: over 50,000 people that read every row (about 50 ms). A full-text index with the trigram tokenizer answers
-- "which records contain this text" for any search of 3 characters or more from the index alone; the cache still
-- tests each record it finds with instr(), so the answer is the plain scan's (resources/cache.ts, page()).
--
-- FTS5 keeps a row's text under an integer rowid, so the records get one (rid) that never changes: the table is
-- rebuilt as a rowid table, the same columns and key otherwise.
CREATE TABLE resource_records_new (
  rid        INTEGER PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  id         TEXT NOT NULL,
  -- The order the platform gave; records created here go before it.
  position   INTEGER NOT NULL,
  -- The declared search fields' text, lower-cased: what a search looks in.
  search     TEXT NOT NULL,
  -- The record as the platform answered it, less the fields never kept (see revealOnce in the declarations).
  data       TEXT NOT NULL CHECK (json_valid(data)),
  UNIQUE (profile_id, kind, id)
) STRICT;
INSERT INTO resource_records_new (profile_id, kind, id, position, search, data)
  SELECT profile_id, kind, id, position, search, data FROM resource_records ORDER BY profile_id, kind, position, id;
DROP TABLE resource_records;
ALTER TABLE resource_records_new RENAME TO resource_records;
-- Paging a kind in order, and a search too short for the trigram index (1 or 2 characters), read this index alone.
CREATE INDEX resource_records_search ON resource_records (profile_id, kind, position, id, search);

-- The search text of every record, indexed by its trigrams (case folded; no ranking, so no column sizes kept). It
-- holds no copy of the text (external content): it reads it from resource_records.
CREATE VIRTUAL TABLE resource_records_text USING fts5 (
  search,
  content = 'resource_records',
  content_rowid = 'rid',
  tokenize = 'trigram',
  columnsize = 0
);
INSERT INTO resource_records_text (resource_records_text) VALUES ('rebuild');

-- Kept in the same statement as the records, whoever writes them (the cache, a profile's deletion cascading).
CREATE TRIGGER resource_records_text_insert AFTER INSERT ON resource_records BEGIN
  INSERT INTO resource_records_text (rowid, search) VALUES (new.rid, new.search);
END;
CREATE TRIGGER resource_records_text_delete AFTER DELETE ON resource_records BEGIN
  INSERT INTO resource_records_text (resource_records_text, rowid, search) VALUES ('delete', old.rid, old.search);
END;
CREATE TRIGGER resource_records_text_update AFTER UPDATE OF search ON resource_records
  WHEN old.search IS NOT new.search
BEGIN
  INSERT INTO resource_records_text (resource_records_text, rowid, search) VALUES ('delete', old.rid, old.search);
  INSERT INTO resource_records_text (rowid, search) VALUES (new.rid, new.search);
END;
