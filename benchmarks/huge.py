"""What one huge input costs: a message of one letter repeated, and a one-line import.

    python benchmarks/huge.py [--mb 20] [--import-mb 200]

- ``add_message`` of ``--mb`` MB of one letter (tiktoken's worst case: its BPE takes
  ~85 ns a character on such a run), then cold contexts with the default budget and
  with 100,000 tokens (the clip encodes the message's end only);
- the import of an export whose one message is ``--import-mb`` MB of one letter, in a
  fresh process: its peak RSS above the process's baseline and its time (the import
  counts the text again, so its time is mostly that count).

Figures are printed; nothing is asserted (the tests assert the bounds: test_tokens.py,
test_import_checks.py, test_cache.py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from probe import peak_rss_mb

from localmem import MemoryStore

def import_probe(db: str, export: str) -> None:
    """In a fresh process (``--import-probe``): import ``export``, print the peak RSS
    before and after (MiB, VmHWM) and the seconds it took."""
    with MemoryStore(db) as store:
        store.count_tokens("the encoder, loaded before the baseline")
        base = peak_rss_mb()
        started = time.perf_counter()
        with open(export) as lines:
            store.import_sessions(lines)
        took = time.perf_counter() - started
        print(round(base), round(peak_rss_mb()), round(took, 1))


def huge_message(folder: Path, size: int) -> None:
    with MemoryStore(folder / "message.db", config={"cache_ttl": 0}) as store:
        sid = store.create_session().id
        store.add_message(sid, "user", "warm up the encoder")
        started = time.perf_counter()
        store.add_message(sid, "user", "a" * size)
        print(f"add_message, {size / 1e6:.0f} MB of one letter: {time.perf_counter() - started:.2f} s")
        for budget in (3000, 100_000):
            started = time.perf_counter()
            store.build_context(sid, max_tokens=budget)
            print(f"cold context, budget {budget:,}: {(time.perf_counter() - started) * 1000:.0f} ms")


def huge_import(folder: Path, size: int) -> None:
    export = folder / "big.jsonl"
    with MemoryStore(folder / "source.db") as source:
        source.create_session(session_id="big")
        source.add_message("big", "user", "a" * size)
        with export.open("w") as f:
            for line in source.export_sessions():
                f.write(line + "\n")
    probe = [sys.executable, __file__, "--import-probe", str(folder / "target.db"), str(export)]
    base, peak, took = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.split()
    grown = int(peak) - int(base)
    print(
        f"import of a {size / 1e6:.0f} MB one-line export: peak RSS {peak} MB "
        f"({grown} MB over the process's {base} MB, {grown * 2**20 / size:.2f}x the line), {took} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=20, help="MB of the huge message")
    parser.add_argument("--import-mb", type=int, default=200, help="MB of the one-line import")
    parser.add_argument("--import-probe", nargs=2, metavar=("DB", "EXPORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_probe:
        import_probe(*args.import_probe)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        huge_message(folder, args.mb * 1_000_000)
        huge_import(folder, args.import_mb * 1_000_000)



if __name__ == "__main__":
    main()
