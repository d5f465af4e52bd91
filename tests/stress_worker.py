"""Processes the reliability tests start: ``python -m tests.stress_worker KIND ...``.

Each is a real, separate process with its own connection to the file, the way
an assistant, its CLI and a background job share one database.
"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

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


def opener(directory: str, processes: str, rounds: str, me: str) -> None:
    """Open ``rounds`` brand-new files, each at the same moment as the other openers.

    Before each round every process drops a ``ready`` file and waits for all of
    them, so the openings race as closely as processes can. Prints one line per
    error any of them raised (none expected).
    """
    folder = Path(directory)
    failures = []
    for n in range(int(rounds)):
        (folder / f"ready.{n}.{me}").touch()
        while len(list(folder.glob(f"ready.{n}.*"))) < int(processes):
            time.sleep(0.0005)
        try:
            with MemoryStore(folder / f"{n}.db") as store:
                store.create_session(session_id=f"p{me}")
        except Exception as exc:  # noqa: BLE001 - the test reports what reached the caller
            failures.append(f"round {n}: {type(exc).__name__}: {exc}")
    print("\n".join(failures))


if __name__ == "__main__":
    kinds = {
        "writer": writer,
        "reader": reader,
        "batches": batches,
        "summarizer": summarizer,
        "opener": opener,
    }
    kinds[sys.argv[1]](*sys.argv[2:])
