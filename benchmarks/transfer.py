"""Export and import: 20,000 corpus messages over 200 sessions, out and back in.

    python benchmarks/transfer.py [--messages 20000] [--runs 3]

Each run exports every session (``store.export_sessions``, the lines kept in
memory) and imports them into a fresh file (``store.import_sessions``). In the
same run, the end record's own cost is measured: hashing the export's lines
(what the export adds) and ``jsonl.check_end`` (the pass over a whole file that
``localmem import FILE`` makes before writing anything), as shares of the
export's and the import's time. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import tempfile
import time

from corpus import iter_sessions

from localmem import MemoryStore
from localmem.jsonl import Tally, check_end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="localmem-transfer-")
    with MemoryStore(f"{workdir}/source.db") as source:
        for session in iter_sessions(args.messages, per_session=100, seed=3):
            sid = source.create_session().id
            source.add_messages(sid, [{"role": r, "text": t} for r, t in session.messages])
        for run in range(args.runs):
            started = time.perf_counter()
            lines = list(source.export_sessions())
            exported = time.perf_counter() - started
            started = time.perf_counter()
            Tally().add(lines)
            hashed = time.perf_counter() - started
            with MemoryStore(f"{workdir}/copy-{run}.db") as copy:
                started = time.perf_counter()
                report = copy.import_sessions(lines)
                imported = time.perf_counter() - started
            started = time.perf_counter()
            check_end(lines)
            checked = time.perf_counter() - started
            print(
                f"run {run}: export {len(lines):,} lines in {exported:.2f} s "
                f"(hashing them: {hashed / exported:.0%} of it), "
                f"import {report.counts['message']:,} messages in {imported:.2f} s "
                f"(check_end first: {checked / imported:.0%} more)"
            )


if __name__ == "__main__":
    main()
