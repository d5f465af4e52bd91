"""What recording each line's sources (m014_sources) costs: store time and file size.

A session of 1,000 messages (the real conversations of benchmarks/real_conversations.py,
one after another, repeated) is summarized range by range with no model (each
``summarize`` takes a checkpoint first, then stores the summary and its facts: where
the sources are written); the time of that loop, the time of 1,000 ``add_message`` before
it, and the file's size after a VACUUM are measured. ``--trees A B`` runs each tree in
its own process, alternated ``--rounds`` times (A, B, A, B, ...), and prints the medians
and B/A::

    python benchmarks/line_sources.py --trees /path/to/main-checkout . --rounds 3

One tree alone (``PYTHONPATH=<tree> python benchmarks/line_sources.py``) prints its own
figures as JSON. Offline: the local model's host is a closed port.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MESSAGES = 1000
CLOSED_PORT_HOST = "http://127.0.0.1:9"


def run_once(count: int) -> dict[str, float]:
    """Build, summarize and measure one store with the ``localmem`` on ``sys.path``."""
    sys.path.insert(0, str(HERE))
    from real_conversations import CONVERSATIONS, pairs

    from localmem import MemoryStore

    said = [p for name in CONVERSATIONS for p in pairs(name)]
    turns = [said[i % len(said)] for i in range(count)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.db"
        config = {"summary_threshold": 15, "recent_summaries": 3, "structured_min_tokens": 10**9}
        with MemoryStore(path, config=config) as store:
            s = store.create_session().id
            start = time.perf_counter()
            for role, text in turns:
                store.add_message(s, role, text)
            added = time.perf_counter() - start
            start = time.perf_counter()
            made = 0
            while store.summarize(s) is not None:
                made += 1
            summarized = time.perf_counter() - start
        with sqlite3.connect(path) as raw:
            raw.execute("VACUUM")
            tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            rows = {
                t: raw.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("checkpoint_sources", "fact_sources") if t in tables
            }
        size = path.stat().st_size
    return {
        "add_message_s": added, "summarize_loop_s": summarized, "summaries": made,
        "file_bytes": size, **{f"{t}_rows": n for t, n in rows.items()},
    }


def ab(trees: list[str], rounds: int, count: int) -> None:
    """Each tree in its own process, alternated; the medians and the ratio of the second to the first."""
    runs: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
    env = {**os.environ, "OLLAMA_HOST": CLOSED_PORT_HOST}
    for _ in range(rounds):
        for tree in trees:
            out = subprocess.run(
                [sys.executable, __file__, "--messages", str(count)],
                env={**env, "PYTHONPATH": str(Path(tree).resolve())},
                capture_output=True, text=True, check=True,
            ).stdout
            runs[tree].append(json.loads(out))
    first, second = trees
    for key in ("add_message_s", "summarize_loop_s", "file_bytes"):
        a = statistics.median(r[key] for r in runs[first])
        b = statistics.median(r[key] for r in runs[second])
        print(f"{key}: {a:.4g} -> {b:.4g} (x{b / a:.3f})")
    print(json.dumps({t: runs[t][-1] for t in trees}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs=2, help="two source trees to compare (A, then B)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--messages", type=int, default=MESSAGES)
    args = parser.parse_args()
    if args.trees:
        ab(args.trees, args.rounds, args.messages)
        return
    os.environ.setdefault("OLLAMA_HOST", CLOSED_PORT_HOST)
    print(json.dumps(run_once(args.messages)))


if __name__ == "__main__":
    main()
