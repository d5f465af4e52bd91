"""The store's context assembly: what ``build_context`` reads, and the cache in front.

``ContextMixin`` gives :class:`~localmem.store.MemoryStore` ``build_context``,
``count_tokens`` and ``cache_stats``. It reads the rows of one snapshot (recent
messages, pins, summaries, the session state; with a query, the older messages
``localmem.recall`` ranks), then hands them to the pure ``context.pack``.
Contexts are cached (``localmem.cache``) until the file changes.
"""

from __future__ import annotations

import math
import sqlite3
from typing import TYPE_CHECKING, Any

from . import db
from .args import MAX_SQLITE_INTEGER, check_id, check_int, check_text, query_text
from .context import PRECOUNTED_COSTS, Costs, MemoryContext, pack
from .errors import DatabaseError, SessionNotFound
from .mixin import StoreBase
from .models import Message, Pin, Summary
from .state import STATE_LIMITS, state_groups
from .tokens import Tokenizer, bounded_ratio

LABEL_MEMO_SIZE = 4096
"""Most relevant-message labels whose token counts are remembered."""


class ContextMixin(StoreBase):
    """Context methods of the store; they rely on its lock, connection, caches and memo."""

    if TYPE_CHECKING:
        _costs: Costs | None
        _label_costs: dict[str, int]

        def _model_ratio(self, model: str | None) -> float: ...
        def _relevant(self, session_id: str, query: str, before_id: int, semantic: Any) -> list[Message]: ...
        def _session_titles(self, messages: list[Message], session_id: str) -> dict[str, str]: ...
        def _query_vector(self, session_id: str, query: str) -> tuple[str, bytes] | None: ...
        def _indexed(self, tables: tuple[str, ...]) -> Any: ...

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
            with self._indexed(("messages",)):  # one snapshot, the index current
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
        """Tokens of a relevant section's label (a day's heading, a role), counted once each."""
        cost = self._label_costs.get(label)
        if cost is None:
            if len(self._label_costs) > LABEL_MEMO_SIZE:
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
