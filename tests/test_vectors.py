"""The vectors in memory (issue 22 point 6): loaded once, kept current on write and
forget (by this store and by another connection), every vector of the scope scored.

The embedder is a host's own (``MemoryStore(embedder=...)``, the public way to bring
one): a deterministic bag of words, so that the nearest vector is the one sharing the
rarest word, with no model and no network.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3

import pytest

from localmem import MemoryStore

DIMS = 64


class Words:
    """A host embedder: each word a fixed random direction, a text their sum."""

    model = "bag-of-words"

    def __init__(self) -> None:
        self.calls = 0

    @staticmethod
    def vector(text: str) -> list[float]:
        out = [0.0] * DIMS
        for word in text.lower().replace(".", " ").replace("?", " ").split():
            digest = hashlib.sha256(word.encode()).digest()
            for n in range(DIMS):
                out[n] += (digest[n % 32] - 127.5) / 127.5 * (1 if n < 32 else -1)
        return out if any(out) else [1.0] + [0.0] * (DIMS - 1)

    def embed_documents(self, texts):
        self.calls += 1
        return [self.vector(t) for t in texts]

    def embed_query(self, text):
        self.calls += 1
        return self.vector(text)


def open_store(db_path, **config) -> MemoryStore:
    settings = {"relevant_messages": 3, "cache_ttl": 0, **config}
    return MemoryStore(db_path, config=settings, embedder=Words())


def test_recall_across_sessions_scores_every_vector_not_the_newest_5000(db_path) -> None:
    with open_store(db_path, recall_scope="user") as store:
        old = store.create_session()
        fact = store.add_message(old.id, "user", "zanzibar quokka saxophone")
        other = store.create_session()
        store.add_messages(
            other.id, [{"role": "user", "text": f"note {n} filler words"} for n in range(5200)]
        )
        assert store.embed_pending() == 5201
        current = store.create_session()
        store.add_message(current.id, "user", "hello")
        ctx = store.build_context(current.id, query="quokka saxophone zanzibar")
        assert fact.id in [m.id for m in ctx.relevant_messages]


def test_a_forgotten_message_leaves_the_matrix(db_path) -> None:
    with open_store(db_path) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "the quokka plays saxophone")
        store.add_messages(s.id, [{"role": "user", "text": f"line {n} here"} for n in range(30)])
        ctx = store.build_context(s.id, query="saxophone quokka")
        assert fact.id in [m.id for m in ctx.relevant_messages]
        held = store._recall._vectors  # the matrices, as loaded by that query
        before = len(held)
        store.delete_message(fact.id)
        ctx = store.build_context(s.id, query="saxophone quokka")
        assert fact.id not in [m.id for m in ctx.relevant_messages]
        assert len(held) == before - 1  # gone from memory, not only filtered out
        store.clear_messages(s.id)
        store.build_context(s.id, query="saxophone quokka")
        assert len(held) == 0


def test_new_vectors_join_the_matrix_without_a_reload(db_path) -> None:
    with open_store(db_path) as store:
        s = store.create_session()
        store.add_messages(s.id, [{"role": "user", "text": f"line {n} here"} for n in range(30)])
        store.build_context(s.id, query="anything")
        held = store._recall._vectors
        fact = store.add_message(s.id, "user", "the quokka plays saxophone")
        store.add_messages(s.id, [{"role": "user", "text": f"more {n}"} for n in range(12)])
        ctx = store.build_context(s.id, query="saxophone quokka")
        assert fact.id in [m.id for m in ctx.relevant_messages]
        assert len(held) == 43


def test_another_connections_forget_and_write_are_seen(db_path) -> None:
    with open_store(db_path) as store, open_store(db_path) as other:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "the quokka plays saxophone")
        store.add_messages(s.id, [{"role": "user", "text": f"line {n} here"} for n in range(30)])
        assert fact.id in [
            m.id for m in store.build_context(s.id, query="saxophone quokka").relevant_messages
        ]
        other.delete_message(fact.id)
        found = [m.id for m in store.build_context(s.id, query="saxophone quokka").relevant_messages]
        assert fact.id not in found
        assert len(store._recall._vectors) == 30
        second = other.add_message(s.id, "user", "a quokka and a saxophone again")
        other.embed_pending()
        store.add_messages(s.id, [{"role": "user", "text": f"tail {n}"} for n in range(12)])
        found = [m.id for m in store.build_context(s.id, query="saxophone quokka").relevant_messages]
        assert second.id in found


def test_the_plain_python_fallback_ranks_alike(db_path, monkeypatch) -> None:
    import localmem.vectors as vectors

    with open_store(db_path) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "the quokka plays saxophone")
        store.add_messages(s.id, [{"role": "user", "text": f"line {n} here"} for n in range(30)])
        fast = store.build_context(s.id, query="saxophone quokka").relevant_messages
    monkeypatch.setattr(vectors, "np", None)
    with open_store(db_path) as store:
        slow = store.build_context(s.id, query="saxophone quokka").relevant_messages
    assert fact in fast and [m.id for m in fast] == [m.id for m in slow]


@pytest.mark.parametrize("rows", [0, 1])
def test_a_file_without_vectors_is_no_error(db_path, rows) -> None:
    with open_store(db_path) as store:
        s = store.create_session()
        store.add_messages(s.id, [{"role": "user", "text": f"line {n}"} for n in range(rows)])
        assert store.build_context(s.id, query="line").total_tokens >= 0
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM embeddings").fetchone()[0] == rows
    assert math.isfinite(1.0)




def test_a_run_of_rows_and_scattered_rows_rank_as_the_fallback(db_path, monkeypatch) -> None:
    # With numpy, a session whose rows are one run in the matrix is scored on a view of
    # them, one whose rows are scattered (sessions written in turns, a row forgotten) on
    # a copy of them: both give the nearest as plain Python does.
    pytest.importorskip("numpy")
    import localmem.vectors as vectors
    from localmem.embeddings import pack

    texts = [f"line {n} quokka {'saxophone ' * (n % 3)}tram {n % 7}" for n in range(40)]
    with open_store(db_path) as store:
        run, apart, other, holed = (store.create_session() for _ in range(4))
        store.add_messages(run.id, [{"role": "user", "text": t} for t in texts])
        for t in texts:  # the two sessions' messages alternate
            store.add_message(apart.id, "user", t)
            store.add_message(other.id, "user", t)
        store.add_messages(holed.id, [{"role": "user", "text": t} for t in texts])
        store.delete_message(store.get_messages(holed.id)[5].id)  # a hole in its run
        assert store.embed_pending() == 4 * 40 - 1  # the matrix's rows in id order
        newest = {s.id: store.get_messages(s.id)[-4].id for s in (run, apart, holed)}
    query = pack(Words.vector("saxophone tram 3"))
    conn = sqlite3.connect(db_path)

    def nearest() -> dict[str, list[tuple[int, float]]]:
        found = vectors.Vectors(conn)
        return {s: found.top(Words.model, query, s, before, 12) for s, before in newest.items()}

    fast = nearest()
    monkeypatch.setattr(vectors, "np", None)
    slow = nearest()
    for s, best in fast.items():
        assert [i for i, _ in best] == [i for i, _ in slow[s]]
        assert [c for _, c in best] == pytest.approx([c for _, c in slow[s]], abs=1e-6)
        assert len(best) == 12 and all(i < newest[s] for i, _ in best)
