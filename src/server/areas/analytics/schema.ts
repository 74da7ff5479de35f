/**
 * Tables of the analytics area. Chat sessions are the unit of every conversation metric (their message counts,
 * tokens and costs are the sums of their messages, written once with the session); every list filter and date
 * range has an index that starts with the org. Learning analytics read courses, enrollments, daily time spent and a
 * per-day activity table that triggers keep in step with chats and course time.
 *
 * Bulk seeding drops the secondary indexes and triggers named here and re-runs this SQL afterwards: building an index
 * once over loaded rows is much faster than updating it row by row.
 */
export const analyticsSchema = `
CREATE TABLE IF NOT EXISTS chat_sessions (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  mentor_unique_id TEXT NOT NULL,
  user_id INTEGER,
  username TEXT NOT NULL,
  email TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL,
  topics TEXT NOT NULL DEFAULT '[]',
  sentiment TEXT NOT NULL DEFAULT 'neutral' CHECK (sentiment IN ('positive', 'neutral', 'negative')),
  rating INTEGER CHECK (rating IN (1, -1)),
  model TEXT NOT NULL,
  provider TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0,
  user_message_count INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  first_message TEXT NOT NULL DEFAULT '',
  has_document INTEGER NOT NULL DEFAULT 0
);
-- Each list index ends in (started_at, id) so newest-first pages never sort; trailing columns make them covering.
CREATE INDEX IF NOT EXISTS chat_sessions_org_time ON chat_sessions(org, started_at, id, mentor_unique_id, sentiment, username);
CREATE INDEX IF NOT EXISTS chat_sessions_org_mentor ON chat_sessions(org, mentor_unique_id, started_at, id, sentiment);
CREATE INDEX IF NOT EXISTS chat_sessions_org_user ON chat_sessions(org, username, started_at, id, mentor_unique_id);
CREATE INDEX IF NOT EXISTS chat_sessions_org_sentiment ON chat_sessions(org, sentiment, started_at, id, mentor_unique_id);
CREATE INDEX IF NOT EXISTS chat_sessions_rated ON chat_sessions(org, ended_at, rating) WHERE rating IS NOT NULL;
-- Costs: totals per tenant and model over a range from one covering index; per mentor from one already in the order
-- conversations are listed (most expensive first) and per learner from one in learner order, so even a long range
-- neither sorts its rows nor reads the table.
CREATE INDEX IF NOT EXISTS chat_sessions_org_cost ON chat_sessions(org, started_at, mentor_unique_id, model, cost);
CREATE INDEX IF NOT EXISTS chat_sessions_mentor_cost ON chat_sessions(org, mentor_unique_id, cost DESC, session_id, started_at);
CREATE INDEX IF NOT EXISTS chat_sessions_user_cost ON chat_sessions(org, username, started_at, cost);

CREATE TABLE IF NOT EXISTS chat_messages (
  id INTEGER PRIMARY KEY,
  session_pk INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content TEXT NOT NULL,
  created_at TEXT NOT NULL,
  tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  model TEXT
);
CREATE INDEX IF NOT EXISTS chat_messages_session ON chat_messages(session_pk);

CREATE TABLE IF NOT EXISTS chat_topics (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  name TEXT NOT NULL,
  UNIQUE (org, name)
);
-- One row per (topic, session), with the session fields topic metrics need, so they never touch chat_sessions.
CREATE TABLE IF NOT EXISTS chat_session_topics (
  topic_id INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  session_pk INTEGER NOT NULL,
  mentor_unique_id TEXT NOT NULL,
  sentiment TEXT NOT NULL,
  rating INTEGER,
  message_count INTEGER NOT NULL,
  PRIMARY KEY (topic_id, started_at, session_pk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS chat_session_topics_session ON chat_session_topics(session_pk);

-- Learner lists and registration series read the core users table by org, role, name and join date.
CREATE INDEX IF NOT EXISTS analytics_users_list ON users(org, role, username);
CREATE INDEX IF NOT EXISTS analytics_users_joined ON users(org, date_joined, department_id);
CREATE INDEX IF NOT EXISTS analytics_users_department ON users(department_id);
CREATE INDEX IF NOT EXISTS analytics_users_students ON users(org, role, department_id, date_joined);

CREATE TABLE IF NOT EXISTS courses (
  id INTEGER PRIMARY KEY,
  course_id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  start_date TEXT,
  end_date TEXT
);
CREATE INDEX IF NOT EXISTS courses_org ON courses(org, name);

CREATE TABLE IF NOT EXISTS learning_enrollments (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL,
  course_pk INTEGER NOT NULL REFERENCES courses(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  enrolled_at TEXT NOT NULL,
  completed_at TEXT,
  grade REAL CHECK (grade IS NULL OR (grade >= 0 AND grade <= 1)),
  passed INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  UNIQUE (course_pk, user_id)
);
CREATE INDEX IF NOT EXISTS learning_enrollments_user ON learning_enrollments(user_id, completed_at, grade);
CREATE INDEX IF NOT EXISTS learning_enrollments_org ON learning_enrollments(org, course_pk, completed_at, grade);
CREATE INDEX IF NOT EXISTS learning_enrollments_completed ON learning_enrollments(org, completed_at, user_id)
  WHERE completed_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS learning_enrollments_enrolled ON learning_enrollments(org, enrolled_at);

CREATE TABLE IF NOT EXISTS learning_time (
  org TEXT NOT NULL,
  day TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  course_pk INTEGER NOT NULL,
  seconds INTEGER NOT NULL,
  PRIMARY KEY (org, day, user_id, course_pk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS learning_time_user ON learning_time(user_id, day, seconds);
CREATE INDEX IF NOT EXISTS learning_time_course ON learning_time(org, course_pk, user_id, day, seconds);

-- Who did anything (chatted or studied) on which day: the base of active-user metrics.
CREATE TABLE IF NOT EXISTS learning_activity (
  org TEXT NOT NULL,
  day TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  PRIMARY KEY (org, day, user_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS learning_activity_user ON learning_activity(user_id, day);

-- Derived tables, built once after seeding (see derived.ts) and kept in step by the triggers below.
-- Each learner's totals: what department and group reports add up.
CREATE TABLE IF NOT EXISTS learner_totals (
  user_id INTEGER PRIMARY KEY,
  enrollments INTEGER NOT NULL DEFAULT 0,
  completions INTEGER NOT NULL DEFAULT 0,
  passed INTEGER NOT NULL DEFAULT 0,
  seconds INTEGER NOT NULL DEFAULT 0
);
-- Active days by the learner's previous active day ('' for none): the learners active in [a, b) are the rows with
-- a <= day < b and prev_day < a, each learner counted once (at their first active day in the range). Summing a few
-- thousand of these rows replaces a count(DISTINCT) over every activity row of the range.
CREATE TABLE IF NOT EXISTS learning_activity_gaps (
  org TEXT NOT NULL,
  day TEXT NOT NULL,
  prev_day TEXT NOT NULL,
  department_id INTEGER NOT NULL,
  users INTEGER NOT NULL,
  PRIMARY KEY (org, day, prev_day, department_id)
) WITHOUT ROWID;

-- A version number of the chat data: caches of counts per filter are valid while it is unchanged.
CREATE TABLE IF NOT EXISTS analytics_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO analytics_state (key, value) VALUES ('chat_version', 0);
CREATE TRIGGER IF NOT EXISTS chat_sessions_version_insert AFTER INSERT ON chat_sessions
BEGIN UPDATE analytics_state SET value = value + 1 WHERE key = 'chat_version'; END;
CREATE TRIGGER IF NOT EXISTS chat_sessions_version_update AFTER UPDATE ON chat_sessions
BEGIN UPDATE analytics_state SET value = value + 1 WHERE key = 'chat_version'; END;
CREATE TRIGGER IF NOT EXISTS chat_sessions_version_delete AFTER DELETE ON chat_sessions
BEGIN UPDATE analytics_state SET value = value + 1 WHERE key = 'chat_version'; END;

CREATE TRIGGER IF NOT EXISTS chat_sessions_activity AFTER INSERT ON chat_sessions WHEN NEW.user_id IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO learning_activity (org, day, user_id) VALUES (NEW.org, substr(NEW.started_at, 1, 10), NEW.user_id);
END;
CREATE TRIGGER IF NOT EXISTS learning_time_activity AFTER INSERT ON learning_time
BEGIN
  INSERT OR IGNORE INTO learning_activity (org, day, user_id) VALUES (NEW.org, NEW.day, NEW.user_id);
END;

-- The version of the derived tables' contents: 0 = to be rebuilt (derived.ts rebuilds before answering).
INSERT OR IGNORE INTO analytics_state (key, value) VALUES ('learning_derived', 0);

CREATE TRIGGER IF NOT EXISTS learner_totals_enrollment_insert AFTER INSERT ON learning_enrollments
BEGIN
  INSERT INTO learner_totals (user_id, enrollments, completions, passed)
  VALUES (NEW.user_id, 1, NEW.completed_at IS NOT NULL, NEW.passed)
  ON CONFLICT (user_id) DO UPDATE SET enrollments = enrollments + 1, completions = completions + excluded.completions,
    passed = passed + excluded.passed;
END;
CREATE TRIGGER IF NOT EXISTS learner_totals_enrollment_delete AFTER DELETE ON learning_enrollments
BEGIN
  UPDATE learner_totals SET enrollments = enrollments - 1, completions = completions - (OLD.completed_at IS NOT NULL),
    passed = passed - OLD.passed WHERE user_id = OLD.user_id;
END;
CREATE TRIGGER IF NOT EXISTS learner_totals_enrollment_update AFTER UPDATE ON learning_enrollments
BEGIN
  UPDATE learner_totals SET enrollments = enrollments - 1, completions = completions - (OLD.completed_at IS NOT NULL),
    passed = passed - OLD.passed WHERE user_id = OLD.user_id;
  INSERT INTO learner_totals (user_id, enrollments, completions, passed)
  VALUES (NEW.user_id, 1, NEW.completed_at IS NOT NULL, NEW.passed)
  ON CONFLICT (user_id) DO UPDATE SET enrollments = enrollments + 1, completions = completions + excluded.completions,
    passed = passed + excluded.passed;
END;
CREATE TRIGGER IF NOT EXISTS learner_totals_time_insert AFTER INSERT ON learning_time
BEGIN
  INSERT INTO learner_totals (user_id, seconds) VALUES (NEW.user_id, NEW.seconds)
  ON CONFLICT (user_id) DO UPDATE SET seconds = seconds + excluded.seconds;
END;
CREATE TRIGGER IF NOT EXISTS learner_totals_time_delete AFTER DELETE ON learning_time
BEGIN
  UPDATE learner_totals SET seconds = seconds - OLD.seconds WHERE user_id = OLD.user_id;
END;
CREATE TRIGGER IF NOT EXISTS learner_totals_time_update AFTER UPDATE ON learning_time
BEGIN
  UPDATE learner_totals SET seconds = seconds - OLD.seconds WHERE user_id = OLD.user_id;
  INSERT INTO learner_totals (user_id, seconds) VALUES (NEW.user_id, NEW.seconds)
  ON CONFLICT (user_id) DO UPDATE SET seconds = seconds + excluded.seconds;
END;

-- A new active day D between the learner's active days P (before, or '') and N (after, if any): D now follows P,
-- and N follows D instead of P.
CREATE TRIGGER IF NOT EXISTS learning_activity_gaps_insert AFTER INSERT ON learning_activity
BEGIN
  INSERT INTO learning_activity_gaps (org, day, prev_day, department_id, users)
  SELECT NEW.org, NEW.day, p.day, d.id, 1 FROM
    (SELECT coalesce(max(day), '') AS day FROM learning_activity
     WHERE user_id = NEW.user_id AND org = NEW.org AND day < NEW.day) p,
    (SELECT coalesce((SELECT department_id FROM users WHERE id = NEW.user_id), -1) AS id) d
  WHERE true
  ON CONFLICT DO UPDATE SET users = users + 1;
  UPDATE learning_activity_gaps SET users = users - 1
  WHERE org = NEW.org
    AND day = (SELECT min(day) FROM learning_activity WHERE user_id = NEW.user_id AND org = NEW.org AND day > NEW.day)
    AND prev_day = (SELECT coalesce(max(day), '') FROM learning_activity
                    WHERE user_id = NEW.user_id AND org = NEW.org AND day < NEW.day)
    AND department_id = coalesce((SELECT department_id FROM users WHERE id = NEW.user_id), -1);
  INSERT INTO learning_activity_gaps (org, day, prev_day, department_id, users)
  SELECT NEW.org, n.day, NEW.day, coalesce((SELECT department_id FROM users WHERE id = NEW.user_id), -1), 1 FROM
    (SELECT min(day) AS day FROM learning_activity WHERE user_id = NEW.user_id AND org = NEW.org AND day > NEW.day) n
  WHERE n.day IS NOT NULL
  ON CONFLICT DO UPDATE SET users = users + 1;
  DELETE FROM learning_activity_gaps WHERE org = NEW.org AND users = 0
    AND day = (SELECT min(day) FROM learning_activity WHERE user_id = NEW.user_id AND org = NEW.org AND day > NEW.day);
END;
-- Changes the triggers do not follow row by row mark the derived tables for a rebuild.
CREATE TRIGGER IF NOT EXISTS learning_activity_gaps_stale_delete AFTER DELETE ON learning_activity
BEGIN UPDATE analytics_state SET value = 0 WHERE key = 'learning_derived'; END;
CREATE TRIGGER IF NOT EXISTS learning_activity_gaps_stale_update AFTER UPDATE ON learning_activity
BEGIN UPDATE analytics_state SET value = 0 WHERE key = 'learning_derived'; END;
CREATE TRIGGER IF NOT EXISTS learning_activity_gaps_stale_department AFTER UPDATE OF department_id ON users
WHEN OLD.department_id IS NOT NEW.department_id BEGIN UPDATE analytics_state SET value = 0 WHERE key = 'learning_derived'; END;
`;
