"""A short-lived, bounded cache of built contexts that can never serve stale data.

Entries live ``ttl`` seconds; at most ``max_entries`` are kept, holding at
most ``max_bytes`` as ``weigh`` measures them (least recently used go first;
an entry heavier than ``max_bytes`` alone is not kept at all: a context with
a huge budget can hold megabytes, and 256 of them held 4.4 GB). The store drops a session's entries when it writes
to that session, and passes SQLite's ``PRAGMA data_version`` as the ``stamp``
of every lookup: that number changes whenever another connection or process
commits to the file, and a changed stamp empties the cache. Not thread-safe
by itself; the store calls it under its lock.
"""

from __future__ import annotations

import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from .rank import StemCounts

V = TypeVar("V")


class TTLCache(Generic[V]):
    """Entries keyed by a tuple whose first item is the session id."""

    def __init__(
        self,
        ttl: float,
        max_entries: int,
        clock: Callable[[], float] = time.monotonic,
        *,
        max_bytes: int | None = None,
        weigh: Callable[[V], int] | None = None,
    ) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._weigh = weigh
        self._clock = clock
        self._entries: OrderedDict[tuple, tuple[float, V, int]] = OrderedDict()
        self._by_session: dict[object, set[tuple]] = {}
        self._stamp: Hashable = None
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.ttl > 0 and self.max_entries > 0

    def get(self, key: tuple, stamp: Hashable) -> V | None:
        """The live entry for ``key``, or None. A new ``stamp`` empties the cache first."""
        if stamp != self._stamp:
            self.clear()
            self._stamp = stamp
        entry = self._entries.get(key)
        if entry is not None:
            if entry[0] > self._clock():
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[1]
            self._forget(key)
        self.misses += 1
        return None

    def put(self, key: tuple, stamp: Hashable, value: V) -> None:
        if not self.enabled or stamp != self._stamp:
            return
        size = self._weigh(value) if self._weigh is not None else 0
        if key in self._entries:
            self._forget(key)
        if self.max_bytes is not None and size > self.max_bytes:
            return  # would push out everything else, and still not fit
        self._entries[key] = (self._clock() + self.ttl, value, size)
        self.bytes += size
        self._by_session.setdefault(key[0], set()).add(key)
        while len(self._entries) > self.max_entries or (
            self.max_bytes is not None and self.bytes > self.max_bytes
        ):
            self._forget(next(iter(self._entries)))

    def drop_session(self, session_id: str) -> None:
        """Forget every entry of one session (after the store wrote to it)."""
        for key in self._by_session.pop(session_id, ()):
            self.bytes -= self._entries.pop(key)[2]

    def _forget(self, key: tuple) -> None:
        self.bytes -= self._entries.pop(key)[2]
        keys = self._by_session.get(key[0])
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_session[key[0]]

    def clear(self) -> None:
        self._entries.clear()
        self._by_session.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


class RowMemo:
    """Rows that never change once written (messages), by id: at most ``max_rows``
    of them holding at most ``max_chars`` of text in all, the oldest put first
    dropped first; a row whose text is longer than ``max_chars // 64`` is not kept.

    ``text`` reads a row's text (what the bound counts). Keyed by id alone, so it
    is only for rows the store never updates and whose ids are never reused;
    whoever deletes rows calls ``clear``.
    """

    def __init__(self, max_rows: int, max_chars: int, text: Callable[[Any], str]) -> None:
        self.max_rows = max_rows
        self.max_chars = max_chars
        self._text = text
        # Ordered, for the oldest to go in constant time: a plain dict emptied from its
        # front keeps a hole per row dropped until it resizes, and finding the next
        # oldest reads past them all (3.8-4.0 µs a row once full, against 0.5).
        self._rows: OrderedDict[int, Any] = OrderedDict()
        self.chars = 0
        self.get: Callable[[int], Any] = self._rows.get
        """The row of an id, or None (the dict's own ``get``: a lookup per candidate)."""

    def put(self, rows: Iterable[tuple[int, Any]]) -> None:
        """Keep each (id, row) of ``rows``, the oldest dropped to make room."""
        kept, text, most = self._rows, self._text, self.max_chars // 64
        for row_id, row in rows:
            size = len(text(row))
            if size > most or self.max_rows < 1 or row_id in kept:
                continue
            while kept and (len(kept) >= self.max_rows or self.chars + size > self.max_chars):
                self.chars -= len(text(kept.popitem(last=False)[1]))
            kept[row_id] = row
            self.chars += size

    def clear(self) -> None:
        self._rows.clear()
        self.chars = 0

    def __len__(self) -> int:
        return len(self._rows)


