"""Semantic recall: embeddings from the local Ollama server's /api/embed, off the write
path, stored in the file, fused with the lexical ranking; and every way it can fail
ending in the lexical path with no error.

The server is tests/ollama_server.py's FakeOllama, reached by the real ``ollama`` client:
its embedding model maps a few words to shared concepts ("pets" and "fur" are both
"animal"), so a paraphrase that shares no word with the question can be recalled.
"""

from __future__ import annotations

import random
import re
import sqlite3
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from localmem import MemoryStore, embeddings
from localmem.embeddings import pack, similarities
from tests.ollama_server import FakeOllama

FACT = "I'm allergic to most reptiles and animals with fur."
QUESTION = "What pets wouldn't cause any discomfort to Joanna?"
MODEL = "all-minilm"


def filler(store: MemoryStore, session_id: str, n: int) -> None:
    store.add_messages(
        session_id,
        [
            {"role": "user" if i % 2 else "assistant", "text": f"We talked about gardening plan {i}."}
            for i in range(n)
        ],
    )


def embed_requests(server: FakeOllama) -> list[dict]:
    return [body for _, path, body in server.requests if path == "/api/embed"]


@pytest.fixture
def server(fake_ollama: FakeOllama) -> FakeOllama:
    fake_ollama.models = ["llama3.2:latest", "all-minilm:latest", "nomic-embed-text:latest"]
    return fake_ollama


def semantic_store(db_path: Path, **config) -> MemoryStore:
    return MemoryStore(db_path, config={"embedding_model": MODEL, "relevant_messages": 1, **config})


