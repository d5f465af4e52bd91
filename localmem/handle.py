"""The store's hold on its file, shared by every capability: :class:`Handle`.

One ``Handle`` per :class:`~localmem.MemoryStore`: the connection and the lock
that serialises its threads, the configuration, the policies every write
uses (tokenizer, scorer, clock), the context cache and the per-session memo.
It offers the two ways in: :meth:`Handle.snapshot` (one read transaction)
and :meth:`Handle.write` (one write transaction, then the cached contexts it
made stale are forgotten). No capability writes ``BEGIN`` or ``COMMIT``
itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from operator import attrgetter
from pathlib import Path
from typing import TypeVar

from . import db
from .args import check_id
from .cache import FileHolders, Postings, Recalls, RowMemo, SessionMemo, TTLCache
from .clock import iso
from .config import MemoryConfig
from .errors import DatabaseError, SessionNotFound
from .models import Session
from .context import MemoryContext, context_bytes
from .scoring import Scorer
from .tokens import Tokenizer

T = TypeVar("T")
SESSION_MEMO_SIZE = 4096
MESSAGE_MEMO_ROWS = 16384
"""Most messages recall keeps read (``SessionMemo.messages``): a query-aware context
reads the same older messages turn after turn."""
MESSAGE_MEMO_CHARS = 4 * 1024 * 1024
"""Most characters of text those messages hold in all (with their models, about 14 MB
at most: 12,442 messages of a chat-like corpus filled it)."""
POSTINGS_IDS = 1024 * 1024
"""Most message ids recall keeps of the words it looked up (``SessionMemo.postings``;
8 bytes each): a session's words are looked up again turn after turn, and a write
to one session leaves every other session's as they were."""
FILE_HOLDERS_IDS = 256 * 1024
"""Most message ids recall keeps of the words more than one session looked up, over
the whole file (``SessionMemo.holders``; in sets, about 55 bytes each: 14 MB at most):
a session's first question then reads no search statement per word."""
RECALLED_IDS = 256 * 1024
"""Most message ids kept of what recall found for queries (``SessionMemo.recalled``;
8 bytes each, 2 MB at most: about 800 queries' of a few hundred candidates): a
session asked again before a message is added to it gets the same messages without
ranking them again."""


class Handle:
    """The connection to one file, its lock, transactions, caches, clock and configuration."""

    def __init__(
        self,
        path: Path | str,
        config: MemoryConfig,
        tokenizer: Tokenizer,
        scorer: Scorer,
        clock: Callable[[], datetime],
        content_key: Callable[[str], str],
        *,
        key: str | None = None,
    ) -> None:
        self.path = path
        self.key = key  # the file's SQLCipher key (None: a plain file)
        self.config = config
        self.tokenizer = tokenizer
        self.score = scorer
        self.clock = clock
        self.lock = threading.RLock()
        self.conn = db.connect(
            path,
            busy_timeout=config.busy_timeout,
            synchronous=config.synchronous,
            content_key=content_key,
            key=key,
        )
        self.cache: TTLCache[MemoryContext] = TTLCache(
            config.cache_ttl, config.cache_size, max_bytes=config.cache_bytes, weigh=context_bytes
        )
        # Per session, what contexts read once and reuse (token ratio, compaction
        # level, state rows) until the file or the session changes: SessionMemo.
        self.memo = SessionMemo(
            SESSION_MEMO_SIZE,
            RowMemo(MESSAGE_MEMO_ROWS, MESSAGE_MEMO_CHARS, attrgetter("text")),
            Postings(POSTINGS_IDS),
            FileHolders(FILE_HOLDERS_IDS),
            Recalls(RECALLED_IDS),
        )

    def close(self) -> None:
        with self.locked():
            self.conn.close()

    def now(self) -> str:
        return iso(self.clock())

    def ago(self, delta: timedelta) -> str:
        """The clock's now minus ``delta``, as stored (OverflowError before year 1)."""
        return iso(self.clock() - delta)

    @contextlib.contextmanager
    def locked(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock; SQLite's own errors leave as :class:`DatabaseError`."""
        with self.lock:
            try:
                yield self.conn
            except sqlite3.Error as exc:
                raise DatabaseError(f"{self.path}: {exc}") from exc

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every read inside sees the same state of the file.

        Call with the lock held; SQLite's errors are the caller's to translate.
        """
        conn = self.conn
        conn.execute(db.BEGIN_READ_SQL)
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute(db.COMMIT_SQL)

    @contextlib.contextmanager
    def write(
        self, session_id: str | None = None, *, single_statement: bool = False, pins: bool = True
    ) -> Iterator[sqlite3.Connection]:
        """Lock, one transaction, then forget the cached contexts it made stale.

        The transaction is ``db.transaction`` (``BEGIN IMMEDIATE`` ... ``COMMIT``),
        or, for a write that is a single statement, that statement itself
        (SQLite runs it atomically). ``pins``: whether it may write pins (False: it
        writes none, and the pins memoized for contexts stay). SQLite's errors
        leave as :class:`DatabaseError`.
        """
        conn = self.conn
        with self.lock:
            try:
                if single_statement:
                    yield conn
                else:
                    with db.transaction(conn):
                        yield conn
            except sqlite3.Error as exc:
                raise DatabaseError(f"{self.path}: {exc}") from exc
            finally:
                memo = self.memo
                memo.writes.written(session_id)  # its statistics, words' holders: read the new
                if pins:
                    memo.pins_written()
                if session_id is None:
                    self.cache.clear()
                else:
                    self.cache.drop_session(session_id)
                    if session_id in memo.levels:  # a new message may end its compaction
                        memo.forget(session_id)

    def require_session(self, session_id: str) -> None:
        """:class:`SessionNotFound` unless the session exists; call with the lock held."""
        if not db.session_exists(self.conn, session_id):
            raise SessionNotFound(session_id)

    def session(self, session_id: str) -> Session:
        """The session, read under the lock; :class:`SessionNotFound` if there is none."""
        with self.locked() as conn:
            session = db.get_session(conn, session_id)
        if session is None:
            raise SessionNotFound(session_id)
        return session

    def read_session(self, session_id: str, read: Callable[[sqlite3.Connection, str], T]) -> T:
        """``read(conn, session_id)`` under the lock, once the session is known to exist;
        :class:`SessionNotFound` otherwise. The shape of every per-session listing."""
        check_id(session_id)
        with self.locked() as conn:
            self.require_session(session_id)
            return read(conn, session_id)
