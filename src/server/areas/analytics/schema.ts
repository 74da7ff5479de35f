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
`;
