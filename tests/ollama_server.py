"""A small real HTTP server speaking the parts of Ollama's REST API localmem uses.

Tests point the real ``ollama`` client at it over a loopback socket, so every layer a user
meets (httpx, the client's JSON parsing, our transport guards) runs for real. It listens on
127.0.0.1 on a free port, in a daemon thread, and answers like Ollama does:

- ``GET /api/tags``, ``GET /api/version``;
- ``POST /api/show`` (``model_info`` with ``llama.context_length``, ``capabilities``), 404
  for an unknown model;
- ``POST /api/embed`` (see ``embed_dims``), 404 for an unknown model;
- ``POST /api/chat`` and ``POST /api/generate`` (answers with ``done_reason``,
  ``prompt_eval_count``, ``eval_count``...; streamed as NDJSON when the request says
  ``"stream": true``, a line per few characters, as Ollama streams tokens), 404 for an
  unknown model.

Knobs, all plain attributes that a test may change while the server runs:

- ``models`` — installed model names (default ``["llama3.2:latest"]``);
- ``context_length`` — reported by /api/show (None: the key is absent);
- ``capabilities`` — model name -> what /api/show says it can do (None: the key is
  absent, as before Ollama 0.6.4); a model not in it gets ``["embedding"]`` when its
  name says "embed" or "minilm", else ``["completion", "tools"]``;
- ``reply`` — the chat text (None: a short summary made of the request's own words, which
  passes localmem's validation); recorded real-model outputs are replayed through it;
- ``done_reason`` — None: ``"length"`` when ``num_predict`` tokens (a token being about four
  characters) do not hold the reply, else ``"stop"``; a string forces it (a recorded answer's);
- ``token_delay`` — seconds between two streamed lines (a model generating);
- ``streams`` — ``(lines sent, lines in the whole answer)`` of every streamed answer: fewer
  sent means the client hung up early (``wait_for_streams`` waits for the server's side to end);
- ``mode`` — ``"ok"``, ``"poem"``, ``"ramble"`` (a long chatty answer), ``"error500"``,
  ``"notfound"``, ``"hang"`` (never answers until the server stops), ``"slow_bytes"`` (a
  byte every 50 ms), ``"huge"`` (a 10 MB reply), ``"invalid_json"``, ``"close_mid"``
  (the connection drops half way through the body), ``"redirect"`` (307 to a TEST-NET
  address that is never contacted);
- ``mode_paths`` — the paths the mode applies to (default: /api/chat and /api/generate);
- ``embed_dims`` — the length of the vectors ``POST /api/embed`` answers with: a
  deterministic bag of "concepts" (``CONCEPTS`` maps a few words to a shared concept, so
  "pets" and "fur" meet without sharing a word), hashed into that many dimensions;
- ``embed_override`` — not None: the value sent as ``embeddings`` instead (garbage tests);
- ``prompt_eval_count`` — None: estimated from the request (capped at ``num_ctx`` like
  Ollama's truncation); an int forces the value;
- ``delay`` — seconds to wait before answering; ``delay_paths`` — the paths it applies to
  (None: every path);
- ``gate`` — None, or a ``threading.Event``: a request to ``gate_paths`` (default: /api/chat
  and /api/generate) waits until it is set (or the server stops): a model that answers only
  when the test says so; ``held`` is set once a request waits there (clear it to wait for
  the next one); ``gate_when`` — None, or a predicate on the request's JSON body: only the
  requests it accepts wait (a rollup's, say);
- ``requests`` — ``(method, path, parsed JSON body or None)`` of every request received;
- ``connections`` — how many connections the server accepted (a client that keeps its
  connection alive opens one; an idle one is closed after ``_Handler.timeout`` seconds).

Use it as a context manager; leaving it releases any hanging request and stops the server.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final

MODES: Final = frozenset(
    {
        "ok",
        "poem",
        "ramble",
        "error500",
        "notfound",
        "hang",
        "slow_bytes",
        "huge",
        "invalid_json",
        "close_mid",
        "redirect",
    }
)
GENERATION_PATHS: Final = frozenset({"/api/chat", "/api/generate"})
DEFAULT_MODELS: Final = ("llama3.2:latest",)
DEFAULT_CONTEXT_LENGTH: Final = 8192
HUGE_REPLY_BYTES: Final = 10 * 1024 * 1024
SLOW_BYTE_INTERVAL: Final = 0.05
REDIRECT_TARGET: Final = "http://192.0.2.1:11434"
"""TEST-NET-1 (RFC 5737): documentation only, routed nowhere."""
OLLAMA_VERSION: Final = "0.6.5"
STREAM_PIECE_CHARS: Final = 4
"""Characters per streamed line: about one token."""

POEM_REPLY: Final = """Title: A Spring Day