def test_a_paraphrase_with_no_shared_word_is_recalled(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", FACT)
        filler(store, s.id, 40)
        ctx = store.build_context(s.id, query=QUESTION)
        assert ctx.relevant_messages == (fact,)
    with MemoryStore(db_path, config={"relevant_messages": 1, "embedding_model": None}) as lexical:
        assert lexical.build_context(s.id, query=QUESTION).relevant_messages != (fact,)


def test_writes_never_call_the_model(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
        store.add_message(s.id, "user", FACT)
        filler(store, s.id, 10)
        store.build_context(s.id)  # no query: no model either
        assert embed_requests(server) == []


def test_vectors_are_stored_once_with_their_model(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
        filler(store, s.id, 70)
        store.build_context(s.id, query=QUESTION)
        # in bulk (batches of 32), then the question itself
        assert [len(b["input"]) for b in embed_requests(server)] == [32, 32, 6, 1]
    rows = sqlite3.connect(db_path).execute(
        "SELECT model, kind, count(*), min(length(vector)) FROM embeddings GROUP BY 1, 2"
    ).fetchall()
    assert rows == [("all-minilm:latest", "message", 70, 4 * server.embed_dims)]
    server.requests.clear()
    with semantic_store(db_path) as store:  # a second app instance: only the query
        store.build_context(s.id, query="something else entirely")
        assert [len(b["input"]) for b in embed_requests(server)] == [1]


def test_another_process_catches_up_the_vectors(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
    writer = (
        "import sys; from localmem import MemoryStore\n"
        "with MemoryStore(sys.argv[1]) as st:\n"
        "    st.add_messages(sys.argv[2], [{'role': 'user', 'text': f'note {i}'} for i in range(25)])\n"
    )
    subprocess.run([sys.executable, "-c", writer, str(db_path), s.id], check=True)
    with semantic_store(db_path) as store:
        assert store.embed_pending() == 25
        assert store.embed_pending() == 0  # nothing is embedded twice
    with semantic_store(db_path) as store:
        assert store.embed_pending(s.id) == 0


@pytest.mark.parametrize(
    "fault",
    ["absent", "error500", "invalid_json", "close_mid", "wrong_count", "nan", "strings", "empty"],
)
def test_a_faulty_model_leaves_the_lexical_path(db_path, server, fault) -> None:
    if fault == "absent":
        server.models = ["llama3.2:latest"]
    elif fault in ("error500", "invalid_json", "close_mid"):
        server.mode_paths = frozenset({"/api/embed"})
        server.mode = fault
    else:
        server.embed_override = {
            "wrong_count": [[1.0, 2.0]],
            "nan": [[float("nan")] * 4] * 100,
            "strings": [["a", "b"]] * 100,
            "empty": [],
        }[fault]
    with semantic_store(db_path, relevant_messages=5) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "The school pickup code is 4417.")
        filler(store, s.id, 20)
        ctx = store.build_context(s.id, query="What is the school pickup code?")
        assert fact in ctx.relevant_messages  # lexical recall still works
        assert store.embed_pending() == 0
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM embeddings").fetchone() == (0,)


def test_a_hung_model_costs_the_timeout_once(db_path, server) -> None:
    server.mode_paths = frozenset({"/api/embed"})
    server.mode = "hang"
    with semantic_store(db_path, embedding_timeout=0.5, relevant_messages=5) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "The school pickup code is 4417.")
        filler(store, s.id, 20)
        started = time.monotonic()
        ctx = store.build_context(s.id, query="What is the school pickup code?")
        first = time.monotonic() - started
        assert fact in ctx.relevant_messages
        asked = len(embed_requests(server))
        store.build_context(s.id, query="the pickup code, again?")
        assert len(embed_requests(server)) == asked  # semantic recall rests: no second wait
    assert first < 5  # bounded by the timeout (0.5 s for connecting, the same for the answer)


def test_a_remote_host_is_refused_without_traffic(db_path, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://192.0.2.1:11434")  # TEST-NET-1: never contacted
    with semantic_store(db_path, relevant_messages=5) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "The school pickup code is 4417.")
        filler(store, s.id, 20)
        started = time.monotonic()
        assert fact in store.build_context(s.id, query="school pickup code?").relevant_messages
        assert time.monotonic() - started < 5  # refused at once: no connection attempt to wait for


def test_changing_the_model_re_embeds_and_never_mixes(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
        filler(store, s.id, 20)
        assert store.embed_pending() == 20
    server.requests.clear()
    with semantic_store(db_path, embedding_model="nomic-embed-text") as store:
        assert store.embed_pending() == 20  # its own vectors
        bodies = embed_requests(server)
        assert all(t.startswith("search_document: ") for b in bodies for t in b["input"])
        server.requests.clear()
        store.build_context(s.id, query="gardening?")
        assert embed_requests(server)[-1]["input"] == ["search_query: gardening?"]
    counts = dict(
        sqlite3.connect(db_path).execute("SELECT model, count(*) FROM embeddings GROUP BY model")
    )
    assert counts == {"all-minilm:latest": 20, "nomic-embed-text:latest": 20}


def test_forgetting_a_message_drops_its_vector(db_path, server) -> None:
    with semantic_store(db_path) as store:
        s = store.create_session()
        filler(store, s.id, 10)
        store.embed_pending()
        store.clear_messages(s.id)
        store.add_message(s.id, "user", "fresh start")
        assert store.embed_pending() == 1
        store.delete_session(s.id)
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM embeddings").fetchone() == (0,)


def test_a_host_can_plug_in_its_own_embedder(db_path) -> None:
    class Letters:
        model = "letters-v1"

        def __init__(self) -> None:
            self.calls = 0

        def vector(self, text: str) -> list[float]:
            return [float(text.lower().count(c)) for c in "aeiourstlnfyp"]

        def embed_documents(self, texts):
            self.calls += 1
            return [self.vector(t) for t in texts]

        def embed_query(self, text):
            return self.vector(text)

    embedder = Letters()
    with MemoryStore(db_path, config={"relevant_messages": 1}, embedder=embedder) as store:
        s = store.create_session()
        filler(store, s.id, 20)
        store.build_context(s.id, query="anything at all")
        assert embedder.calls >= 1
    rows = sqlite3.connect(db_path).execute("SELECT DISTINCT model FROM embeddings").fetchall()
    assert rows == [("letters-v1",)]


def test_similarities_with_and_without_numpy(monkeypatch) -> None:
    q = pack([1.0, 0.0, 0.0])
    blobs = [pack([1.0, 0.0, 0.0]), pack([0.0, 1.0, 0.0]), pack([1.0, 1.0])]
    fast = similarities(q, blobs)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    slow = similarities(q, blobs)
    assert fast[:2] == pytest.approx([1.0, 0.0]) and slow[:2] == pytest.approx([1.0, 0.0])
    assert fast[2] == slow[2] == float("-inf")  # another model's length never compares
    assert pack([0.0, 0.0]) is None and pack([float("inf"), 1.0]) is None


def test_pack_gives_the_same_bytes_with_and_without_numpy(monkeypatch) -> None:
    np = pytest.importorskip("numpy")  # the bench extra; the test extra runs without it
    monkeypatch.setattr(embeddings, "np", np)
    rng = random.Random(5)
    vectors = [
        [rng.gauss(0, 1) * 10 ** rng.randint(-6, 6) for _ in range(384)] for _ in range(200)
    ]
    vectors += [[3, 4], [1e-300, 1e-300], [0.0, 2.5, -1.0]]  # ints; tiny squares summed exactly
    fast = [pack(v) for v in vectors]
    monkeypatch.setattr(embeddings, "np", None)
    slow = [pack(v) for v in vectors]
    assert fast == slow
    assert struct.unpack("<2f", fast[-3]) == pytest.approx((0.6, 0.8))
    for nothing in ([], [0.0, 0.0], [float("nan"), 1.0], [float("inf"), 1.0]):
        assert pack(nothing) is None
        monkeypatch.setattr(embeddings, "np", np)
        assert pack(nothing) is None
        monkeypatch.setattr(embeddings, "np", None)


def test_offline_mode_never_asks_for_an_embedding(db_path, server) -> None:
    with semantic_store(db_path, offline=True) as store:
        s = store.create_session()
        store.add_message(s.id, "user", FACT)
        filler(store, s.id, 20)
        store.build_context(s.id, query=QUESTION)  # lexical only
        assert store.embed_pending() == 0
    assert embed_requests(server) == []


def test_a_hosts_embedder_that_raises_leaves_the_lexical_path(db_path) -> None:
    class Broken:
        model = "broken-v1"

        def embed_documents(self, texts):
            raise RuntimeError("the host's model crashed")

        def embed_query(self, text):
            raise ValueError("no")

    with MemoryStore(db_path, config={"relevant_messages": 5}, embedder=Broken()) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", "The school pickup code is 4417.")
        filler(store, s.id, 20)
        assert fact in store.build_context(s.id, query="school pickup code?").relevant_messages
        assert store.embed_pending() == 0


def test_a_question_its_words_barely_find_is_answered_by_meaning(db_path) -> None:
    """The question's words find only chatter (a name and "today"), a small share of its
    weight: the lexical ranking then counts for little beside the semantic one, and the
    three answers found by meaning alone are the three recalled."""

    class Pets:
        model = "pets-v1"

        def vector(self, text: str) -> list[float]:
            if any(w in text for w in ("gecko", "hamster", "parrot")):
                return [1.0, 0.0]
            return [0.0, 1.0] if "Melanie" in text else [0.5, 1.0]

        def embed_documents(self, texts):
            return [self.vector(t) for t in texts]

        def embed_query(self, text):
            return [1.0, 0.1]

    config = {"relevant_messages": 3, "cache_ttl": 0}
    with MemoryStore(db_path, config=config, embedder=Pets()) as store:
        s = store.create_session()
        answers = [store.add_message(s.id, "user", t).id for t in (
            "I adopted a gecko called Rex.", "We got a hamster last spring.",
            "My parrot says good morning now.",
        )]
        store.add_messages(s.id, [
            {"role": "user", "text": f"Notes on the garden plan, part {i}."} for i in range(100)
        ])
        store.add_messages(s.id, [
            {"role": "assistant", "text": f"Melanie said hello today, call {i}."} for i in range(20)
        ])
        filler(store, s.id, 10)
        ctx = store.build_context(s.id, max_tokens=2000, query="Which pets does Melanie keep today?")
        assert sorted(m.id for m in ctx.relevant_messages) == answers


class Topics:
    """A bag of topics: each word is a dimension, and the words of one topic share one
    ("knitting", "pottery" and "activities" are all "pastime"): a word held by every turn
    of a speaker weighs in a vector as much as the topic does."""

    model = "topics-v1"
    TOPICS = {"knitting": "pastime", "pottery": "pastime", "activities": "pastime"}
    DIMENSIONS = ("pastime", "priya", "hannah", "same", "here", "real", "nice", "that",
                  "sounds", "week", "busy", "work", "the", "and")

    def __init__(self) -> None:
        self.queries: list[str] = []

    def vector(self, text: str) -> list[float]:
        found = [self.TOPICS.get(w, w) for w in re.findall(r"[a-z]+", text.lower())]
        return [float(found.count(d)) + 0.01 for d in self.DIMENSIONS]

    def embed_documents(self, texts):
        return [self.vector(t) for t in texts]

    def embed_query(self, text):
        self.queries.append(text)
        return self.vector(text)


def transcript(store: MemoryStore, session_id: str, chatter: int) -> list[int]:
    """A two-person transcript, each turn labelled with its speaker's name: Priya's two
    hobbies told in long turns, her short chatter, Hannah's busy weeks."""
    answers = [store.add_message(session_id, "user", text).id for text in (
        "Priya: I've taken up knitting, and the week at work was busy and the busy week "
        "was long and the work was busy.",
        "Priya: I signed up for pottery, and work was busy and the week was busy and the "
        "work was the work.",
    )]
    for i in range(chatter):
        chatter_turn = ("Priya: Same here!", "Priya: For real, nice.")[i % 2]
        store.add_message(session_id, "user", chatter_turn)
        store.add_message(session_id, "assistant", f"Hannah: That sounds busy, week {i}.")
    return answers


def test_a_name_in_most_messages_is_left_out_of_the_querys_vector(db_path) -> None:
    """A word held by more than a tenth of the scope's messages (a speaker's name in a
    transcript) is not embedded with the question: the hobbies told in long turns are
    recalled, not the speaker's shortest chatter, whose vector is her name."""
    embedder = Topics()
    config = {"relevant_messages": 2, "cache_ttl": 0}
    with MemoryStore(db_path, config=config, embedder=embedder) as store:
        s = store.create_session()
        answers = transcript(store, s.id, 30)
        ctx = store.build_context(s.id, query="Which activities has Priya tried?")
        assert embedder.queries[-1] == "Which activities has tried?"
        assert sorted(m.id for m in ctx.relevant_messages) == answers
        # The vector of the whole question: Priya's chatter is nearer than her hobbies.
        query = pack(embedder.vector("Which activities has Priya tried?"))
        chatter = pack(embedder.vector("Priya: Same here!"))
        hobby = pack(embedder.vector(store.get_message(answers[0]).text))
        assert similarities(query, [chatter])[0] > similarities(query, [hobby])[0]


def test_a_rare_name_and_an_all_common_query_are_embedded_whole(db_path) -> None:
    embedder = Topics()
    with MemoryStore(db_path, config={"relevant_messages": 2}, embedder=embedder) as store:
        s = store.create_session()
        transcript(store, s.id, 30)
        store.build_context(s.id, query="Which activities has Nadia tried?")  # Nadia: no turn
        assert embedder.queries[-1] == "Which activities has Nadia tried?"
        store.build_context(s.id, query="Priya, busy week?")  # nothing specific left
        assert embedder.queries[-1] == "Priya, busy week?"


def test_the_words_left_out_of_the_vector_still_choose_among_its_hits(db_path) -> None:
    """The name left out of the question's vector still counts: of the semantic hits,
    those holding it (Priya's own turns) are fused in once more, so her hobbies come
    before Hannah's, which the vector alone and the question's other words prefer."""
    embedder = Topics()
    with MemoryStore(db_path, config={"relevant_messages": 2}, embedder=embedder) as store:
        s = store.create_session()
        hannahs = store.add_message(s.id, "assistant", "Hannah: knitting and pottery activities!")
        answers = transcript(store, s.id, 30)
        ctx = store.build_context(s.id, query="Which activities has Priya tried?")
        assert embedder.queries[-1] == "Which activities has tried?"
        assert sorted(m.id for m in ctx.relevant_messages) == answers
        hobby = pack(embedder.vector(store.get_message(answers[0]).text))
        query = pack(embedder.vector(embedder.queries[-1]))
        hers = pack(embedder.vector(hannahs.text))
        assert similarities(query, [hers])[0] > similarities(query, [hobby])[0]
