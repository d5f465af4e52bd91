"""Migrations m004 to m011: full-text search, session state, compaction by age, the
read-only views, automatic pins, embeddings, scopes, message ids never handed out twice.

Shipped: never edit them; a new migration goes in a new module of this package (see
``localmem.migrations``).
"""

from __future__ import annotations

# m004_search: full-text search (FTS5, ranked by BM25) over messages, summaries
# and pins, for ``store.search`` and the query-aware context.
#
# Each table gets an external-content FTS5 index (the text is not stored twice)
# over a view that adds ``session_key``: one token per session, "s" + the id's
# UTF-8 bytes in hex + "0" (hex never splits into two tokens, and a final digit
# is never stemmed), so a search within one session ANDs that token into its
# MATCH instead of reading the hits of every session. ``porter`` lets "pickups"
# find "pickup"; ``remove_diacritics 2`` lets "cafe" find "café".
#
# Nothing indexes a row when it is written: indexing inside the insert cost
# four times the insert itself, so the write path stays as it was. Instead,
# search_state keeps a high-water mark per table: every row with
# id <= indexed_to is in the index, none above it. A search indexes the rows
# above the mark in bulk, in one write transaction, before it matches, so it
# still sees every committed row. New rows land above the mark (SQLite gives a
# new row max(id) + 1); when the newest rows are deleted, the delete trigger
# lowers the mark to max(id), so an id that SQLite hands out again is indexed.
# Deleting or updating an indexed row (a session's cascade included) removes
# its old terms in a trigger: an external-content index needs the old values.
# The generator below is frozen with this migration: never edit it.
SESSION_KEY_EXPR = "'s' || hex({}) || '0'"
"""The session_key token of a session id column; ``localmem.search.session_key`` in Python."""


def _m004_index(table: str, text: str) -> tuple[str, ...]:
    key = SESSION_KEY_EXPR.format
    mark = f"(SELECT indexed_to FROM search_state WHERE name = '{table}')"
    newest = f"(SELECT coalesce(max(id), 0) FROM {table})"
    lower_mark = f"""UPDATE search_state SET indexed_to = {newest}
        WHERE name = '{table}' AND indexed_to > {newest}"""
    text_column = text if text == "text" else f"{text} AS text"
    return (
        f"""CREATE VIEW {table}_fts_source AS
    SELECT id, {text_column}, {key("session_id")} AS session_key FROM {table}""",
        f"""CREATE VIRTUAL TABLE {table}_fts USING fts5(
    text, session_key,
    content = '{table}_fts_source', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
)""",
        f"""CREATE TRIGGER {table}_fts_delete AFTER DELETE ON {table}
WHEN old.id <= {mark}
BEGIN
    INSERT INTO {table}_fts ({table}_fts, rowid, text, session_key)
        VALUES ('delete', old.id, old.{text}, {key("old.session_id")});
    {lower_mark};
END""",
        f"""CREATE TRIGGER {table}_fts_update AFTER UPDATE OF id, {text}, session_id ON {table}
WHEN old.id <= {mark}
    OR new.id <= {mark}
BEGIN
    INSERT INTO {table}_fts ({table}_fts, rowid, text, session_key)
        SELECT 'delete', old.id, old.{text}, {key("old.session_id")}
        WHERE old.id <= {mark};
    INSERT INTO {table}_fts (rowid, text, session_key)
        SELECT new.id, new.{text}, {key("new.session_id")}
        WHERE new.id <= {mark};
    {lower_mark};
END""",
    )


M004_SEARCH = (
    """CREATE TABLE search_state (
    name TEXT PRIMARY KEY,
    indexed_to INTEGER NOT NULL CHECK (indexed_to >= 0)
) WITHOUT ROWID""",
    """INSERT INTO search_state (name, indexed_to)
    VALUES ('messages', 0), ('summaries', 0), ('semantic_pins', 0)""",
    *_m004_index("messages", "text"),
    *_m004_index("summaries", "text"),
    *_m004_index("semantic_pins", "content"),
)

