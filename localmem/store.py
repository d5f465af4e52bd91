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
import math
import sqlite3
import sys
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
    MAX_SQLITE_INTEGER,
    as_list,
    check_id,
    check_int,
    check_kind,
    check_path,
    check_text,
    describe,
    query_text,
)
from .autopins import pin_key
from .cache import SessionMemo, TTLCache
from .checkpoint import CheckpointMixin
from .clock import iso, utc_now
from .config import MemoryConfig, default_db_path, make_config
from .context import PRECOUNTED_COSTS, Costs, MemoryContext, pack
from .embeddings import Embedder
from .errors import (
    DatabaseError,
    InvalidInput,
    SessionNotFound,
)
from .forget import ForgetMixin
from .incognito import IncognitoMixin, routed
from .maintain import MaintainMixin
from .models import (
    Item,
    Message,
    NewMessage,
    Pin,
    Session,
    Summary,
)
from .pins import PinsMixin
from .recall import ALL_SESSIONS, RecallMixin
from .resummarize import ResummarizeMixin
from .scoring import Scorer, score_importance
from .state import STATE_LIMITS, StateMixin, state_groups
from .summarizer import Summarizer
from .summarizer.background import BackgroundSummarizer
from .tokens import Tokenizer, bounded_ratio
from .transfer import TransferMixin

logger = logging.getLogger("localmem")

Clock = Callable[[], datetime]
T = TypeVar("T")
SESSION_MEMO_SIZE = 4096


