"""Forgetting: what a deletion reaches besides the rows it names (``localmem.forget``).

A message's text can live on in automatic pins taken from it, in the level-1
summary over it (and its facts), in every level-2 rollup from that range on
(each one carries the previous rollup's text), in checkpoints taken after it,
in the summary cache, in the full-text indexes' segments and in the pages
SQLite freed. These statements find and remove those; the store decides what
to write in their place. ``secure_delete`` (set by ``connect``) zeroes freed
content; :func:`merge_indexes` rewrites an FTS5 index without the deleted
entries, which a 'delete' only marks until the segments are merged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..models import Summary
from .rows import OPTIMIZE_SQL, SUMMARY_COLUMNS, _SUMMARY_ROWS

# Automatic pins taken from a message, alone or with others (pin_sources): a manual
# pin is the user's own words, it stays.
DELETE_SOURCED_AUTO_PINS_SQL = """DELETE FROM semantic_pins
    WHERE kind = 'auto' AND (source_message_id = ?1
        OR id IN (SELECT pin_id FROM pin_sources WHERE message_id = ?1))
    RETURNING id, session_id, content_key"""
DELETE_SESSION_SOURCED_AUTO_PINS_SQL = """DELETE FROM semantic_pins
    WHERE kind = 'auto' AND (source_message_id IN (SELECT id FROM messages WHERE session_id = ?1)
        OR id IN (SELECT pin_id FROM pin_sources WHERE message_id IN
            (SELECT id FROM messages WHERE session_id = ?1)))
    RETURNING id, session_id, content_key"""
COVERING_SUMMARY_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ?1 AND level = 1 AND start_message_id <= ?2 AND end_message_id >= ?2"""
REWRITE_SUMMARY_SQL = """UPDATE summaries SET text = ?, start_message_id = ?, end_message_id = ?,
    message_count = ?, source = ?, token_count = ? WHERE id = ?"""
