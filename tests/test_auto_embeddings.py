"""``embedding_model="auto"`` (the default, issue 22 point 5): the embedding model the
local Ollama server already has, else lexical, said once in the log and by doctor;
never a download, never a call at write time. An embedding model is told by what
``/api/show`` says it can do (``capabilities``), by its name on a server that does not
say. The server is tests/ollama_server.py's FakeOllama, reached by the real ``ollama``
client over loopback."""

from __future__ import annotations

import logging

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.doctor import run_checks
from localmem import semantic
from localmem.embeddings import pick_model
from tests.ollama_server import FakeOllama

FACT = "I'm allergic to most reptiles and animals with fur."
QUESTION = "What pets wouldn't cause any discomfort to Joanna?"


def chat(store: MemoryStore, session_id: str) -> None:
    store.add_message(session_id, "user", FACT)
    store.add_messages(
        session_id, [{"role": "user", "text": f"We talked about gardening plan {i}."} for i in range(40)]
    )


def paths(server: FakeOllama) -> list[str]:
    return [path for _, path, _ in server.requests]


def test_auto_is_the_default() -> None:
    assert MemoryConfig().embedding_model == "auto"


@pytest.mark.parametrize(
    ("installed", "chosen"),
    [
        (["llama3.2:latest", "nomic-embed-text:v1.5"], "nomic-embed-text:v1.5"),
        (["mxbai-embed-large:latest", "all-minilm:l6-v2"], "all-minilm:l6-v2"),
        (["hf.co/someone/bge-m3:Q8_0"], "hf.co/someone/bge-m3:Q8_0"),
        (["snowflake-arctic-embed:137m"], "snowflake-arctic-embed:137m"),
        (["llama3.2:latest", "qwen2.5:0.5b"], None),
        ([], None),
    ],
)
def test_the_model_auto_picks(installed, chosen) -> None:
    assert pick_model(installed) == chosen


def test_auto_uses_the_embedding_model_the_server_has(db_path, fake_ollama) -> None:
    fake_ollama.models = ["llama3.2:latest", "nomic-embed-text:latest"]
    with MemoryStore(db_path, config={"relevant_messages": 1}) as store:
        s = store.create_session()
        chat(store, s.id)
        assert "/api/tags" not in paths(fake_ollama)  # writes ask nothing
        ctx = store.build_context(s.id, query=QUESTION)
        assert [m.text for m in ctx.relevant_messages] == [FACT]  # no shared word: semantic
        embeds = [body for _, path, body in fake_ollama.requests if path == "/api/embed"]
        assert embeds and {b["model"] for b in embeds} == {"nomic-embed-text:latest"}
        assert not any(p in ("/api/pull", "/api/create") for p in paths(fake_ollama))
        assert store.embed_pending() == 0  # all caught up by the context


def test_auto_without_an_embedding_model_is_lexical_said_once(
    db_path, fake_ollama, caplog
) -> None:
    fake_ollama.models = ["llama3.2:latest"]
    caplog.set_level(logging.INFO, logger="localmem")
    with MemoryStore(db_path, config={"cache_ttl": 0}) as store:
        s = store.create_session()
        chat(store, s.id)
        for _ in range(3):
            store.build_context(s.id, query=QUESTION)
        assert store.embed_pending() == 0
    said = [r.getMessage() for r in caplog.records if "semantic recall" in r.getMessage()]
    assert len(said) == 1 and "lexical" in said[0] and "no embedding model" in said[0]
    assert paths(fake_ollama).count("/api/tags") == 1  # asked once, the answer kept
    assert "/api/embed" not in paths(fake_ollama)
    assert "/api/pull" not in paths(fake_ollama)


def test_auto_with_no_server_is_lexical_and_writes_never_wait(db_path, dead_ollama_host) -> None:
    config = MemoryConfig(ollama_host=dead_ollama_host, cache_ttl=0)
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session()
        chat(store, s.id)
        ctx = store.build_context(s.id, query="gardening plan 3")
        assert any("plan 3." in m.text for m in ctx.relevant_messages)
        assert store.embed_pending() == 0


def test_doctor_says_which(db_path, fake_ollama) -> None:
    fake_ollama.models = ["llama3.2:latest"]
    with MemoryStore(db_path) as store:
        check = next(c for c in run_checks(store) if c.name == "semantic recall")
        assert check.ok and check.detail.startswith("lexical: no embedding model installed")
    fake_ollama.models = ["llama3.2:latest", "all-minilm:latest"]
    with MemoryStore(db_path) as store:
        check = next(c for c in run_checks(store) if c.name == "semantic recall")
        assert check.ok and check.detail == "auto: all-minilm:latest (/api/show says it embeds)"
    with MemoryStore(db_path, config={"embedding_model": None}) as store:
        check = next(c for c in run_checks(store) if c.name == "semantic recall")
        assert check.detail == "lexical (embedding_model=None)"


