"""Processes the reliability tests start: ``python -m tests.stress_worker KIND ...``.

Each is a real, separate process with its own connection to the file, the way
an assistant, its CLI and a background job share one database.
"""

from __future__ import annotations

import sys
import time
import uuid

from localmem import MemoryStore


def writer(db: str, session: str, count: str) -> None:
    """``count`` add_message calls, numbered, so the test can check their order."""
    with MemoryStore(db) as store:
        for i in range(int(count)):
            store.add_message(session, "user", f"{session}:{i}")


def reader(db: str, seconds: str, *sessions: str) -> None:
    """Build contexts in a loop while the writers write; print how many."""
    built = 0
    deadline = time.monotonic() + float(seconds)
    with MemoryStore(db) as store:
        while time.monotonic() < deadline:
            for session in sessions:
                ctx = store.build_context(session)
                assert ctx.total_tokens <= ctx.max_tokens
                built += 1
    print(built)


def batches(db: str, session: str) -> None:
    """Write 50-message batches and summarize, forever (until the test kills us)."""
    with MemoryStore(db) as store:
        n = 0
        while True:
            tag = uuid.uuid4().hex
            store.add_messages(
                session, [{"role": "user", "text": f"{tag}:{i}"} for i in range(50)]
            )
            n += 1
            if n % 2 == 0:
                store.summarize(session)
            if n == 1:
                print("writing", flush=True)


def summarizer(db: str, session: str) -> None:
    """Summarize every due range of one session; print how many this process stored."""
    stored = 0
    with MemoryStore(db) as store:
        while store.needs_summarization(session):
            if store.summarize(session) is not None:
                stored += 1
    print(stored)


if __name__ == "__main__":
    kinds = {"writer": writer, "reader": reader, "batches": batches, "summarizer": summarizer}
    kinds[sys.argv[1]](*sys.argv[2:])
