"""What per-message data computed ahead could save on a session's first query-aware context.

    python benchmarks/first_visit.py [--messages 20000] [--sessions 200] [--visits 150]
                                     [--question common|own] [--cpu] [--parts]

A session's first query-aware context (issue 22 point 7) reads each candidate's row
and derives from its text, per candidate: BM25's stem counts (``rank.StemCounts``),
the words ``reranking.spread`` compares (``reranking.words``, ``_sentence_words``),
the excerpt packing shows and its tokens (``excerpt.Answers.shorten``). The design
measured here keeps such data beside each message, computed once off
``add_message``'s path, so a first visit would read it instead. On ``query.py``'s
file (``--messages`` over ``--sessions``, written by another store, cache off), with
``query.COMMON_QUESTION`` or each session's own question (``--question own``):

1. The ceiling. Each session visited once in one of four stores, rounds
   interleaved, the sessions dealt out in turn: ``as today``; ``text memos warm``
   (another store built the same context just before, untimed: the memos of one
   text kept in the process, ``memos.by_text`` and the like, hold this session's
   texts); ``per-message results free`` (the same, and the visiting store shares
   that store's stem counts and excerpts: each candidate's derived results are
   there, nothing read or decoded); ``rows free too`` (its rows and neighbours
   too). No stored form can do better than the third row: it must still be read
   and decoded per candidate; the helper's build just before also leaves the
   caches warm: these rows flatter the design, if anything. ``--sessions`` bounds the
   visits: 200 sessions leave 40 a condition. With ``--parts``, each step's time in each condition
   (``STEPS``): what is left when every candidate's work is free.
2. The stored forms against computing, on the candidates of the same visits (what
   recall handed ``rank.bm25`` and ``reranking.spread``), each checked equal to what
   it replaces: BM25's counts from each text's sorted index tokens (two bisections
   a stem) against ``StemCounts`` filled afresh; ``spread`` with its words read from a
   stored form against its word memos cold; the candidates' rows read alone against
   joined with a side table holding those forms; and the excerpts packing cuts
   (``excerpt.cut``), then counts (the query's words decide both: no stored form
   replaces them). Best of five passes each.

Timings are printed, never asserted; ``--cpu`` times on this thread's CPU.
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from time import perf_counter_ns

os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # as in run.py: the summarizer stays offline

from query import COMMON_QUESTION, build_file, line  # noqa: E402
from timer import Latency, now, use_thread_cpu  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem import contexts, excerpt, rank, recall, reranking  # noqa: E402
from localmem.db import MESSAGE_COLUMNS  # noqa: E402
from localmem.tokens import Tokenizer  # noqa: E402
from localmem.words import TOKEN  # noqa: E402

WARMED = 40
"""Sessions each store visits before the timed ones: a word's holders in the whole
file are read once a second session asks for it, as in ``query.py``'s first visits."""
ROUNDS = 5
CONDITIONS = ("as today", "text memos warm", "per-message results free", "rows free too")


STEPS = (
    (contexts.Contexts, "_read_context", "the session's state, newest turns, pins"),
    (recall.Recall, "_scope", "the session's statistics and ids"),
    (recall.Recall, "_postings", "each query word's holders"),
    (recall.Recall, "_messages", "rows read (candidates, neighbours)"),
    (rank, "bm25", "BM25: stem counts, scores"),
    (reranking, "spread", "spread across days, repeats last"),
    (recall.Recall, "_with_neighbours", "neighbours (their rows too)"),
    (contexts, "pack", "packing"),
    (excerpt.Answers, "shorten", "  of which the excerpts"),
)
"""With ``--parts``: the steps of a visit timed inclusively (a step inside another
counts in both), each as ``owner.name`` is called from the store's code."""


