"""What encryption at rest costs per operation: the same store on a plain file and
on a SQLCipher file (``MemoryStore(path, key=...)``, the ``encrypt`` extra).

    python benchmarks/encryption.py [--messages 5000] [--rounds 6] [--per-round 200]

Two files with the same corpus (``--messages`` messages over 20 sessions, all
in the search index), one store on each, the context cache off
(``cache_ttl=0``) so every context is built. In interleaved rounds
(``timer.interleave``), per call: ``add_message``; ``build_context``; a
context with a query; ``search``; ``get_messages`` (the newest 50). Then
opening a store (in a fresh store object each time: SQLCipher derives the key,
PBKDF2-HMAC-SHA512 at 256,000 iterations, once per connection). The ratios
are encrypted over plain, from the same run; timings are reported, never asserted.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from forget import compare, line, offline
from timer import Job

from localmem import MemoryStore

KEY = "benchmark key"


def build(path: Path, messages: int, key: str | None) -> tuple[MemoryStore, list[str]]:
    rng = random.Random(7)  # the same corpus in both files
    store = MemoryStore(path, config={"cache_ttl": 0, "offline": True}, key=key)
    sessions = [store.create_session(model="llama3.2", session_id=f"s{i}").id for i in range(20)]
    for start in range(0, messages, 500):
        batch = [{"role": "user" if i % 2 else "assistant", "text": line(rng)} for i in range(500)]
        store.add_messages(sessions[start // 500 % 20], batch)
    store.search("garden")  # everything in the index
    return store, sessions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=200)
    args = parser.parse_args()
    offline()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        stores = {
            "encrypted": build(Path(tmp) / "encrypted.db", args.messages, KEY),
            "plain": build(Path(tmp) / "plain.db", args.messages, None),
        }
        sessions = stores["plain"][1]

        def rounds(make) -> list[list[tuple]]:
            return [[make(i) for i in range(args.per_round)] for _ in range(args.rounds + 1)]

        texts = rounds(lambda i: (rng.choice(sessions), "user", line(rng)))
        reads = rounds(lambda i: (rng.choice(sessions),))
        queries = rounds(lambda i: (rng.choice(sessions), "when is the dentist appointment?"))
        words = rounds(lambda i: (rng.choice(["garden", "dentist", "pickup code", "recipe"]),))
        print(f"{args.messages} messages over 20 sessions; per call, encrypted vs plain\n")
        for what, method, calls in (
            ("add_message", "add_message", texts),
            ("build_context", "build_context", reads),
            ("build_context(query=...)", "build_context", [
                [(s, None, q) for s, q in r] for r in queries
            ]),
            ("search", "search", words),
            ("get_messages(limit=50)", "get_messages", [[(s, None, 50) for (s,) in r] for r in reads]),
        ):
            compare(what, {
                name: Job(getattr(store, method), calls) for name, (store, _) in stores.items()
            })
        paths = {name: store.path for name, (store, _) in stores.items()}
        for store, _ in stores.values():
            store.close()
        opens = [[()] * 3 for _ in range(4)]
        compare("open (a new MemoryStore, then close)", {
            "encrypted": Job(lambda: MemoryStore(paths["encrypted"], key=KEY).close(), opens),
            "plain": Job(lambda: MemoryStore(paths["plain"]).close(), opens),
        })


if __name__ == "__main__":
    main()
