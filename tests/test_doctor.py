"""``localmem.doctor``: real files, the fake Ollama server over a real loopback
socket, and a port nothing listens on."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.doctor import BROKEN, OFFLINE, OK, run_checks, verdict
from localmem.errors import SessionNotFound
from localmem.migrations import SCHEMA_VERSION
from localmem.reports import Check
from localmem.tokens import Tokenizer
from tests.ollama_server import FakeOllama


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def test_all_good_with_a_local_server(store: MemoryStore, session, fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["llama3.2:latest", "qwen2.5:0.5b"]
    fake_ollama.context_length = 32768

    checks = run_checks(store, session.id)

    assert [c.name for c in checks] == [
        "file", "schema", "tokenizer", "search", "ollama", "models", "semantic recall", "context window",
        "model trust",
    ]
    assert all(c.ok for c in checks) and verdict(checks) == OK, checks
    found = by_name(checks)
    assert found["schema"].detail == f"schema version {SCHEMA_VERSION}"
    assert found["tokenizer"].detail == "cl100k_base, loaded offline"
    assert found["search"].detail.startswith("current; sqlite-utils search and Datasette")
    assert found["ollama"].detail == f"{fake_ollama.host} answers"
    assert found["models"].detail == "llama3.2:latest, qwen2.5:0.5b"
    assert found["context window"].detail == "llama3.2: 32768 tokens (Ollama /api/show)"
    assert ("POST", "/api/show") in [(m, p) for m, p, _ in fake_ollama.requests]


def test_without_a_session_the_window_is_not_checked(store: MemoryStore, fake_ollama: FakeOllama) -> None:
    assert [c.name for c in run_checks(store)] == [
        "file", "schema", "tokenizer", "search", "ollama", "models", "semantic recall", "model trust",
    ]


def test_no_server_fails_its_checks_and_raises_nothing(
    store: MemoryStore, session, dead_ollama_host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    found = by_name(run_checks(store, session.id))
    assert found["file"].ok and found["schema"].ok and found["tokenizer"].ok
    assert not found["ollama"].ok and found["ollama"].detail.startswith(dead_ollama_host)
    assert "unreachable" in found["ollama"].detail
    assert found["models"] == Check(
        name="models", ok=False, detail="unknown: the Ollama server did not answer", offline=True
    )
    assert found["context window"] == Check(
        name="context window",
        ok=False,
        detail="llama3.2: the Ollama server did not answer; "
        "using MemoryConfig.context_window, 8192 tokens",
        offline=True,
    )
    # No local model: localmem works offline, nothing is broken.
    assert found["ollama"].offline and verdict(list(found.values())) == OFFLINE


def test_a_remote_host_is_refused_without_traffic(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://192.0.2.1:11434")  # TEST-NET: routed nowhere
    started = time.monotonic()
    found = by_name(run_checks(store))
    assert time.monotonic() - started < 2  # refused before any connection attempt
    assert not found["ollama"].ok and "not on this machine" in found["ollama"].detail


@pytest.mark.parametrize("mode", ["error500", "invalid_json", "redirect"])
def test_a_faulty_server_is_a_failed_check(
    store: MemoryStore, session, fake_ollama: FakeOllama, mode: str
) -> None:
    fake_ollama.mode_paths = frozenset({"/api/tags"})
    fake_ollama.mode = mode
    checks = run_checks(store, session.id)
    found = by_name(checks)
    assert not found["ollama"].ok and not found["models"].ok and not found["context window"].ok
    assert not found["ollama"].offline and verdict(checks) == BROKEN  # answering, but wrongly


@pytest.mark.parametrize(
    ("models", "context_length", "session_model", "why"),
    [
        (["llama3.2:latest"], None, "llama3.2", "llama3.2: Ollama does not report its context length"),
        (["llama3.2:latest"], 4096, "mistral", "mistral is not installed locally"),
        (["llama3.2:latest"], 4096, None, "the session has no model"),
    ],
    ids=["no-length", "not-installed", "no-model"],
)
def test_the_window_falls_back_to_the_config_and_says_why(
    db_path: Path,
    fake_ollama: FakeOllama,
    models: list[str],
    context_length: int | None,
    session_model: str | None,
    why: str,
) -> None:
    fake_ollama.models = models
    fake_ollama.context_length = context_length
    with MemoryStore(db_path, config={"context_window": 5000}) as store:
        s = store.create_session(model=session_model)
        window = by_name(run_checks(store, s.id))["context window"]
    assert window == Check(
        name="context window",
        ok=False,
        detail=f"{why}; using MemoryConfig.context_window, 5000 tokens",
        offline=True,
    )


def test_models_check_fails_with_none_installed_or_the_summary_model_missing(
    db_path: Path, fake_ollama: FakeOllama
) -> None:
    fake_ollama.models = []
    with MemoryStore(db_path) as store:
        checks = run_checks(store)
        assert by_name(checks)["models"] == Check(
            name="models",
            ok=False,
            detail="no model installed: summaries fall back to keywords",
            offline=True,
        )
        assert verdict(checks) == OFFLINE
    fake_ollama.models = ["llama3.2:latest"]
    with MemoryStore(db_path, config={"summary_model": "phi3"}) as store:
        checks = run_checks(store)
    assert by_name(checks)["models"] == Check(
        name="models", ok=False, detail="llama3.2:latest; summary_model 'phi3' is not one of them"
    )
    assert verdict(checks) == BROKEN  # a model the configuration names is missing


def test_the_estimate_tokenizer_fails_its_check(db_path: Path, fake_ollama: FakeOllama) -> None:
    with MemoryStore(db_path, tokenizer=Tokenizer("no-such-encoding")) as store:
        tokenizer = by_name(run_checks(store))["tokenizer"]
    assert not tokenizer.ok
    assert tokenizer.detail.startswith("encoding 'no-such-encoding' did not load: counting by estimate")


def test_a_broken_reference_fails_the_file_check(
    store: MemoryStore, db_path: Path, fake_ollama: FakeOllama
) -> None:
    raw = sqlite3.connect(db_path, isolation_level=None)
    raw.execute("INSERT INTO semantic_pins (session_id, content, importance_score, kind, token_count,"
                " created_at) VALUES ('ghost', 'orphan', 0.5, 'manual', 1, 't')")
    raw.close()
    found = by_name(run_checks(store))
    assert found["file"] == Check(
        name="file", ok=False, detail=f"{db_path}: semantic_pins row 1 refers to a missing sessions row"
    )


def test_an_unknown_session_is_an_error_before_any_request(
    store: MemoryStore, fake_ollama: FakeOllama
) -> None:
    with pytest.raises(SessionNotFound):
        run_checks(store, "missing")
    assert fake_ollama.requests == []


def test_offline_mode_sends_nothing_and_is_not_broken(db_path: Path, fake_ollama: FakeOllama) -> None:
    with MemoryStore(db_path, config={"offline": True}) as store:
        checks = run_checks(store, store.create_session(model="llama3.2").id)
    found = by_name(checks)
    assert "offline mode" in found["ollama"].detail and verdict(checks) == OFFLINE
    assert fake_ollama.requests == []


def test_search_fails_when_an_index_is_behind_or_hidden(store: MemoryStore, session, db_path) -> None:
    store.add_message(session.id, "user", "indexed at commit")
    assert by_name(run_checks(store))["search"].ok
    with sqlite3.connect(db_path) as other:  # another program drops an index's trigger
        other.execute("DROP TRIGGER messages_ai")
        other.execute("INSERT INTO messages (session_id, role, text, token_count,"
                      " importance_score, created_at) VALUES (?, 'user', 'x', 1, 0.5, '')",
                      (session.id,))
    check = by_name(run_checks(store))["search"]
    assert not check.ok and check.detail == "messages_fts does not hold every row of messages"