class Parts:
    """Each of ``STEPS``' time in the timed visits, by condition (``during``)."""

    def __init__(self) -> None:
        self.spent: dict[tuple[str, str], int] = {}
        self.visits: dict[str, int] = {}
        self._condition: str | None = None
        self._saved: list[tuple[object, str, object]] = []

    def __enter__(self) -> Parts:
        for owner, name, label in STEPS:
            step = getattr(owner, name)
            self._saved.append((owner, name, step))
            setattr(owner, name, self._timed(step, label))
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, step in self._saved:
            setattr(owner, name, step)

    def _timed(self, step: Callable, label: str) -> Callable:
        spent = self.spent

        def timed(*args, **kwargs):
            if self._condition is None:
                return step(*args, **kwargs)
            start = now()
            try:
                return step(*args, **kwargs)
            finally:
                key = (self._condition, label)
                spent[key] = spent.get(key, 0) + now() - start

        return timed

    def during(self, condition: str | None) -> None:
        if condition is not None:
            self.visits[condition] = self.visits.get(condition, 0) + 1
        self._condition = condition

    def print(self) -> None:
        print("  the steps, µs a visit (mean, inclusive; the timing wrappers add a little):")
        print(f"  {'':<42}" + "".join(f"{c[:16]:>18}" for c in CONDITIONS))
        for _, _, label in STEPS:
            cells = [self.spent.get((c, label), 0) / self.visits.get(c, 1) / 1e3
                     for c in CONDITIONS]
            print(f"  {label:<42}" + "".join(f"{x:18.1f}" for x in cells))