DROP_SUMMARY_SQL = "DELETE FROM summaries WHERE id = ?"
# A summary's facts, rewritten in place (UPDATE: the index's triggers see it;
# INSERT OR REPLACE would bypass the delete trigger).
REWRITE_FACTS_SQL = "UPDATE summary_facts SET data = ?, text = ?, source = ? WHERE id = ?"
# Level-2 rollups ending at or after a message: each quotes the one before it.
ROLLUPS_FROM_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = 2 AND end_message_id >= ? ORDER BY end_message_id"""
# Checkpoints taken once a message was there (they may quote it, carried forward).
DELETE_CHECKPOINTS_FROM_SQL = """DELETE FROM checkpoints
    WHERE session_id = ? AND through_message_id >= ?"""
# Its keys are hashes of whole spans: any entry may hold the text of what was forgotten.
CLEAR_SUMMARY_CACHE_SQL = "DELETE FROM summary_cache"
# The lowest id a session has in each searched table (what deleting it reaches).
SESSION_LOWEST_IDS_SQL = """SELECT
    (SELECT min(id) FROM messages WHERE session_id = ?1),
    (SELECT min(id) FROM summaries WHERE session_id = ?1),
    (SELECT min(id) FROM semantic_pins WHERE session_id = ?1),
    (SELECT min(id) FROM summary_facts WHERE session_id = ?1)"""


GonePin = tuple[int, "str | None", "str | None"]
"""A deleted pin: (id, session_id: None for the user's, content_key)."""


def delete_sourced_auto_pins(conn: sqlite3.Connection, message_ids: Iterable[int]) -> list[GonePin]:
    """Delete the automatic pins taken from these messages, alone or with others
    (the user's too); return them."""
    sql = DELETE_SOURCED_AUTO_PINS_SQL
    return [(row[0], row[1], row[2]) for mid in message_ids for row in conn.execute(sql, (mid,))]


def delete_session_sourced_auto_pins(conn: sqlite3.Connection, session_id: str) -> list[GonePin]:
    """Delete the automatic pins taken from any message of the session, alone or with
    others, wherever they are kept (the user's too); return them."""
    rows = conn.execute(DELETE_SESSION_SOURCED_AUTO_PINS_SQL, (session_id,))
    return [(row[0], row[1], row[2]) for row in rows]


def covering_summaries(
    conn: sqlite3.Connection, session_id: str, message_ids: Iterable[int]
) -> list[Summary]:
    """The level-1 summaries whose range holds one of these messages, by range, once each."""
    found: dict[int, Summary] = {}
    for mid in message_ids:
        for row in conn.execute(COVERING_SUMMARY_SQL, (session_id, mid)):
            summary = _SUMMARY_ROWS.build(row)
            found[summary.id] = summary
    return sorted(found.values(), key=lambda s: s.start_message_id)


def rewrite_summary(
    conn: sqlite3.Connection,
    summary_id: int,
    text: str,
    start: int,
    end: int,
    message_count: int,
    source: str,
    token_count: int,
) -> None:
    conn.execute(
        REWRITE_SUMMARY_SQL, (text, start, end, message_count, source, token_count, summary_id)
    )


def rewrite_facts(conn: sqlite3.Connection, summary_id: int, data: str, text: str, source: str) -> bool:
    """Replace a summary's facts (a summary stored without facts keeps none: False)."""
    return conn.execute(REWRITE_FACTS_SQL, (data, text, source, summary_id)).rowcount > 0


def drop_summary(conn: sqlite3.Connection, summary_id: int) -> None:
    """Delete a summary, whatever its source; its facts go with it (ON DELETE CASCADE)."""
    conn.execute(DROP_SUMMARY_SQL, (summary_id,))


def rollups_from(conn: sqlite3.Connection, session_id: str, message_id: int) -> list[Summary]:
    """The session's rollups ending at or after ``message_id``, oldest first."""
    return [_SUMMARY_ROWS.build(row) for row in conn.execute(ROLLUPS_FROM_SQL, (session_id, message_id))]


def delete_checkpoints_from(conn: sqlite3.Connection, session_id: str, message_id: int) -> int:
    """Delete the session's checkpoints taken through ``message_id`` or later; return how many."""
    return conn.execute(DELETE_CHECKPOINTS_FROM_SQL, (session_id, message_id)).rowcount


def clear_summary_cache(conn: sqlite3.Connection) -> int:
    return conn.execute(CLEAR_SUMMARY_CACHE_SQL).rowcount


def session_lowest_ids(conn: sqlite3.Connection, session_id: str) -> dict[str, int]:
    """The session's lowest row id in each searched table that holds any of its rows."""
    row = conn.execute(SESSION_LOWEST_IDS_SQL, (session_id,)).fetchone()
    names = ("messages", "summaries", "semantic_pins", "summary_facts")
    return {name: low for name, low in zip(names, row) if low is not None}


@dataclass
class Forgotten:
    """What one forgetting transaction removed: the lowest row id per searched
    table it deleted or rewrote (every row is in its table's index)."""

    conn: sqlite3.Connection
    lowest: dict[str, int] = field(default_factory=dict)
    deleted: bool = False
    """Whether anything was deleted or rewritten (a session row counts)."""
    users: bool = False
    """Whether a fact of the user's went (every session's context shows those)."""
    removed: list[tuple[str | None, str]] = field(default_factory=list)
    """The facts (scope, content_key) the user removed (an unpin): tombstoned (``db.bury``)."""
    with_messages: list[tuple[str | None, str]] = field(default_factory=list)
    """The facts (scope, content_key) whose pins went with forgotten messages: tombstoned
    unless a message left still says them (``db.still_said``)."""

    def touch(self, table: str, ids: Sequence[int]) -> None:
        if ids:
            low = min(ids)
            self.lowest[table] = min(low, self.lowest.get(table, low))
            self.deleted = True

    def pins_gone(self, pins: Sequence[GonePin]) -> None:
        """Record the pins deleted with their messages, as (id, session_id, content_key)."""
        self.touch("semantic_pins", [pin_id for pin_id, _, _ in pins])
        self.users = self.users or any(session_id is None for _, session_id, _ in pins)
        self.with_messages += [(session_id, key) for _, session_id, key in pins if key]

    def indexes(self) -> list[str]:
        """The full-text indexes that held a row this transaction removed or changed."""
        return list(self.lowest)


def merge_indexes(gone: Forgotten) -> None:
    """Merge each full-text index that held what ``gone`` removed into one segment
    (FTS5 'optimize'): the entries a 'delete' marked are left out of it, and the
    old segments' pages are freed (zeroed, with ``secure_delete``). Costs a
    rewrite of the index: about 150 ms per 100,000 indexed messages."""
    for table in gone.indexes():
        gone.conn.execute(OPTIMIZE_SQL[table])
