"""The store's recall: full-text search and the query-aware context's candidates.

``RecallMixin`` gives :class:`~localmem.store.MemoryStore` ``search`` and the
helpers ``build_context`` uses with a query. Turning user text into a safe
MATCH expression is ``localmem.search``'s (pure); the SQL is ``localmem.db``'s.
The index is caught up in bulk, behind a high-water mark, inside the reading
transaction (``_indexed``), so writes never pay for it and reads never miss a
committed row.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator

from . import db
from . import search as fts
from .args import MAX_SQLITE_INTEGER, check_id, check_int, query_text
from .errors import LocalMemError
from .mixin import StoreBase
from .models import Message, SearchHit

logger = logging.getLogger("localmem")


class RecallMixin(StoreBase):
    """Search methods of the store; they rely on the store's lock and connection."""

    def _relevant(self, session_id: str, query: str, recent: list[Message]) -> list[Message]:
        """Candidates for the relevant section: the session's messages older than
        ``recent`` (newest first) that best match ``query``, best first.

        Only words in at most ``search.TERM_DOC_LIMIT`` messages are matched:
        a common word would cost milliseconds and rank little.
        """
        conn = self._conn
        words = fts.query_terms(query)
        if not words:
            return []
        limit = fts.TERM_DOC_LIMIT
        terms = fts.choose_terms(
            words, lambda t: db.term_docs(conn, fts.phrase(t), limit + 1), limit=limit
        )
        if not terms:
            return []
        before = recent[-1].id if recent else MAX_SQLITE_INTEGER
        match = fts.any_of(terms, fts.session_key(session_id))
        # Twice as many as may be kept: a long one may not fit the section's share.
        wanted = 2 * self.config.relevant_messages
        return db.relevant_messages(conn, session_id, match, before, wanted)

    @contextlib.contextmanager
    def _indexed(self, tables: tuple[str, ...]) -> Iterator[sqlite3.Connection]:
        """A transaction in which the search index holds every committed row of ``tables``.

        Starts as a read; if rows are missing from the index, switches to a
        write transaction (``BEGIN IMMEDIATE``, so no row can commit in
        between) and indexes them in bulk before yielding. Call with the lock
        held; SQLite's errors are the caller's to translate.
        """
        conn = self._conn
        conn.execute(db.BEGIN_READ_SQL)
        try:
            if db.index_behind(conn, tables):
                conn.execute(db.COMMIT_SQL)
                conn.execute(db.BEGIN_WRITE_SQL)
                indexed = db.catch_up(conn, tables)
                logger.debug("search index: %d new rows indexed", indexed)
            yield conn
        except LocalMemError:
            conn.execute(db.COMMIT_SQL)  # the index caught up; only the reader failed
            raise
        except BaseException:
            if conn.in_transaction:
                conn.execute(db.ROLLBACK_SQL)
            raise
        conn.execute(db.COMMIT_SQL)

    # --- search --------------------------------------------------------------

    def search(self, query: str, session_id: str | None = None, limit: int = 10) -> list[SearchHit]:
        """Messages, summaries and pins matching ``query``, best first (BM25).

        Any text is a valid query: its words are matched (any of them; the
        more and the rarer, the better the rank), never its operators or
        quotes; stop words are left out unless the query has nothing else,
        and so are words in over ``search.TERM_DOC_LIMIT`` messages unless
        only such words are left (then the rarest is used).
        With ``session_id``, only that session is searched
        (:class:`SessionNotFound` if there is none). Each hit carries a
        snippet with the matched words in ``[`` ``]``.

        Never stale: rows written since the last search (by any process) are
        indexed first, in bulk, in one write transaction; that is the only
        write this call makes.
        """
        text = query_text(query)
        if session_id is not None:
            check_id(session_id)
        count = check_int("limit", limit)
        words = fts.query_terms(text) or fts.query_terms(text, keep_stop_words=True)
        with self._locked() as conn:
            if session_id is not None:
                self._require_session(session_id)
            if not words or count == 0:
                return []
            with self._indexed(db.SEARCH_TABLES):
                most = fts.TERM_DOC_LIMIT
                terms = fts.choose_terms(
                    words,
                    lambda t: db.term_docs(conn, fts.phrase(t), most + 1, everywhere=True),
                    limit=most,
                    fallback=True,
                )
                if not terms:
                    return []
                key = None if session_id is None else fts.session_key(session_id)
                return db.search(conn, fts.any_of(terms, key), session_id, count)
