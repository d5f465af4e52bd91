"""Looking around the file as a person does: :class:`Browse`.

The sessions with their counts, newest activity first (what ``localmem
sessions`` shows, from the ``session_overview`` view), the newest messages of
a session (``localmem messages -n``), and the ids a few typed characters may
stand for (``localmem messages 9f3a``). Read-only; the SQL is ``db.sessions``'
and ``db.messages``'.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from . import db
from .args import check_id, check_int, check_text
from .errors import InvalidInput
from .models import Message, SessionOverview

if TYPE_CHECKING:  # what it is given: for the type checker only
    from .handle import Handle


class Browse:
    """Read-only listings for people."""

    def __init__(self, handle: Handle) -> None:
        self._db = handle

    def session_overview(self, limit: int | None = None) -> list[SessionOverview]:
        """Sessions with their counts (messages, tokens, summaries, pins), their
        active goal and latest checkpoint, most recently active first; at most
        ``limit``. Each count is an indexed lookup: listing a few sessions of a
        large file is quick. Read-only."""
        count = -1 if limit is None else check_int("limit", limit)
        with self._db.locked() as conn:
            return db.session_overview(conn, count)

    def newest_messages(self, session_id: str, count: int) -> list[Message]:
        """The newest ``count`` messages of a session, oldest first (as a
        conversation reads). Raises :class:`~localmem.errors.SessionNotFound`."""
        count = check_int("count", count)
        rows = self._db.read_session(session_id, lambda conn, sid: db.recent_messages(conn, sid, count))
        return rows[::-1]

    def due_ranges(self, session_id: str) -> int:
        """How many ranges of ``summary_threshold`` messages no summary covers yet:
        what ``summarize`` would do, asking no model (the window-share trigger
        may add one). Read-only."""

        def read(conn: sqlite3.Connection, sid: str) -> int:
            return db.uncovered_tokens(conn, sid, db.last_covered(conn, sid))[0]

        return self._db.read_session(session_id, read) // self._db.config.summary_threshold

    def find_session_ids(self, prefix: str, limit: int = 10) -> list[str]:
        """The ids that begin with ``prefix``, in order, at most ``limit``. Read-only;
        one range of the primary key."""
        check_text("prefix", prefix)
        if not prefix:
            raise InvalidInput("prefix must not be empty")
        check_id(prefix)
        limit = check_int("limit", limit)
        with self._db.locked() as conn:
            return db.session_ids_between(conn, prefix, _past(prefix), limit)


def _past(prefix: str) -> str:
    """The first text after every text that begins with ``prefix`` (code point order,
    which is SQLite's order of UTF-8 text): its last character raised by one."""
    last = ord(prefix[-1])
    if last == 0x10FFFF:
        return prefix + "\U0010ffff"  # nothing sorts after it: close enough, ids are short
    following = last + 1 if last + 1 != 0xD800 else 0xE000  # no surrogate in UTF-8
    return prefix[:-1] + chr(following)
