"""OllamaBackend: the real ``ollama`` client against FakeOllama over loopback.

No test sends traffic anywhere but 127.0.0.1: remote hosts appear only where the policy
refuses them, and ``connections`` (a socket audit hook) proves nothing was attempted.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ollama._client import _parse_host  # the oracle resolve_host must agree with

from localmem.errors import InvalidInput, LocalMemError
from localmem.summarizer.ollama_client import (
    DEFAULT_OLLAMA_HOST,
    ChatResult,
    OllamaBackend,
    WAITING_LOGGER,
    OllamaModelError,
    OllamaTimeout,
    OllamaUnavailable,
    finite_numbers,
    is_loopback_host,
    resolve_host,
    scaled_timeout,
    waiting_at_most,
)
from localmem.summarizer.prompts import build_summary_messages, format_conversation
from localmem.summarizer.validation import validate_summary
from tests.ollama_fixtures import dead_ollama_host, fake_ollama  # noqa: F401
from tests.ollama_server import REDIRECT_TARGET, FakeOllama

CHAT = [
    ("user", "What medications does grandma take for her blood pressure?"),
    ("assistant", "She takes Lisinopril 10mg every morning at 8am with breakfast."),
    ("user", "Which side effects should we watch for?"),
    ("assistant", "Dizziness, a dry cough and swelling; note them for her doctor."),
] * 3
MESSAGES = build_summary_messages(CHAT)
REMOTE_HOST = "http://192.0.2.1:11434"  # TEST-NET-1: refused by policy, never contacted

_recording: list[list[Any]] = []


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and _recording:
        _recording[-1].append(args[1])


sys.addaudithook(_audit)


@pytest.fixture
def connections() -> Iterator[list[Any]]:
    """Addresses of every socket connect attempted during the test."""
    _recording.append([])
    try:
        yield _recording[-1]
    finally:
        _recording.pop()


@pytest.fixture
def backend(fake_ollama: FakeOllama) -> Iterator[OllamaBackend]:
    with OllamaBackend(timeout=5.0) as backend:
        yield backend


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- host resolution and policy (pure) ------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("127.0.0.1:11434", "http://127.0.0.1:11434"),
        ("localhost", "http://localhost:11434"),
        (":5000", "http://127.0.0.1:5000"),
        ("http://[::1]", "http://[::1]:80"),
        ("https://127.0.0.1:8443/ollama/", "https://127.0.0.1:8443/ollama"),
        ("0.0.0.0", "http://127.0.0.1:11434"),
        ("http://0.0.0.0:11434", "http://127.0.0.1:11434"),
        ("[::]:11434", "http://[::1]:11434"),
    ],
)
def test_resolve_host_normalizes_like_the_client(raw: str, expected: str) -> None:
    assert resolve_host(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "", "127.0.0.1", "127.0.0.1:11434", "localhost:8080/", "http://example.com",
        "https://example.com:56789/path/", "[0001:002:003:0004::1]:56789/path",
        "http://[::1]:11434", "example.com/path",
    ],
)
def test_resolve_host_agrees_with_the_ollama_client(
    raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert resolve_host(raw) == _parse_host(raw)


def test_resolve_host_prefers_the_argument_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert resolve_host(None) == DEFAULT_OLLAMA_HOST
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:5555")
    assert resolve_host(None) == "http://127.0.0.1:5555"
    assert resolve_host("localhost:6666") == "http://localhost:6666"


@pytest.mark.parametrize("raw", ["127.0.0.1:99999", "http://[::1"])
def test_resolve_host_rejects_what_it_cannot_parse(raw: str) -> None:
    with pytest.raises(InvalidInput):
        resolve_host(raw)


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1", "127.8.9.10", "localhost", "LOCALHOST", "localhost.", "::1", "[::1]",
        "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "http://127.0.0.1:11434",
        "http://localhost:11434/path", "https://[::1]:443", "127.0.0.1:11434",
    ],
)
def test_loopback_hosts(host: str) -> None:
    assert is_loopback_host(host) is True


@pytest.mark.parametrize(
    "host",
    [
        "", "192.168.1.10", "10.0.0.1", "0.0.0.0", "::", "8.8.8.8", "example.com",
        "localhost.example.com", "127.0.0.1.nip.io", "http://192.0.2.1:11434",
        "http://127.0.0.1@evil.example", "2001:db8::1", "127.1", "not a host at all",
        "http://[::1", "my-gpu-box.local",
    ],
)
def test_other_hosts_are_not_loopback(host: str) -> None:
    assert is_loopback_host(host) is False


@pytest.mark.parametrize("timeout", [0, -1.0, float("inf"), float("nan"), None])
def test_the_timeout_is_always_finite(timeout: Any) -> None:
    with pytest.raises(InvalidInput):
        OllamaBackend(timeout=timeout)


def test_errors_are_localmem_errors() -> None:
    assert issubclass(OllamaUnavailable, LocalMemError)
    assert issubclass(OllamaModelError, LocalMemError)


def test_importing_the_module_creates_no_client() -> None:
    code = (
        "import sys, localmem.summarizer.ollama_client as m; m.OllamaBackend();"
        "print('ollama' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[1]
    paths = [str(root), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, timeout=30, check=True, cwd=root, env=env,
    )
    assert result.stdout.strip() == "False"


# --- the happy path over loopback -----------------------------------------------------------


def test_backend_follows_ollama_host(fake_ollama: FakeOllama, backend: OllamaBackend) -> None:
    assert backend.host == fake_ollama.host
    assert backend.local_models() == frozenset({"llama3.2:latest"})
    assert fake_ollama.requests[0][:2] == ("GET", "/api/tags")


@pytest.mark.parametrize(
    ("name", "resolved"),
    [
        ("llama3.2", "llama3.2:latest"),
        ("llama3.2:latest", "llama3.2:latest"),
        ("Llama3.2", "llama3.2:latest"),
        ("llama3.2:1b", None),
        ("mistral", None),
        ("", None),
        (None, None),
    ],
)
def test_resolve_model(backend: OllamaBackend, name: str | None, resolved: str | None) -> None:
    assert backend.resolve_model(name) == resolved


def test_resolve_model_prefers_an_exact_tag(fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["qwen2.5:7b", "qwen2.5:latest", "hf.co/org/model:Q4_K_M"]
    with OllamaBackend() as backend:
        assert backend.resolve_model("qwen2.5:7b") == "qwen2.5:7b"
        assert backend.resolve_model("qwen2.5") == "qwen2.5:latest"
        assert backend.resolve_model("hf.co/org/model:Q4_K_M") == "hf.co/org/model:Q4_K_M"


def test_model_list_is_cached_for_its_ttl(fake_ollama: FakeOllama) -> None:
    clock = FakeClock()
    with OllamaBackend(models_ttl=30.0, clock=clock) as backend:
        backend.local_models()
        backend.resolve_model("llama3.2")
        assert fake_ollama.paths().count("/api/tags") == 1
        fake_ollama.models = ["mistral:latest"]
        clock.now += 31
        assert backend.local_models() == frozenset({"mistral:latest"})
        assert fake_ollama.paths().count("/api/tags") == 2


def test_a_failed_listing_is_remembered_briefly(fake_ollama: FakeOllama) -> None:
    fake_ollama.mode, fake_ollama.mode_paths = "error500", frozenset({"/api/tags"})
    clock = FakeClock()
    with OllamaBackend(clock=clock) as backend:
        for _ in range(3):
            with pytest.raises(OllamaModelError):
                backend.local_models()
        assert fake_ollama.paths().count("/api/tags") == 1
        fake_ollama.mode = "ok"
        clock.now += 10
        assert backend.local_models() == frozenset({"llama3.2:latest"})


@pytest.mark.parametrize(("reported", "expected"), [(8192, 8192), (131072, 131072), (None, None)])
def test_context_length_comes_from_model_info(
    fake_ollama: FakeOllama, reported: int | None, expected: int | None
) -> None:
    fake_ollama.context_length = reported
    with OllamaBackend() as backend:
        assert backend.context_length("llama3.2") == expected
        assert backend.context_length("llama3.2") == expected
    assert fake_ollama.paths() == ["/api/show"]
    assert fake_ollama.requests[0][2] == {"model": "llama3.2"}


def test_chat_sends_a_bounded_request_and_reads_the_answer(
    fake_ollama: FakeOllama, backend: OllamaBackend
) -> None:
    fake_ollama.reply = "Grandma takes Lisinopril at 8am; side effects were discussed."
    result = backend.chat("llama3.2", MESSAGES, num_ctx=4096)
    assert result == ChatResult(
        text=fake_ollama.reply,
        model="llama3.2:latest",
        prompt_eval_count=result.prompt_eval_count,
        eval_count=result.eval_count,
        done_reason="stop",
    )
    assert isinstance(result.prompt_eval_count, int) and isinstance(result.eval_count, int)
    method, path, body = fake_ollama.requests[-1]
    assert (method, path) == ("POST", "/api/chat")
    assert body["stream"] is False
    assert body["messages"] == MESSAGES
    assert body["options"] == {"temperature": 0.1, "num_predict": 100, "num_ctx": 4096}
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "changed"  # type: ignore[misc]


def test_chat_without_num_ctx_keeps_the_server_default(
    fake_ollama: FakeOllama, backend: OllamaBackend
) -> None:
    backend.chat("llama3.2", MESSAGES, num_ctx=None, num_predict=50, temperature=0.0)
    assert fake_ollama.requests[-1][2]["options"] == {"temperature": 0.0, "num_predict": 50}


def test_chat_reports_a_truncated_prompt(fake_ollama: FakeOllama, backend: OllamaBackend) -> None:
    fake_ollama.prompt_eval_count = 42
    assert backend.chat("llama3.2", MESSAGES, num_ctx=64).prompt_eval_count == 42


def test_the_default_fake_reply_is_a_valid_summary(backend: OllamaBackend) -> None:
    result = backend.chat("llama3.2", MESSAGES, num_ctx=None)
    assert validate_summary(result.text, format_conversation(CHAT)) is None


def test_a_poem_arrives_and_validation_rejects_it(
    fake_ollama: FakeOllama, backend: OllamaBackend
) -> None:
    fake_ollama.mode = "poem"
    result = backend.chat("llama3.2", MESSAGES, num_ctx=None)
    assert validate_summary(result.text, format_conversation(CHAT)) is not None


def test_proxy_settings_are_ignored(
    fake_ollama: FakeOllama, dead_ollama_host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, dead_ollama_host)
    monkeypatch.delenv("NO_PROXY", raising=False)
    with OllamaBackend() as backend:
        assert backend.chat("llama3.2", MESSAGES, num_ctx=None).text


# --- failures map to two errors, in bounded time --------------------------------------------

FAILURES = [
    ("error500", OllamaModelError),
    ("notfound", OllamaModelError),
    ("invalid_json", OllamaModelError),
    ("huge", OllamaModelError),
    ("redirect", OllamaModelError),
    ("hang", OllamaTimeout),
    ("slow_bytes", OllamaTimeout),
    ("close_mid", OllamaUnavailable),
]


@pytest.mark.parametrize(("mode", "error"), FAILURES)
def test_chat_failures(
    fake_ollama: FakeOllama, connections: list[Any], mode: str, error: type[Exception]
) -> None:
    fake_ollama.mode = mode
    with OllamaBackend(timeout=0.5) as backend:
        _assert_raises_within(error, 3.0, lambda: backend.chat("llama3.2", MESSAGES, num_ctx=None))
    assert all(address[0] == "127.0.0.1" for address in connections)
    assert REDIRECT_TARGET not in str(connections)


@pytest.mark.parametrize(("mode", "error"), FAILURES)
@pytest.mark.parametrize("path", ["/api/tags", "/api/show"])
def test_listing_and_show_failures(
    fake_ollama: FakeOllama, mode: str, error: type[Exception], path: str
) -> None:
    fake_ollama.mode, fake_ollama.mode_paths = mode, frozenset({path})
    with OllamaBackend(timeout=0.5) as backend:
        call = backend.local_models if path == "/api/tags" else lambda: backend.context_length("x")
        _assert_raises_within(error, 3.0, call)


def test_an_unknown_model_is_a_model_error(backend: OllamaBackend) -> None:
    with pytest.raises(OllamaModelError, match="404"):
        backend.chat("mistral", MESSAGES, num_ctx=None)
    with pytest.raises(OllamaModelError, match="404"):
        backend.context_length("mistral")


def test_a_slow_but_timely_answer_is_accepted(fake_ollama: FakeOllama) -> None:
    fake_ollama.delay = 0.2
    with OllamaBackend(timeout=2.0) as backend:
        assert backend.chat("llama3.2", MESSAGES, num_ctx=None).text


@pytest.mark.parametrize(
    "call",
    [
        lambda b: b.local_models(),
        lambda b: b.resolve_model("llama3.2"),
        lambda b: b.context_length("llama3.2"),
        lambda b: b.chat("llama3.2", MESSAGES, num_ctx=None),
    ],
)
def test_nothing_listening_is_unavailable(
    dead_ollama_host: str, call: Callable[[OllamaBackend], Any]
) -> None:
    with OllamaBackend(dead_ollama_host, timeout=2.0) as backend:
        _assert_raises_within(OllamaUnavailable, 2.0, lambda: call(backend))


@pytest.mark.parametrize("configure", ["argument", "environment"])
def test_a_remote_host_is_refused_without_traffic(
    configure: str, connections: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", REMOTE_HOST)
    backend = OllamaBackend(REMOTE_HOST if configure == "argument" else None, timeout=0.5)
    for call in (
        backend.local_models,
        lambda: backend.resolve_model("llama3.2"),
        lambda: backend.context_length("llama3.2"),
        lambda: backend.chat("llama3.2", MESSAGES, num_ctx=None),
    ):
        _assert_raises_within(OllamaUnavailable, 0.1, call)
    backend.close()
    assert connections == []


def test_an_unparsable_host_is_unavailable_not_a_crash(
    connections: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "127.0.0.1:99999")
    backend = OllamaBackend()
    with pytest.raises(OllamaUnavailable, match="99999"):
        backend.local_models()
    assert connections == []


def waits(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str | None, float]]:
    return [
        (r.ollama_endpoint, r.ollama_model, r.ollama_timeout)
        for r in caplog.records
        if r.name == WAITING_LOGGER
    ]


def test_each_request_says_first_what_it_waits_for(
    fake_ollama: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=WAITING_LOGGER)
    with OllamaBackend(timeout=7) as backend:
        backend.local_models()
        backend.chat("llama3.2", MESSAGES, num_ctx=None, timeout=30)
    assert waits(caplog) == [("tags", None, 7.0), ("chat", "llama3.2", 30.0)]
    assert all(r.ollama_host == fake_ollama.host for r in caplog.records)


def test_a_probe_bounds_every_request_and_a_hung_server_is_a_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger=WAITING_LOGGER)
    with FakeOllama(mode="hang") as server, OllamaBackend(server.host, timeout=60) as backend:
        server.mode_paths = frozenset({"/api/tags", "/api/chat"})
        with waiting_at_most(0.3):
            with pytest.raises(OllamaTimeout):
                backend.local_models()
            with pytest.raises(OllamaTimeout):  # a longer timeout of its own does not lift it
                backend.chat("llama3.2", MESSAGES, num_ctx=None, timeout=90)
    assert waits(caplog) == [("tags", None, 0.3), ("chat", "llama3.2", 0.3)]


def test_stopping_the_server_releases_a_hanging_request() -> None:
    started = time.monotonic()
    with FakeOllama(mode="hang") as server, OllamaBackend(server.host, timeout=0.3) as backend:
        with pytest.raises(OllamaUnavailable):
            backend.chat("llama3.2", MESSAGES, num_ctx=None)
    assert time.monotonic() - started < 3.0


def _assert_raises_within(error: type[Exception], seconds: float, call: Callable[[], Any]) -> None:
    started = time.monotonic()
    with pytest.raises(error):
        call()
    assert time.monotonic() - started < seconds


# --- issue 17: time that scales with the request, answers dropped early -------------------------


@pytest.mark.parametrize(
    ("prompt", "predict", "scale"),
    [(0, 0, 1.0), (600, 100, 1.0), (2048, 100, 1.0), (4000, 512, (4000 + 5120) / 3048),
     (100_000, 100_000, 10.0)],
)
def test_scaled_timeout(prompt: int, predict: int, scale: float) -> None:
    assert scaled_timeout(60.0, prompt, predict) == pytest.approx(60.0 * scale)


def test_a_request_may_wait_longer_than_the_backends_timeout(fake_ollama: FakeOllama) -> None:
    fake_ollama.delay, fake_ollama.delay_paths = 0.8, frozenset({"/api/chat"})
    with OllamaBackend(timeout=0.4) as backend:
        with pytest.raises(OllamaUnavailable):
            backend.chat("llama3.2", MESSAGES, num_ctx=None)
        assert backend.chat("llama3.2", MESSAGES, num_ctx=None, timeout=2.0).text
        assert backend.local_models()  # other requests keep the backend's timeout


def test_a_streamed_answer_is_dropped_when_its_guard_says_so(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply = "word " * 400
    fake_ollama.token_delay = 0.002
    seen: list[int] = []

    def stop(text: str) -> str | None:
        seen.append(len(text))
        return "enough" if len(text) >= 100 else None

    with OllamaBackend(timeout=5.0) as backend:
        result = backend.chat("llama3.2", MESSAGES, num_ctx=None, stop=stop)
    assert result.stopped == "enough" and 100 <= len(result.text) < 200
    assert result.done_reason is None and result.eval_count is None
    sent, whole = fake_ollama.wait_for_streams(1)[-1]
    assert sent < whole / 2  # the server saw the client hang up
    assert seen == sorted(seen) and all(b - a >= 32 for a, b in zip(seen, seen[1:]))


def test_a_streamed_answer_that_ends_well_carries_the_counts(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply = "Grandma takes Lisinopril at 8am."
    with OllamaBackend(timeout=5.0) as backend:
        result = backend.chat("llama3.2", MESSAGES, num_ctx=2048, stop=lambda text: None)
    assert result.text == "Grandma takes Lisinopril at 8am."
    assert result.stopped is None and result.done_reason == "stop"
    assert result.prompt_eval_count and result.eval_count


class _Score(float):
    """A float of another type: judged one by one, as before the fast path."""


def test_a_vector_is_finite_numbers_whatever_their_types() -> None:
    assert finite_numbers([0.25, -1.0, 3, 0.0])
    assert finite_numbers([_Score(0.5), 1.0])
    assert not finite_numbers([0.5, True])  # a bool is no number here
    assert not finite_numbers([0.5, "0.5"])
    assert not finite_numbers([0.5, float("nan")])
    assert not finite_numbers([float("-inf"), 0.5])
    assert not finite_numbers([_Score("inf")])


def test_an_embedding_answer_of_infinities_or_ragged_vectors_is_refused(fake_ollama) -> None:
    fake_ollama.models = ["all-minilm:latest"]
    backend = OllamaBackend(fake_ollama.host, timeout=5)
    assert backend.embed("all-minilm", ["a", "b"])[0]  # the fake's vectors pass
    for bad in ([[1e309, 0.5]] * 2, [[0.5, 1.0], [0.5]]):
        fake_ollama.embed_override = bad
        with pytest.raises(OllamaModelError, match="not lists of numbers"):
            backend.embed("all-minilm", ["a", "b"])