def semantic_check(store: MemoryStore) -> str:
    check = next(c for c in run_checks(store) if c.name == "semantic recall")
    assert check.ok
    return check.detail


def embedded_with(server: FakeOllama) -> set[str]:
    return {body["model"] for _, path, body in server.requests if path == "/api/embed"}


def test_a_model_of_any_name_that_says_it_embeds_is_used(db_path, fake_ollama) -> None:
    fake_ollama.models = ["llama3.2:latest", "house-vectors:v2"]
    fake_ollama.capabilities = {"house-vectors:v2": ["embedding"]}
    with MemoryStore(db_path, config={"relevant_messages": 1}) as store:
        s = store.create_session()
        chat(store, s.id)
        ctx = store.build_context(s.id, query=QUESTION)
        assert [m.text for m in ctx.relevant_messages] == [FACT]  # no shared word: semantic
        assert embedded_with(fake_ollama) == {"house-vectors:v2"}
        assert semantic_check(store) == "auto: house-vectors:v2 (/api/show says it embeds)"


def test_a_chat_model_named_like_an_embedder_is_passed_over(db_path, fake_ollama) -> None:
    fake_ollama.models = ["llama3.2:latest", "nomic-embed-text:latest"]
    fake_ollama.capabilities = {"nomic-embed-text:latest": ["completion"]}
    with MemoryStore(db_path, config={"relevant_messages": 1, "cache_ttl": 0}) as store:
        s = store.create_session()
        chat(store, s.id)
        ctx = store.build_context(s.id, query=QUESTION)
        assert [m.text for m in ctx.relevant_messages] != [FACT]  # lexical: no shared word
        assert "/api/embed" not in paths(fake_ollama)
        assert semantic_check(store).startswith("lexical: no embedding model installed")
    fake_ollama.models.append("all-minilm:l6-v2")  # a real one beside it: that one
    with MemoryStore(db_path) as store:
        assert semantic_check(store) == "auto: all-minilm:l6-v2 (/api/show says it embeds)"
        ctx = store.build_context(store.list_sessions()[0].id, query=QUESTION)
        assert embedded_with(fake_ollama) == {"all-minilm:l6-v2"}


def test_a_server_that_reports_no_capabilities_is_read_by_names(db_path, fake_ollama) -> None:
    """Ollama before 0.6.4: /api/show has no ``capabilities``; the names decide."""
    fake_ollama.models = ["llama3.2:latest", "nomic-embed-text:latest", "house-vectors:v2"]
    fake_ollama.capabilities = dict.fromkeys(fake_ollama.models)  # None: not reported
    with MemoryStore(db_path, config={"relevant_messages": 1}) as store:
        assert semantic_check(store) == (
            "auto: nomic-embed-text:latest (by its name: this Ollama does not report capabilities)"
        )
        s = store.create_session()
        chat(store, s.id)
        assert [m.text for m in store.build_context(s.id, query=QUESTION).relevant_messages] == [FACT]
        assert embedded_with(fake_ollama) == {"nomic-embed-text:latest"}
    fake_ollama.models = ["llama3.2:latest", "house-vectors:v2"]
    with MemoryStore(db_path) as store:
        assert semantic_check(store).startswith("lexical: no embedding model installed (by name)")


def test_each_model_is_shown_once_and_the_answer_rechecked(db_path, fake_ollama, monkeypatch) -> None:
    """No embedding model: every recheck lists the models again (one /api/tags), but a
    model already shown (same name, same digest) is not asked again."""
    monkeypatch.setattr(semantic, "AUTO_RECHECK", 0.0)  # every context asks again
    fake_ollama.models = ["llama3.2:latest", "qwen2.5:0.5b"]
    with MemoryStore(db_path, config={"cache_ttl": 0}) as store:
        s = store.create_session()
        chat(store, s.id)
        for _ in range(3):
            store.build_context(s.id, query=QUESTION)
        assert paths(fake_ollama).count("/api/tags") == 3
        shown = [body["model"] for _, path, body in fake_ollama.requests if path == "/api/show"]
        assert sorted(shown) == ["llama3.2:latest", "qwen2.5:0.5b"]
        fake_ollama.models.append("all-minilm:latest")  # pulled by the user meanwhile
        ctx = store.build_context(s.id, query=QUESTION)
        assert embedded_with(fake_ollama) == {"all-minilm:latest"}
        assert FACT in [m.text for m in ctx.relevant_messages]
    assert "/api/pull" not in paths(fake_ollama)


def test_a_server_slow_to_show_leaves_the_names_to_decide(db_path, fake_ollama) -> None:
    """/api/show hangs past the second auto may take: the known name is used."""
    fake_ollama.models = ["llama3.2:latest", "all-minilm:latest"]
    fake_ollama.delay, fake_ollama.delay_paths = 5.0, frozenset({"/api/show"})
    with MemoryStore(db_path) as store:
        assert semantic_check(store) == (
            "auto: all-minilm:latest (by its name: Ollama did not show its capabilities in time)"
        )
