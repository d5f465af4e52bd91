"""Compaction by age (``store.maintain``): which sessions to compact, and the record of it."""

from __future__ import annotations

import sqlite3

from .rows import _LAST_ACTIVITY

# Every session with what maintenance needs: its last activity (as
# Session.updated_at), its recorded compaction and its newest message id.
COMPACTION_CANDIDATES_SQL = f"""SELECT s.id, {_LAST_ACTIVITY}, c.level, c.through_message_id,
        (SELECT coalesce(max(m.id), 0) FROM messages m WHERE m.session_id = s.id)
    FROM sessions s LEFT JOIN session_compaction c ON c.session_id = s.id ORDER BY s.id"""
RECORD_COMPACTION_SQL = """INSERT INTO session_compaction
    (session_id, level, through_message_id, compacted_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (session_id) DO UPDATE SET level = excluded.level,
    through_message_id = excluded.through_message_id, compacted_at = excluded.compacted_at"""

CompactionCandidate = tuple[str, str, int | None, int | None, int]
"""(session id, last activity, recorded level, its through_message_id, newest message id)."""


def compaction_candidates(conn: sqlite3.Connection) -> list[CompactionCandidate]:
    return conn.execute(COMPACTION_CANDIDATES_SQL).fetchall()


def record_compaction(
    conn: sqlite3.Connection, session_id: str, level: int, through_message_id: int, now: str
) -> None:
    conn.execute(RECORD_COMPACTION_SQL, (session_id, level, through_message_id, now))
