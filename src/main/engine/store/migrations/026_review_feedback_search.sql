-- The review queue (issue 18) takes a third source and searches without a scan.
-- - Negative feedback: conversations the learner rated down (chat-history's `rating` -1; the spec lists no feedback
--   entries). Such an item has no log id; it names its conversation (`session`) and the rated message's index.
-- - A text search read every item's prompt and reason (instr over 100,000 rows). A trigram full-text index answers
--   "which items contain this text" from the index, as the kit's search does (migration 018); the queue still tests
--   each candidate with instr(), so its answer is the scan's.
-- FTS5 keeps text under an integer rowid, so the items get one (rid): the table is rebuilt as a rowid table. Its
-- triggers go with it, and the marks' triggers name it, so the counts' triggers (migration 025) are made again.
DROP TRIGGER review_counts_marked;
DROP TRIGGER review_counts_unmarked;
DROP TRIGGER review_counts_mark_moved;

CREATE TABLE review_items_new (
  rid           INTEGER PRIMARY KEY,
  profile_id    TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  -- 'moderation:ID', 'safety:ID' (the endpoint and the log's id) or 'feedback:SESSION' (the rated conversation).
  id            TEXT NOT NULL,
  source        TEXT NOT NULL CHECK (source IN ('Moderation System', 'Safety System', 'Negative feedback')),
  log_id        INTEGER,
  session       TEXT,
  message_index INTEGER,
  learner       TEXT NOT NULL,
  email         TEXT NOT NULL,
  mentor_id     INTEGER NOT NULL,
  prompt        TEXT NOT NULL,
  reason        TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  UNIQUE (profile_id, id)
) STRICT;
INSERT INTO review_items_new (profile_id, id, source, log_id, learner, email, mentor_id, prompt, reason, created_at)
  SELECT profile_id, id, source, log_id, learner, email, mentor_id, prompt, reason, created_at FROM review_items;
DROP TABLE review_items;
ALTER TABLE review_items_new RENAME TO review_items;
CREATE INDEX review_items_by_time ON review_items (profile_id, created_at DESC, id);
CREATE INDEX review_items_by_mentor ON review_items (profile_id, mentor_id, created_at DESC);
CREATE INDEX review_items_by_learner ON review_items (profile_id, learner);
CREATE INDEX review_items_by_email ON review_items (profile_id, email);

-- Prompt and reason indexed by their trigrams (case folded; no ranking, so no column sizes). External content: the
-- text is read from review_items, not copied.
CREATE VIRTUAL TABLE review_items_text USING fts5 (
  prompt,
  reason,
  content = 'review_items',
  content_rowid = 'rid',
  tokenize = 'trigram',
  columnsize = 0
);
INSERT INTO review_items_text (review_items_text) VALUES ('rebuild');

CREATE TRIGGER review_items_text_insert AFTER INSERT ON review_items BEGIN
  INSERT INTO review_items_text (rowid, prompt, reason) VALUES (new.rid, new.prompt, new.reason);
END;
CREATE TRIGGER review_items_text_delete AFTER DELETE ON review_items BEGIN
  INSERT INTO review_items_text (review_items_text, rowid, prompt, reason)
  VALUES ('delete', old.rid, old.prompt, old.reason);
END;
CREATE TRIGGER review_items_text_update AFTER UPDATE OF prompt, reason ON review_items BEGIN
  INSERT INTO review_items_text (review_items_text, rowid, prompt, reason)
  VALUES ('delete', old.rid, old.prompt, old.reason);
  INSERT INTO review_items_text (rowid, prompt, reason) VALUES (new.rid, new.prompt, new.reason);
END;

-- The counts per mentor and source (migration 025), unchanged.
CREATE TRIGGER review_counts_item_added AFTER INSERT ON review_items BEGIN
  INSERT INTO review_counts (profile_id, mentor_id, source, total, reviewed)
  VALUES (new.profile_id, new.mentor_id, new.source, 1,
          EXISTS (SELECT 1 FROM review_marks WHERE profile_id = new.profile_id AND id = new.id))
  ON CONFLICT (profile_id, mentor_id, source) DO UPDATE SET total = total + 1, reviewed = reviewed + excluded.reviewed;
END;

CREATE TRIGGER review_counts_item_removed AFTER DELETE ON review_items BEGIN
  UPDATE review_counts
  SET total = total - 1,
      reviewed = reviewed - EXISTS (SELECT 1 FROM review_marks WHERE profile_id = old.profile_id AND id = old.id)
  WHERE profile_id = old.profile_id AND mentor_id = old.mentor_id AND source = old.source;
END;

CREATE TRIGGER review_counts_item_moved AFTER UPDATE OF profile_id, id, mentor_id, source ON review_items BEGIN
  UPDATE review_counts
  SET total = total - 1,
      reviewed = reviewed - EXISTS (SELECT 1 FROM review_marks WHERE profile_id = old.profile_id AND id = old.id)
  WHERE profile_id = old.profile_id AND mentor_id = old.mentor_id AND source = old.source;
  INSERT INTO review_counts (profile_id, mentor_id, source, total, reviewed)
  VALUES (new.profile_id, new.mentor_id, new.source, 1,
          EXISTS (SELECT 1 FROM review_marks WHERE profile_id = new.profile_id AND id = new.id))
  ON CONFLICT (profile_id, mentor_id, source) DO UPDATE SET total = total + 1, reviewed = reviewed + excluded.reviewed;
END;

CREATE TRIGGER review_counts_marked AFTER INSERT ON review_marks BEGIN
  UPDATE review_counts SET reviewed = reviewed + 1
  WHERE (profile_id, mentor_id, source) =
        (SELECT profile_id, mentor_id, source FROM review_items WHERE profile_id = new.profile_id AND id = new.id);
END;

CREATE TRIGGER review_counts_unmarked AFTER DELETE ON review_marks BEGIN
  UPDATE review_counts SET reviewed = reviewed - 1
  WHERE (profile_id, mentor_id, source) =
        (SELECT profile_id, mentor_id, source FROM review_items WHERE profile_id = old.profile_id AND id = old.id);
END;

CREATE TRIGGER review_counts_mark_moved AFTER UPDATE OF profile_id, id ON review_marks BEGIN
  UPDATE review_counts SET reviewed = reviewed - 1
  WHERE (profile_id, mentor_id, source) =
        (SELECT profile_id, mentor_id, source FROM review_items WHERE profile_id = old.profile_id AND id = old.id);
  UPDATE review_counts SET reviewed = reviewed + 1
  WHERE (profile_id, mentor_id, source) =
        (SELECT profile_id, mentor_id, source FROM review_items WHERE profile_id = new.profile_id AND id = new.id);
END;
