"""Summaries, the summary cache, the models' token ratios and a session's profile."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from ..models import Summary
from .rows import RECENT_SUMMARIES_SQL, SUMMARY_COLUMNS, _SUMMARY_ROWS

# The context's summaries in one statement: the newest rollup (level 2, which
# reaches back to the session's start) and the newest level-1 summaries.
CONTEXT_SUMMARIES_SQL = f"""SELECT * FROM (SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ?1 AND level = 2 ORDER BY end_message_id DESC LIMIT 1)
UNION ALL SELECT * FROM (SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ?1 AND level = 1 ORDER BY end_message_id DESC LIMIT ?2)"""
LAST_COVERED_SQL = (
    "SELECT coalesce(max(end_message_id), 0) FROM summaries WHERE session_id = ? AND level = ?"
)
SUMMARIES_AFTER_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? AND end_message_id > ? ORDER BY end_message_id"""
OVERLAP_SQL = """SELECT 1 FROM summaries WHERE session_id = ? AND level = ?
    AND end_message_id >= ? AND start_message_id <= ? LIMIT 1"""
RANGE_MESSAGES_SQL = "SELECT count(*) FROM messages WHERE session_id = ? AND id BETWEEN ? AND ?"
INSERT_SUMMARY_SQL = """INSERT INTO summaries
    (session_id, text, start_message_id, end_message_id, message_count, level, source,
     importance_score, token_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
# Summaries written by one of two sources (the deterministic ones), oldest range first.
SOURCE_SUMMARIES_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND source IN (?, ?) ORDER BY level, end_message_id"""
SOURCE_SESSIONS_SQL = """SELECT DISTINCT session_id FROM summaries WHERE source IN (?, ?)
    ORDER BY session_id"""
SUMMARIES_WITHIN_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? AND start_message_id >= ? AND end_message_id <= ?
    ORDER BY end_message_id"""
DELETE_SUMMARY_SQL = "DELETE FROM summaries WHERE id = ? AND source = ?"
GET_CACHED_SUMMARY_SQL = "SELECT text FROM summary_cache WHERE key = ?"
PUT_CACHED_SUMMARY_SQL = """INSERT OR IGNORE INTO summary_cache (key, model, text, created_at)
    VALUES (?, ?, ?, ?)"""
RECORD_TOKENS_SQL = """INSERT INTO model_token_stats
    (model, local_tokens, model_tokens, calls, updated_at) VALUES (?, ?, ?, 1, ?)
    ON CONFLICT (model) DO UPDATE SET local_tokens = local_tokens + excluded.local_tokens,
    model_tokens = model_tokens + excluded.model_tokens, calls = calls + 1,
    updated_at = excluded.updated_at"""
# A session's model may be named without its tag ("llama3.2" for "llama3.2:latest").
_RATIO_OF = "(SELECT 1.0 * model_tokens / local_tokens FROM model_token_stats WHERE model = {})"
MODEL_RATIO_SQL = "SELECT coalesce({}, {})".format(
    _RATIO_OF.format("?1"), _RATIO_OF.format("?1 || ':latest'")
)
# What the context builder needs to know of a session, in one lookup: its
# model's ratio and its compaction level (0 once a message is newer than the
# compaction: the user picked the session up again).
SESSION_PROFILE_SQL = """SELECT s.model, coalesce({}, {}), coalesce((SELECT c.level
        FROM session_compaction c WHERE c.session_id = s.id
        AND c.through_message_id >= (SELECT coalesce(max(m.id), 0) FROM messages m
            WHERE m.session_id = s.id)), 0)
    FROM sessions s WHERE s.id = ?""".format(
    _RATIO_OF.format("s.model"), _RATIO_OF.format("s.model || ':latest'")
)


def recent_summaries(
    conn: sqlite3.Connection, session_id: str, limit: int, level: int = 1
) -> list[Summary]:
    """The summaries of one level covering the newest ranges, newest first."""
    return [_SUMMARY_ROWS(row) for row in conn.execute(RECENT_SUMMARIES_SQL, (session_id, level, limit))]


def context_summaries(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Summary]:
    """The newest rollup and the newest ``limit`` level-1 summaries it does not cover, newest first."""
    rows = [_SUMMARY_ROWS(row) for row in conn.execute(CONTEXT_SUMMARIES_SQL, (session_id, limit))]
    rollup = rows[0] if rows and rows[0].level == 2 else None
    if rollup is None:
        return rows
    return [s for s in rows[1:] if s.end_message_id > rollup.end_message_id] + [rollup]


def last_covered(conn: sqlite3.Connection, session_id: str, level: int = 1) -> int:
    """The highest message id covered by a summary of ``level`` (0 if none)."""
    return conn.execute(LAST_COVERED_SQL, (session_id, level)).fetchone()[0]


def summaries_after(
    conn: sqlite3.Connection, session_id: str, level: int, after_id: int
) -> list[Summary]:
    """Summaries of ``level`` ending after message ``after_id``, oldest first."""
    return [_SUMMARY_ROWS(r) for r in conn.execute(SUMMARIES_AFTER_SQL, (session_id, level, after_id))]


def messages_in_range(conn: sqlite3.Connection, session_id: str, start: int, end: int) -> int:
    """How many of the session's messages have an id in ``start``..``end``."""
    return conn.execute(RANGE_MESSAGES_SQL, (session_id, start, end)).fetchone()[0]


