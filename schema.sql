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

CREATE TABLE goals (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'failed', 'cancelled')),
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    archive TEXT CHECK (archive IS NULL OR json_valid(archive)),
    archive_tokens INTEGER CHECK (archive_tokens >= 0),
    created_at TEXT NOT NULL,
    ended_at TEXT
);

CREATE TABLE subtasks (
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
);

CREATE TABLE tool_executions (
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
);

CREATE TABLE tracked_files (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    modified INTEGER NOT NULL DEFAULT 0 CHECK (modified IN (0, 1)),
    seq INTEGER NOT NULL,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (session_id, path)
);

CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    data TEXT NOT NULL CHECK (json_valid(data)),
    source TEXT NOT NULL,
    through_message_id INTEGER NOT NULL,
    token_count INTEGER NOT NULL CHECK (token_count >= 0),
    lines TEXT NOT NULL CHECK (json_valid(lines)),
    created_at TEXT NOT NULL
);

CREATE TABLE summary_facts (
    id INTEGER PRIMARY KEY REFERENCES summaries(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    data TEXT NOT NULL CHECK (json_valid(data)),
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE session_compaction (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    level INTEGER NOT NULL CHECK (level IN (1, 2, 3)),
    through_message_id INTEGER NOT NULL,
    compacted_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE embeddings (
    model TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('message', 'summary', 'pin')),
    row_id INTEGER NOT NULL,
    session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    vector BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (model, kind, row_id)
) WITHOUT ROWID;

CREATE TABLE "semantic_pins" (
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
);

CREATE TABLE used_ids (
    name TEXT PRIMARY KEY,
    max_id INTEGER NOT NULL CHECK (max_id >= 0)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE [messages_fts] USING FTS5 (
    [text], [session_id],
    tokenize='porter unicode61 remove_diacritics 2',
    content=[messages], content_rowid=[id]
);

CREATE TABLE 'messages_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'messages_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE 'messages_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

CREATE TABLE 'messages_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

CREATE VIRTUAL TABLE [summaries_fts] USING FTS5 (
    [text], [session_id],
    tokenize='porter unicode61 remove_diacritics 2',
    content=[summaries], content_rowid=[id]
);

CREATE TABLE 'summaries_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'summaries_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE 'summaries_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

CREATE TABLE 'summaries_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

CREATE VIRTUAL TABLE [semantic_pins_fts] USING FTS5 (
    [content], [session_id],
    tokenize='porter unicode61 remove_diacritics 2',
    content=[semantic_pins], content_rowid=[id]
);

CREATE TABLE 'semantic_pins_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'semantic_pins_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE 'semantic_pins_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

CREATE TABLE 'semantic_pins_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

CREATE VIRTUAL TABLE [summary_facts_fts] USING FTS5 (
    [text], [session_id],
    tokenize='porter unicode61 remove_diacritics 2',
    content=[summary_facts], content_rowid=[id]
);

CREATE TABLE 'summary_facts_fts_data'(id INTEGER PRIMARY KEY, block BLOB);

CREATE TABLE 'summary_facts_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

CREATE TABLE 'summary_facts_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

CREATE TABLE 'summary_facts_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;

CREATE TABLE forget_marks (
    scope TEXT PRIMARY KEY,
    mark INTEGER NOT NULL CHECK (mark > 0)
) WITHOUT ROWID;

CREATE TABLE pin_sources (
    pin_id INTEGER NOT NULL REFERENCES semantic_pins(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (pin_id, message_id)
) WITHOUT ROWID;

CREATE TABLE pin_tombstones (
    scope TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    after_message_id INTEGER NOT NULL,
    PRIMARY KEY (scope, key_hash)
) WITHOUT ROWID;

CREATE TABLE checkpoint_sources (
    checkpoint_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    item TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (checkpoint_id, item, message_id)
) WITHOUT ROWID;

CREATE TABLE fact_sources (
    summary_id INTEGER NOT NULL REFERENCES summary_facts(id) ON DELETE CASCADE,
    item TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (summary_id, item, message_id)
) WITHOUT ROWID;

CREATE TABLE model_verdicts (
    id INTEGER PRIMARY KEY,
    model TEXT NOT NULL,
    created_at TEXT NOT NULL,
    kept_whole INTEGER NOT NULL CHECK (kept_whole IN (0, 1))
, kind TEXT NOT NULL DEFAULT 'summary'
    CHECK (kind IN ('summary', 'checkpoint', 'facts')));

CREATE TABLE "pin_endings" (
    pin_id INTEGER NOT NULL REFERENCES semantic_pins(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (pin_id, message_id)
) WITHOUT ROWID;

CREATE UNIQUE INDEX summaries_session_range ON summaries (session_id, level, start_message_id);

CREATE INDEX summaries_session_end ON summaries (session_id, level, end_message_id);

CREATE INDEX items_session_kind ON items (session_id, kind, message_id);

CREATE INDEX goals_session ON goals (session_id, id);

CREATE UNIQUE INDEX goals_active ON goals (session_id) WHERE status = 'active';

CREATE INDEX subtasks_session_goal ON subtasks (session_id, goal_id, id);

CREATE INDEX subtasks_goal ON subtasks (goal_id);

CREATE INDEX tool_executions_session_goal ON tool_executions (session_id, goal_id, id);

CREATE INDEX tool_executions_goal ON tool_executions (goal_id);

CREATE INDEX tracked_files_recent ON tracked_files (session_id, modified, seq);

CREATE INDEX checkpoints_session ON checkpoints (session_id, id);

CREATE INDEX summary_facts_session ON summary_facts (session_id, id);

CREATE INDEX embeddings_session ON embeddings (session_id, model, kind, row_id);

CREATE INDEX semantic_pins_session_importance
    ON semantic_pins (session_id, importance_score DESC, id DESC) WHERE superseded_at IS NULL;

CREATE INDEX semantic_pins_source_message ON semantic_pins (source_message_id);

CREATE INDEX semantic_pins_session_key ON semantic_pins (session_id, content_key);

CREATE INDEX semantic_pins_slot ON semantic_pins (slot, created_at) WHERE slot IS NOT NULL;

CREATE UNIQUE INDEX semantic_pins_auto_key
    ON semantic_pins (coalesce(session_id, ''), content_key)
    WHERE kind = 'auto' AND superseded_at IS NULL;

CREATE INDEX pin_sources_message ON pin_sources (message_id);

CREATE INDEX messages_session_tokens ON messages (session_id, id, token_count);

CREATE INDEX idx_model_verdicts_kind ON model_verdicts(model, kind, id);

CREATE INDEX pin_endings_message ON pin_endings (message_id);

CREATE VIEW messages_with_summary AS SELECT
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
    AND u.start_message_id <= m.id;

CREATE VIEW session_overview AS SELECT
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
FROM sessions s;

CREATE VIEW line_sources AS
    SELECT 'checkpoint' AS kind, c.session_id, s.checkpoint_id AS owner_id, s.item,
        json_extract(c.data, s.item) AS line, s.message_id
    FROM checkpoint_sources s JOIN checkpoints c ON c.id = s.checkpoint_id
    UNION ALL
    SELECT 'facts', f.session_id, s.summary_id, s.item,
        json_extract(f.data, s.item), s.message_id
    FROM fact_sources s JOIN summary_facts f ON f.id = s.summary_id;

CREATE TRIGGER messages_embeddings_delete AFTER DELETE ON messages BEGIN
    DELETE FROM embeddings WHERE kind = 'message' AND row_id = old.id;
END;

CREATE TRIGGER messages_embeddings_update AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM embeddings WHERE kind = 'message' AND row_id = old.id;
END;

CREATE TRIGGER messages_used_ids AFTER DELETE ON messages
WHEN old.id > (SELECT max_id FROM used_ids WHERE name = 'messages')
BEGIN
    UPDATE used_ids SET max_id = old.id WHERE name = 'messages';
END;

CREATE TRIGGER [messages_ai] AFTER INSERT ON [messages] BEGIN
    INSERT INTO [messages_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;

CREATE TRIGGER [messages_ad] AFTER DELETE ON [messages] BEGIN
    INSERT INTO [messages_fts] ([messages_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
END;

CREATE TRIGGER [messages_au] AFTER UPDATE OF id, [text], session_id ON [messages] BEGIN
    INSERT INTO [messages_fts] ([messages_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
    INSERT INTO [messages_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;

CREATE TRIGGER [summaries_ai] AFTER INSERT ON [summaries] BEGIN
    INSERT INTO [summaries_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;

CREATE TRIGGER [summaries_ad] AFTER DELETE ON [summaries] BEGIN
    INSERT INTO [summaries_fts] ([summaries_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
END;

CREATE TRIGGER [summaries_au] AFTER UPDATE OF id, [text], session_id ON [summaries] BEGIN
    INSERT INTO [summaries_fts] ([summaries_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
    INSERT INTO [summaries_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;

CREATE TRIGGER [semantic_pins_ai] AFTER INSERT ON [semantic_pins] BEGIN
    INSERT INTO [semantic_pins_fts] (rowid, [content], [session_id])
        VALUES (new.id, new.[content], CASE WHEN new.session_id IS NULL THEN 'u0' ELSE 's' || hex(new.session_id) || '0' END);
END;

CREATE TRIGGER [semantic_pins_ad] AFTER DELETE ON [semantic_pins] BEGIN
    INSERT INTO [semantic_pins_fts] ([semantic_pins_fts], rowid, [content], [session_id])
        VALUES ('delete', old.id, old.[content], CASE WHEN old.session_id IS NULL THEN 'u0' ELSE 's' || hex(old.session_id) || '0' END);
END;

CREATE TRIGGER [semantic_pins_au] AFTER UPDATE OF id, [content], session_id ON [semantic_pins] BEGIN
    INSERT INTO [semantic_pins_fts] ([semantic_pins_fts], rowid, [content], [session_id])
        VALUES ('delete', old.id, old.[content], CASE WHEN old.session_id IS NULL THEN 'u0' ELSE 's' || hex(old.session_id) || '0' END);
    INSERT INTO [semantic_pins_fts] (rowid, [content], [session_id])
        VALUES (new.id, new.[content], CASE WHEN new.session_id IS NULL THEN 'u0' ELSE 's' || hex(new.session_id) || '0' END);
END;

CREATE TRIGGER [summary_facts_ai] AFTER INSERT ON [summary_facts] BEGIN
    INSERT INTO [summary_facts_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;

CREATE TRIGGER [summary_facts_ad] AFTER DELETE ON [summary_facts] BEGIN
    INSERT INTO [summary_facts_fts] ([summary_facts_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
END;

CREATE TRIGGER [summary_facts_au] AFTER UPDATE OF id, [text], session_id ON [summary_facts] BEGIN
    INSERT INTO [summary_facts_fts] ([summary_facts_fts], rowid, [text], [session_id])
        VALUES ('delete', old.id, old.[text], 's' || hex(old.session_id) || '0');
    INSERT INTO [summary_facts_fts] (rowid, [text], [session_id])
        VALUES (new.id, new.[text], 's' || hex(new.session_id) || '0');
END;
