"""The one timing helper every scenario goes through.

A scenario hands ``interleave`` one job per system: a function and its calls,
split into rounds. Round 0 is a warm-up and is discarded; in every later
round each system runs its share in turn, so slow drift of the machine (page
cache, CPU frequency, a background fsync) spreads over all systems alike
instead of landing on whichever ran last.

Two ways to time a round: ``wall`` (one ``perf_counter_ns`` span around the
whole loop, for throughput) and ``each`` (one span per call, for latency
percentiles). Data is prepared before a round starts; nothing here builds
data. Timings are reported, never asserted.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from time import perf_counter_ns, thread_time_ns
from typing import Any

_clock: Callable[[], int] = perf_counter_ns


def now() -> int:
    """The clock every timing here reads, in ns: the wall clock unless ``use_thread_cpu``."""
    return _clock()


def use_thread_cpu() -> None:
    """Time on this thread's CPU from now on (``time.thread_time_ns``), not the wall
    clock: on a machine other jobs share, the time they take is left out (and so is
    any wait: the file's I/O from the page cache still counts, a sleep does not)."""
    global _clock
    _clock = thread_time_ns

Call = tuple[Any, ...]
"""The positional arguments of one call."""


@dataclass(frozen=True)
class Job:
    """``fn(*call)`` for every call of every round; ``weight(call)`` messages per call."""

    fn: Callable[..., Any]
    rounds: Sequence[Sequence[Call]]
    weight: Callable[[Call], int] = lambda call: 1


def wall(job: Job, calls: Sequence[Call]) -> tuple[int, int]:
    """(work units, ns) for running the calls back to back."""
    fn = job.fn
    start = now()
    for call in calls:
        fn(*call)
    elapsed = now() - start
    return sum(job.weight(call) for call in calls), elapsed


def each(job: Job, calls: Sequence[Call]) -> list[int]:
    """ns of every call."""
    fn = job.fn
    out = []
    for call in calls:
        start = now()
        fn(*call)
        out.append(now() - start)
    return out


def interleave(jobs: dict[str, Job], how: Callable[[Job, Sequence[Call]], Any]) -> dict[str, list]:
    """Run every job's round 0 (a warm-up, measured but dropped), then round 1 of
    each job in turn, round 2, and so on; return each job's per-round results."""
    results: dict[str, list] = {key: [] for key in jobs}
    n_rounds = max(len(job.rounds) for job in jobs.values())
    for r in range(n_rounds):
        for key, job in jobs.items():
            if r >= len(job.rounds):
                continue
            gc.collect()  # start every round with the same, empty young generation
            result = how(job, job.rounds[r])
            if r > 0:
                results[key].append(result)
    return results


@dataclass(frozen=True)
class Throughput:
    """Median over rounds of units per second; every round's figure is kept too."""

    per_s: float
    rounds: tuple[float, ...]

    @classmethod
    def of(cls, samples: Sequence[tuple[int, int]]) -> Throughput:
        rates = tuple(units / (ns / 1e9) for units, ns in samples)
        return cls(per_s=statistics.median(rates), rounds=rates)

    def as_dict(self) -> dict[str, Any]:
        return {"per_s": round(self.per_s, 1), "rounds": [round(r, 1) for r in self.rounds]}


@dataclass(frozen=True)
class Latency:
    """Percentiles of per-call times, in microseconds."""

    p50_us: float
    p95_us: float
    p99_us: float
    mean_us: float
    max_us: float
    n: int

    @classmethod
    def of(cls, rounds: Sequence[Sequence[int]]) -> Latency:
        ns = sorted(x for r in rounds for x in r)
        return cls(
            p50_us=_pct(ns, 50) / 1e3,
            p95_us=_pct(ns, 95) / 1e3,
            p99_us=_pct(ns, 99) / 1e3,
            mean_us=statistics.fmean(ns) / 1e3,
            max_us=ns[-1] / 1e3,
            n=len(ns),
        )

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _pct(sorted_ns: Sequence[int], pct: float) -> float:
    """Nearest-rank percentile of sorted values."""
    rank = max(1, -(-len(sorted_ns) * pct // 100))
    return float(sorted_ns[int(rank) - 1])


def time_once(fn: Callable[[], Any]) -> tuple[Any, float]:
    """(result, ms) of one call: for one-off costs such as opening a file."""
    start = now()
    result = fn()
    return result, (now() - start) / 1e6
