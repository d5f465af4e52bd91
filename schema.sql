CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    text TEXT NOT NULL,
    model_id TEXT,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    importance_score REAL NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE summaries (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    start_message_id INTEGER NOT NULL,
    end_message_id INTEGER NOT NULL,
    message_count INTEGER NOT NULL,
    level INTEGER NOT NULL DEFAULT 1 CHECK (level IN (1, 2)),
    source TEXT NOT NULL,
    importance_score REAL NOT NULL DEFAULT 0.7,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL,
    CHECK (start_message_id <= end_message_id)
);

CREATE TABLE semantic_pins (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
    importance_score REAL NOT NULL CHECK (importance_score BETWEEN 0 AND 1),
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'auto')),
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL
);

CREATE TABLE summary_cache (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE model_token_stats (
    model TEXT PRIMARY KEY,
    local_tokens INTEGER NOT NULL CHECK (local_tokens > 0),
    model_tokens INTEGER NOT NULL CHECK (model_tokens > 0),
    calls INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE items (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);

CREATE INDEX messages_session_id ON messages (session_id, id);

CREATE UNIQUE INDEX summaries_session_range ON summaries (session_id, level, start_message_id);

CREATE INDEX summaries_session_end ON summaries (session_id, level, end_message_id);

CREATE INDEX semantic_pins_session_importance
    ON semantic_pins (session_id, importance_score DESC, id DESC);

CREATE INDEX semantic_pins_source_message ON semantic_pins (source_message_id);

CREATE INDEX items_session_kind ON items (session_id, kind, message_id);