In fields where flowers gently sway,
The sun shines bright on this spring day.
With colors vibrant, nature's art,
Brings warmth and joy to every heart."""

RAMBLE_REPLY: Final = (
    "Sure! Here's a detailed summary of everything we talked about today. First, we went "
    "over quite a few different ideas and explored them at length, considering several "
    "angles and possibilities along the way. Then we dug into the finer points, weighed "
    "the pros and cons, and I offered some extra thoughts of my own that you might find "
    "useful. Let me know if you would like me to expand on any part of this!"
)

_TRANSCRIPT_LINE = re.compile(r"^(?:user|assistant|system|tool): (.*)$", re.MULTILINE)
_WORD = re.compile(r"[^\W\d_]{5,}")
_DULL_WORDS = frozenset(
    "about after again their there these those which would could should where while "
    "thanks thank please hello".split()
)


class FakeOllama:
    """A started-on-demand fake Ollama server on 127.0.0.1 (see the module docstring)."""

    def __init__(
        self,
        models: list[str] | None = None,
        context_length: int | None = DEFAULT_CONTEXT_LENGTH,
        reply: str | None = None,
        mode: str = "ok",
        prompt_eval_count: int | None = None,
        delay: float = 0.0,
        done_reason: str | None = None,
        token_delay: float = 0.0,
    ) -> None:
        self.models = list(models if models is not None else DEFAULT_MODELS)
        self.context_length = context_length
        self.capabilities: dict[str, list[str] | None] = {}
        self.reply = reply
        self._mode = "ok"
        self.mode = mode
        self.mode_paths: frozenset[str] = GENERATION_PATHS
        self.prompt_eval_count = prompt_eval_count
        self.embed_dims = 64
        self.embed_override: Any = None
        self.delay = delay
        self.delay_paths: frozenset[str] | None = None
        self.done_reason = done_reason
        self.token_delay = token_delay
        self.gate: threading.Event | None = None
        self.gate_paths: frozenset[str] = GENERATION_PATHS
        self.held = threading.Event()
        self.gate_when: Callable[[Any], bool] | None = None
        self.streams: list[tuple[int, int]] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.connections = 0
        self.stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def mode(self) -> str:
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown FakeOllama mode {mode!r}; one of {sorted(MODES)}")
        self._mode = mode

    @property
    def host(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeOllama is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeOllama:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOllama:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def wait_for_streams(self, count: int, timeout: float = 10.0) -> list[tuple[int, int]]:
        """``streams`` once ``count`` streamed answers have ended (at most ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while len(self.streams) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.streams

    def paths(self) -> list[str]:
        """The paths requested so far, in order."""
        return [path for _, path, _ in self.requests]

    # --- answers -------------------------------------------------------------------------

    def installed(self, name: object) -> str | None:
        """The installed model ``name`` refers to (Ollama adds ``:latest``), or None."""
        if not isinstance(name, str) or not name:
            return None
        tagged = name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
        return next((m for m in self.models if m in (name, tagged)), None)

    def tags_body(self) -> dict[str, Any]:
        return {"models": [_model_entry(name) for name in self.models]}

    def show_body(self, model: str) -> dict[str, Any]:
        model_info: dict[str, Any] = {
            "general.architecture": "llama",
            "general.basename": "Llama-3.2",
            "general.parameter_count": 3212749888,
            "llama.block_count": 28,
            "llama.embedding_length": 3072,
            "tokenizer.ggml.tokens": None,
        }
        if self.context_length is not None:
            model_info["llama.context_length"] = self.context_length
        capabilities = self.capabilities_of(model)
        return {
            "license": "LLAMA 3.2 COMMUNITY LICENSE AGREEMENT",
            "modelfile": f"# Modelfile generated by \"ollama show\"\nFROM {model}\n",
            "parameters": 'stop "<|eot_id|>"',
            "template": "{{ .Prompt }}",
            "details": _details(),
            "model_info": model_info,
            "modified_at": "2025-01-15T10:00:00.123456Z",
            **({} if capabilities is None else {"capabilities": capabilities}),
        }

    def capabilities_of(self, model: str) -> list[str] | None:
        if model in self.capabilities:
            return self.capabilities[model]
        embeds = "embed" in model or "minilm" in model
        return ["embedding"] if embeds else ["completion", "tools"]

    def generation_body(self, path: str, request: dict[str, Any]) -> dict[str, Any]:
        text = self.reply_text(request)
        options = request.get("options") or {}
        num_predict = options.get("num_predict")
        eval_count = len(text) // 4 + 1
        done_reason = "stop"
        if isinstance(num_predict, int) and 0 < num_predict <= eval_count:
            eval_count, done_reason = num_predict, "length"
        done_reason = self.done_reason or done_reason
        body: dict[str, Any] = {
            "model": self.installed(request.get("model")),
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime()),
            "done": True,
            "done_reason": done_reason,
            "total_duration": 1_250_000_000,
            "load_duration": 50_000_000,
            "prompt_eval_count": self.prompt_tokens(request),
            "prompt_eval_duration": 400_000_000,
            "eval_count": eval_count,
            "eval_duration": 800_000_000,
        }
        if path == "/api/chat":
            body["message"] = {"role": "assistant", "content": text}
        else:
            body["response"] = text
            body["context"] = [128006, 882, 128007]
        return body

    def embed_body(self, model: str, request: dict[str, Any]) -> dict[str, Any]:
        inputs = request.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        vectors = [concept_vector(str(t), self.embed_dims) for t in texts]
        return {
            "model": model,
            "embeddings": vectors if self.embed_override is None else self.embed_override,
            "total_duration": 1000,
            "load_duration": 10,
            "prompt_eval_count": sum(len(str(t).split()) for t in texts),
        }

    def reply_text(self, request: dict[str, Any]) -> str:
        if self.mode == "poem":
            return POEM_REPLY
        if self.mode == "ramble":
            return RAMBLE_REPLY
        if self.reply is not None:
            return self.reply
        return plausible_summary(_request_text(request))

    def prompt_tokens(self, request: dict[str, Any]) -> int:
        if self.prompt_eval_count is not None:
            return self.prompt_eval_count
        estimate = len(_all_request_text(request)) // 4 + 10
        num_ctx = (request.get("options") or {}).get("num_ctx")
        return min(estimate, num_ctx) if isinstance(num_ctx, int) and num_ctx > 0 else estimate


