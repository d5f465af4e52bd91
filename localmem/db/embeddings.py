"""Stored embeddings (migration m009_embeddings).

One unit vector per row and model, float32 little-endian. Written off the
write path, in bulk, by ``store.embed_pending`` (and before a query-aware
context); deleted with their row by triggers, so a forgotten message leaves
no vector behind.
"""

from __future__ import annotations

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