@routed  # once one exists, a call naming a session that keeps nothing goes to its store
class MemoryStore(
    IncognitoMixin,
    ForgetMixin,
    PinsMixin,
    ResummarizeMixin,  # and SummariesMixin, which it builds on
    RecallMixin,
    StateMixin,
    CheckpointMixin,
    MaintainMixin,
    AdminMixin,
    TransferMixin,
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
    import of sessions as JSON Lines from :class:`~localmem.transfer.TransferMixin`; listings
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

    # --- items ---------------------------------------------------------------

    def add_items(
        self,
        session_id: str,
        kind: str,
        items: Iterable[tuple[Mapping[str, Any] | NewMessage, str]],
        *,
        create_session: bool = False,
    ) -> list[Message]:
        """Store an agent framework's records, each beside the message carrying its text.

        Each entry is ``(message, data)``: the message (``{"role": ..., "text":
        ...}``) is stored, counted and scored like any other; ``data``, the
        framework's record as JSON text, is kept verbatim as an :class:`Item`
        of ``kind``. One transaction, in order: all of them or none (their
        auto pins, as for :meth:`add_message`, included). A missing
        session is created (no model, no title) when ``create_session`` is
        true, else :class:`SessionNotFound` is raised. Raises
        :class:`InvalidInput` before anything is written.
        """
        check_id(session_id)
        check_kind(kind)
        entries = as_list(items, "items must be a list of (message, data) pairs")
        rows: list[db.MessageRow] = []
        data: list[str] = []
        for entry in entries:
            if not isinstance(entry, tuple) or len(entry) != 2:
                raise InvalidInput("items must be a list of (message, data) pairs")
            rows.append(self._message_row(session_id, entry[0]))
            data.append(check_text("item data", entry[1]))
        rows, pins = self._rows_and_pins(rows)
        with self._write(session_id) as conn:
            now = self._now()
            if not db.session_exists(conn, session_id):
                if not create_session:
                    raise SessionNotFound(session_id)
                db.insert_session(conn, session_id, None, None, now)
            stored = db.insert_messages(conn, rows, now)
            db.insert_items(conn, session_id, kind, stored, data)
            user_changed = False
            for message, found in zip(stored, pins):
                user_changed |= self._add_auto_pins(conn, session_id, message.id, found, now)
            if user_changed:
                self._cache.clear()  # a fact of the user's: every session's context
        if self._background is not None and stored:
            self._background.notify(session_id)
        return stored

    def get_items(
        self,
        session_id: str,
        kind: str,
        *,
        newest: int | None = None,
        after_id: int | None = None,
    ) -> list[Item]:
        """A session's items of ``kind``, oldest first.

        All of them, or those whose message id is above ``after_id``; with
        ``newest``, only the newest that many. Read-only. A session that does
        not exist has no items: the result is empty, not an error.
        """
        check_id(session_id)
        check_kind(kind)
        after = 0 if after_id is None else check_int("after_id", after_id)
        with self._locked() as conn:
            if newest is None:
                return db.items_after(conn, session_id, kind, after)
            count = check_int("newest", newest)
            return db.newest_items(conn, session_id, kind, after, count)[::-1]

    def pop_item(self, session_id: str, kind: str) -> Item | None:
        """Delete the session's newest item of ``kind`` with its message; return it.

        None when the session has no such item (or does not exist). One
        transaction. The message is forgotten as :meth:`delete_message`
        forgets one: what quoted it is gone or rewritten.
        """
        check_id(session_id)
        check_kind(kind)
        with self._forgetting(session_id) as gone:
            newest = db.newest_items(gone.conn, session_id, kind, 0, 1)
            if not newest:
                return None
            self._forget_messages(gone, session_id, [newest[0].message_id])
            return newest[0]

    # --- context -------------------------------------------------------------

    def count_tokens(self, text: str, model: str | None = None) -> int:
        """Tokens in ``text`` with the store's tokenizer (cl100k_base by default).

        With ``model``, the count is corrected by what that local model's
        server reported for earlier prompts (``prompt_eval_count`` against our
        count of the same prompts), so it estimates the model's own tokens.
        """
        check_text("text", text)
        tokens = self.tokenizer.count(text)
        if model is None:
            return tokens
        check_text("model", model)
        return math.ceil(tokens * self._model_ratio(model))

    def build_context(
        self, session_id: str, max_tokens: int | None = None, query: str | None = None
    ) -> MemoryContext:
        """The context for the session's next model call, within ``max_tokens``.

        Served from the cache while nothing changed and the entry is younger
        than ``cache_ttl``. Raises :class:`SessionNotFound`.

        With a ``query`` (any text; with ``auto_query``, the newest user message
        among the recent ones when none is given), the context also carries up
        to ``relevant_messages`` older messages of the session, outside the
        recent window, that best match it (full-text search, BM25), in their
        own section and share of the budget (``breakdown["relevant"]``). The
        messages written since the last search are indexed first, in one write
        transaction; that is the only write this call makes.
        """
        check_id(session_id)
        budget = (
            self.config.context_token_limit
            if max_tokens is None
            else check_int("max_tokens", max_tokens)
        )
        if query is not None:
            query = query_text(query)
        key = (session_id, budget, query)
        semantic = None
        if self.config.relevant_messages and (query is not None or self.config.auto_query):
            if self._embedder is not None or self.config.embedding_model:
                semantic = self._semantic(session_id, key, query)
        # The hot path: the lock and error translation inline, not a context manager.
        with self._lock:
            try:
                stamp = db.data_version(self._conn)
                cached = self._cache.get(key, stamp)
                if cached is not None:
                    return cached
                context = self._build_context(session_id, budget, stamp, query, semantic)
            except sqlite3.Error as exc:
                raise DatabaseError(f"{self.path}: {exc}") from exc
            self._cache.put(key, stamp, context)
            return context

    def _semantic(
        self, session_id: str, key: tuple, query: str | None
    ) -> tuple[str, bytes] | None:
        """The query's vector for a context not in the cache, the session's messages
        embedded first; None without a working embedding model. Holds the store's
        lock only to read: the model is called without it."""
        with self._locked() as conn:
            if self._cache.get(key, db.data_version(conn)) is not None:
                return None
            if query is None:  # auto_query: the newest user message
                recent = db.recent_messages(conn, session_id, self.config.recent_messages)
                query = next((m.text for m in recent if m.role == "user"), None)
        return None if query is None else self._query_vector(session_id, query)

    def _session_ratio(self, session_id: str, stamp: int) -> float:
        """The session model's token ratio (1.0 until measured); SessionNotFound if none.

        Read with the session's compaction level (``_memo.levels``) and
        memoized until another connection commits (``stamp``) or this store
        deletes the session, writes to a compacted one or learns a new ratio.
        """
        self._memo.sync(stamp)
        ratio = self._memo.ratios.get(session_id)
        if ratio is None:
            exists, measured, level = db.session_profile(self._conn, session_id)
            if not exists:
                raise SessionNotFound(session_id)
            ratio = self._memo.ratios[session_id] = bounded_ratio(measured)
            if level:
                self._memo.levels[session_id] = level
        return ratio

    def _build_context(
        self,
        session_id: str,
        budget: int,
        stamp: int,
        query: str | None,
        semantic: tuple[str, bytes] | None = None,
    ) -> MemoryContext:
        cfg = self.config
        conn = self._conn
        relevant: list[Message] = []
        titles: dict[str, str] = {}
        if cfg.relevant_messages and (query is not None or cfg.auto_query):
            with self._indexed(("messages",)):  # one snapshot, the index caught up
                ratio, recent, pins, summaries, state = self._read_context(session_id, stamp)
                if query is None:
                    query = next((m.text for m in recent if m.role == "user"), None)
                if query is not None:
                    before = recent[-1].id if recent else MAX_SQLITE_INTEGER
                    relevant = self._relevant(session_id, query, before, semantic)
                    titles = self._session_titles(relevant, session_id)
        else:
            conn.execute(db.BEGIN_READ_SQL)  # one snapshot for the reads
            try:
                ratio, recent, pins, summaries, state = self._read_context(session_id, stamp)
            finally:
                conn.execute(db.COMMIT_SQL)
        costs = self._costs
        if costs is None:
            precounted = PRECOUNTED_COSTS.get(self.tokenizer.encoding)
            stock = type(self.tokenizer) is Tokenizer
            if precounted is None or not stock:
                precounted = Costs.measure(self.tokenizer.count)
            costs = self._costs = precounted
        groups, checkpoint = state_groups(state, costs)
        # A budget is in the session model's own tokens once its ratio is known.
        return pack(
            session_id,
            recent,
            pins,
            summaries,
            max_tokens=math.floor(budget / ratio),
            token_ratio=ratio,
            min_recent=cfg.min_recent_messages,
            costs=costs,
            clip=self.tokenizer.tail,
            count=self.tokenizer.count,
            relevant=relevant,
            max_relevant=cfg.relevant_messages,
            label_cost=self._label_cost,
            session_titles=titles,
            query=query,
            state=groups,
            checkpoint=checkpoint,
        )

    def _label_cost(self, label: str) -> int:
        """Tokens of a relevant message's label (its date and role), counted once each."""
        cost = self._label_costs.get(label)
        if cost is None:
            if len(self._label_costs) > SESSION_MEMO_SIZE:
                self._label_costs.clear()
            cost = self._label_costs[label] = self.tokenizer.count(label)
        return cost

    def _read_context(
        self, session_id: str, stamp: int
    ) -> tuple[float, list[Message], list[Pin], list[Summary], list[db.StateRow]]:
        """The ratio, recent messages, pins, summaries and the session state's rows;
        call inside a transaction.

        The state is one statement, memoized per session (like the ratio,
        which is read first) until another connection commits or this store
        writes the session's state.
        """
        cfg = self.config
        conn = self._conn
        ratio = self._session_ratio(session_id, stamp)
        state = self._memo.state.get(session_id)
        if state is None:
            limits = STATE_LIMITS[self._memo.levels.get(session_id, 0)]
            state = self._memo.state[session_id] = db.session_state(conn, session_id, limits)
        return (
            ratio,
            db.recent_messages(conn, session_id, cfg.recent_messages),
            db.top_pins(conn, session_id, cfg.top_pins),
            db.context_summaries(conn, session_id, cfg.recent_summaries),
            state,
        )

    def cache_stats(self) -> dict[str, int]:
        """Hits, misses, live entries and the bytes of text they hold, of the context cache."""
        with self._locked():
            return {
                "hits": self._cache.hits,
                "misses": self._cache.misses,
                "size": len(self._cache),
                "bytes": self._cache.bytes,
            }


def context_bytes(context: MemoryContext) -> int:
    """The bytes a cached context holds, near enough: the sizes of its texts."""
    texts = [m.text for m in context.recent_messages]
    texts += [m.text for m in context.relevant_messages]
    texts += [p.content for p in context.pins]
    texts += [s.text for s in context.summaries]
    return sum(map(sys.getsizeof, (*texts, *context.state, *context.checkpoint)))