def ceiling(
    path: Path, sessions: list[str], ask: Callable[[str], str], parts: Parts | None = None
) -> dict[str, Latency]:
    """Each of ``sessions`` visited once, in one of the conditions' stores in turn."""
    stores = {c: MemoryStore(path, config={"cache_ttl": 0}) for c in CONDITIONS}
    helper = MemoryStore(path, config={"cache_ttl": 0})
    try:
        mine, theirs = stores["per-message results free"]._db.memo, helper._db.memo
        mine.counted, mine.excerpts = theirs.counted, theirs.excerpts
        rows = stores["rows free too"]._db.memo
        rows.counted, rows.excerpts = theirs.counted, theirs.excerpts
        rows.messages, rows.neighbours = theirs.messages, theirs.neighbours
        warm, timed = sessions[:WARMED], sessions[WARMED:]
        for store in [*stores.values(), helper]:
            for s in warm:
                store.build_context(s, query=ask(s))
        dealt = {c: timed[n :: len(CONDITIONS)] for n, c in enumerate(CONDITIONS)}
        per = max(1, min(len(v) for v in dealt.values()) // ROUNDS)
        ns: dict[str, list[int]] = {c: [] for c in CONDITIONS}
        for r in range(ROUNDS):
            for c, store in stores.items():
                for s in dealt[c][r * per : (r + 1) * per]:
                    if c != "as today":
                        helper.build_context(s, query=ask(s))
                    if parts is not None:
                        parts.during(c)
                    start = now()
                    store.build_context(s, query=ask(s))
                    ns[c].append(now() - start)
                    if parts is not None:
                        parts.during(None)
        return {c: Latency.of([v]) for c, v in ns.items()}
    finally:
        for store in [*stores.values(), helper]:
            store.close()


def tokens_form(text: str) -> str | None:
    """A text's index tokens, lower case, sorted (None when lowercasing changes its
    length: ``rank.Finder``'s slow path)."""
    lower = text.lower()
    return None if len(lower) != len(text) else " ".join(sorted(TOKEN.findall(lower)))


def counts_from_tokens(
    finder: rank.Finder, held: list[tuple[str, list[int]]], forms: dict[int, str]
) -> dict[str, dict[int, int]]:
    """Each term's count in each held message: its words beginning with the term's stem,
    the prefix range of the sorted tokens (what ``Finder.counts`` counts)."""
    split: dict[int, list[str]] = {}
    out: dict[str, dict[int, int]] = {}
    for t, ids in held:
        s = finder.stem_of[t]
        high = s + "\U0010ffff"
        mine = out[t] = {}
        for i in ids:
            found = split.get(i)
            if found is None:
                found = split[i] = forms[i].split(" ")
            mine[i] = bisect.bisect_left(found, high) - bisect.bisect_left(found, s)
    return out


def best_of(passes: int, fn: Callable[[], object], visits: int) -> float:
    """The fastest of ``passes`` runs of ``fn``, in µs a visit."""
    times = []
    for _ in range(passes):
        start = now()
        fn()
        times.append(now() - start)
    return min(times) / visits / 1e3


def stored_forms(path: Path, sessions: list[str], ask: Callable[[str], str]) -> None:
    """Part 2: the candidates of ``sessions``' first visits, their derived data computed
    against read from a stored form."""
    bm25_in: list[tuple[tuple[str, ...], list[tuple[str, list[int]]], dict]] = []
    spread_in: list[list] = []
    shorten_in: list[list[tuple[rank.Finder, object]]] = []
    bm25, spread, shorten = rank.bm25, reranking.spread, excerpt.Answers.shorten

    def keep_bm25(terms, holders, frequencies, scope, texts, counted=None):
        held = [(t, [i for i in holders.get(t, ()) if i in texts]) for t in terms]
        bm25_in.append((tuple(terms), held, dict(texts)))
        return bm25(terms, holders, frequencies, scope, texts, counted)

    def keep_spread(ranking, *args, **kwargs):
        spread_in.append(list(ranking))
        return spread(ranking, *args, **kwargs)

    def keep_shorten(answers, message):
        shorten_in[-1].append((answers._finder, message))
        return shorten(answers, message)

    rank.bm25, reranking.spread, excerpt.Answers.shorten = keep_bm25, keep_spread, keep_shorten
    try:
        with MemoryStore(path, config={"cache_ttl": 0}) as store:
            for s in sessions:
                shorten_in.append([])
                store.build_context(s, query=ask(s))
    finally:
        rank.bm25, reranking.spread, excerpt.Answers.shorten = bm25, spread, shorten
    bm25_in, spread_in, shorten_in = bm25_in[WARMED:], spread_in[WARMED:], shorten_in[WARMED:]
    visits = len(bm25_in)
    forms = [{i: tokens_form(text) for i, (text, _) in texts.items()} for _, _, texts in bm25_in]
    slow = sum(f is None for kept in forms for f in kept.values())
    for (terms, held, texts), kept in zip(bm25_in, forms):
        finder = rank.Finder(terms)
        now_counted = rank.StemCounts().of(finder, held, texts)  # by stem: every candidate's
        assert {t: {i: now_counted[t][i] for i in ids} for t, ids in held} == counts_from_tokens(
            finder, held, kept
        )

    def counted_now() -> None:
        for terms, held, texts in bm25_in:
            rank.StemCounts().of(rank.Finder(terms), held, texts)

    def counted_stored() -> None:
        for (terms, held, _), kept in zip(bm25_in, forms):
            counts_from_tokens(rank.Finder(terms), held, kept)

    n = sum(len(texts) for _, _, texts in bm25_in) / max(1, visits)
    print(f"\n2. stored forms against computing, {visits} first visits, {n:.1f} candidates"
          f" each ({slow} texts on the slow path), best of 5, µs a visit:")
    print(f"  BM25 stem counts: counted now {best_of(5, counted_now, visits):7.1f}"
          f"   from stored sorted tokens {best_of(5, counted_stored, visits):7.1f}")

    words_now, sentences_now = reranking._words, reranking._sentence_words.__wrapped__
    stored_words = {m.id: " ".join(words_now(m.text)) for r in spread_in for m in r}
    stored_sentences = {
        m.id: "|".join(" ".join(s) for s in sentences_now(m.text)) for r in spread_in for m in r
    }
    texts_to_ids = {m.text: m.id for r in spread_in for m in r}

    def read_words(text: str) -> frozenset[str]:
        kept = stored_words[texts_to_ids[text]]
        return frozenset(kept.split(" ")) if kept else frozenset()

    def read_sentences(text: str) -> tuple[frozenset[str], ...]:
        kept = stored_sentences[texts_to_ids[text]]
        return tuple(frozenset(s.split(" ")) for s in kept.split("|")) if kept else ()

    words, sentence_words = reranking.words, reranking._sentence_words

    def spread_with(get_words, get_sentences) -> Callable[[], list]:
        def run() -> list:
            reranking.words, reranking._sentence_words = get_words, get_sentences
            try:
                return [[m.id for m in spread(r)] for r in spread_in]
            finally:
                reranking.words, reranking._sentence_words = words, sentence_words
        return run

    cold = spread_with(words_now, sentences_now)
    stored = spread_with(read_words, read_sentences)
    assert cold() == stored()
    print(f"  spread's words: read now {best_of(5, cold, visits):7.1f}   from stored forms"
          f" (a dict lookup stands for the read) {best_of(5, stored, visits):7.1f}")

    count = Tokenizer().count

    def shortened(cut_only: bool) -> Callable[[], None]:
        def run() -> None:
            for shown in shorten_in:
                for finder, message in shown:
                    if message.token_count < excerpt.MIN_TOKENS:
                        continue
                    text = excerpt.cut(message.text, finder)
                    if text is not None and not cut_only:
                        count(text)
        return run

    print(f"  excerpts (shorten, {sum(map(len, shorten_in)) / visits:.1f} a visit): cut"
          f" {best_of(5, shortened(True), visits):7.1f}, cut and counted"
          f" {best_of(5, shortened(False), visits):7.1f} (the query's words decide both)")

    conn = sqlite3.connect(path)  # a copy of the file: the side table is written in it
    conn.execute("CREATE TABLE derived (message_id INTEGER PRIMARY KEY, tokens TEXT, words TEXT)")
    texts = conn.execute("SELECT id, text FROM messages").fetchall()
    conn.executemany(
        "INSERT INTO derived VALUES (?, ?, ?)",
        [(i, tokens_form(t), " ".join(words_now(t))) for i, t in texts],
    )
    conn.commit()
    columns = ", ".join(f"m.{c}" for c in MESSAGE_COLUMNS.split(", "))
    plain = f"SELECT {columns} FROM messages m WHERE m.id IN (SELECT value FROM json_each(?1))"
    joined = (f"SELECT {columns}, d.tokens, d.words FROM messages m LEFT JOIN derived d"
              " ON d.message_id = m.id WHERE m.id IN (SELECT value FROM json_each(?1))")
    listed = ["[" + ",".join(map(str, texts)) + "]" for _, _, texts in bm25_in]

    def rows(sql: str) -> Callable[[], None]:
        return lambda: [conn.execute(sql, (ids,)).fetchall() for ids in listed]

    print(f"  the candidates' rows: read alone {best_of(5, rows(plain), visits):7.1f}"
          f"   joined with their stored forms {best_of(5, rows(joined), visits):7.1f}")
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--visits", type=int, default=150, help="timed visits a condition, at most")
    parser.add_argument("--question", choices=("common", "own"), default="common")
    parser.add_argument("--cpu", action="store_true", help="time on this thread's CPU")
    parser.add_argument("--parts", action="store_true", help="time each step of the visits too")
    args = parser.parse_args()
    if args.cpu:
        use_thread_cpu()
    with tempfile.TemporaryDirectory() as tmp:
        written = Path(tmp) / "written.db"
        start = perf_counter_ns()
        asked = build_file(written, args.messages, args.sessions)
        print(f"{args.messages:,} messages over {args.sessions:,} sessions written in"
              f" {(perf_counter_ns() - start) / 1e9:.0f} s; question: {args.question}")
        own = {sid: question for sid, question, _ in asked}
        ask = (lambda s: COMMON_QUESTION) if args.question == "common" else own.__getitem__
        order = [sid for sid, _, _ in random.Random(3).sample(asked, len(asked))]
        timed = order[: WARMED + args.visits * len(CONDITIONS)]
        path = Path(tmp) / "visited.db"
        shutil.copy(written, path)
        print(f"\n1. the ceiling: first visits, {(len(timed) - WARMED) // len(CONDITIONS)} sessions"
              " a condition at most, rounds interleaved:")
        if args.parts:
            with Parts() as parts:
                found = ceiling(path, timed, ask, parts)
        else:
            found = ceiling(path, timed, ask)
        today = found["as today"].p50_us
        for c, lat in found.items():
            line(c, lat, f"   {lat.p50_us / today:5.2f} of today")
        if args.parts:
            parts.print()
        path = Path(tmp) / "forms.db"
        shutil.copy(written, path)
        stored_forms(path, order[: WARMED + args.visits], ask)


if __name__ == "__main__":
    main()
