"""``embedding_model="auto"`` (the default, issue 22 point 5): the embedding model the
local Ollama server already has, else lexical, said once in the log and by doctor;
never a download, never a call at write time. The server is tests/ollama_server.py's
FakeOllama, reached by the real ``ollama`` client over loopback."""

from __future__ import annotations

import logging

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.doctor import run_checks
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
        assert check.ok and check.detail == "auto: all-minilm:latest"
    with MemoryStore(db_path, config={"embedding_model": None}) as store:
        check = next(c for c in run_checks(store) if c.name == "semantic recall")
        assert check.detail == "lexical (embedding_model=None)"
