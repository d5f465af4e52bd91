"""Recall's candidates: the scope's messages holding each query word, its statistics.

The query-aware context ranks a session's older messages itself
(``localmem.rank``) with that session's own statistics: these statements
give it the ids of the session's messages holding each query word (the
session's key and the word each matched in their own column, so that text
can never pass for a key), the session's size, and the candidates' rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence

from ..models import Message
from .rows import MESSAGE_COLUMNS, _MESSAGE_ROWS

TERM_HOLDERS_SQL = """SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
    ORDER BY rowid DESC LIMIT ?"""
# FTS5 yields rowids ascending as it reads them; descending it first buffers the
# whole doclist (a quarter more time for a word in thousands of messages).
TERM_HOLDERS_ANY_ORDER_SQL = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?"
TERM_HOLDERS_COUNT_SQL = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?"
TERM_HOLDERS_AFTER_SQL = """SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid > ?
    ORDER BY rowid"""
TERM_FILE_HOLDERS_AFTER_SQL = """SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
    AND rowid > ? ORDER BY rowid DESC"""
# A word alone (the whole file's holders), descending: FTS5 then starts at the newest
# holder and stops at the bound; ascending, it reads a common word's doclist from its
# first holder to reach the bound (two to four times the cost for a word in thousands
# of messages, however few are new). With a session's key, ascending: the key's short
# doclist leads there, and descending costs a tenth to three quarters more.
TERM_FILE_HOLDERS_SQL = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?"
SCOPE_IDS_SQL = """SELECT count(*), coalesce(sum(token_count), 0), coalesce(max(id), ?2),
    group_concat(id) FROM messages WHERE session_id = ?1 AND id > ?2"""
# The ids as one text: a row per message would cost a third more than the sums alone.
SCOPE_STATS_SQL = """SELECT count(*), coalesce(sum(token_count), 0), coalesce(max(id), ?2)
    FROM messages WHERE session_id = ?1 AND id > ?2"""
ALL_STATS_SQL = """SELECT count(*), coalesce(sum(token_count), 0), coalesce(max(id), ?1)
    FROM messages WHERE id > ?1"""
MESSAGES_BY_IDS_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR session_id = ?2)"""
# A scan of the session's rows by id (no index on time: a question naming a day is
# rare, and a session's rows are few); the whole file with recall_scope="user".
MESSAGES_SAID_BETWEEN_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE (?1 IS NULL OR session_id = ?1) AND created_at >= ?2 AND created_at < ?3
    ORDER BY id LIMIT ?4"""
# Each asked message's neighbour in its session, in one statement: the id just after (a
# positive id in the list) or just before (a negative one), each found through the
# session's index, as a single lookup would (what a hit needs to be an answer:
# NEIGHBOUR_HITS asks). Ids alone: the caller has most of those rows already.
NEIGHBOURS_SQL = """SELECT json_each.key, CASE WHEN json_each.value > 0
        THEN (SELECT id FROM messages WHERE session_id = h.session_id AND id > h.id
              ORDER BY id LIMIT 1)
        ELSE (SELECT id FROM messages WHERE session_id = h.session_id AND id < h.id
              ORDER BY id DESC LIMIT 1) END
    FROM json_each(?1) JOIN messages h ON h.id = abs(json_each.value)"""


def term_holders(
    conn: sqlite3.Connection, match: str, cap: int, few: bool = False
) -> tuple[list[int], int]:
    """The ids (newest first, at most ``cap``) of the messages matching ``match``, and
    how many match in all (counted only when there are more than ``cap``).

    ``few``: the caller expects at most ``cap`` (a session smaller than it): they are
    read in the index's own order and sorted here, which is cheaper; if there are
    more after all, they are read again newest first, as without ``few``."""
    if few:
        ids = [row[0] for row in conn.execute(TERM_HOLDERS_ANY_ORDER_SQL, (match, cap + 1))]
        if len(ids) <= cap:
            ids.sort(reverse=True)
            return ids, len(ids)
    ids = [row[0] for row in conn.execute(TERM_HOLDERS_SQL, (match, cap))]
    if len(ids) < cap:
        return ids, len(ids)
    return ids, conn.execute(TERM_HOLDERS_COUNT_SQL, (match,)).fetchone()[0]


def term_holders_after(conn: sqlite3.Connection, match: str, after: int) -> list[int]:
    """The ids above ``after``, ascending, of the messages matching ``match`` (a word
    with a session's key: ``search.message_holders``)."""
    return [row[0] for row in conn.execute(TERM_HOLDERS_AFTER_SQL, (match, after))]


def term_file_holders_after(conn: sqlite3.Connection, match: str, after: int) -> list[int]:
    """The ids above ``after``, ascending, of the messages matching ``match`` (a word
    alone, in the whole file)."""
    found = [row[0] for row in conn.execute(TERM_FILE_HOLDERS_AFTER_SQL, (match, after))]
    found.reverse()
    return found


def term_file_holders(conn: sqlite3.Connection, match: str) -> list[int]:
    """The ids of every message matching ``match``, in no particular order."""
    return [row[0] for row in conn.execute(TERM_FILE_HOLDERS_SQL, (match,))]


def term_count(conn: sqlite3.Connection, match: str) -> int:
    """How many messages match ``match``."""
    return conn.execute(TERM_HOLDERS_COUNT_SQL, (match,)).fetchone()[0]


def scope_stats(
    conn: sqlite3.Connection, session_id: str | None, after: int = 0
) -> tuple[int, int, int]:
    """The session's (None: the file's) messages above id ``after``: how many, their
    tokens in all, and the newest id (``after`` if none)."""
    if session_id is None:
        return conn.execute(ALL_STATS_SQL, (after,)).fetchone()
    return conn.execute(SCOPE_STATS_SQL, (session_id, after)).fetchone()


def scope_ids(
    conn: sqlite3.Connection, session_id: str, after: int, most: int
) -> tuple[int, int, int, list[int] | None]:
    """The session's messages above id ``after``: how many, their tokens in all, the
    newest id (``after`` if none), and their ids, ascending (None if more than ``most``)."""
    count, tokens, newest, listed = conn.execute(SCOPE_IDS_SQL, (session_id, after)).fetchone()
    if count > most:
        return count, tokens, newest, None
    return count, tokens, newest, sorted(map(int, listed.split(","))) if listed else []


def messages_by_ids(
    conn: sqlite3.Connection, session_id: str | None, ids: Collection[int]
) -> list[Message]:
    """The session's (None: any session's) messages among ``ids``, in no particular order."""
    listed = "[" + ",".join(map(str, ids)) + "]"  # ints: json.dumps's text, in a third of its time
    rows = conn.execute(MESSAGES_BY_IDS_SQL, (listed, session_id))
    # Not through the row memo: recall keeps what it read by id (cache.SessionMemo),
    # and hashing each whole row there costs more than building it.
    read = _MESSAGE_ROWS.read
    return [read(row) for row in rows]


def neighbours(conn: sqlite3.Connection, asked: Sequence[tuple[int, bool]]) -> dict[int, int]:
    """For each asked (message id, after), the id of the message of its session just
    after (or before) it, by the position of the pair in ``asked``; none for a pair
    with no such message."""
    if not asked:
        return {}
    listed = "[" + ",".join(str(i if after else -i) for i, after in asked) + "]"
    return {
        key: found for key, found in conn.execute(NEIGHBOURS_SQL, (listed,)) if found is not None
    }


def messages_said_between(
    conn: sqlite3.Connection, session_id: str | None, start: str, end: str, limit: int
) -> list[Message]:
    """The session's (None: any session's) messages written in [start, end), oldest first."""
    rows = conn.execute(MESSAGES_SAID_BETWEEN_SQL, (session_id, start, end, limit))
    return [_MESSAGE_ROWS(row) for row in rows]