class Writes:
    """The store's writes, counted by session: a memo of what a scope's messages say
    (a session's, or the whole file's: None) compares ``stamp(scope)`` with the one
    it was read at to know whether its scope was written since.

    Messages are only ever added with ids above every earlier one (migration
    m011_message_ids: no id is handed out twice) and never change, so such a memo
    stays current by reading what was added above the newest id it knows; whoever
    deletes messages empties it instead.
    """

    MAX_SESSIONS = 4096
    """Sessions counted apart; past them, a write of any session counts for all."""

    def __init__(self) -> None:
        self._writes = 0  # of any scope: the whole file's stamp
        self._unscoped = 0  # of no one session: every session's stamp
        self._of: dict[str, int] = {}  # of each session

    def written(self, session_id: str | None) -> None:
        """The store wrote to ``session_id`` (None: anywhere)."""
        self._writes += 1
        if session_id is None or len(self._of) >= self.MAX_SESSIONS:
            self._unscoped += 1
            self._of.clear()
        if session_id is not None:
            self._of[session_id] = self._of.get(session_id, 0) + 1

    def stamp(self, scope: str | None) -> Hashable:
        """What changes whenever the store may have written to ``scope``."""
        return self._writes if scope is None else (self._unscoped, self._of.get(scope, 0))


class KeptIds:
    """Entries whose first item is an array of message ids, at most ``max_ids`` ids
    in all (an entry counts one more), the least recently used entry dropped first
    (``_trim``, after an entry grew or was added)."""

    def __init__(self, max_ids: int) -> None:
        self.max_ids = max_ids
        self.ids = 0
        """How many ids are kept, over every entry."""
        self._entries: OrderedDict[Hashable, tuple] = OrderedDict()

    def _trim(self) -> None:
        while self.ids > self.max_ids and self._entries:
            self.ids -= len(self._entries.popitem(last=False)[1][0]) + 1

    def clear(self) -> None:
        self._entries.clear()
        self.ids = 0

    def __len__(self) -> int:
        return len(self._entries)


class Postings(KeptIds):
    """Which messages hold each word recall looked up, per scope (a session, or the
    whole file: None): the newest of them, ascending, and how many hold it in all;
    read once, then kept current by reading the holders above the newest known
    whenever the stamp it is asked with moved (the scope's newest message id: a
    new holder is a new message, ``Writes``). Whoever deletes messages calls
    ``clear``. At most ``max_ids`` ids are kept in all (an entry counts one more),
    the least recently used entry dropped first. Not thread-safe by itself; the
    store calls it under its lock.
    """

    def get(
        self,
        scope: str | None,
        word: str,
        stamp: Hashable,
        first: Callable[[], tuple[list[int], int]],
        after: Callable[[int], list[int]],
        newest: int,
    ) -> tuple[Sequence[int], int]:
        """The newest ``newest`` ids of the messages of ``scope`` holding ``word``,
        ascending, and how many hold it there, as of ``stamp``.
        ``first()`` reads them on a miss (at most ``newest`` ids, newest first, and the
        count); ``after(id)`` the holders above ``id``, ascending, when the stamp moved."""
        key = (scope, word)
        entry = self._entries.get(key)
        if entry is None:
            ids, count = first()
            ordered = array("q", reversed(ids[:newest]))
            self._entries[key] = (ordered, count, stamp)
            self.ids += len(ordered) + 1
            self._trim()
            return ordered, count
        ordered, count, known = entry
        self._entries.move_to_end(key)
        if known != stamp:
            more = after(ordered[-1] if ordered else 0)
            before = len(ordered)
            ordered.extend(more)
            if len(ordered) > newest:
                del ordered[: len(ordered) - newest]
            count += len(more)
            self._entries[key] = (ordered, count, stamp)
            self.ids += len(ordered) - before
            self._trim()
        return ordered, count


