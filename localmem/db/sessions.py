"""Sessions: create, read, list, touch, delete."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection

from ..models import Session, SessionOverview
from .rows import INSERT_SESSION_SQL, _LAST_ACTIVITY, _RowModels, _SESSION_ROWS

GET_SESSION_SQL = (
    f"SELECT s.id, s.title, s.model, s.created_at, {_LAST_ACTIVITY} FROM sessions s WHERE s.id = ?"
)
LIST_SESSIONS_SQL = f"""SELECT s.id, s.title, s.model, s.created_at, {_LAST_ACTIVITY} AS activity
    FROM sessions s ORDER BY activity DESC, s.id"""
SESSION_NAMES_SQL = """SELECT id, title, created_at FROM sessions
    WHERE id IN (SELECT value FROM json_each(?1))"""
EXISTS_SESSION_SQL = "SELECT 1 FROM sessions WHERE id = ?"
TOUCH_SESSION_SQL = "UPDATE sessions SET updated_at = ? WHERE id = ?"
DELETE_SESSION_SQL = "DELETE FROM sessions WHERE id = ?"
OVERVIEW_COLUMNS = (
    "id, title, model, created_at, last_activity, message_count, token_count, summary_count, "
    "pin_count, active_goal, latest_checkpoint_at"
)
# The view of schema.sql (one indexed lookup per column), newest activity first.
SESSION_OVERVIEW_SQL = f"""SELECT {OVERVIEW_COLUMNS} FROM session_overview
    ORDER BY last_activity DESC, id LIMIT ?"""
_OVERVIEW_ROWS = _RowModels(SessionOverview, OVERVIEW_COLUMNS, None)
# Ids from ``low`` (included) to ``high`` (excluded): a prefix's range, on the primary key.
SESSION_IDS_BETWEEN_SQL = "SELECT id FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"


def insert_session(
    conn: sqlite3.Connection, session_id: str, title: str | None, model: str | None, now: str
) -> Session:
    conn.execute(INSERT_SESSION_SQL, (session_id, title, model, now, now))
    return _SESSION_ROWS((session_id, title, model, now, now))


def get_session(conn: sqlite3.Connection, session_id: str) -> Session | None:
    row = conn.execute(GET_SESSION_SQL, (session_id,)).fetchone()
    return _SESSION_ROWS(row) if row else None


def session_names(
    conn: sqlite3.Connection, session_ids: Collection[str]
) -> dict[str, tuple[str | None, str]]:
    """Each of ``session_ids`` that exists: its (title, created_at)."""
    listed = json.dumps(list(session_ids))
    return {row[0]: (row[1], row[2]) for row in conn.execute(SESSION_NAMES_SQL, (listed,))}


def session_exists(conn: sqlite3.Connection, session_id: str) -> bool:
    return conn.execute(EXISTS_SESSION_SQL, (session_id,)).fetchone() is not None


def list_sessions(conn: sqlite3.Connection) -> list[Session]:
    return [_SESSION_ROWS(row) for row in conn.execute(LIST_SESSIONS_SQL)]


def touch_session(conn: sqlite3.Connection, session_id: str, now: str) -> bool:
    """Mark a session as updated; False if it does not exist."""
    return conn.execute(TOUCH_SESSION_SQL, (now, session_id)).rowcount == 1


def delete_session(conn: sqlite3.Connection, session_id: str) -> bool:
    """Delete a session; its messages, summaries and pins go with it (ON DELETE CASCADE)."""
    return conn.execute(DELETE_SESSION_SQL, (session_id,)).rowcount == 1


def session_overview(conn: sqlite3.Connection, limit: int) -> list[SessionOverview]:
    """The newest ``limit`` sessions by last activity (-1: all), with their counts."""
    return [_OVERVIEW_ROWS(row) for row in conn.execute(SESSION_OVERVIEW_SQL, (limit,))]


def session_ids_between(conn: sqlite3.Connection, low: str, high: str, limit: int) -> list[str]:
    return [row[0] for row in conn.execute(SESSION_IDS_BETWEEN_SQL, (low, high, limit))]


# A private in-memory store (a session that keeps nothing, ``localmem.incognito``)
# hands out ids from ?1 up: one placeholder row at ?1 - 1 in each table whose ids
# the public API takes back (message, pin, subtask) or shows (summary), in a
# placeholder session '' that no method ever names (ids are never empty).
RESERVE_IDS_SQL = (
    "INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES ('', NULL, NULL, '', '')",
    """INSERT INTO messages (id, session_id, role, text, token_count, importance_score, created_at)
        VALUES (?1 - 1, '', 'system', '', 0, 0, '')""",
    """INSERT INTO semantic_pins (id, session_id, content, importance_score, kind, token_count,
        created_at, content_key) VALUES (?1 - 1, '', '', 0, 'manual', 0, '', '')""",
    """INSERT INTO summaries (id, session_id, text, start_message_id, end_message_id,
        message_count, source, token_count, created_at) VALUES (?1 - 1, '', '', 0, 0, 0, '', 0, '')""",
    """INSERT INTO subtasks (id, session_id, name, status, token_count, created_at, updated_at)
        VALUES (?1 - 1, '', '', 'cancelled', 0, '', '')""",
    # Out of the search indexes (their triggers put them in): no search's
    # statistics count them. 's0' is the key of session ''.
    *(
        f"""INSERT INTO [{table}_fts] ([{table}_fts], rowid, [{text}], session_id)
        VALUES ('delete', ?1 - 1, '', 's0')"""
        for table, text in (("messages", "text"), ("semantic_pins", "content"), ("summaries", "text"))
    ),
)


def reserve_ids(conn: sqlite3.Connection, first_id: int) -> None:
    """Make the store behind ``conn`` (a new, empty one) number its messages,
    pins, summaries and subtasks from ``first_id`` up."""
    for sql in RESERVE_IDS_SQL:
        conn.execute(sql, (first_id,) if "?1" in sql else ())
