"""``MemoryStore``: the one front door, owning the connection to one SQLite file.

Everything a host application does goes through a store: sessions, messages,
pins and the context built before each model call. Each logical write is one
transaction; a rejected argument raises :class:`~localmem.errors.LocalMemError`
before anything is written.

Thread safety: one store may be shared by threads. Its methods serialise on
an internal lock (SQLite serialises writers anyway); contexts and records it
returns are immutable snapshots. Several processes may open the same file:
WAL lets readers run beside a writer, writers wait up to ``busy_timeout``,
and the context cache notices their commits through ``PRAGMA data_version``.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from . import db
from .admin import AdminMixin
from .browse import BrowseMixin
from .args import (
    as_list,
    check_id,
    check_int,
    check_path,
    check_text,
    describe,
)
from .autopins import pin_key
from .cache import SessionMemo, TTLCache
from .checkpoint import CheckpointMixin
from .clock import iso, utc_now
from .config import MemoryConfig, default_db_path, make_config
from .assembly import ContextMixin
from .context import Costs, MemoryContext, context_bytes
from .embeddings import Embedder
from .errors import (
    DatabaseError,
    InvalidInput,
    SessionNotFound,
)
from .forget import ForgetMixin
from .history import HistoryMixin
from .incognito import IncognitoMixin, routed
from .items import ItemsMixin
from .maintain import MaintainMixin
from .models import (
    Message,
    NewMessage,
    Session,
)
from .pins import PinsMixin
from .recall import ALL_SESSIONS, RecallMixin
from .resummarize import ResummarizeMixin
from .scoring import Scorer, score_importance
from .state import StateMixin
from .summarizer import Summarizer
from .summarizer.background import BackgroundSummarizer
from .tokens import Tokenizer
from .transfer import TransferMixin

logger = logging.getLogger("localmem")

Clock = Callable[[], datetime]
T = TypeVar("T")
SESSION_MEMO_SIZE = 4096


@routed  # once one exists, a call naming a session that keeps nothing goes to its store
class MemoryStore(
    IncognitoMixin,
    ContextMixin,
    ItemsMixin,
    ForgetMixin,
    PinsMixin,
    ResummarizeMixin,  # and SummariesMixin, which it builds on
    RecallMixin,
    StateMixin,
    CheckpointMixin,
    MaintainMixin,
    AdminMixin,
    TransferMixin,
    HistoryMixin,
    BrowseMixin,
):
    """The memory of an assistant, in one SQLite file.

    ``path`` defaults to ``$LOCALMEM_DB``, else the per-user data directory's
    ``memory.db``; ``":memory:"`` keeps everything in RAM. ``config`` is a
    :class:`MemoryConfig` or a dict of its fields. ``tokenizer``, ``scorer``,
    ``clock`` and ``summarizer`` replace the default policies (tests swap them
    in). Nothing touches the network until something is summarized.

    Pins (manual, and the automatic ones found in user messages) come from
    :class:`~localmem.pins.PinsMixin`; summaries and their facts from
    :class:`~localmem.summaries.SummariesMixin`, and the model redoes the deterministic ones
    (``resummarize``) through :class:`~localmem.resummarize.ResummarizeMixin`; search and the query-aware
    context's candidates from
    :class:`~localmem.recall.RecallMixin`; session state (goals, subtasks,
    tool executions, tracked files, the window-share trigger) from
    :class:`~localmem.state.StateMixin`; checkpoints from
    :class:`~localmem.checkpoint.CheckpointMixin`; the compaction of idle sessions
    (``maintain``) from :class:`~localmem.maintain.MaintainMixin`; retention, vacuum,
    backup, stats and integrity from :class:`~localmem.admin.AdminMixin`; deleting
    (``delete_message``, ``clear_messages``, ``delete_session``), which leaves no
    trace of the text in the file, from :class:`~localmem.forget.ForgetMixin`; export and
    import of sessions as JSON Lines from :class:`~localmem.transfer.TransferMixin`; imports of
    ChatGPT and Claude data exports from :class:`~localmem.history.HistoryMixin`; listings
    for people (sessions with counts, the newest messages, ids by prefix) from
    :class:`~localmem.browse.BrowseMixin`; sessions that keep nothing
    (``create_session(..., persist=False)``) from :class:`~localmem.incognito.IncognitoMixin`.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        config: MemoryConfig | Mapping[str, Any] | None = None,
        *,
        tokenizer: Tokenizer | None = None,
        scorer: Scorer = score_importance,
        clock: Clock = utc_now,
        summarizer: Summarizer | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.config = make_config(dict(config) if isinstance(config, Mapping) else config)
        if path is None:
            self.path: Path | str = default_db_path()
        else:
            self.path = db.MEMORY if path == db.MEMORY else check_path(path)
        self.tokenizer = tokenizer or Tokenizer(self.config.encoding)
        self._score = scorer
        self._clock = clock
        self._lock = threading.RLock()
        self._conn = db.connect(
            self.path,
            busy_timeout=self.config.busy_timeout,
            synchronous=self.config.synchronous,
            content_key=pin_key,
        )
        self._cache: TTLCache[MemoryContext] = TTLCache(
            self.config.cache_ttl,
            self.config.cache_size,
            max_bytes=self.config.cache_bytes,
            weigh=context_bytes,
        )
        self._costs: Costs | None = None
        # Per session, what contexts read once and reuse (token ratio, compaction
        # level, state rows) until the file or the session changes: SessionMemo.
        self._memo = SessionMemo(SESSION_MEMO_SIZE)
        self._summarizer = summarizer
        self._embedder = embedder
        self._embedder_down_until = 0.0
        self._label_costs: dict[str, int] = {}
        self._background = (
            BackgroundSummarizer(self._summarize_due) if self.config.auto_summarize else None
        )

    # --- lifecycle -----------------------------------------------------------

    def close(self) -> None:
        """Stop the background summaries, then close the connection.

        The queued summaries get ``close_timeout`` seconds; then ``close``
        returns (after a write in progress, if any), even while the model
        hangs or another thread keeps writing. The ranges not summarized by
        then stay due. The store cannot be used afterwards.
        """
        if self._background is not None:
            self._background.close(self.config.close_timeout)
        self._close_nothing()  # the sessions that keep nothing are gone
        if self._summarizer is not None:
            self._summarizer.backend.close()
        with self._locked():
            self._conn.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryStore({str(self.path)!r})"

    @property
    def tokenizer_name(self) -> str:
        """The token counter in use: an encoding name, or the estimate's name."""
        return self.tokenizer.name

    def schema(self) -> str:
        """The file's schema as SQL."""
        with self._locked():
            return db.schema(self._conn)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        """Hold the store's lock; SQLite's own errors leave as :class:`DatabaseError`."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.Error as exc:
                raise DatabaseError(f"{self.path}: {exc}") from exc

    @contextlib.contextmanager
    def _write(
        self, session_id: str | None = None, *, single_statement: bool = False
    ) -> Iterator[sqlite3.Connection]:
        """Lock, one transaction, then forget the cached contexts it made stale.

        The transaction is ``BEGIN IMMEDIATE`` ... ``COMMIT``, or, for a write
        that is a single statement, that statement itself (SQLite runs it
        atomically). SQLite's errors leave as :class:`DatabaseError`.
        """
        conn = self._conn
        with self._lock:
            try:
                if single_statement:
                    yield conn
                    return
                conn.execute(db.BEGIN_WRITE_SQL)
                try:
                    yield conn
                except BaseException:
                    conn.execute(db.ROLLBACK_SQL)
                    raise
                conn.execute(db.COMMIT_SQL)
            except sqlite3.Error as exc:
                raise DatabaseError(f"{self.path}: {exc}") from exc
            finally:
                if session_id is None:
                    self._cache.clear()
                    self._memo.scopes.clear()
                else:
                    self._cache.drop_session(session_id)
                    self._memo.scopes.pop(session_id, None)
                    self._memo.scopes.pop(ALL_SESSIONS, None)
                    if session_id in self._memo.levels:  # a new message may end its compaction
                        self._memo.forget(session_id)

    def _now(self) -> str:
        return iso(self._clock())

    def _ago(self, delta: timedelta) -> str:
        """The store clock's now minus ``delta``, as stored (OverflowError before year 1)."""
        return iso(self._clock() - delta)

    # --- sessions ------------------------------------------------------------

    def create_session(
        self,
        model: str | None = None,
        title: str | None = None,
        session_id: str | None = None,
        *,
        persist: bool = True,
    ) -> Session:
        """Create a session; ``session_id`` defaults to a new random id.

        With ``persist=False`` the session keeps nothing: it lives in memory
        only, for as long as this store is open (or until it is deleted), and
        nothing of it is ever written to the file (``localmem.incognito``);
        every method taking its id works on it as on any other session.
        Raises :class:`InvalidInput` if the id is taken or an argument is not text.
        """
        for name, value in (("model", model), ("title", title), ("session_id", session_id)):
            if value is not None:
                check_text(name, value)
        if not isinstance(persist, bool):
            raise InvalidInput(f"persist must be True or False, not {type(persist).__name__}")
        if session_id == "":
            raise InvalidInput("session_id must not be empty")
        if not persist:
            return self._create_kept_nowhere(model, title, session_id)
        session_id = session_id if session_id is not None else uuid.uuid4().hex
        with self._write(session_id):
            if db.session_exists(self._conn, session_id) or self._keeps_nothing(session_id):
                raise InvalidInput(f"a session with id {session_id!r} already exists")
            return db.insert_session(self._conn, session_id, title, model, self._now())

    def get_session(self, session_id: str) -> Session:
        """The session; raises :class:`SessionNotFound` if there is none."""
        check_id(session_id)
        with self._locked():
            session = db.get_session(self._conn, session_id)
        if session is None:
            raise SessionNotFound(session_id)
        return session

    def list_sessions(self) -> list[Session]:
        """Every session, most recently updated first; those that keep nothing
        (``persist=False``, this store's) among them."""
        with self._locked():
            sessions = db.list_sessions(self._conn)
        return self._with_kept_nowhere(sessions)

    # --- messages ------------------------------------------------------------

    def _message_row(self, session_id: str, item: object) -> db.MessageRow:
        """Validate one message, count its tokens and score it (no I/O)."""
        try:
            new = item if isinstance(item, NewMessage) else NewMessage.model_validate(item)
        except ValidationError as exc:
            raise InvalidInput(f"invalid message: {describe(exc)}") from None
        check_text("text", new.text)
        return (
            session_id,
            new.role,
            new.text,
            new.model_id,
            self.tokenizer.count(new.text),
            self._score(new.role, new.text),
        )

    def _pinned_row(self, row: db.MessageRow) -> db.MessageRow:
        """A message an auto pin is taken from scores at least that pin's importance:
        a stated fact ("My son is allergic to peanuts.") is not "ok"."""
        importance = max(row[5], self.config.auto_pin_importance)
        return (*row[:5], importance) if importance != row[5] else row

    def _rows_and_pins(
        self, rows: list[db.MessageRow]
    ) -> tuple[list[db.MessageRow], list[list[db.AutoPin]]]:
        """The rows, each scored at least its auto pins' importance, and those pins."""
        pins = [self._auto_pins(row[1], row[2]) for row in rows]
        return [self._pinned_row(r) if p else r for r, p in zip(rows, pins)], pins

    def add_message(
        self, session_id: str, role: str, text: str, model_id: str | None = None
    ) -> Message:
        """Store one message (role: system, user, assistant or tool) and return it.

        Its tokens are counted and its importance scored now, once. A user
        message's facts that must never be lost are pinned with it, in the
        same transaction (``auto_pins``; ``localmem.pins``), and the message
        then scores at least ``auto_pin_importance``. Raises
        :class:`SessionNotFound` or :class:`InvalidInput`; nothing is written then.
        """
        check_id(session_id)
        row = self._message_row(session_id, {"role": role, "text": text, "model_id": model_id})
        pins = self._auto_pins(row[1], row[2])
        if pins:
            row = self._pinned_row(row)
        # One statement (the fast path) unless a rule found a fact to pin with it.
        with self._write(session_id, single_statement=not pins) as conn:
            now = self._now()
            message = db.insert_message(conn, row, now)
            if message is None:
                raise SessionNotFound(session_id)
            if self._add_auto_pins(conn, session_id, message.id, pins, now):
                self._cache.clear()  # a fact of the user's: every session's context
        if self._background is not None:
            self._background.notify(session_id)
        return message

    def add_messages(
        self, session_id: str, messages: Iterable[Mapping[str, Any] | NewMessage]
    ) -> list[Message]:
        """Store several messages in one transaction, in order: all of them or none.

        Their auto pins (as for :meth:`add_message`) are written in the same transaction.
        """
        check_id(session_id)
        items = as_list(messages, "messages must be a list of {'role': ..., 'text': ...} items")
        rows, pins = self._rows_and_pins([self._message_row(session_id, item) for item in items])
        with self._write(session_id) as conn:
            if not db.session_exists(conn, session_id):
                raise SessionNotFound(session_id)
            now = self._now()
            stored = db.insert_messages(conn, rows, now)
            user_changed = False
            for message, found in zip(stored, pins):
                user_changed |= self._add_auto_pins(conn, session_id, message.id, found, now)
            if user_changed:
                self._cache.clear()  # a fact of the user's: every session's context
        if self._background is not None:
            self._background.notify(session_id)
        return stored

    def get_messages(
        self, session_id: str, after_id: int | None = None, limit: int | None = None
    ) -> list[Message]:
        """A session's messages, oldest first, optionally after an id and at most ``limit``."""
        check_id(session_id)
        after = 0 if after_id is None else check_int("after_id", after_id)
        count = -1 if limit is None else check_int("limit", limit)
        with self._locked():
            rows = db.messages_after(self._conn, session_id, after, count)
            if not rows:
                self._require_session(session_id)
        return rows

    def _require_session(self, session_id: str) -> None:
        if not db.session_exists(self._conn, session_id):
            raise SessionNotFound(session_id)

    def _read_session(self, session_id: str, read: Callable[[sqlite3.Connection, str], T]) -> T:
        """``read(conn, session_id)`` under the lock, once the session is known to exist;
        :class:`SessionNotFound` otherwise. The shape of every per-session listing."""
        check_id(session_id)
        with self._locked() as conn:
            self._require_session(session_id)
            return read(conn, session_id)
