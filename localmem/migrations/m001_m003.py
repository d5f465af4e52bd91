"""Migrations m001 to m003: the conversation as first stored (sessions, messages,
summaries, pins), what the summarizer learns, agent frameworks' items.

Shipped: never edit them (see ``localmem.migrations``).
"""

from __future__ import annotations

# m001_initial: sessions, their messages, summaries of message ranges and pins.
# Messages are ordered by id, never by timestamp; every hot query has an index.
# sessions.updated_at is when the session's record or pins last changed; a new
# message does not rewrite it (that would add a page write to every message):
# a session's last activity is the later of it and its newest message.
M001_INITIAL = (
    """CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)""",
    """CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    text TEXT NOT NULL,
    model_id TEXT,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    importance_score REAL NOT NULL,
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX messages_session_id ON messages (session_id, id)",
    """CREATE TABLE summaries (
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
)""",
    # Unique: two processes summarizing one session can never store the same range twice.
    "CREATE UNIQUE INDEX summaries_session_range ON summaries (session_id, level, start_message_id)",
    "CREATE INDEX summaries_session_end ON summaries (session_id, level, end_message_id)",
    """CREATE TABLE semantic_pins (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
    importance_score REAL NOT NULL CHECK (importance_score BETWEEN 0 AND 1),
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'auto')),
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL
)""",
    """CREATE INDEX semantic_pins_session_importance
    ON semantic_pins (session_id, importance_score DESC, id DESC)""",
    "CREATE INDEX semantic_pins_source_message ON semantic_pins (source_message_id)",
)

# m002_summarizer: what the summarizer learns, kept in the file so that no
# process repeats a model call for a span it has already summarized
# (summary_cache, by content hash) and so that budgets can be stated in a
# model's own tokens (model_token_stats: its prompt_eval_count against our
# cl100k count of the same prompts).
M002_SUMMARIZER = (
    """CREATE TABLE summary_cache (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    """CREATE TABLE model_token_stats (
    model TEXT PRIMARY KEY,
    local_tokens INTEGER NOT NULL CHECK (local_tokens > 0),
    model_tokens INTEGER NOT NULL CHECK (model_tokens > 0),
    calls INTEGER NOT NULL,
    updated_at TEXT NOT NULL
)""",
)

# m003_items: agent frameworks (the OpenAI Agents SDK's session items,
# LangChain's chat messages) need their own records back exactly as they gave
# them: an item's JSON is kept verbatim here, next to the message that carries
# its readable text, so that text is still counted, scored, summarized and
# shown like any other message. One item per message, keyed by the message id
# (deleting the message deletes its item); ``kind`` names the framework, and
# the index serves "a session's items of one kind, in order".
M003_ITEMS = (
    """CREATE TABLE items (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
)""",
    "CREATE INDEX items_session_kind ON items (session_id, kind, message_id)",
)
