"""A session's first query-aware context in two localmem trees, alternated visit by visit.

    python benchmarks/first_visit_ab.py --a /path/to/main --b . [--messages 20000]
                                        [--sessions 200] [--question common|own] [--stores 3]

``query.py``'s file (``--messages`` over ``--sessions``) is written once by tree A.
Each tree then runs in a process of its own (importing localmem from it), with a
store on its own copy of the file, cache off; the parent hands both the same
session in turn, A then B or B then A (who goes first alternates), so that what
the machine does at that moment lands on both alike: on a shared machine two runs
one after the other differ by more than the change measured. Each store visits 40
sessions first (the whole file's holders of a word are read once a second session
asks for it, as in ``query.py``), then every other session once, timed on the
thread's CPU; ``--stores`` stores are opened in turn on fresh copies. Prints each
tree's p50, p95 and mean, the ratio of the p50s and the median of the per-visit
ratios; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from same_contexts import BUILD  # query.py's file written by a tree, its questions beside it

HERE = Path(__file__).resolve().parent
WARMED = 40

VISITOR = r"""
import json, os, shutil, sys, time
os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"
tree, here, source, copy, question = sys.argv[1:6]
sys.path.insert(0, here); sys.path.insert(0, tree)
import query
from localmem import MemoryStore
with open(source + ".json") as f:
    own = {sid: q for sid, q, _ in json.load(f)}
ask = (lambda s: query.COMMON_QUESTION) if question == "common" else own.__getitem__
store = None
for line in sys.stdin:
    command, _, sid = line.strip().partition(" ")
    if command == "open":
        if store is not None:
            store.close()
        shutil.copy(source, copy)
        store = MemoryStore(copy, config={"cache_ttl": 0})
        print("ok", flush=True)
    elif command == "warm":
        store.build_context(sid, query=ask(sid))
        print("ok", flush=True)
    else:
        start = time.thread_time_ns()
        store.build_context(sid, query=ask(sid))
        print(time.thread_time_ns() - start, flush=True)
store.close()
"""


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference tree (main)")
    parser.add_argument("--b", type=Path, required=True, help="the tree measured against it")
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--question", choices=("common", "own"), default="common")
    parser.add_argument("--stores", type=int, default=3, help="stores opened in turn, each tree")
    args = parser.parse_args()
    trees = [args.a.resolve(), args.b.resolve()]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "written.db"
        subprocess.run(
            [sys.executable, "-c", BUILD, str(trees[0]), str(HERE), str(source),
             str(args.messages), str(args.sessions)],
            check=True,
        )
        with open(str(source) + ".json") as f:
            asked = json.load(f)
        order = [sid for sid, _, _ in random.Random(3).sample(asked, len(asked))]
        visitors = [
            subprocess.Popen(
                [sys.executable, "-c", VISITOR, str(tree), str(HERE), str(source),
                 str(Path(tmp) / f"visited-{n}.db"), args.question],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            for n, tree in enumerate(trees)
        ]

        def tell(n: int, command: str) -> str:
            visitors[n].stdin.write(command + "\n")
            visitors[n].stdin.flush()
            return visitors[n].stdout.readline().strip()

        times: list[list[int]] = [[], []]
        try:
            for store in range(args.stores):
                for n in (0, 1):
                    tell(n, "open")
                for sid in order[:WARMED]:
                    for n in (0, 1):
                        tell(n, f"warm {sid}")
                for j, sid in enumerate(order[WARMED:]):
                    first = (j + store) % 2
                    for n in (first, 1 - first):
                        times[n].append(int(tell(n, f"visit {sid}")))
        finally:
            for visitor in visitors:
                visitor.stdin.close()
                visitor.wait()
    print(f"{args.messages:,} messages over {args.sessions:,} sessions, question: {args.question},"
          f" {len(times[0])} first visits each, alternated visit by visit (thread CPU):")
    for name, tree, found in zip("AB", trees, times):
        print(f"  {name} {str(tree):<40} p50 {percentile(found, 0.5):7.0f} µs"
              f"   p95 {percentile(found, 0.95):7.0f} µs   mean {statistics.mean(found) / 1e3:7.0f} µs")
    ratios = sorted(b / a for a, b in zip(*times))
    print(f"  B/A: p50 {percentile(times[1], 0.5) / percentile(times[0], 0.5):.3f},"
          f" median of the per-visit ratios {ratios[len(ratios) // 2]:.3f}")


if __name__ == "__main__":
    main()
