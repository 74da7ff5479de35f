/**
 * Tables of the review area: the platform's moderation and safety logs (`ModerationLog`; `kind` says which endpoint
 * lists the row), learners' feedback on mentor answers (`UserChatFeedback`) and Langfuse-style traces with their
 * observations (spans). `message_pk` / `session_id` tie a row to the chat message it came from; the spec's answers
 * do not carry them (a client finds the message by learner, time and text), the seed and its tests do.
 */
export const reviewSchema = `
CREATE TABLE IF NOT EXISTS review_logs (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  kind TEXT NOT NULL CHECK (kind IN ('moderation', 'safety')),
  username TEXT NOT NULL,
  email TEXT NOT NULL DEFAULT '',
  platform_key TEXT NOT NULL,
  mentor INTEGER NOT NULL,
  prompt TEXT NOT NULL,
  reason TEXT NOT NULL,
  target_system TEXT NOT NULL CHECK (target_system IN ('Safety System', 'Moderation System')),
  date_created TEXT NOT NULL,
  message_pk INTEGER
);
CREATE INDEX IF NOT EXISTS review_logs_list ON review_logs(org, kind, date_created, id);

CREATE TABLE IF NOT EXISTS review_feedback (
  id INTEGER PRIMARY KEY,
  org TEXT NOT NULL REFERENCES orgs(key),
  username TEXT NOT NULL,
  session TEXT NOT NULL,
  user_text TEXT NOT NULL,
  ai_response TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  additional_feedback TEXT NOT NULL DEFAULT '',
  rating INTEGER CHECK (rating IN (-1, 0, 1)),
  inserted_at TEXT NOT NULL,
  mentor INTEGER NOT NULL,
  message INTEGER
);
CREATE INDEX IF NOT EXISTS review_feedback_time ON review_feedback(org, inserted_at);

CREATE TABLE IF NOT EXISTS review_traces (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  timestamp TEXT NOT NULL,
  name TEXT NOT NULL,
  user_id TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  tags TEXT NOT NULL DEFAULT '[]',
  input TEXT,
  output TEXT,
  session_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS review_traces_time ON review_traces(org, timestamp, pk);

CREATE TABLE IF NOT EXISTS review_observations (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  org TEXT NOT NULL REFERENCES orgs(key),
  trace_id TEXT NOT NULL,
  type TEXT NOT NULL,
  parent_observation_id TEXT,
  start_time TEXT NOT NULL,
  end_time TEXT,
  name TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  level TEXT NOT NULL DEFAULT 'DEFAULT',
  status_message TEXT,
  input TEXT,
  output TEXT,
  provided_model_name TEXT,
  usage_details TEXT NOT NULL DEFAULT '{}',
  cost_details TEXT NOT NULL DEFAULT '{}',
  total_cost TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS review_observations_trace ON review_observations(org, trace_id, start_time);
CREATE INDEX IF NOT EXISTS review_observations_time ON review_observations(org, start_time, pk);
`;
