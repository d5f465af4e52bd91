"""The context cache holds at most ``cache_bytes`` of text, however large the contexts."""

from __future__ import annotations

import gc
import tracemalloc
from array import array
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.cache import FileHolders, Postings, Recalls, RowMemo, TTLCache, Writes
from localmem.recall import Recall

MB = 1024 * 1024


def test_entries_go_least_recently_used_first_when_the_bytes_run_out() -> None:
    cache: TTLCache[str] = TTLCache(60, 100, max_bytes=10, weigh=len)
    cache.get(("s", 0), 1)  # the stamp
    for n, value in enumerate(["aaaa", "bbbb", "cccc"]):
        cache.put(("s", n), 1, value)
    assert len(cache) == 2 and cache.bytes == 8  # "aaaa" went to make room
    assert cache.get(("s", 0), 1) is None and cache.get(("s", 2), 1) == "cccc"
    cache.put(("t", 0), 1, "x" * 11)  # heavier than the whole cache: not kept, nothing pushed out
    assert len(cache) == 2 and cache.bytes == 8
    cache.put(("s", 2), 1, "cc")  # replaced: counted once
    assert cache.bytes == 6
    cache.drop_session("s")
    assert len(cache) == 0 and cache.bytes == 0
    cache.put(("s", 1), 1, "dd")
    cache.get(("s", 1), 2)  # another connection committed: everything goes
    assert cache.bytes == 0


def test_the_row_memo_keeps_the_newest_rows_within_its_rows_and_characters() -> None:
    memo = RowMemo(3, 640, text=str)
    memo.put([(n, text) for n, text in enumerate(["a" * 8, "b" * 8, "c" * 8])])
    assert len(memo) == 3 and memo.chars == 24
    memo.put([(3, "d" * 8)])  # a fourth row: the first put goes
    assert memo.get(0) is None and memo.get(3) == "d" * 8 and len(memo) == 3
    memo.put([(1, "x")])  # a known id keeps its row
    assert memo.get(1) == "b" * 8
    memo.put([(4, "e" * 11)])  # longer than a 64th of the characters: not kept, nothing goes
    assert memo.get(4) is None and len(memo) == 3
    big = RowMemo(100, 640, text=str)
    big.put([(n, "f" * 10) for n in range(70)])
    assert big.chars <= 640 and big.get(69) and big.get(0) is None  # the characters bound
    big.clear()
    assert len(big) == 0 and big.chars == 0 and big.get(69) is None
    none = RowMemo(0, 640, text=str)
    none.put([(1, "")])  # no room at all: nothing kept, even an empty text
    assert len(none) == 0 and none.get(1) is None


def test_a_full_row_memo_keeps_dropping_the_oldest_put() -> None:
    # Once full, each row put pushes out the oldest (in constant time: an ordered memo,
    # not a dict emptied from its front); over many rounds the newest rows stay.
    memo = RowMemo(10, 10_000, text=str)
    for start in range(0, 5000, 50):
        memo.put([(n, f"row {n}") for n in range(start, start + 50)])
    assert len(memo) == 10 and [memo.get(n) for n in range(4990, 5000)] == [
        f"row {n}" for n in range(4990, 5000)
    ]
    assert memo.get(4989) is None and memo.chars == sum(len(f"row {n}") for n in range(4990, 5000))


class Holders:
    """A word's holders in each scope, read as ``Postings`` asks: newest first, at most
    ``newest``, and the count (``first``), or those above an id, ascending (``after``)."""

    def __init__(self, rows: dict[str | None, list[int]]) -> None:
        self.rows = rows
        self.reads: list[tuple[str | None, int | None]] = []
        self.writes = Writes()

    def get(self, postings: Postings, scope: str | None, newest: int = 3) -> tuple[list[int], int]:
        def first() -> tuple[list[int], int]:
            self.reads.append((scope, None))
            held = self.rows[scope]
            return sorted(held, reverse=True)[:newest], len(held)

        def after(last: int) -> list[int]:
            self.reads.append((scope, last))
            return [i for i in self.rows[scope] if i > last]

        ids, count = postings.get(scope, "heron", self.writes.stamp(scope), first, after, newest)
        return list(ids), count


