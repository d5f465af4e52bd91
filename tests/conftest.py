"""Every test runs offline and in its own temp dir: no test touches the real
home directory, the real database or a real Ollama server."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from localmem import MemoryStore


def _dead_port() -> int:
    """A loopback port with nothing listening on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(home / var.lower()))
    monkeypatch.setenv("LOCALMEM_DB", str(home / "default.db"))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(home / "tiktoken-cache"))
    monkeypatch.setenv("OLLAMA_HOST", f"http://127.0.0.1:{_dead_port()}")
    for var in ("LOCALMEM_KEY", "LOCALMEM_KEY_FILE"):  # a developer's key never reaches a test
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def store(db_path: Path):
    with MemoryStore(db_path) as s:
        yield s


@pytest.fixture
def session(store: MemoryStore):
    return store.create_session(model="llama3.2", title="test")


from tests.ollama_fixtures import dead_ollama_host, fake_ollama  # noqa: E402,F401  (fixtures)
