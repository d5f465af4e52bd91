"""pytest fixtures around :class:`tests.ollama_server.FakeOllama`.

- ``fake_ollama`` — a started fake server; ``OLLAMA_HOST`` points at it for the test.
- ``dead_ollama_host`` — ``http://127.0.0.1:PORT`` of a port nothing listens on (the port is
  held by a bound, non-listening socket for the test's duration, so no other process can
  take it and every connection is refused at once).

Import them from ``tests/conftest.py`` (``from tests.ollama_fixtures import *``).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tests.ollama_server import FakeOllama

__all__ = ["dead_ollama_host", "fake_ollama"]


@pytest.fixture
def fake_ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


@pytest.fixture
def dead_ollama_host() -> Iterator[str]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{holder.getsockname()[1]}"
