"""Messages and their items (one structured item per message, by kind)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..models import Item, Message
from .rows import (
    INSERT_ITEM_SQL, INSERT_MESSAGE_SQL, ITEM_COLUMNS, MESSAGES_AFTER_SQL, MESSAGE_COLUMNS,
    NEXT_MESSAGE_ID_SQL, _ITEM_ROWS, _MESSAGE_ROWS,
)

RECENT_MESSAGES_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?"
)
GET_MESSAGE_SQL = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?"
MESSAGES_BETWEEN_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE session_id = ? AND id BETWEEN ? AND ? ORDER BY id"""

# A message checked and counted, before it is written: (session_id, role, text,
# model_id, token_count, importance_score); the insert adds created_at.
MessageRow = tuple[str, str, str, "str | None", int, float]


def insert_message(conn: sqlite3.Connection, row: MessageRow, now: str) -> Message | None:
    """Insert one message, created at ``now``.

    Returns None when the session does not exist (the foreign key refused the row).
    """
    row = (*row, now)
    try:
        cur = conn.execute(INSERT_MESSAGE_SQL, row)
    except sqlite3.IntegrityError as exc:
        if "FOREIGN KEY" in str(exc):
            return None
        raise
    return _MESSAGE_ROWS.build((cur.lastrowid, *row))


def insert_messages(
    conn: sqlite3.Connection, rows: Sequence[MessageRow], now: str
) -> list[Message]:
    """Insert messages in order, all created at ``now``; ids are consecutive
    because the caller holds the write lock."""
    if not rows:
        return []
    rows = [(*row, now) for row in rows]
    # executemany is several times faster than one execute per row; with the
    # write lock held (BEGIN IMMEDIATE), each row takes the next id in order.
    first = conn.execute(NEXT_MESSAGE_ID_SQL).fetchone()[0]
    conn.executemany(INSERT_MESSAGE_SQL, rows)
    return [_MESSAGE_ROWS.build((first + i, *row)) for i, row in enumerate(rows)]


def recent_messages(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Message]:
    """The newest ``limit`` messages, newest first."""
    return [_MESSAGE_ROWS(row) for row in conn.execute(RECENT_MESSAGES_SQL, (session_id, limit))]


def get_message(conn: sqlite3.Connection, message_id: int) -> Message | None:
    """The message with this id, or None."""
    row = conn.execute(GET_MESSAGE_SQL, (message_id,)).fetchone()
    return None if row is None else _MESSAGE_ROWS(row)


def messages_after(
    conn: sqlite3.Connection, session_id: str, after_id: int, limit: int
) -> list[Message]:
    """Messages with id > ``after_id``, oldest first; ``limit`` -1 means all."""
    return [
        _MESSAGE_ROWS(row) for row in conn.execute(MESSAGES_AFTER_SQL, (session_id, after_id, limit))
    ]


def messages_between(
    conn: sqlite3.Connection, session_id: str, first_id: int, last_id: int
) -> list[Message]:
    """The session's messages with ids from ``first_id`` to ``last_id``, oldest first."""
    rows = conn.execute(MESSAGES_BETWEEN_SQL, (session_id, first_id, last_id))
    return [_MESSAGE_ROWS(row) for row in rows]


CLEAR_SUMMARIES_SQL = "DELETE FROM summaries WHERE session_id = ?"
CLEAR_MESSAGES_SQL = "DELETE FROM messages WHERE session_id = ?"
DELETE_MESSAGE_SQL = "DELETE FROM messages WHERE id = ?"


def clear_messages(conn: sqlite3.Connection, session_id: str) -> int:
    """Delete a session's messages (their items with them) and its summaries; return how many.

    Pins stay, their ``source_message_id`` set to NULL by the foreign key.
    """
    conn.execute(CLEAR_SUMMARIES_SQL, (session_id,))
    return conn.execute(CLEAR_MESSAGES_SQL, (session_id,)).rowcount


def delete_message(conn: sqlite3.Connection, message_id: int) -> bool:
    """Delete one message (and its item); False if there was none. What quoted it
    is the caller's (``localmem.forget``)."""
    return conn.execute(DELETE_MESSAGE_SQL, (message_id,)).rowcount == 1


# --- items -------------------------------------------------------------------

ITEMS_AFTER_SQL = f"""SELECT {ITEM_COLUMNS} FROM items
    WHERE session_id = ? AND kind = ? AND message_id > ? ORDER BY message_id"""
NEWEST_ITEMS_SQL = f"""SELECT {ITEM_COLUMNS} FROM items
    WHERE session_id = ? AND kind = ? AND message_id > ? ORDER BY message_id DESC LIMIT ?"""


def insert_items(
    conn: sqlite3.Connection,
    session_id: str,
    kind: str,
    messages: Sequence[Message],
    data: Sequence[str],
) -> None:
    """Insert one item per message just inserted, in the same order."""
    conn.executemany(INSERT_ITEM_SQL, [(m.id, session_id, kind, d) for m, d in zip(messages, data)])


def items_after(conn: sqlite3.Connection, session_id: str, kind: str, after_id: int) -> list[Item]:
    """A session's items of ``kind`` after message ``after_id``, oldest first."""
    return [_ITEM_ROWS(row) for row in conn.execute(ITEMS_AFTER_SQL, (session_id, kind, after_id))]


def newest_items(
    conn: sqlite3.Connection, session_id: str, kind: str, after_id: int, limit: int
) -> list[Item]:
    """The newest ``limit`` items of ``kind`` after message ``after_id``, newest first."""
    return [
        _ITEM_ROWS(row) for row in conn.execute(NEWEST_ITEMS_SQL, (session_id, kind, after_id, limit))
    ]