class SummaryRow(NamedTuple):
    """A summary to insert, in the order of ``INSERT_SUMMARY_SQL``'s columns."""

    session_id: str
    text: str
    start_message_id: int
    end_message_id: int
    message_count: int
    level: int
    source: str
    importance_score: float
    token_count: int
    created_at: str


def insert_summary(conn: sqlite3.Connection, row: SummaryRow) -> Summary | None:
    """Insert a summary unless one of the same level already overlaps its range.

    Call inside a write transaction: the check and the insert then see the
    same state, so two processes can never store overlapping ranges.
    """
    overlap = (row.session_id, row.level, row.start_message_id, row.end_message_id)
    if conn.execute(OVERLAP_SQL, overlap).fetchone():
        return None
    cur = conn.execute(INSERT_SUMMARY_SQL, row)
    return _SUMMARY_ROWS((cur.lastrowid, *row))


def source_summaries(
    conn: sqlite3.Connection, session_id: str, sources: tuple[str, str]
) -> list[Summary]:
    """The session's summaries written by one of ``sources``: level 1, then level 2,
    each oldest range first."""
    rows = conn.execute(SOURCE_SUMMARIES_SQL, (session_id, *sources))
    return [_SUMMARY_ROWS(row) for row in rows]


def source_sessions(conn: sqlite3.Connection, sources: tuple[str, str]) -> list[str]:
    """The sessions with a summary written by one of ``sources``."""
    return [row[0] for row in conn.execute(SOURCE_SESSIONS_SQL, sources)]


def summaries_within(
    conn: sqlite3.Connection, session_id: str, level: int, start: int, end: int
) -> list[Summary]:
    """The summaries of ``level`` whose range lies within ``start``..``end``, in order."""
    rows = conn.execute(SUMMARIES_WITHIN_SQL, (session_id, level, start, end))
    return [_SUMMARY_ROWS(row) for row in rows]


def delete_summary(conn: sqlite3.Connection, summary_id: int, source: str) -> bool:
    """Delete a summary (its facts go with it) if it still has ``source``; whether it did."""
    return conn.execute(DELETE_SUMMARY_SQL, (summary_id, source)).rowcount == 1


