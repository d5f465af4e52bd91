"""The scale sweep: does localmem's per-session cost stay flat as the file grows?

For each size (10,000 -> 100,000 -> 1,000,000 messages; quick mode 10,000
and 50,000) a file is built with ``add_messages``, one ~100-message session
per call, then:

- every session gets its 5 pins and 3 summaries (``scenarios.decorate``);
- cold ``build_context`` p50/p99 (``cache_ttl=0``) over 200 sessions spread
  evenly over the file;
- ``add_message`` throughput, one per call, appending to them;
- the same two operations on a raw sqlite3 file holding the same messages
  (``systems.RawSQLite``), interleaved with localmem's, to tell growth that
  is SQLite's own (a deeper b-tree, more page-cache misses) from localmem's;
- a fresh process (``probe.py``) opens the file, builds its first context,
  visits every session once (first-visit latency: no cache, no memoized
  rows), 10,000 contexts in all, and reports its times and peak RSS.
"""

from __future__ import annotations

from pathlib import Path
from time import perf_counter_ns
from typing import Any

import probe
from corpus import iter_sessions
from scenarios import decorate, read_calls, split_rounds
from systems import LocalMem, RawSQLite
from timer import Job, Latency, Throughput, each, interleave, wall

SAMPLE_SESSIONS = 200


def build(tmp: Path, n_messages: int) -> tuple[LocalMem, RawSQLite, list, float]:
    """Write localmem's file (every session with its pins and summaries) and the
    raw file with the same messages; return both, open, the sampled sessions and
    the rate of localmem's ``add_messages`` alone (msg/s)."""
    lm = LocalMem(tmp / f"sweep-{n_messages}.db", {})
    raw = RawSQLite(tmp / f"sweep-{n_messages}-raw.db", "NORMAL")
    every = max(1, n_messages // 100 // SAMPLE_SESSIONS)
    sample = []
    elapsed = 0
    for i, s in enumerate(iter_sessions(n_messages)):
        items = [lm.native(s.id, role, text) for role, text in s.messages]
        lm.prepare([s.id])
        start = perf_counter_ns()
        lm.add_batch(s.id, items)
        elapsed += perf_counter_ns() - start
        decorate(lm, [s])
        raw.add_batch(s.id, [raw.native(s.id, role, text) for role, text in s.messages])
        if i % every == 0 and len(sample) < SAMPLE_SESSIONS:
            sample.append(s)
    return lm, raw, sample, n_messages / (elapsed / 1e9)


def point(tmp: Path, n_messages: int, plan: Any) -> dict[str, Any]:
    lm, raw, sample, build_rate = build(tmp, n_messages)
    ids = [s.id for s in sample]

    # Reads: localmem cold beside raw last-8, same sessions, interleaved.
    cold = LocalMem(lm.path, {"cache_ttl": 0})
    rounds = read_calls(
        ids, seed=n_messages, n_rounds=plan.read_rounds, per_round=plan.read_per_round
    )
    reads = interleave({"cold": Job(cold.last8, rounds), "raw": Job(raw.last8, rounds)}, each)
    cold.close()

    # Writes: one message per call into the sampled sessions, both files.
    texts = [(role, text) for s in sample for role, text in s.messages]
    n_calls = plan.single_warmup + plan.single_rounds * plan.single_per_round
    picks = [(ids[i % len(ids)], *texts[i % len(texts)]) for i in range(n_calls)]
    jobs = {
        name: Job(
            system.add_one,
            split_rounds(
                [(sid, system.native(sid, role, text)) for sid, role, text in picks],
                plan.single_warmup,
                plan.single_rounds,
            ),
        )
        for name, system in (("add", lm), ("raw", raw))
    }
    writes = interleave(jobs, wall)
    lm.close()
    raw.close()

    size = sum(p.stat().st_size for p in tmp.glob(lm.path.name + "*"))
    opened = probe.measure(lm.path, plan.probe_contexts, plan.probe_repeats)
    return {
        "messages": n_messages,
        "sessions": opened["sessions"],
        "file_mb": round(size / 2**20, 1),
        "build_msg_per_s": round(build_rate, 1),
        "cold_context": Latency.of(reads["cold"]).as_dict(),
        "raw_last8": Latency.of(reads["raw"]).as_dict(),
        "add_message": Throughput.of(writes["add"]).as_dict(),
        "raw_single": Throughput.of(writes["raw"]).as_dict(),
        "open": opened,
    }


def run(tmp: Path, plan: Any, log) -> list[dict[str, Any]]:
    points = []
    for n in plan.sweep_sizes:
        start = perf_counter_ns()
        points.append(point(tmp, n, plan))
        log(f"sweep {n:,} messages: {(perf_counter_ns() - start) / 1e9:.1f} s")
        for leftover in tmp.glob(f"sweep-{n}.db*"):
            leftover.unlink()
    return points
