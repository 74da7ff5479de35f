-- The review queue's counts per mentor and source, kept by triggers rather than recounted on every open (issue 18:
-- 100,000 cached logs open in well under 150 ms). Any writer of review_items or review_marks keeps them right; the
-- queue reads them when its filter names no learner, dates or search (otherwise it counts through the indexes).
CREATE TABLE review_counts (
  profile_id  TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
  mentor_id   INTEGER NOT NULL,
  source      TEXT NOT NULL,
  total       INTEGER NOT NULL,
  reviewed    INTEGER NOT NULL,
  PRIMARY KEY (profile_id, mentor_id, source)
) STRICT, WITHOUT ROWID;

INSERT INTO review_counts (profile_id, mentor_id, source, total, reviewed)
SELECT i.profile_id, i.mentor_id, i.source, count(*), count(m.id)
FROM review_items i LEFT JOIN review_marks m ON m.profile_id = i.profile_id AND m.id = i.id
GROUP BY i.profile_id, i.mentor_id, i.source;

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

-- A learner (by name or email) is found from these rather than from a scan of every item.
CREATE INDEX review_items_by_learner ON review_items (profile_id, learner);
CREATE INDEX review_items_by_email ON review_items (profile_id, email);
