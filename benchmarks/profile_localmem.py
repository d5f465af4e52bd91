"""Where localmem's time goes, one public call at a time.

    python benchmarks/profile_localmem.py OP [--calls N] [--top K] [--synchronous FULL]
                                             [--messages 20000] [--sessions 200]

OP is ``add_message``, ``add_messages``, ``cold_context``, ``warm_context``,
``query_context``, ``common_context``, ``first_visit`` or ``after_message``. The call runs alone, on the benchmark's
own corpus and setup (the reference file, 5 pins and 3 summaries per session),
first unprofiled (the true µs per call), then under cProfile. The two
query-aware ops run on ``query.py``'s file instead (``--messages`` over
``--sessions``, cache off): each random session's question about its planted
fact, or ``query.COMMON_QUESTION`` (common words only). ``first_visit``: each
session's first query-aware context (its question) in a store just opened on that
file, every session once; ``after_message``: in a store that asked every session
once, ``add_message`` (not timed) then the session's query-aware context, every
session once; ``--calls`` does not apply to these two, each timed in one pass and
profiled in another (a store of its own). The profile is printed as µs per OP call for the
functions with the most own time (``tottime``) and the most inclusive time
(``cumtime``). cProfile slows Python-level calls more than C-level ones, so
read its figures as shares of the unprofiled total, not as absolute costs.

For the writes, an ablation follows: the same calls, unprofiled, on stores
whose tokenizer and/or scorer are swapped for trivial ones through the
public ``MemoryStore(tokenizer=..., scorer=...)``; the differences are what
counting tokens and scoring cost in place.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from time import perf_counter_ns
from typing import Any

os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # as in run.py: the summarizer stays offline

import query  # noqa: E402
from corpus import make_corpus  # noqa: E402
from scenarios import BATCH_SIZE, chunks, decorate  # noqa: E402
from systems import LocalMem  # noqa: E402
from timer import Job, Throughput, interleave, wall  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem.tokens import Tokenizer  # noqa: E402

OPS = ("add_message", "add_messages", "cold_context", "warm_context", "query_context",
       "common_context", "first_visit", "after_message")
VISIT_OPS = ("first_visit", "after_message")
FIRST_ASKED = 10
"""Sessions a ``first_visit`` store asks before the timed visits: a word's holders in
the whole file are read when a second session asks for it, once."""


class CountNothing(Tokenizer):
    """A tokenizer that does no work: every text is one token."""

    def count(self, text: str) -> int:
        return 1


def setup(
    op: str, tmp: Path, synchronous: str, **policies: Any
) -> tuple[Callable[[int], object], int]:
    """A function doing call ``i`` of OP, and how many messages one call writes."""
    corpus = make_corpus()
    tmp.mkdir(parents=True, exist_ok=True)
    lm = LocalMem(tmp / "profile.db", {"synchronous": synchronous}, **policies)
    for s in corpus.sessions:
        lm.store.create_session(session_id=s.id)
    flat = [(s.id, role, text) for s in corpus.sessions for role, text in s.messages]
    if op == "add_message":
        return (lambda i: lm.store.add_message(*flat[i % len(flat)])), 1
    batches = [
        (s.id, [{"role": r, "text": t} for r, t in part])
        for s in corpus.sessions
        for part in chunks(s.messages, BATCH_SIZE)
        if len(part) == BATCH_SIZE
    ]
    if op == "add_messages":
        return (lambda i: lm.store.add_messages(*batches[i % len(batches)])), BATCH_SIZE
    for sid, items in batches:
        lm.store.add_messages(sid, items)
    decorate(lm, corpus.sessions)
    ids = [s.id for s in corpus.sessions]
    store = LocalMem(lm.path, {"cache_ttl": 0 if op == "cold_context" else 3600}).store
    for sid in ids:
        store.build_context(sid)
    return (lambda i: store.build_context(ids[i % len(ids)])), 0


def query_setup(op: str, tmp: Path, messages: int, sessions: int) -> Callable[[int], object]:
    """Call ``i`` of a query-aware op on ``query.py``'s file (built here)."""
    path = tmp / "query.db"
    asked = query.build_file(path, messages, sessions)
    store = MemoryStore(path, config={"cache_ttl": 0})
    rng = random.Random(7)
    picks = [asked[rng.randrange(len(asked))] for _ in range(4096)]
    if op == "common_context":
        return lambda i: store.build_context(picks[i % len(picks)][0], query=query.COMMON_QUESTION)
    return lambda i: store.build_context(picks[i % len(picks)][0], query=picks[i % len(picks)][1])


def visit_pass(op: str, path: Path, asked: list, timed: Callable[[Callable[[], object]], None]) -> int:
    """One pass of a ``VISIT_OPS`` op in a store just opened on ``path``, each call handed
    to ``timed``; how many calls."""
    order = random.Random(3).sample(asked, len(asked))
    with MemoryStore(path, config={"cache_ttl": 0}) as store:
        if op == "first_visit":
            for sid, question, _ in order[:FIRST_ASKED]:
                store.build_context(sid, query=question)
            visits = order[FIRST_ASKED:]
            for sid, question, _ in visits:
                timed(lambda: store.build_context(sid, query=question))
            return len(visits)
        for sid, question, _ in order:
            store.build_context(sid, query=question)
        for n, (sid, question, _) in enumerate(order):
            store.add_message(sid, "user", f"Another note about the garden, number {n}.")
            timed(lambda: store.build_context(sid, query=question))
        return len(order)


