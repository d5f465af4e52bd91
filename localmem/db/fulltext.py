"""Full-text search.

Each searched table has an FTS5 index ``<table>_fts`` over the view
``<table>_fts_source`` (text, session_key) and a high-water mark in
search_state: rows with id <= indexed_to are indexed, rows above are not yet
(migration m004_search says why). ``catch_up`` indexes the rows above the
mark; call it in a write transaction and match in that same transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..models import SearchHit
from .connection import _RowModels

SEARCH_TABLES = ("messages", "summaries", "semantic_pins", "summary_facts")
_INDEX_LAG = """SELECT indexed_to, (SELECT coalesce(max(id), 0) FROM {0})
    FROM search_state WHERE name = '{0}'"""
_CATCH_UP = """INSERT INTO {0}_fts (rowid, text, session_key)
    SELECT id, text, session_key FROM {0}_fts_source WHERE id > ? AND id <= ?"""
_MARK_INDEXED = "UPDATE search_state SET indexed_to = ? WHERE name = '{0}'"
_OPTIMIZE = "INSERT INTO {0}_fts ({0}_fts) VALUES ('optimize')"
MESSAGES_INDEX_LAG_SQL = _INDEX_LAG.format("messages")
SUMMARIES_INDEX_LAG_SQL = _INDEX_LAG.format("summaries")
PINS_INDEX_LAG_SQL = _INDEX_LAG.format("semantic_pins")
FACTS_INDEX_LAG_SQL = _INDEX_LAG.format("summary_facts")
MESSAGES_CATCH_UP_SQL = _CATCH_UP.format("messages")
SUMMARIES_CATCH_UP_SQL = _CATCH_UP.format("summaries")
PINS_CATCH_UP_SQL = _CATCH_UP.format("semantic_pins")
FACTS_CATCH_UP_SQL = _CATCH_UP.format("summary_facts")
MESSAGES_MARK_INDEXED_SQL = _MARK_INDEXED.format("messages")
SUMMARIES_MARK_INDEXED_SQL = _MARK_INDEXED.format("summaries")
PINS_MARK_INDEXED_SQL = _MARK_INDEXED.format("semantic_pins")
FACTS_MARK_INDEXED_SQL = _MARK_INDEXED.format("summary_facts")
MESSAGES_OPTIMIZE_SQL = _OPTIMIZE.format("messages")
SUMMARIES_OPTIMIZE_SQL = _OPTIMIZE.format("summaries")
PINS_OPTIMIZE_SQL = _OPTIMIZE.format("semantic_pins")
FACTS_OPTIMIZE_SQL = _OPTIMIZE.format("summary_facts")
_INDEX_SQL = {
    "messages": (
        MESSAGES_INDEX_LAG_SQL,
        MESSAGES_CATCH_UP_SQL,
        MESSAGES_MARK_INDEXED_SQL,
        MESSAGES_OPTIMIZE_SQL,
    ),
    "summaries": (
        SUMMARIES_INDEX_LAG_SQL,
        SUMMARIES_CATCH_UP_SQL,
        SUMMARIES_MARK_INDEXED_SQL,
        SUMMARIES_OPTIMIZE_SQL,
    ),
    "semantic_pins": (
        PINS_INDEX_LAG_SQL,
        PINS_CATCH_UP_SQL,
        PINS_MARK_INDEXED_SQL,
        PINS_OPTIMIZE_SQL,
    ),
    "summary_facts": (
        FACTS_INDEX_LAG_SQL,
        FACTS_CATCH_UP_SQL,
        FACTS_MARK_INDEXED_SQL,
        FACTS_OPTIMIZE_SQL,
    ),
}
OPTIMIZE_MIN_ROWS = 1000
"""A catch-up of at least this many rows, and of half the table or more, ends
by merging the index into one segment (FTS5 'optimize'): bulk indexing leaves
several large segments, and FTS5 would otherwise merge them later, hundreds of
milliseconds at a time, inside some search; and each segment adds to the cost
of every query."""


def index_behind(conn: sqlite3.Connection, tables: Sequence[str]) -> bool:
    """True when a row of ``tables`` is not in the search index yet (two lookups per table)."""
    for table in tables:
        indexed, newest = conn.execute(_INDEX_SQL[table][0]).fetchone()
        if newest != indexed:
            return True
    return False


def catch_up(conn: sqlite3.Connection, tables: Sequence[str]) -> int:
    """Index every row of ``tables`` above the high-water mark; return how many.

    Call inside a write transaction, so that no row can commit in between.
    """
    indexed_rows = 0
    for table in tables:
        lag_sql, catch_up_sql, mark_sql, optimize_sql = _INDEX_SQL[table]
        indexed, newest = conn.execute(lag_sql).fetchone()
        if newest > indexed:
            rows = conn.execute(catch_up_sql, (indexed, newest)).rowcount
            if rows >= OPTIMIZE_MIN_ROWS and 2 * rows >= newest:
                conn.execute(optimize_sql)
            indexed_rows += rows
        if newest != indexed:
            conn.execute(mark_sql, (newest,))
    return indexed_rows


# How many messages hold a term, counting no further than the limit: a common
# term's document list is long, and reading all of it costs milliseconds.
TERM_DOCS_SQL = """SELECT count(*) FROM
    (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)"""
# The same over messages, summaries (their facts too) and pins, each count capped.
TERM_DOCS_ALL_SQL = """SELECT
    (SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM (SELECT 1 FROM summaries_fts WHERE summaries_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM
        (SELECT 1 FROM semantic_pins_fts WHERE semantic_pins_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM
        (SELECT 1 FROM summary_facts_fts WHERE summary_facts_fts MATCH ?1 LIMIT ?2))"""


def term_docs(conn: sqlite3.Connection, match: str, cap: int, *, everywhere: bool = False) -> int:
    """The number of messages matching ``match``, or ``cap`` if there are at least that many.

    ``everywhere`` counts summaries and pins too (each count capped).
    """
    sql = TERM_DOCS_ALL_SQL if everywhere else TERM_DOCS_SQL
    return conn.execute(sql, (match, cap)).fetchone()[0]


# BM25 with the session_key column weighted 0: only the text ranks. The FTS5
# table sorts by rank itself and stops at the LIMIT; the join reads the rows.
_RANK = "rank MATCH 'bm25(1.0, 0.0)'"


SNIPPET_START = "["
SNIPPET_END = "]"
SNIPPET_ELLIPSIS = "…"
SNIPPET_TOKENS = 24
SNIPPET_MAX_CHARS = 20_000
"""FTS5's snippet() costs time quadratic in the hits inside one text (a pasted 1 MB
log took 12 s): a longer text gets an empty snippet from SQL, and the caller cuts
one from around its first match instead (``search.plain_snippet``)."""
_HITS = """SELECT '{kind}', t.id, t.session_id, t.{text}, -hit_rank, hit_snippet, t.created_at
    FROM (SELECT rowid AS hit_id, rank AS hit_rank,
            CASE WHEN length(text) <= ?8 THEN snippet({table}_fts, 0, ?2, ?3, ?4, ?5) ELSE ''
                END AS hit_snippet
        FROM {table}_fts WHERE {table}_fts MATCH ?1 AND {rank} ORDER BY rank LIMIT ?6)
    JOIN {table} t ON t.id = hit_id WHERE ?7 IS NULL OR t.session_id = ?7"""
SEARCH_MESSAGES_SQL = _HITS.format(kind="message", table="messages", text="text", rank=_RANK)
SEARCH_SUMMARIES_SQL = _HITS.format(kind="summary", table="summaries", text="text", rank=_RANK)
# A session's search finds the user's pins too (their key is search.USER_KEY).
SEARCH_PINS_SQL = _HITS.format(
    kind="pin", table="semantic_pins", text="content", rank=_RANK
).replace("WHERE ?7 IS NULL OR", "WHERE ?7 IS NULL OR t.session_id IS NULL OR")
# A summary found by its facts: the hit is the summary, the snippet from its facts.
SEARCH_FACTS_SQL = f"""SELECT 'summary', s.id, s.session_id, s.text, -hit_rank, hit_snippet,
        s.created_at
    FROM (SELECT rowid AS hit_id, rank AS hit_rank,
            CASE WHEN length(text) <= ?8 THEN snippet(summary_facts_fts, 0, ?2, ?3, ?4, ?5)
                ELSE '' END AS hit_snippet
        FROM summary_facts_fts WHERE summary_facts_fts MATCH ?1 AND {_RANK} ORDER BY rank LIMIT ?6)
    JOIN summaries s ON s.id = hit_id WHERE ?7 IS NULL OR s.session_id = ?7"""
_HIT_ROWS = _RowModels(SearchHit, "kind, id, session_id, text, score, snippet, created_at", None)


def search(
    conn: sqlite3.Connection, match: str, session_id: str | None, limit: int
) -> list[SearchHit]:
    """The best ``limit`` messages, summaries and pins matching ``match``, best first.

    A summary matches by its text or by its facts (one hit, the better of the
    two). With ``session_id``, ``match`` must carry that session's key. A text
    over ``SNIPPET_MAX_CHARS`` comes with an empty snippet.
    """
    best: dict[tuple[str, int], SearchHit] = {}
    snippet = (SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS, SNIPPET_TOKENS)
    params = (match, *snippet, limit, session_id, SNIPPET_MAX_CHARS)
    for sql in (SEARCH_MESSAGES_SQL, SEARCH_SUMMARIES_SQL, SEARCH_PINS_SQL, SEARCH_FACTS_SQL):
        for row in conn.execute(sql, params):
            hit = _HIT_ROWS(row)
            seen = best.get((hit.kind, hit.id))
            if seen is None or hit.score > seen.score:
                best[(hit.kind, hit.id)] = hit
    hits = sorted(best.values(), key=lambda h: -h.score)
    return hits[:limit]
