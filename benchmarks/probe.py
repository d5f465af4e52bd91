"""Open one localmem file in a fresh process and report what that costs.

The suite runs it through ``measure()``, in a subprocess so the figures are
clean (nothing imported or cached beforehand)::

    python benchmarks/probe.py FILE --contexts 10000

Prints one JSON object: milliseconds to import localmem, to open the file
(``MemoryStore(path)``) and to build the first context (which loads the
tokenizer); the latency of ``build_context`` on the first visit of each
further session (a fresh process has no cached context and no memoized
rows: the coldest a read can be); the time to build ``--contexts`` contexts
in all, cycling over the sessions with the default configuration; and the
process's resident memory at each step and at its peak (``VmHWM``). The OS
page cache is warm: the file was just written.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from timer import Job, Latency, each


def _status_mb(field: str) -> float:
    """A memory figure of this process from /proc/self/status (Linux), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024  # kB
    raise KeyError(field)


def rss_mb() -> float:
    return _status_mb("VmRSS")


def peak_rss_mb() -> float:
    # VmHWM, not getrusage's ru_maxrss: Linux keeps ru_maxrss across fork+exec,
    # so a child would report its parent's peak if that was higher.
    return _status_mb("VmHWM")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--contexts", type=int, default=10_000)
    args = parser.parse_args()

    conn = sqlite3.connect(f"file:{args.path}?mode=ro", uri=True)
    session_ids = [row[0] for row in conn.execute("SELECT id FROM sessions ORDER BY rowid")]
    conn.close()
    out: dict[str, float] = {"sessions": len(session_ids), "rss_mb_start": rss_mb()}

    def ms(start: int) -> float:
        return round((perf_counter_ns() - start) / 1e6, 3)

    t = perf_counter_ns()
    from localmem import MemoryStore

    out["import_ms"] = ms(t)
    out["rss_mb_after_import"] = rss_mb()
    t = perf_counter_ns()
    store = MemoryStore(args.path)
    out["open_ms"] = ms(t)
    t = perf_counter_ns()
    store.build_context(session_ids[0])
    out["first_context_ms"] = ms(t)
    out["rss_mb_after_first_context"] = rss_mb()

    # Every other session once, each timed: first visits. Then cycle until
    # --contexts contexts were built in all.
    first_visits = [(sid,) for sid in session_ids[1 : args.contexts]]
    job = Job(store.build_context, [first_visits])
    t = perf_counter_ns()
    visits = each(job, first_visits)
    for i in range(len(first_visits) + 1, args.contexts):
        store.build_context(session_ids[i % len(session_ids)])
    out["contexts"] = args.contexts
    out["contexts_s"] = ms(t) / 1e3
    if visits:
        lat = Latency.of([visits])
        out |= {
            "first_visit_p50_us": lat.p50_us,
            "first_visit_p99_us": lat.p99_us,
            "first_visit_mean_us": lat.mean_us,
            "first_visits": lat.n,
        }
    out["rss_mb_end"] = rss_mb()
    out["peak_rss_mb"] = peak_rss_mb()
    store.close()
    json.dump({k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}, sys.stdout)


def measure(path: Path, contexts: int, repeats: int) -> dict[str, Any]:
    """Medians over ``repeats`` fresh processes of what ``probe.py`` reports."""
    runs = []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, __file__, str(path), "--contexts", str(contexts)],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ.copy(),
        )
        runs.append(json.loads(done.stdout))
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]} | {
        "repeats": repeats
    }


if __name__ == "__main__":
    main()