class Recalls(KeptIds):
    """What recall found for a query, by a key of everything it depends on but the
    messages: the ids found, best first, and whatever else it returned (``extra``),
    with a stamp of the messages searched they were found with (recall's: how many
    and the newest id); a lookup with another stamp misses. Whoever deletes messages
    calls ``clear``. Not thread-safe by itself; the store calls it under its lock.
    """

    def get(self, key: Hashable, stamp: Hashable) -> tuple[array, Any] | None:
        """The ids and ``extra`` kept for ``key`` as of ``stamp``, or None."""
        entry = self._entries.get(key)
        if entry is None or entry[2] != stamp:
            return None
        self._entries.move_to_end(key)
        return entry[0], entry[1]

    def put(self, key: Hashable, stamp: Hashable, ids: Iterable[int], extra: Any) -> None:
        """Keep ``ids`` and ``extra`` for ``key`` as found at ``stamp``."""
        kept = array("q", ids)
        old = self._entries.pop(key, None)
        if old is not None:
            self.ids -= len(old[0]) + 1
        if len(kept) + 1 > self.max_ids:  # would push out every other entry, and not fit
            return
        self._entries[key] = (kept, extra, stamp)
        self.ids += len(kept) + 1
        self._trim()


TOO_MANY = object()
"""``FileHolders``'s mark of a word held by more messages than it keeps."""


class FileHolders:
    """Which messages of the whole file hold each word recall looked up for more than
    one session, as a set: a session's holders of the word are then its own messages'
    ids found in it (``within``), with no search statement per session.

    A word's holders are read (``first()``: every one, any order) when a second
    session asks for it, not the first: a process that answers one question reads
    no more than a session's share. Then kept current as ``Postings`` are: when the
    stamp it is asked with moved (the store's writes anywhere, ``Writes.stamp(None)``),
    ``after(id)`` reads the holders above the newest known. At most ``max_ids`` ids
    are kept in all (an entry counts one more), the least recently used word dropped
    first. Whoever deletes messages calls ``clear``. Not thread-safe by itself; the
    store calls it under its lock.
    """

    MAX_ASKED = 65536
    """Words asked by one session kept apart; past them, forgotten (asked again)."""

    def __init__(self, max_ids: int) -> None:
        self.max_ids = max_ids
        self.ids = 0
        """How many ids are kept, over every entry."""
        self._entries: OrderedDict[str, tuple[set[int], int, Hashable]] = OrderedDict()
        self._asked: dict[str, object] = {}  # each word not kept: the session that asked
        # (TOO_MANY: more holders than max_ids; read by each session, as before)

    def holders(
        self,
        word: str,
        session_id: str,
        stamp: Hashable,
        first: Callable[[], Iterable[int]],
        after: Callable[[int], Iterable[int]],
    ) -> set[int] | None:
        """Every holder of ``word`` in the file as of ``stamp``, or None (then read a
        session's as before) while ``session_id`` is the only session that asked for
        it, or once it was found held by more than ``max_ids`` (not read again)."""
        entry = self._entries.get(word)
        if entry is None:
            if len(self._asked) >= self.MAX_ASKED and word not in self._asked:
                self._asked.clear()
            asker = self._asked.setdefault(word, session_id)
            if asker == session_id or asker is TOO_MANY:
                return None
            held = set(first())
            if len(held) + 1 > self.max_ids:  # would push out every other word, and not fit
                self._asked[word] = TOO_MANY  # not read again: its sessions read their own
                return None
            del self._asked[word]
            self._entries[word] = (held, max(held, default=0), stamp)
            self.ids += len(held) + 1
            self._trim()
            return held
        held, newest, known = entry
        self._entries.move_to_end(word)
        if known != stamp:
            before = len(held)
            more = list(after(newest))
            held.update(more)
            self._entries[word] = (held, max(newest, *more) if more else newest, stamp)
            self.ids += len(held) - before
            self._trim()
        return held

    @staticmethod
    def within(held: set[int], ids: Sequence[int]) -> list[int]:
        """The ids among ``ids`` that ``held`` holds, in the order of ``ids``."""
        return [i for i in ids if i in held]

    def _trim(self) -> None:
        while self.ids > self.max_ids and self._entries:
            self.ids -= len(self._entries.popitem(last=False)[1][0]) + 1

    def clear(self) -> None:
        self._entries.clear()
        self._asked.clear()
        self.ids = 0

    def __len__(self) -> int:
        return len(self._entries)


ALL_SESSIONS = ""
"""The ``SessionMemo.scopes`` key of the whole file's statistics (no session id is empty)."""