# m005_session_state: what an agent is in the middle of, kept apart from the
# conversation so that it survives compaction (origins 000, 001 and 004).
#
# - goals: one session works through several goals; at most one is active
#   (a partial unique index says so). When a goal ends, rule-based statistics
#   of its tool runs and subtasks are stored on it as JSON (``archive``); its
#   detailed rows stay in their tables, out of the context.
# - subtasks and tool_executions belong to the goal that was active when they
#   were recorded (NULL: no goal was active). Their index serves "the active
#   goal's rows of this session, in order"; the goal_id index serves the
#   foreign key, so deleting a session does not scan them once per goal.
# - tracked_files: the files a session works on, one row per path; ``seq``
#   orders the last touches (timestamps can tie within a millisecond).
# - checkpoints: a structured snapshot (goals, pending tasks, decisions,
#   preferences, references, workflow) taken before every compaction; the
#   newest ten per session are kept. ``lines`` holds its rendering as the
#   context shows it, [[line, tokens, repeats_state], ...], fixed when it was
#   taken (a line repeating the structured state is left out of a context
#   that shows the live state).
# - summary_facts: key facts, decisions, entities and open questions of a
#   level-1 summary, deleted with it; ``text`` is their flat rendering, which
#   the full-text index reads (so a search finds a summary by its facts).
#
# ``token_count`` columns hold the exact count of the line each row renders as
# in the context, computed once when the row is written (``localmem.state``),
# so building a context never runs the tokenizer. Structured fields are JSON
# text (CHECK json_valid), for SQLite's json functions and Datasette.
M005_SESSION_STATE = (
    """CREATE TABLE goals (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'failed', 'cancelled')),
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    archive TEXT CHECK (archive IS NULL OR json_valid(archive)),
    archive_tokens INTEGER CHECK (archive_tokens >= 0),
    created_at TEXT NOT NULL,
    ended_at TEXT
)""",
    "CREATE INDEX goals_session ON goals (session_id, id)",
    # At most one active goal per session, whatever the writers do.
    "CREATE UNIQUE INDEX goals_active ON goals (session_id) WHERE status = 'active'",
    """CREATE TABLE subtasks (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    goal_id INTEGER REFERENCES goals(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('pending', 'in_progress', 'completed', 'blocked', 'cancelled')),
    dependencies TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(dependencies)),
    notes TEXT,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)""",
    "CREATE INDEX subtasks_session_goal ON subtasks (session_id, goal_id, id)",
    "CREATE INDEX subtasks_goal ON subtasks (goal_id)",
    """CREATE TABLE tool_executions (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    goal_id INTEGER REFERENCES goals(id) ON DELETE CASCADE,
    tool_name TEXT NOT NULL,
    arguments TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(arguments)),
    success INTEGER NOT NULL CHECK (success IN (0, 1)),
    result_summary TEXT,
    error_message TEXT,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX tool_executions_session_goal ON tool_executions (session_id, goal_id, id)",
    "CREATE INDEX tool_executions_goal ON tool_executions (goal_id)",
    """CREATE TABLE tracked_files (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    modified INTEGER NOT NULL DEFAULT 0 CHECK (modified IN (0, 1)),
    seq INTEGER NOT NULL,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (session_id, path)
)""",
    "CREATE INDEX tracked_files_recent ON tracked_files (session_id, modified, seq)",
    """CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    data TEXT NOT NULL CHECK (json_valid(data)),
    source TEXT NOT NULL,
    through_message_id INTEGER NOT NULL,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    lines TEXT NOT NULL CHECK (json_valid(lines)),
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX checkpoints_session ON checkpoints (session_id, id)",
    """CREATE TABLE summary_facts (
    id INTEGER PRIMARY KEY REFERENCES summaries(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    data TEXT NOT NULL CHECK (json_valid(data)),
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at TEXT NOT NULL
)""",
    "CREATE INDEX summary_facts_session ON summary_facts (session_id, id)",
    "INSERT INTO search_state (name, indexed_to) VALUES ('summary_facts', 0)",
    # The frozen m004 generator, called (not edited) for one more table.
    *_m004_index("summary_facts", "text"),
)