def cached_summary(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute(GET_CACHED_SUMMARY_SQL, (key,)).fetchone()
    return row[0] if row else None


def cache_summary(conn: sqlite3.Connection, key: str, model: str, text: str, now: str) -> None:
    conn.execute(PUT_CACHED_SUMMARY_SQL, (key, model, text, now))


TOKEN_STATS_SQL = """SELECT model, local_tokens, model_tokens, calls, updated_at
    FROM model_token_stats ORDER BY model"""
PUT_TOKEN_STATS_SQL = """INSERT OR REPLACE INTO model_token_stats
    (model, local_tokens, model_tokens, calls, updated_at) VALUES (?, ?, ?, ?, ?)"""


def token_stats(conn: sqlite3.Connection) -> list[tuple]:
    """Every model's learnt token counts, as rows for :func:`put_token_stats`."""
    return conn.execute(TOKEN_STATS_SQL).fetchall()


def put_token_stats(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    conn.executemany(PUT_TOKEN_STATS_SQL, rows)


def record_tokens(
    conn: sqlite3.Connection, model: str, local_tokens: int, model_tokens: int, now: str
) -> None:
    """Add one call's prompt sizes (ours in cl100k, the model's own) to the model's totals."""
    conn.execute(RECORD_TOKENS_SQL, (model, local_tokens, model_tokens, now))


def model_ratio(conn: sqlite3.Connection, model: str) -> float | None:
    """The model's tokens per cl100k token, learnt from its calls; None if never measured."""
    return conn.execute(MODEL_RATIO_SQL, (model,)).fetchone()[0]


def session_profile(
    conn: sqlite3.Connection, session_id: str
) -> tuple[bool, float | None, int]:
    """(session exists, its model's token ratio or None, its compaction level) in one lookup."""
    row = conn.execute(SESSION_PROFILE_SQL, (session_id,)).fetchone()
    return (True, row[1], row[2]) if row else (False, None, 0)


# How many messages are not covered by a level-1 summary, and their tokens.
UNCOVERED_TOKENS_SQL = """SELECT count(*), coalesce(sum(token_count), 0) FROM messages
    WHERE session_id = ? AND id > ?"""


def uncovered_tokens(conn: sqlite3.Connection, session_id: str, after_id: int) -> tuple[int, int]:
    """(messages, their stored tokens) after message ``after_id``."""
    count, tokens = conn.execute(UNCOVERED_TOKENS_SQL, (session_id, after_id)).fetchone()
    return count, tokens


# Each model answer's verdict (m015_verdicts, m017_verdict_kinds): a model's record per kind.
INSERT_VERDICT_SQL = "INSERT INTO model_verdicts (model, kind, created_at, kept_whole) VALUES (?, ?, ?, ?)"
RECENT_VERDICTS_SQL = """SELECT kept_whole FROM model_verdicts WHERE model = ? AND kind = ?
    ORDER BY id DESC LIMIT ?"""
VERDICT_MODELS_SQL = """SELECT model, kind, count(*), coalesce(sum(kept_whole), 0) FROM model_verdicts
    GROUP BY model, kind ORDER BY model, kind"""


def insert_verdict(conn: sqlite3.Connection, model: str, kind: str, kept_whole: bool, now: str) -> None:
    """Record one answer of ``model`` of ``kind``: whether the checks kept it whole."""
    conn.execute(INSERT_VERDICT_SQL, (model, kind, now, int(kept_whole)))


def recent_verdicts(conn: sqlite3.Connection, model: str, kind: str, limit: int) -> list[bool]:
    """The newest ``limit`` verdicts of ``model`` of ``kind`` in this file, oldest first."""
    return [bool(r[0]) for r in reversed(conn.execute(RECENT_VERDICTS_SQL, (model, kind, limit)).fetchall())]


def verdict_models(conn: sqlite3.Connection) -> list[tuple[str, str, int, int]]:
    """Every model and kind with a verdict here: (model, kind, answers, answers kept whole),
    by name, then kind."""
    return [(m, kind, n, whole) for m, kind, n, whole in conn.execute(VERDICT_MODELS_SQL)]