def test_postings_read_once_then_only_what_a_write_to_their_scope_added() -> None:
    holders = Holders({"a": [1, 4], "b": [2, 3], None: [1, 2, 3, 4]})
    postings = Postings(100)
    assert holders.get(postings, "a") == ([1, 4], 2)
    assert holders.get(postings, "b") == ([2, 3], 2)
    assert holders.get(postings, None) == ([2, 3, 4], 4)  # the newest 3 of 4
    assert holders.get(postings, "a") == ([1, 4], 2)
    assert holders.reads == [("a", None), ("b", None), (None, None)]  # each read once
    holders.rows["a"] += [9, 12]
    holders.rows[None] += [9, 12]
    holders.writes.written("a")
    assert holders.get(postings, "a") == ([4, 9, 12], 4)  # the newest 3, all counted
    assert holders.get(postings, "b") == ([2, 3], 2)
    assert holders.get(postings, None) == ([4, 9, 12], 6)
    assert holders.reads[3:] == [("a", 4), (None, 4)]  # "b" was not written: not read
    holders.writes.written(None)  # a write of no one session: every scope's entries
    holders.get(postings, "b")
    assert holders.reads[-1] == ("b", 3)
    postings.clear()
    assert len(postings) == 0 and postings.ids == 0
    holders.get(postings, "a")
    assert holders.reads[-1] == ("a", None)


def test_a_scope_s_stamp_moves_with_the_writes_that_may_reach_it() -> None:
    writes = Writes()
    a, b, everywhere = writes.stamp("a"), writes.stamp("b"), writes.stamp(None)
    writes.written("a")
    assert writes.stamp("a") != a and writes.stamp("b") == b and writes.stamp(None) != everywhere
    a, everywhere = writes.stamp("a"), writes.stamp(None)
    writes.written(None)
    assert writes.stamp("a") != a and writes.stamp("b") != b and writes.stamp(None) != everywhere
    b = writes.stamp("b")
    for n in range(Writes.MAX_SESSIONS + 1):  # past the sessions counted apart: all move
        writes.written(f"s{n}")
    assert writes.stamp("b") != b


def test_postings_keep_at_most_max_ids_the_least_recently_used_going_first() -> None:
    holders = Holders({s: [n, n + 1] for n, s in enumerate("abcdef")})
    postings = Postings(9)  # three entries of two ids (each counts one more)
    for scope in "abc":
        holders.get(postings, scope)
    holders.get(postings, "a")  # used: "b" is now the least recent
    holders.get(postings, "d")
    assert postings.ids == 9 and len(postings) == 3
    holders.reads.clear()
    for scope in "adb":
        holders.get(postings, scope)
    assert holders.reads == [("b", None)]  # "b" went to make room for "d"