# m006_compaction: progressive compression by age (origin 000, phase 4).
# ``store.maintain()`` records here how tightly it compacted an idle session
# (level 1, 2 or 3: idle 1, 7 or 30 days) and the newest message it saw then.
# The level holds while no newer message exists, so a session the user picks
# up again is shown in full detail without anything being rewritten; the
# table is separate from ``sessions`` so maintenance never changes a
# session's own row (nor its ``updated_at``).
M006_COMPACTION = (
    """CREATE TABLE session_compaction (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    level INTEGER NOT NULL CHECK (level IN (1, 2, 3)),
    through_message_id INTEGER NOT NULL,
    compacted_at TEXT NOT NULL
) WITHOUT ROWID""",
)

# m007_views: two read-only views that make the file pleasant to read in
# Datasette or the ``sqlite3`` tool; localmem itself never reads them.
#
# - session_overview: one row per session, with what a person looks for first:
#   its last activity (the later of sessions.updated_at and its newest message,
#   as ``Session.updated_at`` reports it), how many messages and tokens,
#   summaries and pins it has, its active goal and its latest checkpoint's time.
# - messages_with_summary: every message beside the level-1 summary covering
#   it (NULL when none does yet).
#
# Each column is a correlated subquery served by an existing index (EXPLAIN
# QUERY PLAN shows SEARCH, never SCAN, for each), so a row costs a few index
# lookups however big the file is and a WHERE on id or session_id reaches
# only that session's rows. Level-1 ranges never overlap (a summary is stored
# only if no summary of its level overlaps it), so the one covering a message
# is the first ending at or after it: one index seek, then its start is checked.
M007_VIEWS = (
    """CREATE VIEW session_overview AS SELECT
    s.id,
    s.title,
    s.model,
    s.created_at,
    max(s.updated_at, coalesce((SELECT m.created_at FROM messages m
        WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT 1), '')) AS last_activity,
    (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
    (SELECT coalesce(sum(m.token_count), 0) FROM messages m
        WHERE m.session_id = s.id) AS token_count,
    (SELECT count(*) FROM summaries u WHERE u.session_id = s.id) AS summary_count,
    (SELECT count(*) FROM semantic_pins p WHERE p.session_id = s.id) AS pin_count,
    (SELECT g.text FROM goals g
        WHERE g.session_id = s.id AND g.status = 'active') AS active_goal,
    (SELECT c.created_at FROM checkpoints c
        WHERE c.session_id = s.id ORDER BY c.id DESC LIMIT 1) AS latest_checkpoint_at
FROM sessions s""",
    """CREATE VIEW messages_with_summary AS SELECT
    m.id,
    m.session_id,
    m.role,
    m.text,
    m.model_id,
    m.token_count,
    m.importance_score,
    m.created_at,
    u.id AS summary_id,
    u.level AS summary_level,
    u.text AS summary_text
FROM messages m
LEFT JOIN summaries u ON u.id = (SELECT c.id FROM summaries c
        WHERE c.session_id = m.session_id AND c.level = 1 AND c.end_message_id >= m.id
        ORDER BY c.end_message_id LIMIT 1)
    AND u.start_message_id <= m.id""",
)

