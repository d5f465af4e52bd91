"""What the search index costs the write path: a same-run A/B of two localmem trees.

    python benchmarks/index_cost.py --a /path/to/main --b . [--rounds 7] [--messages 1000]

Both trees write the same synthetic corpus (``corpus.py``) to a fresh file
each: ``add_message`` (one message per call, one transaction each) and
``add_messages`` (batches of 100). The trees alternate round by round
(A, B, A, B, ...), each round in a fresh process that imports localmem from
its tree, so drift of the machine lands on both alike. Round 0 is a warm-up
and is discarded. It prints each tree's median rate and B's rate as a ratio
of A's; nothing is asserted. Used for m012_search_at_commit (the README's
"What the search index costs").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# One round in a fresh process: the tree's localmem, a fresh file, the corpus's
# first messages one per call, then in batches of 100 (a second fresh file).
WORKER = r"""
import json, os, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"
import localmem
from localmem import MemoryStore
from corpus import make_corpus
n = int(sys.argv[3])
corpus = make_corpus(max(n, 2000), 20)
flat = [(s.id, r, t) for s in corpus.sessions for r, t in s.messages][:n]
out = {"localmem": localmem.__file__}
with tempfile.TemporaryDirectory() as tmp:
    with MemoryStore(os.path.join(tmp, "single.db")) as store:
        for s in corpus.sessions:
            store.create_session(session_id=s.id)
        start = time.perf_counter()
        for sid, role, text in flat:
            store.add_message(sid, role, text)
        out["add_message"] = n / (time.perf_counter() - start)
    with MemoryStore(os.path.join(tmp, "batch.db")) as store:
        for s in corpus.sessions:
            store.create_session(session_id=s.id)
        batches = [flat[i:i + 100] for i in range(0, n - n % 100, 100)]
        start = time.perf_counter()
        for batch in batches:
            store.add_messages(batch[0][0], [{"role": r, "text": t} for _, r, t in batch])
        out["add_messages_100"] = 100 * len(batches) / (time.perf_counter() - start)
print(json.dumps(out))
"""


def one_round(tree: Path, messages: int) -> dict:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(tree.resolve()), str(HERE), str(messages)],
        capture_output=True, text=True, check=True, env=env,
    )
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference tree (main)")
    parser.add_argument("--b", type=Path, required=True, help="the tree measured against it")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds per tree")
    parser.add_argument("--messages", type=int, default=1000, help="messages per round")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict]] = {"a": [], "b": []}
    for i in range(args.rounds + 1):
        for key, tree in (("a", args.a), ("b", args.b)):
            result = one_round(tree, args.messages)
            if i:
                runs[key].append(result)
    assert Path(runs["a"][0]["localmem"]).is_relative_to(args.a.resolve())
    assert Path(runs["b"][0]["localmem"]).is_relative_to(args.b.resolve())
    print(f"{args.rounds} rounds of {args.messages} messages; median messages/s (B/A)")
    for metric in ("add_message", "add_messages_100"):
        a = statistics.median(r[metric] for r in runs["a"])
        b = statistics.median(r[metric] for r in runs["b"])
        ratios = [rb[metric] / ra[metric] for ra, rb in zip(runs["a"], runs["b"])]
        print(
            f"{metric:18} A {a:9.0f}  B {b:9.0f}  B/A {b / a:.2f}"
            f" (per-round ratios {min(ratios):.2f}..{max(ratios):.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
