"""What forgetting costs: ``secure_delete`` on writes and deletes, and a whole forget;
and what routing sessions that keep nothing costs the calls of the others.

    python benchmarks/forget.py [--messages 20000] [--rounds 8] [--per-round 1000]

Two files with the same corpus (``--messages`` messages over 20 sessions,
all in the search index), one store on each: localmem as it is
(``PRAGMA secure_delete = ON``) and the same store with the pragma turned
off (the reference). In interleaved rounds (``timer.interleave``):

- ``add_message``: one message per call, chat-like text (per-call latency);
- the row delete alone: ``DELETE FROM messages WHERE id = ?`` on the store's
  connection (its triggers included: the search index's 'delete', the vectors);
- a whole forget: ``store.delete_message`` (the row, what quotes it, the merge
  of the search index, the log emptied into the file) beside that bare delete.

Routing (``localmem.incognito``): once a store has a session that keeps
nothing, its public methods naming a session are wrapped (on the instance) to
send such a session to its private in-memory store; a store without one calls
the methods directly. ``add_message`` and a cached ``build_context`` on a file
session, through the wrapper and through the class's method itself.

The ratios are printed; timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import tempfile
from pathlib import Path

from timer import Job, Latency, each, interleave

from localmem import MemoryStore

WORDS = (
    "the garden needs watering and the fence painting soon my daughter has a school trip on "
    "friday remind me about the dentist appointment what time is the pickup code budget recipe"
).split()


def offline() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        os.environ["OLLAMA_HOST"] = f"http://127.0.0.1:{s.getsockname()[1]}"


def line(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)) + f" {rng.randrange(10**6)}."


def build(path: Path, messages: int, secure: bool) -> tuple[MemoryStore, list[str]]:
    rng = random.Random(7)  # the same corpus in both files
    store = MemoryStore(path)
    if not secure:
        store._db.conn.execute("PRAGMA secure_delete = OFF")
    sessions = [store.create_session(model="llama3.2").id for _ in range(20)]
    for start in range(0, messages, 1000):
        batch = [{"role": "user" if i % 2 else "assistant", "text": line(rng)} for i in range(1000)]
        store.add_messages(sessions[start // 1000 % 20], batch)
    store.search("garden")  # everything in the index
    store.vacuum()
    return store, sessions


def compare(what: str, jobs: dict[str, Job]) -> None:
    """Run two jobs in interleaved rounds; print each one's per-call latency and
    the first's over the second's."""
    lat = {name: Latency.of(runs) for name, runs in interleave(jobs, each).items()}
    for name, figure in lat.items():
        print(f"{what}, {name}: p50 {figure.p50_us:,.1f} µs, mean {figure.mean_us:,.1f} µs")
    first, second = lat.values()
    print(
        f"  ratio: p50 {first.p50_us / second.p50_us:.3f} ({first.p50_us - second.p50_us:+,.1f} µs),"
        f" mean {first.mean_us / second.mean_us:.3f}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--per-round", type=int, default=1000, help="add_message calls per round")
    args = parser.parse_args()
    offline()
    tmp = Path(tempfile.mkdtemp(prefix="localmem-forget-"))
    stores = {}
    for name, secure in (("secure_delete ON (localmem)", True), ("secure_delete OFF", False)):
        stores[name] = build(tmp / f"{secure}.db", args.messages, secure)
    rng = random.Random(11)
    texts = [[line(rng) for _ in range(args.per_round)] for _ in range(args.rounds + 1)]

    print(f"{args.messages} indexed messages per file, {args.rounds} rounds after a warm-up\n")
    (on_store, on_sids), (off_store, off_sids) = stores.values()

    def adding(st: MemoryStore, sid: str) -> Job:
        return Job(lambda text: st.add_message(sid, "user", text), [[(t,) for t in r] for r in texts])

    def victims(st: MemoryStore, sid: str, count: int) -> list[list[tuple]]:
        ids = [m.id for m in st.get_messages(sid, limit=count * (args.rounds + 1))]
        return [[(i,) for i in ids[r * count:(r + 1) * count]] for r in range(args.rounds + 1)]

    def bare_delete(st: MemoryStore, sid: str, count: int) -> Job:
        sql = "DELETE FROM messages WHERE id = ?"
        return Job(lambda mid: st._db.conn.execute(sql, (mid,)), victims(st, sid, count))

    compare("add_message", {
        "secure_delete ON (localmem)": adding(on_store, on_sids[0]),
        "secure_delete OFF": adding(off_store, off_sids[0]),
    })
    compare("DELETE of one message", {
        "secure_delete ON (localmem)": bare_delete(on_store, on_sids[1], 20),
        "secure_delete OFF": bare_delete(off_store, off_sids[1], 20),
    })
    compare("one message", {
        "store.delete_message (a whole forget)": Job(
            on_store.delete_message, victims(on_store, on_sids[2], 5)
        ),
        "bare DELETE (same store)": bare_delete(on_store, on_sids[3], 5),
    })
    on_store.create_session(persist=False)  # from now on its calls go through the router
    sid = on_sids[4]
    add, ctx = MemoryStore.add_message, MemoryStore.build_context
    compare("add_message", {
        "routed": adding(on_store, sid),
        "the class's method": Job(
            lambda t: add(on_store, sid, "user", t), [[(t,) for t in r] for r in texts]
        ),
    })
    cached = [[()] * args.per_round] * (args.rounds + 1)
    compare("build_context (cached)", {
        "routed": Job(lambda: on_store.build_context(sid), cached),
        "the class's method": Job(lambda: ctx(on_store, sid), cached),
    })
    for st, _ in stores.values():
        st.close()


if __name__ == "__main__":
    main()
