"""The summarizer's own cost, beside the work it wraps, in one process.

- ``summarize`` against a local Ollama-speaking server that answers at once
  (tests/ollama_server.py on 127.0.0.1), next to a bare ``/api/chat`` round
  trip with the same client: the difference is what localmem adds (choosing
  the model, the prompt, sizing ``num_ctx``, validation, three transactions).
- the deterministic fallbacks and the validation of a 15-message range.

    python benchmarks/summarizer.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from localmem import MemoryStore  # noqa: E402
from localmem.summarizer.fallback import keyword_summary, offline_summary  # noqa: E402
from localmem.summarizer.validation import validate_summary  # noqa: E402
from tests.ollama_server import FakeOllama  # noqa: E402

ROUNDS = 60
TURN = "Turn {i}: how do we index the franchisees table by region, and why is the query slow?"
SUMMARY = (
    "The user asked how to index the franchisees table by region; the assistant suggested "
    "CREATE INDEX and checking the query plan."
)


def p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


def timed(call, rounds: int = ROUNDS) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    pairs = [("user" if i % 2 == 0 else "assistant", TURN.format(i=i)) for i in range(15)]
    conversation = "\n".join(f"{role}: {text}" for role, text in pairs)
    with FakeOllama() as server, tempfile.TemporaryDirectory() as tmp:
        os.environ["OLLAMA_HOST"] = server.host
        with MemoryStore(Path(tmp) / "bench.db") as store:
            session = store.create_session(model="llama3.2")
            store.add_messages(
                session.id,
                [{"role": r, "text": t.replace("Turn", f"Round {n} turn")} for n in range(ROUNDS + 1) for r, t in pairs],
            )
            store.summarize(session.id)  # learn the local models and the context length once
            full = timed(lambda: store.summarize(session.id))
            backend = store._model.summarizer().backend
            probe = [{"role": "user", "content": conversation}]
            bare = timed(lambda: backend.chat("llama3.2:latest", probe, num_ctx=2048))
    rows = [
        ("summarize, server answering at once (p50)", p50_ms(full), "ms"),
        ("bare /api/chat round trip (p50)", p50_ms(bare), "ms"),
        ("added by localmem (p50 difference)", p50_ms(full) - p50_ms(bare), "ms  target <= 5"),
    ]
    for name, call in (
        ("keyword_summary of 15 messages", lambda: keyword_summary(pairs)),
        ("offline_summary of 15 messages", lambda: offline_summary(pairs)),
        ("validate_summary vs 15 messages", lambda: validate_summary(SUMMARY, conversation)),
    ):
        per_call = min(timeit.repeat(call, number=500, repeat=5)) / 500
        target = "target <= 1 ms" if "summary of" in name else "target <= 0.2 ms"
        rows.append((name, per_call * 1e3, f"ms  {target}"))
    for name, value, unit in rows:
        print(f"{name:45s} {value:8.3f} {unit}")


if __name__ == "__main__":
    main()
