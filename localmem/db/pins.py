"""Semantic pins: the user's and the automatic ones, and the lookups that guard them.

A pin belongs to a session, or to the user (``session_id`` NULL): a session's
context shows its own pins and the user's. A superseded pin (``superseded_at``
set: a later fact updated it) stays for the history, out of every context;
the pins of one chain share a ``slot``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from ..models import Pin
from .rows import PIN_COLUMNS, SESSION_PINS_SQL, _PIN_ROWS

INSERT_PIN_SQL = """INSERT INTO semantic_pins (session_id, content, content_key, source_message_id,
    importance_score, kind, token_count, created_at, slot, superseded_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
# An auto pin (its session's, or the user's when ?1 is NULL), unless a current
# pin the session ?8 sees (its own or the user's) already has its key.
INSERT_AUTO_PIN_SQL = """INSERT OR IGNORE INTO semantic_pins (session_id, content, content_key,
    source_message_id, importance_score, kind, token_count, created_at)
    SELECT ?1, ?2, ?3, ?4, ?5, 'auto', ?6, ?7
    WHERE NOT EXISTS (SELECT 1 FROM semantic_pins WHERE (session_id = ?8 OR session_id IS NULL)
        AND content_key = ?3 AND superseded_at IS NULL)"""
# What a session's context sees: its current pins and the user's, by importance.
# (Two ordered index reads merged, for the LIMIT; ?1 NULL: the user's alone.)
TOP_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id = ?1 AND superseded_at IS NULL
    UNION ALL SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id IS NULL AND superseded_at IS NULL
    ORDER BY importance_score DESC, id DESC LIMIT ?2"""
# What every session sees (the user's current pins, ?1 NULL in TOP_PINS_SQL), read once
# for all of them; beside it, the sessions that have current pins of their own, each
# read alone (in TOP_PINS_SQL's order) only for those.
OWN_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
    WHERE session_id = ?1 AND superseded_at IS NULL ORDER BY importance_score DESC, id DESC"""
PINNED_SESSIONS_SQL = """SELECT DISTINCT session_id FROM semantic_pins
    WHERE session_id IS NOT NULL AND superseded_at IS NULL"""
KIND_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id = ?1 AND kind = ?2 AND superseded_at IS NULL
    UNION ALL SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id IS NULL AND kind = ?2 AND superseded_at IS NULL
    ORDER BY importance_score DESC, id DESC"""
# Every pin a session sees, superseded ones too: chains by slot, then in time.
PIN_HISTORY_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
    WHERE session_id = ?1 OR session_id IS NULL ORDER BY coalesce(slot, ''), id"""
# Every pin with its provenance (the source message's session, time and the
# session's title): the memory report. The user's pins first, then by session.
_P_PIN_COLUMNS = ", ".join("p." + c.strip() for c in PIN_COLUMNS.split(","))
PINS_WITH_SOURCES_SQL = f"""SELECT {_P_PIN_COLUMNS}, m.session_id, s.title, m.created_at
    FROM semantic_pins p LEFT JOIN messages m ON m.id = p.source_message_id
        LEFT JOIN sessions s ON s.id = m.session_id
    ORDER BY p.session_id IS NOT NULL, p.session_id, coalesce(p.slot, ''), p.id"""
GET_PIN_SQL = f"SELECT {PIN_COLUMNS} FROM semantic_pins WHERE id = ?"
KEYED_PIN_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id = ?1 AND content_key = ?2 AND kind = ?3 AND id != ?4
            AND superseded_at IS NULL
    UNION ALL SELECT {PIN_COLUMNS} FROM semantic_pins
        WHERE session_id IS NULL AND content_key = ?2 AND kind = ?3 AND id != ?4
            AND superseded_at IS NULL
    ORDER BY id LIMIT 1"""
UPDATE_PIN_SQL = """UPDATE semantic_pins
    SET content = ?, content_key = ?, importance_score = ?, token_count = ? WHERE id = ?"""
SUPERSEDE_PIN_SQL = """UPDATE semantic_pins SET superseded_at = ?, slot = ?
    WHERE id = ? AND superseded_at IS NULL"""
DELETE_PIN_SQL = "DELETE FROM semantic_pins WHERE id = ?"
DELETE_AUTO_KEYED_PINS_SQL = """DELETE FROM semantic_pins
    WHERE session_id IS ? AND content_key = ? AND kind = 'auto' AND superseded_at IS NULL"""
MESSAGE_SESSION_SQL = "SELECT session_id FROM messages WHERE id = ?"
# The current auto pins taken from the session's newest user message before ?2 (what a
# correction in ?2 may correct), wherever they are kept (the user's too).
PREVIOUS_USER_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
    WHERE kind = 'auto' AND superseded_at IS NULL AND source_message_id =
        (SELECT max(id) FROM messages WHERE session_id = ?1 AND role = 'user' AND id < ?2)
    ORDER BY id"""
PIN_SCOPE_SQL = "SELECT session_id FROM semantic_pins WHERE id = ?"

# A pin to write automatically: (content, content_key, token_count).
AutoPin = tuple[str, str, int]


class PinRow(NamedTuple):
    """A pin to insert, in the order of ``INSERT_PIN_SQL``'s columns (``session_id``
    None: the user's); ``content_key`` is computed by the caller."""

    session_id: str | None
    content: str
    content_key: str
    source_message_id: int | None
    importance_score: float
    kind: str
    token_count: int
    created_at: str
    slot: str | None = None
    superseded_at: str | None = None


def insert_pin(conn: sqlite3.Connection, row: PinRow) -> Pin:
    """Insert a pin (``row.session_id`` None: the user's)."""
    cur = conn.execute(INSERT_PIN_SQL, row)
    return _PIN_ROWS.build((cur.lastrowid, *row[:2], *row[3:]))


def insert_auto_pins(
    conn: sqlite3.Connection,
    session_id: str | None,
    source_message_id: int | None,
    pins: Sequence[AutoPin],
    importance: float,
    now: str,
    seen_from: str,
) -> int:
    """Insert auto pins (``session_id`` None: the user's) whose key no current pin
    session ``seen_from`` sees has yet; return how many were new."""
    rows = [
        (session_id, content, key, source_message_id, importance, tokens, now, seen_from)
        for content, key, tokens in pins
    ]
    return conn.executemany(INSERT_AUTO_PIN_SQL, rows).rowcount


def keyed_pin(
    conn: sqlite3.Connection, session_id: str | None, key: str, kind: str, besides: int | None = None
) -> Pin | None:
    """The oldest current pin of ``kind`` the session sees (its own or the user's) whose
    content_key is ``key`` (other than pin ``besides``), if any."""
    row = conn.execute(KEYED_PIN_SQL, (session_id, key, kind, besides or 0)).fetchone()
    return _PIN_ROWS(row) if row else None


def delete_auto_pins(conn: sqlite3.Connection, session_id: str | None, key: str) -> int:
    """Delete the current auto pins of one scope (a session, or None: the user's) whose
    content_key is ``key``; return how many."""
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


def kind_pins(conn: sqlite3.Connection, session_id: str | None, kind: str) -> list[Pin]:
    """The current pins of one kind a session sees (None: the user's), by importance,
    newest first on ties."""
    return [_PIN_ROWS(row) for row in conn.execute(KIND_PINS_SQL, (session_id, kind))]


def top_pins(conn: sqlite3.Connection, session_id: str | None, limit: int) -> list[Pin]:
    """The current pins a session sees, its own and the user's (None: the user's alone),
    by importance, newest first on ties; ``limit`` -1 means all."""
    return [_PIN_ROWS(row) for row in conn.execute(TOP_PINS_SQL, (session_id, limit))]


def own_pins(conn: sqlite3.Connection, session_id: str) -> list[Pin]:
    """A session's own current pins (not the user's), in ``top_pins``' order."""
    return [_PIN_ROWS(row) for row in conn.execute(OWN_PINS_SQL, (session_id,))]


def pinned_sessions(conn: sqlite3.Connection) -> frozenset[str]:
    """The sessions that have current pins of their own."""
    return frozenset(row[0] for row in conn.execute(PINNED_SESSIONS_SQL))


def pin_history(conn: sqlite3.Connection, session_id: str | None) -> list[Pin]:
    """Every pin a session sees (None: the user's), superseded ones too, by slot and time."""
    return [_PIN_ROWS(row) for row in conn.execute(PIN_HISTORY_SQL, (session_id,))]


def session_pins(conn: sqlite3.Connection, session_id: str) -> list[Pin]:
    """A session's own pins, current and superseded, and the user's pins learnt from
    its messages, in no particular order."""
    return [_PIN_ROWS(row) for row in conn.execute(SESSION_PINS_SQL, (session_id,))]


PinSource = tuple[Pin, str | None, str | None, str | None]
"""A pin and its source message's session id, that session's title and the time."""


def pins_with_sources(conn: sqlite3.Connection) -> list[PinSource]:
    """Every pin of the file with where it came from (the user's first, then by session,
    chains together)."""
    width = len(PIN_COLUMNS.split(","))
    return [
        (_PIN_ROWS(row[:width]), *row[width:]) for row in conn.execute(PINS_WITH_SOURCES_SQL)
    ]


def previous_user_pins(conn: sqlite3.Connection, session_id: str, message_id: int) -> list[Pin]:
    """The current auto pins taken from the session's last user message before ``message_id``."""
    return [_PIN_ROWS(row) for row in conn.execute(PREVIOUS_USER_PINS_SQL, (session_id, message_id))]


def supersede_pin(conn: sqlite3.Connection, pin_id: int, slot: str, now: str) -> bool:
    """Mark a current pin as no longer holding since ``now``, in chain ``slot``."""
    return conn.execute(SUPERSEDE_PIN_SQL, (now, slot, pin_id)).rowcount == 1


def message_session(conn: sqlite3.Connection, message_id: int) -> str | None:
    row = conn.execute(MESSAGE_SESSION_SQL, (message_id,)).fetchone()
    return row[0] if row else None


def pin_scope(conn: sqlite3.Connection, pin_id: int) -> tuple[bool, str | None]:
    """Whether the pin exists, and its session (None: the user's)."""
    row = conn.execute(PIN_SCOPE_SQL, (pin_id,)).fetchone()
    return (False, None) if row is None else (True, row[0])


def delete_pin(conn: sqlite3.Connection, pin_id: int) -> bool:
    return conn.execute(DELETE_PIN_SQL, (pin_id,)).rowcount == 1
