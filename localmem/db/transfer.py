"""Export and import: every row of a session, read and written as it is.

``localmem.transfer`` exports a session by reading all its rows inside one
read transaction (``session_rows``) and imports one inside one write
transaction, writing every column as the caller gives it (the store recounts
token counts and the export format normalises timestamps before; scores,
sources and levels are kept as exported). Reads reuse each
table's queries but build their models past the row memo: an export reads
every row once, and memoizing them would evict the rows contexts reuse.
Pins, summaries, facts and tool executions are written by their usual
inserts, which take every column; the rest have their own below.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..models import CheckpointLink, FactLink, PinLink, SessionRows
from .rows import (
    CHECKPOINTS_SQL, FACTS_SQL, FILES_SQL, GOALS_SQL, INSERT_CHECKPOINT_SQL, INSERT_ITEM_SQL,
    INSERT_MESSAGE_SQL, INSERT_SESSION_SQL, ITEM_COLUMNS, MESSAGES_AFTER_SQL,
    NEXT_MESSAGE_ID_SQL, RECENT_SUMMARIES_SQL, SESSION_COLUMNS, SESSION_PINS_SQL, SUBTASKS_SQL,
    TOOLS_SQL, _CHECKPOINT_ROWS, _FACTS_ROWS, _FILE_ROWS, _GOAL_ROWS, _ITEM_ROWS, _MESSAGE_ROWS,
    _PIN_ROWS, _RowModels, _SESSION_ROWS, _SUBTASK_ROWS, _SUMMARY_ROWS, _TOOL_ROWS,
)

# Every session, oldest first: an export reads the whole table anyway.
SESSION_IDS_SQL = "SELECT id FROM sessions ORDER BY created_at, rowid"
# The stored row (GET_SESSION_SQL reads updated_at as the last activity).
SESSION_ROW_SQL = f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?"
# Every kind, in the order of the index.
SESSION_ITEMS_SQL = f"SELECT {ITEM_COLUMNS} FROM items WHERE session_id = ? ORDER BY kind, message_id"
# The links of the pins a session's export holds (SESSION_PINS_SQL) to its own messages:
# every message a pin was built from, the message whose update ended one.
_EXPORTED_PIN_IDS = f"SELECT id FROM ({SESSION_PINS_SQL})"
SESSION_PIN_SOURCES_SQL = f"""SELECT pin_id, message_id FROM pin_sources
    WHERE message_id IN (SELECT id FROM messages WHERE session_id = ?1)
        AND pin_id IN ({_EXPORTED_PIN_IDS}) ORDER BY pin_id, message_id"""
SESSION_PIN_ENDINGS_SQL = f"""SELECT pin_id, message_id FROM pin_endings
    WHERE message_id IN (SELECT id FROM messages WHERE session_id = ?1)
        AND pin_id IN ({_EXPORTED_PIN_IDS}) ORDER BY pin_id"""
# Each line's messages of the session's facts and checkpoints (their own messages only).
SESSION_FACT_SOURCES_SQL = """SELECT s.summary_id, s.item, s.message_id FROM summary_facts f
    JOIN fact_sources s ON s.summary_id = f.id WHERE f.session_id = ?1
    ORDER BY s.summary_id, s.item, s.message_id"""
SESSION_CHECKPOINT_SOURCES_SQL = """SELECT s.checkpoint_id, s.item, s.message_id FROM checkpoints c
    JOIN checkpoint_sources s ON s.checkpoint_id = c.id WHERE c.session_id = ?1
    ORDER BY s.checkpoint_id, s.item, s.message_id"""
# What rests on a session's messages outside its own rows (a replace deletes them): the
# user's pins taken from them, and every pin's links to them (pin_sources, pin_endings).
REPLACED_MESSAGES_SQL = "SELECT id, role, text FROM messages WHERE session_id = ? ORDER BY id"
USER_PINS_SOURCED_SQL = """SELECT id, source_message_id FROM semantic_pins WHERE session_id IS NULL
    AND source_message_id IN (SELECT id FROM messages WHERE session_id = ?)"""
REPOINT_PIN_SQL = "UPDATE semantic_pins SET source_message_id = ? WHERE id = ?"
REPOINT_PIN_SOURCES_SQL = "UPDATE OR IGNORE pin_sources SET message_id = ?2 WHERE message_id = ?1"
REPOINT_PIN_ENDINGS_SQL = "UPDATE OR IGNORE pin_endings SET message_id = ?2 WHERE message_id = ?1"
IMPORT_PIN_SOURCE_SQL = "INSERT OR IGNORE INTO pin_sources (pin_id, message_id) VALUES (?, ?)"
IMPORT_PIN_ENDING_SQL = "INSERT OR REPLACE INTO pin_endings (pin_id, message_id) VALUES (?, ?)"
IMPORT_GOAL_SQL = """INSERT INTO goals
    (session_id, text, status, token_count, archive, archive_tokens, created_at, ended_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""
IMPORT_SUBTASK_SQL = """INSERT INTO subtasks
    (session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
IMPORT_FILE_SQL = """INSERT INTO tracked_files
    (session_id, path, modified, seq, token_count, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""


def session_ids(conn: sqlite3.Connection) -> list[str]:
    """Every session's id, oldest first."""
    return [row[0] for row in conn.execute(SESSION_IDS_SQL)]


def session_rows(conn: sqlite3.Connection, session_id: str) -> SessionRows | None:
    """Every row of a session (None if there is none); read-only.

    Call inside a read transaction: the rows are then one consistent snapshot.
    """
    row = conn.execute(SESSION_ROW_SQL, (session_id,)).fetchone()
    if row is None:
        return None

    def read(rows: _RowModels, sql: str, *params: object) -> list:
        return [rows.build(r) for r in conn.execute(sql, (session_id, *params))]

    def links(sql: str) -> list[PinLink]:
        return [PinLink(pin_id=p, message_id=m) for p, m in conn.execute(sql, (session_id,))]

    def by_id(models: list) -> list:
        return sorted(models, key=lambda m: m.id)

    return SessionRows(
        session=_SESSION_ROWS.build(row),
        messages=read(_MESSAGE_ROWS, MESSAGES_AFTER_SQL, 0, -1),
        items=sorted(read(_ITEM_ROWS, SESSION_ITEMS_SQL), key=lambda i: i.message_id),
        pins=by_id(read(_PIN_ROWS, SESSION_PINS_SQL)),
        pin_sources=links(SESSION_PIN_SOURCES_SQL),
        pin_endings=links(SESSION_PIN_ENDINGS_SQL),
        summaries=by_id(
            read(_SUMMARY_ROWS, RECENT_SUMMARIES_SQL, 1, -1)
            + read(_SUMMARY_ROWS, RECENT_SUMMARIES_SQL, 2, -1)
        ),
        facts=read(_FACTS_ROWS, FACTS_SQL),
        fact_sources=[
            FactLink(summary_id=o, item=i, message_id=m)
            for o, i, m in conn.execute(SESSION_FACT_SOURCES_SQL, (session_id,))
        ],
        goals=read(_GOAL_ROWS, GOALS_SQL),
        subtasks=by_id(read(_SUBTASK_ROWS, SUBTASKS_SQL)),
        tools=by_id(read(_TOOL_ROWS, TOOLS_SQL)),
        files=by_id(read(_FILE_ROWS, FILES_SQL)),
        checkpoints=by_id(read(_CHECKPOINT_ROWS, CHECKPOINTS_SQL, -1)),
        checkpoint_sources=[
            CheckpointLink(checkpoint_id=o, item=i, message_id=m)
            for o, i, m in conn.execute(SESSION_CHECKPOINT_SOURCES_SQL, (session_id,))
        ],
    )


def import_session(
    conn: sqlite3.Connection, row: tuple[str, str | None, str | None, str, str]
) -> None:
    """Insert a session as it was: (id, title, model, created_at, updated_at)."""
    conn.execute(INSERT_SESSION_SQL, row)


def import_messages(conn: sqlite3.Connection, rows: Sequence[tuple]) -> int:
    """Insert messages in order, each row every column but the id; return the
    first one's id. The others follow it one by one (see ``insert_messages``)."""
    first = conn.execute(NEXT_MESSAGE_ID_SQL).fetchone()[0]
    conn.executemany(INSERT_MESSAGE_SQL, rows)
    return first


def import_items(conn: sqlite3.Connection, rows: Sequence[tuple[int, str, str, str]]) -> None:
    """Insert items: (message_id, session_id, kind, data)."""
    conn.executemany(INSERT_ITEM_SQL, rows)


def replaced_messages(conn: sqlite3.Connection, session_id: str) -> list[tuple[int, str, str]]:
    """A session's messages as (id, role, text), oldest first: what a replace deletes."""
    return [(row[0], row[1], row[2]) for row in conn.execute(REPLACED_MESSAGES_SQL, (session_id,))]


def user_pins_sourced(conn: sqlite3.Connection, session_id: str) -> list[tuple[int, int]]:
    """(pin id, source message id) of the user's pins taken from a session's messages."""
    return [(row[0], row[1]) for row in conn.execute(USER_PINS_SOURCED_SQL, (session_id,))]


def repoint_pins(
    conn: sqlite3.Connection, moved: dict[int, int], sourced: Sequence[tuple[int, int]]
) -> None:
    """Point what rested on messages that were replaced (``moved``: old id -> new id) at
    their replacements: the ``sourced`` pins' source, every pin's sources and endings."""
    conn.executemany(REPOINT_PIN_SQL, [(moved[old], pin) for pin, old in sourced if old in moved])
    conn.executemany(REPOINT_PIN_SOURCES_SQL, list(moved.items()))
    conn.executemany(REPOINT_PIN_ENDINGS_SQL, list(moved.items()))


def import_pin_links(
    conn: sqlite3.Connection, sources: Sequence[tuple[int, int]], endings: Sequence[tuple[int, int]]
) -> None:
    """Insert pins' links as (pin_id, message_id): the messages they were built from
    (``pin_sources``) and the messages whose updates ended them (``pin_endings``)."""
    conn.executemany(IMPORT_PIN_SOURCE_SQL, sources)
    conn.executemany(IMPORT_PIN_ENDING_SQL, endings)


def import_goal(conn: sqlite3.Connection, row: tuple) -> int:
    """Insert a goal, every column but the id (``archive`` as JSON text); return its id."""
    return conn.execute(IMPORT_GOAL_SQL, row).lastrowid  # type: ignore[return-value]


def import_subtask(conn: sqlite3.Connection, row: tuple) -> int:
    """Insert a subtask, every column but the id (``dependencies`` as JSON text); return its id."""
    return conn.execute(IMPORT_SUBTASK_SQL, row).lastrowid  # type: ignore[return-value]


def import_file(conn: sqlite3.Connection, row: tuple) -> None:
    """Insert a tracked file, every column but the id (its ``seq`` kept)."""
    conn.execute(IMPORT_FILE_SQL, row)


def import_checkpoint(conn: sqlite3.Connection, row: tuple) -> int:
    """Insert a checkpoint, every column but the id (``data`` and ``lines`` as
    JSON text); unlike ``insert_checkpoint``, nothing is pruned or recounted. Returns its id."""
    return conn.execute(INSERT_CHECKPOINT_SQL, row).lastrowid  # type: ignore[return-value]