# m008_auto_pins: facts the user states that must never be lost are pinned
# automatically (kind 'auto', localmem.autopins), once per session. Every pin
# gets content_key, its content case-folded, whitespace collapsed and trailing
# punctuation stripped (localmem.autopins.pin_key, which the store hands to
# db.migrate to register as the SQL function pin_key for the back-fill below). An auto pin is written
# only when no pin of its session has its key (the plain index serves that
# look-up, whatever the kind), and the partial unique index makes a second
# auto pin with the same key impossible, whatever the writers do. Auto pins
# that already repeat one (pin(kind="auto") twice) keep a NULL key rather
# than being deleted: a migration never drops what the user can see.
M008_AUTO_PINS = (
    "ALTER TABLE semantic_pins ADD COLUMN content_key TEXT",
    "CREATE INDEX semantic_pins_session_key ON semantic_pins (session_id, content_key)",
    "UPDATE semantic_pins SET content_key = pin_key(content)",
    """UPDATE semantic_pins SET content_key = NULL
    WHERE kind = 'auto' AND EXISTS (SELECT 1 FROM semantic_pins AS p
        WHERE p.session_id = semantic_pins.session_id AND p.content_key = semantic_pins.content_key
            AND p.kind = 'auto' AND p.id < semantic_pins.id)""",
    """CREATE UNIQUE INDEX semantic_pins_auto_key
    ON semantic_pins (session_id, content_key) WHERE kind = 'auto'""",
)

# m009_embeddings: vectors for semantic recall, from the local Ollama server's
# embedding model (MemoryConfig.embedding_model). One unit vector per row and
# model (float32, little-endian), so a changed model is re-embedded, never
# mixed with the old one. Written off the write path, in bulk; the triggers
# delete a row's vectors with the row (and with its text, when that changes),
# so forgetting a message leaves no vector of it behind. session_id lets a
# context read one session's vectors through the index.
M009_EMBEDDINGS = (
    """CREATE TABLE embeddings (
    model TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('message', 'summary', 'pin')),
    row_id INTEGER NOT NULL,
    session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    vector BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (model, kind, row_id)
) WITHOUT ROWID""",
    "CREATE INDEX embeddings_session ON embeddings (session_id, model, kind, row_id)",
    """CREATE TRIGGER messages_embeddings_delete AFTER DELETE ON messages BEGIN
    DELETE FROM embeddings WHERE kind = 'message' AND row_id = old.id;
END""",
    """CREATE TRIGGER messages_embeddings_update AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM embeddings WHERE kind = 'message' AND row_id = old.id;
END""",
)

USER_PINS_KEY_EXPR = "CASE WHEN {0} IS NULL THEN 'u0' ELSE 's' || hex({0}) || '0' END"
"""The session_key token of a pin: its session's, or 'u0' for the user's
(``localmem.search.USER_KEY``)."""


def _m010_pin_triggers() -> tuple[str, ...]:
    """m004's delete and update triggers of the pins' search index, with the pins' key."""
    plain = _m004_index("semantic_pins", "content")[2:]
    return tuple(
        t.replace(SESSION_KEY_EXPR.format("old.session_id"), USER_PINS_KEY_EXPR.format("old.session_id"))
        .replace(SESSION_KEY_EXPR.format("new.session_id"), USER_PINS_KEY_EXPR.format("new.session_id"))
        for t in plain
    )


