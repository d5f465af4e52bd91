"""Full-text search.

Each searched table has an external-content FTS5 index ``<table>_fts`` over
the table itself, with two columns: its text and ``session_id``, where the
index holds the session's key token (migration m012_search_at_commit says
why). Triggers keep it current in the transaction that writes a row, so a
search reads it as it is, in any process, whoever wrote.
"""

from __future__ import annotations

import sqlite3

from ..migrations import SESSION_KEY_EXPR, USER_PINS_KEY_EXPR
from ..models import SearchHit
from .rows import OPTIMIZE_SQL, SEARCH_TABLES, _RowModels

TEXT_COLUMNS = {"messages": "text", "summaries": "text", "semantic_pins": "content",
                "summary_facts": "text"}
"""Each searched table's text column: its index's first column has the same name."""
_KEY = {"semantic_pins": USER_PINS_KEY_EXPR}
# Whether the newest row is in the index under its session's key token: an
# index rebuilt from the table by another tool ('rebuild') holds the id's words.
NEWEST_KEY_SQL = {
    t: f"SELECT id, {_KEY.get(t, SESSION_KEY_EXPR).format('session_id')} FROM [{t}] ORDER BY id DESC LIMIT 1"
    for t in SEARCH_TABLES
}
KEYED_SQL = {
    t: f"SELECT EXISTS (SELECT 1 FROM [{t}_fts] WHERE [{t}_fts] MATCH ? AND rowid = ?)"
    for t in SEARCH_TABLES
}
_REINDEX = (
    "INSERT INTO [{0}_fts] ([{0}_fts]) VALUES ('delete-all')",
    "INSERT INTO [{0}_fts] (rowid, [{1}], session_id) SELECT id, [{1}], {2} FROM [{0}]",
)
REINDEX_SQL = {
    t: tuple(q.format(t, TEXT_COLUMNS[t], _KEY.get(t, SESSION_KEY_EXPR).format("session_id"))
             for q in _REINDEX)
    for t in SEARCH_TABLES
}


def keyed(conn: sqlite3.Connection, table: str) -> bool:
    """Whether ``table``'s index holds its newest row under the session's key token
    (an empty table: True)."""
    newest = conn.execute(NEWEST_KEY_SQL[table]).fetchone()
    if newest is None:
        return True
    row_id, key = newest
    match = f'session_id : "{key.lower()}"'  # hex digits and letters: nothing to escape
    return bool(conn.execute(KEYED_SQL[table], (match, row_id)).fetchone()[0])


def reindex(conn: sqlite3.Connection, table: str) -> None:
    """Index every row of ``table`` again, with the key tokens, in one segment.
    Call in a write transaction."""
    for sql in REINDEX_SQL[table]:
        conn.execute(sql)
    conn.execute(OPTIMIZE_SQL[table])


def optimize_indexes(conn: sqlite3.Connection) -> None:
    """Merge each full-text index into one segment (FTS5 'optimize'); an index
    another tool rebuilt without the session key tokens is indexed again, with
    them. Call in a write transaction."""
    for table, sql in OPTIMIZE_SQL.items():
        if keyed(conn, table):
            conn.execute(sql)
        else:
            reindex(conn, table)


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


# BM25 with the session column weighted 0: only the text ranks. The FTS5
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
            CASE WHEN length({text}) <= ?8 THEN snippet({table}_fts, 0, ?2, ?3, ?4, ?5) ELSE ''
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
