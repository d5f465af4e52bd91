"""The store's contexts: what ``build_context`` reads, and the cache in front.

:class:`Contexts` holds ``build_context``, ``count_tokens`` and ``cache_stats``.
It reads the rows of one snapshot (recent messages, pins, summaries, the
session state; with a query, the older messages ``localmem.recall`` ranks),
then hands them to the pure ``packing.pack``.
Contexts are cached (``localmem.cache``) until the file changes.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from typing import TYPE_CHECKING

from . import db, periods
from .args import MAX_SQLITE_INTEGER, check_id, check_int, check_text, query_text
from .autopins import StatementKey, statement_key
from .context import PRECOUNTED_COSTS, Costs, MemoryContext
from .errors import DatabaseError
from .excerpt import Answers, lasting
from .memos import by_text
from .models import Message, Pin, Summary
from .packing import Policy, Read, pack
from .periods import Period
from .state_lines import STATE_LIMITS, state_groups
from .tokens import Tokenizer

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .localmodel import LocalModel
    from .recall import Recall

LABEL_MEMO_SIZE = 4096
"""Most relevant-message labels whose token counts are remembered."""
STATEMENT_MEMO_SIZE = 4096
"""Most pin texts whose ``autopins.statement_key`` is remembered."""
STATEMENT_MEMO_MAX_CHARS = 4096
"""Longer pin texts are keyed afresh each time rather than remembered."""


class Contexts:
    """Contexts: read in one snapshot (with a query, ``recall`` ranks older messages),
    packed, cached; token ratios from ``model``."""

    def __init__(self, handle: Handle, model: LocalModel, recall: Recall) -> None:
        self._db = handle
        self._model = model
        self._recall = recall
        self.costs: Costs | None = None
        """The framing's token costs, counted (or looked up) on first use."""
        self._label_costs: dict[str, int] = {}

    def count_tokens(self, text: str, model: str | None = None) -> int:
        """Tokens in ``text`` with the store's tokenizer (cl100k_base by default).

        With ``model``, the count is corrected by what that local model's
        server reported for earlier prompts (``prompt_eval_count`` against our
        count of the same prompts), so it estimates the model's own tokens.
        """
        check_text("text", text)
        tokens = self._db.tokenizer.count(text)
        if model is None:
            return tokens
        check_text("model", model)
        return math.ceil(tokens * self._model.model_ratio(model))

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
        handle = self._db
        cfg = handle.config
        budget = cfg.context_token_limit if max_tokens is None else check_int("max_tokens", max_tokens)
        if query is not None:
            query = query_text(query)
        key = (session_id, budget, query)
        semantic = None
        if cfg.relevant_messages and (query is not None or cfg.auto_query):
            if self._recall.semantic.may_embed():
                semantic = self._semantic(session_id, key, query)
        # The hot path: the lock and error translation inline, not a context manager.
        cache = handle.cache
        with handle.lock:
            try:
                stamp = db.data_version(handle.conn)
                cached = cache.get(key, stamp)
                if cached is not None:
                    return cached
                context = self._build_context(session_id, budget, stamp, query, semantic)
            except sqlite3.Error as exc:
                raise DatabaseError(f"{handle.path}: {exc}") from exc
            cache.put(key, stamp, context)
            return context

    def _semantic(
        self, session_id: str, key: tuple, query: str | None
    ) -> tuple[str, bytes] | None:
        """The query's vector for a context not in the cache, the session's messages
        embedded first; None without a working embedding model. Holds the store's
        lock only to read: the model is called without it."""
        with self._db.locked() as conn:
            stamp = db.data_version(conn)
            if self._db.cache.get(key, stamp) is not None:
                return None
            if query is None:  # auto_query: the newest user message
                recent = db.recent_messages(conn, session_id, self._db.config.recent_messages)
                query = next((m.text for m in recent if m.role == "user"), None)
            if query is None:
                return None
            self._db.memo.sync(stamp)  # what recall kept read is of this state of the file
            embedded = self._recall.embedded_query(session_id, query)
        return self._recall.semantic.query_vector(session_id, embedded)

    def _build_context(
        self,
        session_id: str,
        budget: int,
        stamp: int,
        query: str | None,
        semantic: tuple[str, bytes] | None = None,
    ) -> MemoryContext:
        cfg = self._db.config
        relevant: list[Message] = []
        titles: dict[str, str] = {}
        found: list[Period] = []
        terms: tuple[str, ...] = ()
        if cfg.relevant_messages and (query is not None or cfg.auto_query):
            with self._recall.indexed(("messages",)):  # one snapshot, the index current
                ratio, recent, pins, summaries, state = self._read_context(session_id, stamp, True)
                if query is None:
                    query = next((m.text for m in recent if m.role == "user"), None)
                if query is not None:
                    before = recent[-1].id if recent else MAX_SQLITE_INTEGER
                    found = periods.find(query, self._db.clock())
                    relevant, terms = self._recall.relevant(
                        session_id, query, before, semantic, found
                    )
                    titles = self._recall.session_titles(relevant, session_id)
        else:
            with self._db.snapshot():  # one snapshot for the reads
                ratio, recent, pins, summaries, state = self._read_context(session_id, stamp)
        costs = self.costs
        if costs is None:
            precounted = PRECOUNTED_COSTS.get(self._db.tokenizer.encoding)
            stock = type(self._db.tokenizer) is Tokenizer
            if precounted is None or not stock:
                precounted = Costs.measure(self._db.tokenizer.count)
            costs = self.costs = precounted
        groups, checkpoint = state_groups(state, costs)
        # A budget is in the session model's own tokens once its ratio is known.
        tokenizer = self._db.tokenizer
        read = Read(
            session_id, recent, pins, summaries, ratio, relevant, titles, query, groups, checkpoint,
            tuple(p.label for p in found),
        )
        answers = Answers(terms, tokenizer.count, self._db.memo.excerpts) if relevant else None
        policy = Policy(
            math.floor(budget / ratio), cfg.min_recent_messages, costs, tokenizer.tail,
            tokenizer.count, cfg.relevant_messages, self._label_cost,
            None if answers is None else answers.shorten,
            None if answers is None else answers.earns,
            None if answers is None else answers.answers,
        )
        return pack(read, policy)

    def _label_cost(self, label: str) -> int:
        """Tokens of a relevant section's label (a day's heading, a role), counted once each."""
        cost = self._label_costs.get(label)
        if cost is None:
            if len(self._label_costs) > LABEL_MEMO_SIZE:
                self._label_costs.clear()
            cost = self._label_costs[label] = self._db.tokenizer.count(label)
        return cost

    def _read_context(
        self, session_id: str, stamp: int, query_aware: bool = False
    ) -> tuple[float, list[Message], list[Pin], list[Summary], list[db.StateRow]]:
        """The ratio, recent messages, pins, summaries and the session state's rows;
        call inside a transaction. The pins are the ``top_pins`` most important; for a
        query-aware context, every lasting one besides (``autopins.is_lasting``: health,
        identity, constraints), which packing places early and within the budget: a pin
        that answers no query must not be left out for being the sixth. Each statement
        once (``distinct``): near-copies said in several sessions cost one pin's tokens.

        The state is one statement, memoized per session (like the ratio,
        which is read first) until another connection commits or this store
        writes the session's state.
        """
        cfg = self._db.config
        conn = self._db.conn
        ratio = self._model.session_ratio(session_id, stamp)
        state = self._db.memo.state.get(session_id)
        if state is None:
            limits = STATE_LIMITS[self._db.memo.levels.get(session_id, 0)]
            state = self._db.memo.state[session_id] = db.session_state(conn, session_id, limits)
        return (
            ratio,
            self._recent(conn, session_id, cfg.recent_messages),
            self._pins(conn, session_id, query_aware),
            db.context_summaries(conn, session_id, cfg.recent_summaries),
            state,
        )

    def _recent(self, conn: sqlite3.Connection, session_id: str, limit: int) -> list[Message]:
        """The session's newest ``limit`` messages, newest first, kept read
        (``SessionMemo.recent``): once the store wrote to the session, only the
        messages above the newest known are read (a message never changes; its id
        is above every earlier one), unless there are ``limit`` of them."""
        memo = self._db.memo
        stamp = memo.writes.stamp(session_id)
        entry = memo.recent.get(session_id)
        if entry is not None and entry[1] == stamp:
            return entry[0]
        recent: list[Message] | None = None
        if entry is not None and entry[0]:
            added = db.messages_after(conn, session_id, entry[0][0].id, limit)
            if len(added) < limit:
                recent = [*reversed(added), *entry[0]][:limit]
        if recent is None:
            recent = db.recent_messages(conn, session_id, limit)
        memo.recent[session_id] = (recent, stamp)
        return recent

    def _pins(self, conn: sqlite3.Connection, session_id: str, query_aware: bool) -> list[Pin]:
        """The pins a context shows, read once and kept (``SessionMemo.pins``) until the
        store writes a pin or another connection commits."""
        memo = self._db.memo.pins
        key = (session_id, query_aware)
        pins = memo.get(key)
        if pins is None:
            pins = memo[key] = self._read_pins(conn, session_id, query_aware)
        return pins

    def _read_pins(self, conn: sqlite3.Connection, session_id: str, query_aware: bool) -> list[Pin]:
        top = self._db.config.top_pins
        seen = self._seen_pins(conn, session_id)
        pins = seen[:top]
        if not (query_aware and top) or len(pins) < top:
            return distinct(pins)
        more = [p for p in seen[top:] if lasting(p.content)]
        return distinct(pins + more if more else pins)

    def _seen_pins(self, conn: sqlite3.Connection, session_id: str) -> list[Pin]:
        """Every current pin the session sees, its own and the user's, by importance,
        newest first on ties (``db.top_pins``' order): the user's and which sessions
        have their own read once for every session (``SessionMemo.shared_pins``, kept
        as ``pins`` is), a session's own read only when it has some."""
        memo = self._db.memo
        shared = memo.shared_pins
        if shared is None:
            shared = memo.shared_pins = (db.top_pins(conn, None, -1), db.pinned_sessions(conn))
        users, pinned = shared
        if session_id not in pinned:
            return users
        return list(heapq.merge(users, db.own_pins(conn, session_id), key=_pin_order))

    def cache_stats(self) -> dict[str, int]:
        """Hits, misses, live entries and the bytes of text they hold, of the context cache."""
        with self._db.locked():
            return {
                "hits": self._db.cache.hits,
                "misses": self._db.cache.misses,
                "size": len(self._db.cache),
                "bytes": self._db.cache.bytes,
            }


_statement = by_text(statement_key, STATEMENT_MEMO_SIZE, STATEMENT_MEMO_MAX_CHARS)


def _pin_order(pin: Pin) -> tuple[float, int]:
    """``db.top_pins``' order as a sort key: by importance, newest first on ties."""
    return -pin.importance_score, -pin.id


def distinct(pins: list[Pin]) -> list[Pin]:
    """``pins`` (by importance, newest first on ties) with each statement once: of pins
    that say the same thing (``autopins.statement_key``: "Got my flu shot and my arm
    is so sore I can't lift it." and "... lift it lol."), the first, most important."""
    if len(pins) < 2:
        return pins
    seen: set[StatementKey] = set()
    kept: list[Pin] = []
    for pin in pins:
        key = _statement(pin.content)
        if key not in seen:
            seen.add(key)
            kept.append(pin)
    return kept