# m010_scopes: memory that follows the user across chats and stays current.
# - A pin belongs to a session or to the user: session_id NULL is a fact of the
#   user's, which every session's context shows (where it was learnt stays
#   readable through source_message_id).
# - A fact that updates an earlier one supersedes it rather than deleting it:
#   superseded_at is when the old one stopped holding, and the pins of one
#   chain share a slot (what they are about: "wifi password", "home", ...).
#   Contexts read current pins only (the partial indexes).
# - The automatic pins' uniqueness spans the user's pins too (NULL compared as
#   ''), and concerns current pins only: a fact said again after it was
#   superseded is a new pin.
# session_id's NOT NULL cannot be dropped in place, so the table is rebuilt by
# SQLite's documented procedure: its two views are dropped and made again
# around the rename, its indexes and search triggers made again (the index's
# rows keep their ids). Nothing moves: every existing pin keeps its session.
M010_SCOPES = (
    "DROP VIEW session_overview",
    "DROP VIEW semantic_pins_fts_source",
    """CREATE TABLE semantic_pins_scoped (
    id INTEGER PRIMARY KEY,
    session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
    importance_score REAL NOT NULL CHECK (importance_score BETWEEN 0 AND 1),
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'auto')),
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL,
    content_key TEXT,
    slot TEXT,
    superseded_at TEXT
)""",
    """INSERT INTO semantic_pins_scoped (id, session_id, content, source_message_id,
    importance_score, kind, token_count, created_at, content_key)
    SELECT id, session_id, content, source_message_id, importance_score, kind, token_count,
        created_at, content_key FROM semantic_pins""",
    "DROP TABLE semantic_pins",
    "ALTER TABLE semantic_pins_scoped RENAME TO semantic_pins",
    """CREATE INDEX semantic_pins_session_importance
    ON semantic_pins (session_id, importance_score DESC, id DESC) WHERE superseded_at IS NULL""",
    "CREATE INDEX semantic_pins_source_message ON semantic_pins (source_message_id)",
    "CREATE INDEX semantic_pins_session_key ON semantic_pins (session_id, content_key)",
    "CREATE INDEX semantic_pins_slot ON semantic_pins (slot, created_at) WHERE slot IS NOT NULL",
    """CREATE UNIQUE INDEX semantic_pins_auto_key
    ON semantic_pins (coalesce(session_id, ''), content_key)
    WHERE kind = 'auto' AND superseded_at IS NULL""",
    # The view the search index reads: the user's pins carry the key 'u0', so a
    # search of one session finds them beside its own ('u0' is no session's key:
    # those all start with 's').
    f"""CREATE VIEW semantic_pins_fts_source AS
    SELECT id, content AS text, {USER_PINS_KEY_EXPR.format("session_id")} AS session_key
    FROM semantic_pins""",
    *_m010_pin_triggers(),
    M007_VIEWS[0],  # session_overview, as it was
)

# m011_message_ids: a message id is never handed out twice. Every marker the
# file keeps is a message id (a summary's range, a checkpoint's and a
# compaction's through_message_id, the search index's mark); SQLite gives a
# new row max(id) + 1, so after the newest messages were deleted (an agent's
# pop_item, a cleared conversation, a session deleted and created again under
# its id) a new message took a freed id and fell behind markers that were
# about other text. used_ids keeps the highest message id ever handed out
# that is gone (a trigger raises it when a message above it is deleted; it
# starts past every id a marker holds), and the store inserts a message with
# the id after both it and max(id). AUTOINCREMENT would do the same for every
# writer, but it rewrites sqlite_sequence on every insert (one more page per
# commit: add_message at 0.88x its CPU-time rate, measured in one process);
# this table is written only when a message is deleted, and read (one cached
# page, about 0.5 us) per insert.
M011_MESSAGE_IDS = (
    """CREATE TABLE used_ids (
    name TEXT PRIMARY KEY,
    max_id INTEGER NOT NULL CHECK (max_id >= 0)
) WITHOUT ROWID""",
    """INSERT INTO used_ids (name, max_id) SELECT 'messages', max(
    (SELECT coalesce(max(id), 0) FROM messages),
    (SELECT coalesce(max(end_message_id), 0) FROM summaries),
    (SELECT coalesce(max(through_message_id), 0) FROM checkpoints),
    (SELECT coalesce(max(through_message_id), 0) FROM session_compaction),
    (SELECT indexed_to FROM search_state WHERE name = 'messages'))""",
    """CREATE TRIGGER messages_used_ids AFTER DELETE ON messages
WHEN old.id > (SELECT max_id FROM used_ids WHERE name = 'messages')
BEGIN
    UPDATE used_ids SET max_id = old.id WHERE name = 'messages';
END""",
)