def profile_visits(op: str, tmp: Path, messages: int, sessions: int) -> tuple[float, int, cProfile.Profile]:
    """µs per call of a ``VISIT_OPS`` op unprofiled (the median), its calls, and its profile."""
    path = tmp / "query.db"
    asked = query.build_file(path, messages, sessions)
    times: list[int] = []

    def clocked(call: Callable[[], object]) -> None:
        start = perf_counter_ns()
        call()
        times.append(perf_counter_ns() - start)

    visit_pass(op, path, asked, clocked)
    profile = cProfile.Profile()

    def profiled(call: Callable[[], object]) -> None:
        profile.enable()
        call()
        profile.disable()

    calls = visit_pass(op, path, asked, profiled)
    return statistics.median(times) / 1e3, calls, profile


def report(profile: cProfile.Profile, calls: int, top: int) -> None:
    stats = pstats.Stats(profile).stats  # {(file, line, name): (cc, nc, tt, ct, callers)}
    rows = [
        (f"{Path(f).parent.name}/{Path(f).name}:{line}({name})" if f != "~" else name, nc, tt, ct)
        for (f, line, name), (cc, nc, tt, ct, callers) in stats.items()
    ]
    for title, key in (("own time (tottime)", 2), ("inclusive time (cumtime)", 3)):
        print(f"\n  top {top} by {title}, µs per call of the op:")
        print(f"  {'µs/op':>9} {'calls/op':>9}  function")
        for row in sorted(rows, key=lambda r: r[key], reverse=True)[:top]:
            print(f"  {row[key] / calls * 1e6:>9.2f} {row[1] / calls:>9.2f}  {row[0]}")


def time_calls(call: Callable[[int], object], calls: int) -> float:
    """µs per call, after an untimed warm-up (imports, tokenizer, statement cache)."""
    for i in range(min(200, calls)):
        call(calls + i)
    start = perf_counter_ns()
    for i in range(calls):
        call(i)
    return (perf_counter_ns() - start) / calls / 1e3


ABLATION_ROUNDS = 6
ABLATIONS = (
    ("as shipped", {}),
    ("scorer stubbed", {"scorer": lambda role, text: 0.5}),
    ("tokenizer stubbed", {"tokenizer": CountNothing()}),
    ("both stubbed", {"scorer": lambda role, text: 0.5, "tokenizer": CountNothing()}),
)


def ablate(op: str, calls: int, synchronous: str) -> None:
    """The variants side by side, their rounds interleaved (``timer.interleave``)."""
    print("\n  ablation (unprofiled; one file per variant, rounds interleaved, median round):")
    with tempfile.TemporaryDirectory() as tmp:
        jobs = {}
        for n, (name, policies) in enumerate(ABLATIONS):
            call, _ = setup(op, Path(tmp) / str(n), synchronous, **policies)
            per_round = max(1, calls // ABLATION_ROUNDS)
            rounds = [
                [(i,) for i in range(r * per_round, (r + 1) * per_round)]
                for r in range(ABLATION_ROUNDS + 1)
            ]
            jobs[name] = Job(call, rounds)
        results = interleave(jobs, wall)
    base = None
    for name, samples in results.items():
        us = 1e6 / Throughput.of(samples).per_s
        base = us if base is None else base
        print(f"  {name:<20} {us:>9.1f} µs per call   ({us - base:+.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("op", choices=OPS)
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--top", type=int, default=18)
    parser.add_argument("--synchronous", default="NORMAL", choices=("NORMAL", "FULL"))
    parser.add_argument("--messages", type=int, default=20_000, help="query-aware ops' file")
    parser.add_argument("--sessions", type=int, default=200, help="query-aware ops' file")
    args = parser.parse_args()
    calls = args.calls if args.op != "add_messages" else max(1, args.calls // BATCH_SIZE)
    if args.op in VISIT_OPS:
        with tempfile.TemporaryDirectory() as tmp:
            plain, calls, profile = profile_visits(args.op, Path(tmp), args.messages, args.sessions)
        print(f"{args.op}: {plain:.1f} µs per call unprofiled (median), {calls:,} calls")
        report(profile, calls, args.top)
        return
    with tempfile.TemporaryDirectory() as tmp:
        if args.op in ("query_context", "common_context"):
            call = query_setup(args.op, Path(tmp), args.messages, args.sessions)
            per_call = 0
        else:
            call, per_call = setup(args.op, Path(tmp), args.synchronous)
        plain = time_calls(call, calls)
        profile = cProfile.Profile()
        profile.enable()
        for i in range(calls):
            call(i)
        profile.disable()
    unit = f" ({plain / per_call:.1f} µs per message)" if per_call > 1 else ""
    print(
        f"{args.op} (synchronous={args.synchronous}): {plain:.1f} µs per call unprofiled{unit}, "
        f"{calls:,} calls"
    )
    report(profile, calls, args.top)
    if args.op in ("add_message", "add_messages"):
        ablate(args.op, calls, args.synchronous)


if __name__ == "__main__":
    main()
