"""Compaction by age (``store.maintain``): what it saves in the context, and its cost.

    python benchmarks/maintain.py [--sessions 200] [--messages 100]

Tokens. One busy session (a goal, a subtask, 8 tool calls, 12 read and 25
modified files, 100 messages) left idle for 0, 1.5, 8 and 31 days, then
``maintain``: the context's state and summary tokens at each level.

Cost. ``--sessions`` sessions of ``--messages`` messages, all idle for 31
days: one ``maintain`` (every range summarized, rolled into one rollup per
session) and a second one (which must find nothing to do). Summaries are the
deterministic offline ones (nothing listens at OLLAMA_HOST), so this times
localmem, not a model. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import socket
import tempfile
import time
from datetime import datetime, timedelta, timezone

from localmem import MemoryStore

START = datetime(2026, 1, 5, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def offline() -> None:
    """Point OLLAMA_HOST at a loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        os.environ["OLLAMA_HOST"] = f"http://127.0.0.1:{s.getsockname()[1]}"


def busy_session(store: MemoryStore) -> str:
    sid = store.create_session(model="llama3.2").id
    store.set_goal(sid, "Migrate the billing service to Postgres")
    store.add_subtask(sid, "Port the invoices table")
    for i in range(8):
        store.record_tool(sid, "run_sql", {"step": i}, result_summary=f"step {i} ok")
    for i in range(12):
        store.track_file(sid, f"src/read_{i}.py")
    for i in range(25):
        store.track_file(sid, f"src/changed_{i}.py", modified=True)
    store.add_messages(
        sid,
        [
            {
                "role": "user" if i % 2 == 0 else "assistant",
                "text": f"Step {i}: moved table t{i} to Postgres and checked the row counts.",
            }
            for i in range(100)
        ],
    )
    return sid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--messages", type=int, default=100)
    args = parser.parse_args()
    offline()
    workdir = tempfile.mkdtemp(prefix="localmem-maintain-")
    print("One busy session, by days idle (context at 3,000 tokens):")
    for days in (0, 1.5, 8, 31):
        clock = Clock()
        with MemoryStore(f"{workdir}/idle-{days}.db", clock=clock) as store:
            sid = busy_session(store)
            clock.now += timedelta(days=days)
            report = store.maintain()
            level = report.compacted[0].level if report.compacted else 0
            ctx = store.build_context(sid)
            print(
                f"  idle {days:>4} days, level {level}: state {ctx.breakdown.get('state', 0):>4} tokens, "
                f"summaries {ctx.breakdown.get('summaries', 0):>4}, total {ctx.total_tokens:>4}"
            )
    clock = Clock()
    with MemoryStore(f"{workdir}/many.db", clock=clock) as store:
        for k in range(args.sessions):
            sid = store.create_session().id
            store.add_messages(
                sid,
                [
                    {"role": "user", "text": f"Message {i} of session {k} about the invoices."}
                    for i in range(args.messages)
                ],
            )
        clock.now += timedelta(days=31)
        started = time.perf_counter()
        first = store.maintain()
        first_s = time.perf_counter() - started
        started = time.perf_counter()
        second = store.maintain()
        second_s = time.perf_counter() - started
    print(
        f"{args.sessions} sessions x {args.messages} messages idle 31 days: maintain {first_s:.2f} s "
        f"({len(first.compacted)} compacted, {1000 * first_s / args.sessions:.1f} ms per session); "
        f"again: {1000 * second_s:.1f} ms ({len(second.compacted)} compacted)"
    )


if __name__ == "__main__":
    main()
