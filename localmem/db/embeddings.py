"""Stored embeddings (migration m009_embeddings).

One unit vector per row and model, float32 little-endian. Written off the
write path, in bulk, by ``store.embed_pending`` (and before a query-aware
context); deleted with their row by triggers, so a forgotten message leaves
no vector behind.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

PENDING_MESSAGES_SQL = """SELECT m.id, m.session_id, m.text FROM messages m
    WHERE (?1 IS NULL OR m.session_id = ?1) AND m.id > ?3 AND NOT EXISTS
        (SELECT 1 FROM embeddings e WHERE e.model = ?2 AND e.kind = 'message' AND e.row_id = m.id)
    ORDER BY m.id LIMIT ?4"""
# Only rows still there (and unchanged) get a vector: a message deleted or
# rewritten while the model was embedding it is left out.
INSERT_EMBEDDING_SQL = """INSERT OR REPLACE INTO embeddings
    (model, kind, row_id, session_id, vector, created_at)
    SELECT ?1, 'message', m.id, m.session_id, ?4, ?5 FROM messages m
    WHERE m.id = ?2 AND m.text = ?3"""
SESSION_VECTORS_SQL = """SELECT row_id, vector FROM embeddings
    WHERE session_id = ? AND model = ? AND kind = 'message' AND row_id < ?"""
RECENT_VECTORS_SQL = """SELECT row_id, vector FROM embeddings
    WHERE model = ? AND kind = 'message' ORDER BY row_id DESC LIMIT ?"""

PendingRow = tuple[int, str, str]
"""A message without a vector: (id, session_id, text)."""


def pending_messages(
    conn: sqlite3.Connection, session_id: str | None, model: str, after_id: int, limit: int
) -> list[PendingRow]:
    """Messages (of one session, or all) with no vector of ``model``, above ``after_id``."""
    return conn.execute(PENDING_MESSAGES_SQL, (session_id, model, after_id, limit)).fetchall()


def insert_embeddings(
    conn: sqlite3.Connection, model: str, rows: Sequence[tuple[int, str, bytes]], now: str
) -> int:
    """Store (message id, the text embedded, vector) rows; return how many were stored."""
    stored = 0
    for message_id, text, vector in rows:
        stored += conn.execute(INSERT_EMBEDDING_SQL, (model, message_id, text, vector, now)).rowcount
    return stored


def session_vectors(
    conn: sqlite3.Connection, session_id: str, model: str, before_id: int
) -> list[tuple[int, bytes]]:
    """The session's message vectors of ``model`` for messages older than ``before_id``."""
    return conn.execute(SESSION_VECTORS_SQL, (session_id, model, before_id)).fetchall()


def recent_vectors(conn: sqlite3.Connection, model: str, limit: int) -> list[tuple[int, bytes]]:
    """The newest ``limit`` message vectors of ``model``, of every session."""
    return conn.execute(RECENT_VECTORS_SQL, (model, limit)).fetchall()


# This connection's own changes to the vectors, logged for the in-memory matrices
# (localmem.vectors) by TEMP triggers: they live in this connection only and leave
# the file's schema as it is.
VECTOR_LOG_SQL = (
    "CREATE TEMP TABLE IF NOT EXISTS vector_log (op TEXT NOT NULL, model TEXT NOT NULL, row_id INTEGER NOT NULL)",
    """CREATE TEMP TRIGGER IF NOT EXISTS vector_log_insert AFTER INSERT ON main.embeddings
    WHEN new.kind = 'message' BEGIN
    INSERT INTO vector_log VALUES ('insert', new.model, new.row_id);
END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS vector_log_delete AFTER DELETE ON main.embeddings
    WHEN old.kind = 'message' BEGIN
    INSERT INTO vector_log VALUES ('delete', old.model, old.row_id);
END""",
)
VECTOR_CHANGES_SQL = "SELECT op, model, row_id FROM temp.vector_log ORDER BY rowid"
CLEAR_VECTOR_LOG_SQL = "DELETE FROM temp.vector_log"
ALL_VECTORS_SQL = """SELECT row_id, coalesce(session_id, ''), vector FROM embeddings
    WHERE model = ? AND kind = 'message' ORDER BY row_id"""
VECTORS_BY_IDS_SQL = """SELECT row_id, coalesce(session_id, ''), vector FROM embeddings
    WHERE model = ?1 AND kind = 'message' AND row_id IN (SELECT value FROM json_each(?2))"""
# Through the session index (small entries), not the table (each row holds a vector).
VECTOR_EXTENT_SQL = """SELECT count(*), max(row_id) FROM embeddings INDEXED BY embeddings_session
    WHERE model = ? AND kind = 'message'"""


def log_vector_changes(conn: sqlite3.Connection) -> None:
    """Start logging this connection's vector inserts and deletes (idempotent)."""
    for statement in VECTOR_LOG_SQL:
        conn.execute(statement)


def vector_changes(conn: sqlite3.Connection) -> list[tuple[str, str, int]]:
    """The (op, model, message id) changes logged since the last call, and clear them."""
    changes = conn.execute(VECTOR_CHANGES_SQL).fetchall()
    if changes:
        conn.execute(CLEAR_VECTOR_LOG_SQL)
    return changes


def all_vectors(conn: sqlite3.Connection, model: str) -> list[tuple[int, str, bytes]]:
    """Every message vector of ``model``: (id, session id, vector), by id."""
    return conn.execute(ALL_VECTORS_SQL, (model,)).fetchall()


def vectors_by_ids(
    conn: sqlite3.Connection, model: str, ids: Sequence[int]
) -> list[tuple[int, str, bytes]]:
    """The message vectors of ``model`` among ``ids``: (id, session id, vector)."""
    return conn.execute(VECTORS_BY_IDS_SQL, (model, json.dumps(list(ids)))).fetchall()


def vector_extent(conn: sqlite3.Connection, model: str) -> tuple[int, int | None]:
    """How many message vectors of ``model`` the file holds, and the highest id."""
    count, highest = conn.execute(VECTOR_EXTENT_SQL, (model,)).fetchone()
    return count, highest


HIGHEST_MESSAGE_SQL = "SELECT coalesce(max(id), 0) FROM messages"


def highest_message_id(conn: sqlite3.Connection) -> int:
    """The newest message's id (0 in an empty file)."""
    return conn.execute(HIGHEST_MESSAGE_SQL).fetchone()[0]