CONCEPTS: Final = {
    **dict.fromkeys(("pet", "pets", "dog", "dogs", "cat", "cats", "animal", "animals",
                     "reptile", "reptiles", "fur", "furry"), "animal"),
    **dict.fromkeys(("allergic", "allergy", "allergies", "discomfort", "itchy",
                     "sneeze", "sneezing"), "allergy"),
    **dict.fromkeys(("landlord", "rent", "lease", "flat", "apartment"), "housing"),
}
"""Words the fake embedding model treats as one concept (a stand-in for what a real
model learns), so that semantic recall can be tested with no shared word."""


def concept_vector(text: str, dims: int) -> list[float]:
    """A deterministic embedding: each word's concept hashed into ``dims`` counts."""
    vector = [0.0] * dims
    for word in re.findall(r"[a-z]+", text.lower()):
        concept = CONCEPTS.get(word, word)
        if len(concept) < 3:
            continue
        digest = hashlib.sha256(concept.encode()).digest()
        vector[int.from_bytes(digest[:4], "big") % dims] += 1.0
    return vector


def plausible_summary(conversation: str) -> str:
    """A short summary made of the conversation's own words (at most 25% of its length)."""
    lines = _TRANSCRIPT_LINE.findall(conversation) or [conversation]
    words: list[str] = []
    for word in _WORD.findall(" ".join(lines).lower()):
        if word not in words and word not in _DULL_WORDS:
            words.append(word)
    budget = min(200, len(conversation) // 4)
    summary = f"Discussed {words[0]}." if words else "Discussed the conversation."
    for count in range(2, len(words) + 1):
        candidate = f"Discussed {', '.join(words[: count - 1])} and {words[count - 1]}."
        if len(candidate) > budget:
            break
        summary = candidate
    return summary


def _request_text(request: dict[str, Any]) -> str:
    """The text to summarize: the last user message of a chat, or a generate prompt."""
    if "messages" in request:
        users = [m.get("content", "") for m in request["messages"] if m.get("role") == "user"]
        return users[-1] if users else ""
    return str(request.get("prompt", ""))


def _all_request_text(request: dict[str, Any]) -> str:
    if "messages" in request:
        return "\n".join(str(m.get("content", "")) for m in request["messages"])
    return str(request.get("system", "")) + str(request.get("prompt", ""))


def _details() -> dict[str, Any]:
    return {
        "parent_model": "",
        "format": "gguf",
        "family": "llama",
        "families": ["llama"],
        "parameter_size": "3.2B",
        "quantization_level": "Q4_K_M",
    }


def _model_entry(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "model": name,
        "modified_at": "2025-01-15T10:00:00.123456Z",
        "size": 2019393189,
        "digest": hashlib.sha256(name.encode()).hexdigest(),
        "details": _details(),
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # idle keep-alive connections must not delay stop()
    fake: FakeOllama

    def process_request(self, request: Any, client_address: Any) -> None:
        self.fake.connections += 1  # counted on the one thread that accepts
        super().process_request(request, client_address)

    def handle_error(self, request: object, client_address: object) -> None:
        """Clients hanging up mid-answer are expected here; stay quiet."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 5
    server: _Server

    def setup(self) -> None:
        super().setup()
        # Headers and body are written separately; without this, Nagle holds the body
        # until the client's delayed ACK (40 ms per request).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stderr."""

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _handle(self, method: str) -> None:
        fake = self.server.fake
        body = self._read_json()
        fake.requests.append((method, self.path, body))
        if fake.delay and (fake.delay_paths is None or self.path in fake.delay_paths):
            fake.stopping.wait(fake.delay)
        gate = fake.gate
        if (
            gate is not None
            and self.path in fake.gate_paths
            and (fake.gate_when is None or fake.gate_when(body))
        ):
            fake.held.set()
            while not gate.wait(0.02) and not fake.stopping.is_set():
                pass
        if self.path in fake.mode_paths and fake.mode not in ("ok", "poem", "ramble"):
            self._misbehave(fake.mode, body)
            return
        request = body if isinstance(body, dict) else {}
        status, answer = self._route(method, request)
        if status == 200 and self.path in GENERATION_PATHS and request.get("stream"):
            self._stream_lines(answer)
        else:
            self._send_json(status, answer)

    def _read_json(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return None

    def _route(self, method: str, body: dict[str, Any]) -> tuple[int, Any]:
        fake = self.server.fake
        route = (method, self.path)
        if route == ("GET", "/api/tags"):
            return 200, fake.tags_body()
        if route == ("GET", "/api/version"):
            return 200, {"version": OLLAMA_VERSION}
        if route in (("POST", "/api/show"), ("POST", "/api/chat"), ("POST", "/api/generate")):
            model = fake.installed(body.get("model"))
            if model is None:
                return 404, _not_found(body.get("model"))
            if self.path == "/api/show":
                return 200, fake.show_body(model)
            return 200, fake.generation_body(self.path, body)
        if route == ("POST", "/api/embed"):
            model = fake.installed(body.get("model"))
            if model is None:
                return 404, _not_found(body.get("model"))
            return 200, fake.embed_body(model, body)
        return 404, None

    def _misbehave(self, mode: str, body: Any) -> None:
        fake = self.server.fake
        request = body if isinstance(body, dict) else {}
        if mode == "error500":
            self._send_json(500, {"error": "llama runner process has terminated: exit status 2"})
        elif mode == "notfound":
            self._send_json(404, _not_found(request.get("model")))
        elif mode == "redirect":
            self._send_bytes(307, b"", "text/plain", {"Location": REDIRECT_TARGET + self.path})
        elif mode == "invalid_json":
            self._send_bytes(200, b'{"model": "llama3.2", "message": {"role": ', "application/json")
        elif mode == "hang":
            fake.stopping.wait()
            self.close_connection = True
        else:
            self._stream_body(mode, _encode(fake.generation_body(self.path, request)))

    def _stream_body(self, mode: str, payload: bytes) -> None:
        """The body-level failures: dribbled, cut short, or far too large."""
        if mode == "huge":
            payload = _huge_chat_body()
        self._start(200, "application/json", len(payload))
        try:
            if mode == "close_mid":
                self.wfile.write(payload[: len(payload) // 2])
                self.close_connection = True
            elif mode == "slow_bytes":
                for byte in _bytes_of(payload):
                    if self.server.fake.stopping.wait(SLOW_BYTE_INTERVAL):
                        break
                    self.wfile.write(byte)
                    self.wfile.flush()
                self.close_connection = True
            else:
                for start in range(0, len(payload), 64 * 1024):
                    self.wfile.write(payload[start : start + 64 * 1024])
        except OSError:  # the client gave up on us: what the test wanted
            self.close_connection = True

    def _stream_lines(self, answer: dict[str, Any]) -> None:
        """The answer as Ollama streams it: NDJSON, a line per ``STREAM_PIECE_CHARS``
        characters, then a last line with the counts; stops when the client hangs up."""
        fake = self.server.fake
        key = "message" if "message" in answer else "response"
        text = answer["message"]["content"] if key == "message" else answer["response"]
        pieces = [text[i : i + STREAM_PIECE_CHARS] for i in range(0, len(text), STREAM_PIECE_CHARS)]
        head = {k: answer[k] for k in ("model", "created_at")}
        lines = [
            {**head, key: {"role": "assistant", "content": p} if key == "message" else p, "done": False}
            for p in pieces
        ]
        last = {**answer, key: {"role": "assistant", "content": ""} if key == "message" else ""}
        lines.append(last)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        sent = 0
        try:
            for line in lines:
                if sent and fake.token_delay and fake.stopping.wait(fake.token_delay):
                    break
                self.wfile.write(_encode(line) + b"\n")
                self.wfile.flush()
                sent += 1
        except OSError:  # the client hung up: what a guard that stops early does
            pass
        fake.streams.append((sent, len(lines)))

    def _send_json(self, status: int, answer: Any) -> None:
        if answer is None:
            self._send_bytes(status, b"404 page not found", "text/plain")
        else:
            self._send_bytes(status, _encode(answer), "application/json; charset=utf-8")

    def _send_bytes(
        self, status: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self._start(status, content_type, len(payload), headers)
        try:
            self.wfile.write(payload)
        except OSError:
            self.close_connection = True

    def _start(
        self, status: int, content_type: str, length: int, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(length))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()


def _not_found(model: object) -> dict[str, str]:
    return {"error": f"model {json.dumps(model)} not found, try pulling it first"}


def _encode(answer: Any) -> bytes:
    return json.dumps(answer).encode("utf-8")


def _bytes_of(payload: bytes) -> Iterator[bytes]:
    return (payload[i : i + 1] for i in range(len(payload)))


def _huge_chat_body() -> bytes:
    head = b'{"model":"llama3.2:latest","message":{"role":"assistant","content":"'
    tail = b'"},"done":true,"done_reason":"stop"}'
    return head + b"a" * HUGE_REPLY_BYTES + tail
