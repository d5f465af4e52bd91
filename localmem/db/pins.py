"""Semantic pins: the user's and the automatic ones, and the lookups that guard them."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..models import Pin
from .connection import _RowModels

PIN_COLUMNS = (
    "id, session_id, content, source_message_id, importance_score, kind, token_count, created_at"
)
_PIN_ROWS = _RowModels(Pin, PIN_COLUMNS, "content")
INSERT_PIN_SQL = """INSERT INTO semantic_pins (session_id, content, content_key, source_message_id,
    importance_score, kind, token_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""
# An auto pin, unless a pin of its session (either kind) has its key.
INSERT_AUTO_PIN_SQL = """INSERT OR IGNORE INTO semantic_pins (session_id, content, content_key,
    source_message_id, importance_score, kind, token_count, created_at)
    SELECT ?1, ?2, ?3, ?4, ?5, 'auto', ?6, ?7
    WHERE NOT EXISTS (SELECT 1 FROM semantic_pins WHERE session_id = ?1 AND content_key = ?3)"""
TOP_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ?
    ORDER BY importance_score DESC, id DESC LIMIT ?"""
KIND_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ? AND kind = ?
    ORDER BY importance_score DESC, id DESC"""
GET_PIN_SQL = f"SELECT {PIN_COLUMNS} FROM semantic_pins WHERE id = ?"
KEYED_PIN_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
    WHERE session_id = ? AND content_key = ? AND kind = ? AND id != ? ORDER BY id LIMIT 1"""
UPDATE_PIN_SQL = """UPDATE semantic_pins
    SET content = ?, content_key = ?, importance_score = ?, token_count = ? WHERE id = ?"""
DELETE_PIN_SQL = "DELETE FROM semantic_pins WHERE id = ?"
DELETE_AUTO_KEYED_PINS_SQL = """DELETE FROM semantic_pins
    WHERE session_id = ? AND content_key = ? AND kind = 'auto'"""
MESSAGE_SESSION_SQL = "SELECT session_id FROM messages WHERE id = ?"
PIN_SESSION_SQL = "SELECT session_id FROM semantic_pins WHERE id = ?"

# A pin to write automatically: (content, content_key, token_count).
AutoPin = tuple[str, str, int]


def insert_pin(
    conn: sqlite3.Connection,
    session_id: str,
    content: str,
    key: str,
    source_message_id: int | None,
    importance: float,
    kind: str,
    token_count: int,
    now: str,
) -> Pin:
    """Insert a pin; ``key`` is its ``content_key`` (the caller computes it)."""
    row = (session_id, content, key, source_message_id, importance, kind, token_count, now)
    cur = conn.execute(INSERT_PIN_SQL, row)
    return _PIN_ROWS.build((cur.lastrowid, *row[:2], *row[3:]))


def insert_auto_pins(
    conn: sqlite3.Connection,
    session_id: str,
    source_message_id: int | None,
    pins: Sequence[AutoPin],
    importance: float,
    now: str,
) -> int:
    """Insert auto pins whose key no pin of the session has yet; return how many were new."""
    rows = [
        (session_id, content, key, source_message_id, importance, tokens, now)
        for content, key, tokens in pins
    ]
    return conn.executemany(INSERT_AUTO_PIN_SQL, rows).rowcount


def keyed_pin(
    conn: sqlite3.Connection, session_id: str, key: str, kind: str, besides: int | None = None
) -> Pin | None:
    """The session's oldest pin of ``kind`` whose content_key is ``key`` (other than
    pin ``besides``), if any."""
    row = conn.execute(KEYED_PIN_SQL, (session_id, key, kind, besides or 0)).fetchone()
    return _PIN_ROWS(row) if row else None


def delete_auto_pins(conn: sqlite3.Connection, session_id: str, key: str) -> int:
    """Delete the session's auto pins whose content_key is ``key``; return how many."""
    return conn.execute(DELETE_AUTO_KEYED_PINS_SQL, (session_id, key)).rowcount


def get_pin(conn: sqlite3.Connection, pin_id: int) -> Pin | None:
    row = conn.execute(GET_PIN_SQL, (pin_id,)).fetchone()
    return _PIN_ROWS(row) if row else None


def update_pin(
    conn: sqlite3.Connection, pin: Pin, content: str, key: str, importance: float, token_count: int
) -> Pin:
    """Rewrite a pin's content, its key (``content_key``), importance and token count;
    its kind stays."""
    conn.execute(UPDATE_PIN_SQL, (content, key, importance, token_count, pin.id))
    return pin.model_copy(
        update={"content": content, "importance_score": importance, "token_count": token_count}
    )


def kind_pins(conn: sqlite3.Connection, session_id: str, kind: str) -> list[Pin]:
    """A session's pins of one kind, by importance, newest first on ties."""
    return [_PIN_ROWS(row) for row in conn.execute(KIND_PINS_SQL, (session_id, kind))]


def top_pins(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Pin]:
    """Pins by importance, newest first on ties; ``limit`` -1 means all."""
    return [_PIN_ROWS(row) for row in conn.execute(TOP_PINS_SQL, (session_id, limit))]


def message_session(conn: sqlite3.Connection, message_id: int) -> str | None:
    row = conn.execute(MESSAGE_SESSION_SQL, (message_id,)).fetchone()
    return row[0] if row else None


def pin_session(conn: sqlite3.Connection, pin_id: int) -> str | None:
    row = conn.execute(PIN_SESSION_SQL, (pin_id,)).fetchone()
    return row[0] if row else None


def delete_pin(conn: sqlite3.Connection, pin_id: int) -> bool:
    return conn.execute(DELETE_PIN_SQL, (pin_id,)).rowcount == 1
