"""localmem's own part of a query-aware context with an embedder, in process, and where it goes.

    python benchmarks/semantic_context.py [--messages 300] [--others 97] [--profile]
                                          [--contexts FILE]

``mcp_server.py``'s file (a ``--messages`` conversation beside ``--others`` sessions
of 100 messages), a new three-word query per call. The embedder is all-MiniLM-L6-v2
(``minilm.py``, ``$MINILM_DIR``) handed to the store as a host's own
(``MemoryStore(embedder=...)``), each text's vector computed once and then served
from memory: what is timed is localmem alone, no model and no network (the model's
time and the HTTP round trip are ``mcp_server.py --embedder``'s).

Printed, in one run: every query's ``build_context`` (cache off) with the embedder
(each query's vector computed in a first pass; the second pass is timed) and
lexical (a store without it; each query's first context, timed), p50 and p90;
then, with the embedder, the time of each stage per context (wrappers around the
functions named, so a stage holds the stages it calls). ``--profile``: the same
calls under cProfile (its figures as shares: it slows Python more than C).
``--contexts FILE``: each context's SHA-256 (the text and the messages a model is
handed) and its relevant message ids, one line per query, for ``cmp`` with another
tree's (``PYTHONPATH=<tree>``) on the same file: the file is kept beside FILE
(``FILE.db``) and reused when there, its vectors dropped first so that each tree
stores its own.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import hashlib
import os
import pstats
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # no Ollama: the host's embedder only
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from mcp_server import SESSION, build_file  # noqa: E402
from minilm import MiniLM  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem import contexts, rank, recall, reranking, semantic, vectors  # noqa: E402

STAGES: tuple[tuple[Any, str], ...] = (
    (contexts.Contexts, "_semantic"),
    (recall.Recall, "embedded_query"),
    (semantic.Semantic, "query_vector"),
    (recall.Recall, "relevant"),
    (recall.Recall, "_dense"),
    (vectors.Vectors, "top"),
    (recall.Recall, "_messages"),
    (recall.Recall, "_with_neighbours"),
    (rank, "bm25"),
    (rank, "fuse"),
    (reranking, "spread"),
    (contexts, "pack"),
)
"""(owner, name): the functions timed as stages (``contexts.pack`` is ``packing.pack``)."""


class Remembered:
    """A host's embedder: MiniLM, each text's vector computed once, then from memory."""

    model = "all-minilm:latest"

    def __init__(self, model: MiniLM) -> None:
        self._model = model
        self._known: dict[str, list[float]] = {}

    def _vectors(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._known]
        if missing:
            for text, vector in zip(missing, self._model.embed(missing)):
                self._known[text] = vector.tolist()
        return [self._known[t] for t in texts]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self._vectors(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._vectors([text])[0]


def stamped(spent: dict[str, list[int]]) -> None:
    """Each of ``STAGES`` wrapped: its nanoseconds per call appended to ``spent``."""
    for owner, name in STAGES:
        fn = getattr(owner, name)
        label = f"{owner.__name__.rsplit('.', 1)[-1]}.{name}"

        def timed(*args: Any, _fn: Callable = fn, _label: str = label, **kw: Any) -> Any:
            started = time.perf_counter_ns()
            try:
                return _fn(*args, **kw)
            finally:
                spent[_label].append(time.perf_counter_ns() - started)

        setattr(owner, name, functools.wraps(fn)(timed))


def timings(store: MemoryStore, queries: list[str]) -> list[float]:
    out = []
    for query in queries:
        started = time.perf_counter()
        store.build_context(SESSION, max_tokens=3000, query=query)
        out.append(time.perf_counter() - started)
    return out


def p(times: list[float], q: int) -> str:
    return f"{statistics.quantiles(times, n=100)[q - 1] * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--others", type=int, default=97, help="other sessions of 100 messages")
    parser.add_argument("--profile", action="store_true", help="then the same under cProfile")
    parser.add_argument("--contexts", help="write each context's hash and relevant ids here")
    args = parser.parse_args()
    path = (Path(args.contexts + ".db") if args.contexts
            else Path(tempfile.mkdtemp(prefix="localmem-semantic-")) / "memory.db")
    asked = path.with_suffix(".queries")
    if not path.exists():
        asked.write_text("\n".join(build_file(path, args.messages, args.others)))
    queries = list(dict.fromkeys(asked.read_text().splitlines()))
    with sqlite3.connect(path) as conn:  # each tree stores (packs) its own vectors
        conn.execute("DELETE FROM embeddings")
    embedder = Remembered(MiniLM())
    config = {"cache_ttl": 0}
    with MemoryStore(path, embedder=embedder, config=config) as store:
        stored = store.embed_pending(SESSION)
        lines = []
        for query in queries:  # every query's vector computed: the model out of the timings
            context = store.build_context(SESSION, max_tokens=3000, query=query)
            handed = context.memory_text() + repr(context.to_messages())
            ids = ",".join(str(m.id) for m in context.relevant_messages)
            lines.append(f"{hashlib.sha256(handed.encode()).hexdigest()} {ids}")
        if args.contexts:
            Path(args.contexts).write_text("\n".join(lines) + "\n")
            print(f"{len(lines)} contexts written to {args.contexts}")
        with MemoryStore(path, config=config) as lexical:
            for query in queries[:5]:
                lexical.build_context(SESSION, max_tokens=3000, query=query[::-1])  # warm-up
            plain = timings(lexical, queries)
        with_vectors = timings(store, queries)
        print(f"{args.messages}-message session beside {args.others} of 100 ({stored} vectors "
              f"stored), {len(queries)} queries, build_context in process, cache off:")
        print(f"  with the embedder (vectors from memory) p50 {p(with_vectors, 50)}, p90 "
              f"{p(with_vectors, 90)}; lexical p50 {p(plain, 50)}, p90 {p(plain, 90)}")
        spent: dict[str, list[int]] = defaultdict(list)
        stamped(spent)
        timings(store, queries)
        print("  with the embedder, per context (a stage holds those it calls):")
        for label, ns in sorted(spent.items(), key=lambda item: -sum(item[1])):
            print(f"    {label:28} {sum(ns) / len(queries) / 1000:8.1f} µs mean, p50 of a call "
                  f"{statistics.median(ns) / 1000:7.1f} µs ({len(ns)} calls)")
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(timings, store, queries)
            stats = pstats.Stats(profile)
            stats.sort_stats("tottime").print_stats(20)
            stats.sort_stats("cumtime").print_stats(30)


if __name__ == "__main__":
    main()
