"""Do two localmem trees build the same query-aware contexts? A check for speed work.

    python benchmarks/same_contexts.py --a /path/to/main --b . [--messages 20000] [--sessions 200]
                                       [--again]

One file of ``query.py``'s corpus (each session's planted fact), written by tree A;
then each tree, in a fresh process importing localmem from it (``PYTHONHASHSEED=0``),
builds the context of every (session, query) pair below on its own copy of the
file, with ``recall_scope`` "session" and then "user", cache off: the sessions'
planted-fact questions, a question of common words only, random runs of the
corpus's words (seeded), whole messages (as ``auto_query`` asks), and odd input
(key-like and accented words, dates). Each context is compared whole
(every field, as JSON with sorted keys). Prints how many differ and the first
few; exits 1 if any does. With ``--again``, each tree builds every context a
second time once all were built (a repeat visit: what a memo serves), and any
that differs from its first build counts too. Nothing is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

BUILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import query
asked = query.build_file(__import__("pathlib").Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
with open(sys.argv[3] + ".json", "w") as f:
    json.dump(asked, f)
"""

CONTEXTS = r"""
import hashlib, json, os, random, shutil, sqlite3, sys, tempfile
sys.path.insert(0, sys.argv[1])
os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"
import localmem
from localmem import MemoryStore
source = sys.argv[2]
with open(source + ".json") as f:
    asked = json.load(f)
common = "What did you say about the python database and the project deadline?"
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "copy.db")
    shutil.copy(source, path)
    conn = sqlite3.connect(path)
    texts = [r[0] for r in conn.execute("SELECT text FROM messages WHERE id % 50 = 3 ORDER BY id LIMIT 400")]
    conn.close()
    rng = random.Random(5)
    vocabulary = sorted({w.strip(".,?!`()\"'") for t in texts for w in t.split()} - {""})
    queries = [common, "s0", "sesame", "school pickup code", "caf\u00e9 na\u00efve r\u00e9sum\u00e9",
               "anything from last week about the budget?", "the code from March 4, 2026"]
    queries += [q for _, q, _ in asked[:40]]
    queries += [" ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 8))) for _ in range(60)]
    queries += texts[:30]
    out = {"localmem": localmem.__file__, "contexts": {}, "again": []}
    for scope in ("session", "user"):
        with MemoryStore(path, config={"cache_ttl": 0, "recall_scope": scope}) as store:
            for again in range(int(sys.argv[3]) + 1):
                for i, q in enumerate(queries):
                    sid = asked[(i * 7) % len(asked)][0]
                    ctx = store.build_context(sid, query=q)
                    whole = json.dumps(ctx.model_dump(mode="json"), sort_keys=True)
                    key = f"{scope} | {sid} | {q[:60]}"
                    digest = hashlib.sha256(whole.encode()).hexdigest()
                    if again and out["contexts"][key] != digest:
                        out["again"].append(key)
                    out["contexts"][key] = out["contexts"].get(key, digest)
print(json.dumps(out))
"""


def run(code: str, *args: str) -> str:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    if done.returncode:
        raise SystemExit(f"{args[0]}: {done.stderr.strip().splitlines()[-1]}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference tree (main)")
    parser.add_argument("--b", type=Path, required=True, help="the tree compared with it")
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--again", action="store_true",
                        help="each tree builds every context a second time, after all of them")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "contexts.db"
        run(BUILD, str(args.a.resolve()), str(HERE), str(path), str(args.messages), str(args.sessions))
        found = {}
        for key, tree in (("a", args.a), ("b", args.b)):
            found[key] = json.loads(
                run(CONTEXTS, str(tree.resolve()), str(path), str(int(args.again)))
            )
            assert Path(found[key]["localmem"]).is_relative_to(tree.resolve()), found[key]["localmem"]
    a, b = found["a"]["contexts"], found["b"]["contexts"]
    differ = [k for k in a if a[k] != b.get(k)]
    print(f"{len(a)} contexts ({args.messages:,} messages, {args.sessions:,} sessions): "
          f"{len(a) - len(differ)} the same, {len(differ)} different")
    for k in differ[:10]:
        print("  differs:", k)
    again = [f"{tree}: {k}" for tree in ("a", "b") for k in found[tree]["again"]]
    if args.again:
        print(f"built again: {len(again)} different from the first build")
        for k in again[:10]:
            print("  differs again:", k)
    return 1 if differ or again else 0


if __name__ == "__main__":
    sys.exit(main())