def test_a_store_s_cache_holds_at_most_cache_bytes(tmp_path: Path) -> None:
    """Contexts with a huge budget hold whole messages: 40 of a 1 MB message held
    40 MB (4.4 GB in the red team's case, with 256 of them)."""
    with MemoryStore(tmp_path / "c.db", config={"cache_bytes": 4 * MB}) as store:
        s = store.create_session()
        store.add_message(s.id, "user", "the quarterly report, pasted whole: " + "figures " * (MB // 8))
        store.build_context(s.id)  # the encoder and the row models loaded
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for budget in range(1_000_000, 1_000_040):
                ctx = store.build_context(s.id, max_tokens=budget)
                assert not ctx.clipped  # the whole message is in it
            del ctx
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        stats = store.cache_stats()
        assert stats["bytes"] <= 4 * MB and stats["size"] <= 4
        assert held <= 6 * MB, held  # the cache's 4 MB and change
        assert store.build_context(s.id, max_tokens=1_000_039) is store.build_context(
            s.id, max_tokens=1_000_039
        )  # still a cache: the newest stay


class FileReads:
    """A word's holders in the whole file, read as ``FileHolders`` asks: all of them
    (``first``) or those above an id (``after``); each read recorded."""

    def __init__(self, held: list[int]) -> None:
        self.held = held
        self.reads: list[int | None] = []

    def first(self) -> list[int]:
        self.reads.append(None)
        return list(self.held)

    def after(self, last: int) -> list[int]:
        self.reads.append(last)
        return [i for i in self.held if i > last]


def test_file_holders_are_read_for_a_second_session_then_only_what_was_added() -> None:
    heron = FileReads([2, 5, 7])
    holders = FileHolders(100)
    assert holders.holders("heron", "a", 0, heron.first, heron.after) is None  # one asker
    assert holders.holders("heron", "a", 0, heron.first, heron.after) is None  # still one
    assert heron.reads == []
    assert holders.holders("heron", "b", 0, heron.first, heron.after) == {2, 5, 7}
    assert holders.holders("heron", "a", 0, heron.first, heron.after) == {2, 5, 7}
    assert heron.reads == [None]  # read once, for both sessions
    assert FileHolders.within({2, 5, 7}, [7, 6, 5, 1]) == [7, 5]  # in the order asked
    heron.held += [9]
    assert holders.holders("heron", "c", 1, heron.first, heron.after) == {2, 5, 7, 9}
    assert heron.reads == [None, 7]  # a write: only the holders above the newest known
    assert holders.holders("heron", "c", 1, heron.first, heron.after) == {2, 5, 7, 9}
    assert heron.reads == [None, 7]  # the stamp did not move: nothing read
    holders.clear()  # messages deleted
    assert len(holders) == 0 and holders.ids == 0
    assert holders.holders("heron", "b", 1, heron.first, heron.after) is None


def test_file_holders_keep_at_most_max_ids_the_least_recently_used_going_first() -> None:
    holders = FileHolders(8)  # two words of three ids (each counts one more)
    words = {w: FileReads([n, n + 1, n + 2]) for n, w in enumerate(["a", "b", "c"])}
    for word, reads in words.items():
        holders.holders(word, "s", 0, reads.first, reads.after)
        assert holders.holders(word, "t", 0, reads.first, reads.after) is not None
    assert len(holders) == 2 and holders.ids == 8  # "a" went to make room for "c"
    holders.holders("a", "t", 0, words["a"].first, words["a"].after)
    assert words["a"].reads == [None]  # asked again by one session: not read again yet
    big = FileReads(list(range(20)))
    holders.holders("big", "s", 0, big.first, big.after)
    assert holders.holders("big", "t", 0, big.first, big.after) is None  # could never fit
    assert len(holders) == 2 and holders.ids == 8  # nothing pushed out for it
    assert holders.holders("big", "u", 0, big.first, big.after) is None
    assert big.reads == [None]  # read once, found too many: not read again


RECALL_ONLY = {"cache_ttl": 0, "recent_messages": 1, "min_recent_messages": 1}
"""Every message but the newest is left to recall."""


def _recalled(store: MemoryStore, session_id: str, query: str) -> list[str]:
    return [m.text for m in store.build_context(session_id, query=query).relevant_messages]


def _two_sessions_asking(store: MemoryStore) -> tuple[str, str]:
    """Two sessions whose question about herons is asked in both (the word's holders
    in the whole file are then kept), each holding one heron message."""
    ids = []
    for name in ("a", "b"):
        s = store.create_session()
        store.add_message(s.id, "user", f"A heron stood in pond {name}.")
        store.add_message(s.id, "user", "Nothing else today.")
        assert _recalled(store, s.id, "heron") == [f"A heron stood in pond {name}."]
        ids.append(s.id)
    return ids[0], ids[1]


def test_recall_from_kept_file_holders_sees_writes_of_this_store_and_another(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.db"
    with MemoryStore(path, config=RECALL_ONLY) as app, MemoryStore(path) as other:
        a, b = _two_sessions_asking(app)
        assert len(app._db.memo.holders) == 1  # "heron" kept for the whole file
        app.add_message(a, "user", "Another heron at dawn.")
        app.add_message(a, "user", "Then rain.")
        assert set(_recalled(app, a, "heron")) == {
            "Another heron at dawn.", "A heron stood in pond a."
        }
        assert _recalled(app, b, "heron") == ["A heron stood in pond b."]  # a's are not b's
        other.add_message(b, "user", "A grey heron, written by another process.")
        other.add_message(b, "user", "Then sun.")
        assert "A grey heron, written by another process." in _recalled(app, b, "heron")
        assert "Then rain." not in _recalled(app, b, "heron")


def test_a_forgotten_message_leaves_the_kept_file_holders_at_once(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "f.db", config=RECALL_ONLY) as store:
        a, b = _two_sessions_asking(store)
        held = store.build_context(b, query="heron").relevant_messages[0]
        store.delete_message(held.id)
        assert _recalled(store, b, "heron") == []
        assert _recalled(store, a, "heron") == ["A heron stood in pond a."]


def test_recalls_are_kept_by_stamp_within_max_ids_the_least_recently_used_going_first() -> None:
    kept = Recalls(8)  # two entries of three ids (each counts one more)
    kept.put("a", 1, [3, 1, 2], ("x",))
    assert kept.get("a", 1) == (array("q", [3, 1, 2]), ("x",))
    assert kept.get("a", 2) is None  # the scope was written since: missed
    kept.put("b", 1, [4, 5, 6], ())
    kept.get("a", 1)  # "a" used last: "b" goes first
    kept.put("c", 1, [7, 8, 9], ())
    assert kept.get("b", 1) is None and kept.get("a", 1) is not None and kept.ids == 8
    kept.put("c", 2, [7], ())  # found again: counted once
    assert kept.ids == 6 and kept.get("c", 2) == (array("q", [7]), ())
    kept.put("big", 1, range(20), ())  # could never fit: nothing pushed out for it
    assert kept.get("big", 1) is None and len(kept) == 2 and kept.ids == 6
    kept.clear()
    assert len(kept) == 0 and kept.ids == 0


def _ranked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries recall ranked (not found kept), in order."""
    ranked: list[str] = []
    rank_them = Recall._relevant

    def counting(self: Recall, session_id: str, query: str, *args: object) -> object:
        ranked.append(query)
        return rank_them(self, session_id, query, *args)

    monkeypatch.setattr(Recall, "_relevant", counting)
    return ranked


def test_what_recall_found_is_kept_until_a_message_is_added_to_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.db"
    with MemoryStore(path, config=RECALL_ONLY) as app, MemoryStore(path) as other:
        a, b = _two_sessions_asking(app)
        ranked = _ranked(monkeypatch)
        assert _recalled(app, a, "Heron?") == ["A heron stood in pond a."]
        assert _recalled(app, a, "the heron") == ["A heron stood in pond a."]  # the same words
        app.add_message(b, "user", "A heron in b.")  # another session's write
        app.pin(a, "Prefers mornings.")  # a write to the session that adds no message
        app.maintain()
        assert _recalled(app, a, "heron") == ["A heron stood in pond a."]
        assert ranked == []  # each found kept
        _recalled(app, a, "Which herons?")  # other words, and asks for a list: ranked
        assert ranked == ["Which herons?"]
        app.add_message(a, "user", "Another heron at dawn.")
        app.add_message(a, "user", "Then rain.")
        assert set(_recalled(app, a, "heron")) == {
            "Another heron at dawn.", "A heron stood in pond a."
        }
        assert ranked[-1] == "heron"  # written to: ranked again
        other.add_message(a, "user", "A grey heron, written by another process.")
        other.add_message(a, "user", "Then sun.")
        assert "A grey heron, written by another process." in _recalled(app, a, "heron")
        held = app.build_context(a, query="heron").relevant_messages[0]
        app.delete_message(held.id)
        assert held.text not in _recalled(app, a, "heron")
        assert len(ranked) == 4