class SessionMemo:
    """What the context builder learnt about sessions, valid until the file changes.

    Read once and kept until the store writes what they depend on:

    - ``ratios``: each session's model token ratio (its presence also proves
      the session exists); ``levels``: the compaction level of each session
      that has one (``store.maintain``; absent means 0), read with the ratio;
    - ``state``: each session's state rows (goals, subtasks, tools, files, the
      latest checkpoint), which change only through the store's state writes;
    - ``pins``: the pins each session's contexts show (by session and whether
      the context has a query), emptied whenever the store writes anything but
      messages alone (pins are the user's as well as the session's: every
      session's go: ``pins_written``); ``shared_pins``, beside them, what every
      session's pins are read from: the user's current pins, in the contexts'
      order, and the sessions that have current pins of their own (read once
      for all sessions, emptied with ``pins``);

    Read once, then brought up to date: a message is never updated and a new
    one's id is above every earlier one (m011), so after a write only what was
    added is read (``writes``: the store's writes by session, a :class:`Writes`):

    - ``scopes``: each session's (and the whole file's: ``ALL_SESSIONS``) recall
      statistics, its messages' number and total tokens as of the newest id read,
      and a session's message ids, ascending, when it has few (``recall``);
    - ``recent``: each session's newest messages, with the stamp they were read at;
    - ``postings``: which messages hold each word recall looked up in a session
      or in the whole file (a :class:`Postings`);
    - ``holders``: every holder in the file of each word more than one session
      looked up (a :class:`FileHolders`), from which a session's are picked;
    - ``recalled``: what recall found for a query in a scope (a :class:`Recalls`),
      kept until a message is added there: a session asked again finds it;
    - ``held``: how many of a scope's messages hold each word recall counted there
      (``recall``: a speaker's news), with the stamp they were counted at, read
      again from the first word after a write there.

    By message id, never stale but through a deletion: ``messages``, the
    messages recall read (a :class:`RowMemo`); ``excerpts``, each long relevant
    message as a context showed it for a query's stems (``excerpt.Answers``);
    ``counted``, how many words of each message begin with each stem BM25 looked
    for (a ``rank.StemCounts``, by stem then message); ``neighbours``, the turn
    just after or before a message in its session (``recall``: none after it is
    not kept). ``deleted`` empties
    these and the brought-up-to-date ones (``Forgetting`` and an import that
    replaces a session call it).
    ``sync`` empties them all when another connection committed (a new
    ``PRAGMA data_version``) or they grew past ``max_sessions``; the store
    calls ``forget`` when it writes something they depend on.
    """

    def __init__(
        self,
        max_sessions: int,
        messages: RowMemo,
        postings: Postings,
        holders: FileHolders,
        recalled: Recalls,
    ) -> None:
        self.max_sessions = max_sessions
        self.ratios: dict[str, float] = {}
        self.levels: dict[str, int] = {}
        self.state: dict[str, list] = {}
        self.scopes: dict[str, tuple[int, int, int, Hashable, array | None]] = {}
        self.recent: dict[str, tuple[list, Hashable]] = {}
        self.excerpts: dict[tuple[int, frozenset[str]], Any] = {}
        self.counted = StemCounts()
        self.neighbours: dict[tuple[int, bool], int | None] = {}
        self.held: dict[str, tuple[Hashable, dict[str, int]]] = {}
        self.writes = Writes()
        self.pins: dict[tuple[str, bool], list] = {}
        self.shared_pins: tuple[list, frozenset[str]] | None = None
        self.messages = messages
        self.postings = postings
        self.holders = holders
        self.recalled = recalled
        self._stamp: Hashable = None

    def sync(self, stamp: Hashable) -> None:
        if stamp != self._stamp or len(self.ratios) > self.max_sessions:
            self.clear()
            self._stamp = stamp

    def forget(self, session_id: str) -> None:
        self.ratios.pop(session_id, None)
        self.levels.pop(session_id, None)
        self.state.pop(session_id, None)
        self.scopes.pop(session_id, None)
        self.pins.pop((session_id, False), None)
        self.pins.pop((session_id, True), None)

    def clear(self) -> None:
        self.ratios.clear()
        self.levels.clear()
        self.state.clear()
        self.scopes.clear()
        self.pins_written()
        self.deleted()

    def pins_written(self) -> None:
        """The store may have written pins: every session's are read again."""
        self.pins.clear()
        self.shared_pins = None

    def deleted(self) -> None:
        """Messages were deleted: what was read of them goes."""
        self.messages.clear()
        self.postings.clear()
        self.holders.clear()
        self.recalled.clear()
        self.scopes.clear()
        self.recent.clear()
        self.excerpts.clear()
        self.counted.clear()
        self.neighbours.clear()
        self.held.clear()
