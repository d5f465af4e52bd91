"""A loopback server speaking Ollama's embedding API, backed by the real all-MiniLM-L6-v2.

    python benchmarks/embed_server.py --check   # the real ollama client against it

localmem reaches an embedding model through the local Ollama server's ``/api/embed``.
This server answers those requests on 127.0.0.1 (a free port, a daemon thread) with
``minilm.MiniLM``, so a benchmark measures localmem with real embeddings and no Ollama
install. It speaks what an embedding client uses, with Ollama's shapes and errors:

- ``POST /api/embed`` ``{"model", "input": str | [str], "truncate", "options",
  "keep_alive", "dimensions"}`` -> ``{"model", "embeddings": [[...]], "total_duration",
  "load_duration", "prompt_eval_count"}``; 404 ``{"error": ...}`` for an unknown model,
  400 for a missing model, a bad input, or (``"truncate": false``) an input longer than
  the model's 256 word pieces;
- ``GET /api/tags`` (the model as ``all-minilm:latest``), ``GET /api/version``;
- ``POST /api/show`` (``bert.*`` model_info, ``capabilities: ["embedding"]``), 404 for an
  unknown model;
- ``POST /api/chat`` and ``/api/generate``: 400 "does not support" for the embedding
  model, 404 for any other (there are no chat models here).

Vectors of texts already embedded are served from memory (the model is deterministic);
``stats`` counts requests, texts and texts actually run through the model; ``asked``
counts every request by method and path, ``connections`` the connections accepted (a
client that keeps its connection alive opens one); ``served`` holds each ``/api/embed``'s
seconds from its body read to its answer ready (the model's time as served, recorded
before the answer is sent, so a client that has its answer finds it there).

A benchmark runs it in a process of its own, as Ollama runs (``EmbedProcess``:
``--serve --log LOG``), so that the model's work does not share the benchmark's
interpreter (its lock and its threads) with the client it times. The server then
writes each of those events to ``LOG`` as it happens, one ``<perf_counter_ns> <what>``
line each (the clock every process of the machine shares): ``connection``, ``asked
<METHOD> <path>``, ``embed+`` (a POST to ``/api/embed`` begun, before its body is
read), ``served <seconds>``, ``embed-`` (its answer ready, before it is sent) and
``sent`` (its answer written to the socket); ``EmbedProcess`` reads ``asked``,
``connections``, ``served`` and ``handled`` back from it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any, Final

import numpy as np
from minilm import MAX_TOKENS, MiniLM

MODEL_NAME: Final = "all-minilm:latest"
OLLAMA_VERSION: Final = "0.6.5"
MODIFIED_AT: Final = "2025-01-15T10:00:00.123456Z"
DETAILS: Final = {
    "parent_model": "",
    "format": "gguf",
    "family": "bert",
    "families": ["bert"],
    "parameter_size": "23M",
    "quantization_level": "F16",
}


def installed(name: object) -> bool:
    """Whether ``name`` is the one model here (Ollama adds ``:latest`` to a bare name)."""
    if not isinstance(name, str) or not name:
        return False
    return (name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest") == MODEL_NAME


class EmbedServer:
    """The server (see the module docstring); a context manager that starts and stops it."""

    def __init__(self, model: MiniLM, log: IO[str] | None = None) -> None:
        self.model = model
        self.stats = {"requests": 0, "texts": 0, "computed": 0}
        self.asked: Counter[str] = Counter()  # "POST /api/embed" -> how many
        self.connections = 0
        self.served: list[float] = []
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self._log = log  # each event as it happens (the module docstring), if given
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        if self._server is None:
            raise RuntimeError("EmbedServer is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> EmbedServer:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> EmbedServer:
        return self.start()

    def note(self, what: str) -> None:
        """``what`` happened now: written to the log, if any (call with ``_lock`` held)."""
        if self._log is not None:
            self._log.write(f"{time.perf_counter_ns()} {what}\n")
            self._log.flush()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def preload(self, texts: list[str], vectors: np.ndarray) -> None:
        """Remember vectors already computed with this model (not counted in ``stats``)."""
        with self._lock:
            self._vectors.update(zip(texts, vectors))

    def vectors(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of ``texts``, computing only those not seen before."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            computed = self.model.embed(missing)
            with self._lock:
                self._vectors.update(zip(missing, computed))
                self.stats["computed"] += len(missing)
        with self._lock:
            self.stats["texts"] += len(texts)
            return np.stack([self._vectors[t] for t in texts]) if texts else np.zeros((0, 384))

    # --- answers -------------------------------------------------------------------------

    def embed(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        started = time.perf_counter_ns()
        model = body.get("model")
        if not model:
            return 400, {"error": "model is required"}
        if not installed(model):
            return 404, {"error": f'model "{model}" not found, try pulling it first'}
        raw = body.get("input", [])
        texts = [raw] if isinstance(raw, str) else raw
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 400, {"error": "invalid input type"}
        dimensions = body.get("dimensions")
        if dimensions is not None and (
            not isinstance(dimensions, int) or not 0 < dimensions <= self.model.dimensions
        ):
            return 400, {"error": f"dimensions must be between 1 and {self.model.dimensions}"}
        counts = self.model.count_tokens(texts) if texts else []
        if body.get("truncate") is False and any(n >= MAX_TOKENS for n in counts):
            # Ollama's answer for all-minilm (the tokenizer cut one: it reached the limit)
            return 400, {"error": "input exceeds maximum context length"}
        vectors = self.vectors(texts)
        if dimensions is not None:
            vectors = vectors[:, :dimensions]
            vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return 200, {
            "model": model,
            "embeddings": vectors.tolist(),
            "total_duration": time.perf_counter_ns() - started,
            "load_duration": 0,
            "prompt_eval_count": sum(counts),
        }

    @staticmethod
    def tags() -> dict[str, Any]:
        return {
            "models": [
                {
                    "name": MODEL_NAME,
                    "model": MODEL_NAME,
                    "modified_at": MODIFIED_AT,
                    "size": 45960996,
                    "digest": hashlib.sha256(MODEL_NAME.encode()).hexdigest(),
                    "details": DETAILS,
                }
            ]
        }

    def show(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        model = body.get("model") or body.get("name")
        if not installed(model):
            return 404, {"error": f"model '{model}' not found"}
        return 200, {
            "license": "Apache License 2.0",
            "modelfile": f'# Modelfile generated by "ollama show"\nFROM {MODEL_NAME}\n',
            "parameters": "num_ctx 256",
            "template": "{{ .Prompt }}",
            "details": DETAILS,
            "model_info": {
                "general.architecture": "bert",
                "general.parameter_count": 22565376,
                "bert.attention.causal": False,
                "bert.attention.head_count": 12,
                "bert.block_count": 6,
                "bert.context_length": 512,
                "bert.embedding_length": self.model.dimensions,
                "bert.pooling_type": 1,
            },
            "capabilities": ["embedding"],
            "modified_at": MODIFIED_AT,
        }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: EmbedServer

    def handle_error(self, request: object, client_address: object) -> None:
        """A client hanging up mid-answer is its own business; stay quiet."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.server.owner._lock:
            self.server.owner.connections += 1
            self.server.owner.note("connection")

    def parse_request(self) -> bool:
        """The request line and headers, each request counted by method and path."""
        parsed = super().parse_request()
        if parsed:
            owner = self.server.owner
            with owner._lock:
                owner.asked[f"{self.command} {self.path}"] += 1
                owner.note(f"asked {self.command} {self.path}")
        return parsed

    def log_message(self, format: str, *args: Any) -> None:
        """No access log."""

    def do_GET(self) -> None:
        if self.path == "/api/tags":
            self._send(200, EmbedServer.tags())
        elif self.path == "/api/version":
            self._send(200, {"version": OLLAMA_VERSION})
        else:
            self._send(404, None)

    def do_POST(self) -> None:
        owner = self.server.owner
        if self.path == "/api/embed":
            with owner._lock:
                owner.note("embed+")
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._send(400, {"error": "invalid character in request body"})
            return
        if not isinstance(body, dict):
            self._send(400, {"error": "request body must be a JSON object"})
            return
        with owner._lock:
            owner.stats["requests"] += 1
        if self.path == "/api/embed":
            started = time.perf_counter()
            answer = owner.embed(body)
            with owner._lock:
                owner.served.append(time.perf_counter() - started)
                owner.note(f"served {owner.served[-1]:.9f}")
                owner.note("embed-")
            self._send(*answer)
            with owner._lock:
                owner.note("sent")
        elif self.path == "/api/show":
            self._send(*owner.show(body))
        elif self.path in ("/api/chat", "/api/generate"):
            model = body.get("model")
            if installed(model):
                verb = self.path.rsplit("/", 1)[-1]
                self._send(400, {"error": f'"{model}" does not support {verb}'})
            else:
                self._send(404, {"error": f'model "{model}" not found, try pulling it first'})
        else:
            self._send(404, None)

    def _send(self, status: int, answer: dict[str, Any] | None) -> None:
        if answer is None:
            payload, kind = b"404 page not found", "text/plain"
        else:
            payload, kind = json.dumps(answer).encode(), "application/json; charset=utf-8"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class EmbedProcess:
    """``EmbedServer`` run in a process of its own (``--serve --log``), as Ollama runs;
    a context manager. ``host``, ``asked``, ``connections`` and ``served`` as the
    server's, read back from its log (each read sees every event logged before it)."""

    def __init__(self, log: str | Path, model_dir: str | None = None) -> None:
        self.log = Path(log)
        self._args = [sys.executable, str(Path(__file__).resolve()), "--serve", "--log", str(log)]
        if model_dir:
            self._args += ["--model-dir", model_dir]
        self._process: subprocess.Popen[str] | None = None
        self.host = ""

    def __enter__(self) -> EmbedProcess:
        self.log.write_text("")
        self._process = subprocess.Popen(
            self._args, stdout=subprocess.PIPE, text=True, env=dict(os.environ)
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()  # "OLLAMA_HOST=http://127.0.0.1:PORT"
        if not line.startswith("OLLAMA_HOST="):
            self.__exit__()
            raise RuntimeError(f"the embedding server did not start: {line!r}")
        self.host = line.strip().split("=", 1)[1]
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=10)
            if self._process.stdout is not None:
                self._process.stdout.close()

    def events(self) -> list[tuple[int, str]]:
        """Every (nanoseconds, what) the server logged so far, in order."""
        out = []
        for line in self.log.read_text().splitlines():
            at, what = line.split(" ", 1)
            out.append((int(at), what))
        return out

    @property
    def asked(self) -> Counter[str]:
        return Counter(what[6:] for _, what in self.events() if what.startswith("asked "))

    @property
    def connections(self) -> int:
        return sum(what == "connection" for _, what in self.events())

    @property
    def served(self) -> list[float]:
        return [float(what[7:]) for _, what in self.events() if what.startswith("served ")]

    @property
    def handled(self) -> list[float]:
        """Each ``/api/embed``'s seconds in the server beyond the model: from its request
        line read (``asked``) to its answer written (``sent``), less ``served`` (the
        body read and parsed, the answer encoded and written). For requests made one at
        a time (the events of two at once would interleave)."""
        out, asked, served = [], None, 0.0
        for at, what in self.events():
            if what == "asked POST /api/embed":
                asked = at
            elif what.startswith("served ") and asked is not None:
                served = float(what[7:])
            elif what == "sent" and asked is not None:
                out.append((at - asked) / 1e9 - served)
                asked = None
        return out


def check(model: MiniLM) -> None:
    """The real ollama client against the server: every route, compared with the model."""
    import httpx
    import ollama

    texts = ["I adopted a puppy yesterday!", "We moved to Lisbon last spring."]
    with EmbedServer(model) as server:
        client = ollama.Client(host=server.host, timeout=30)
        answer = client.embed(model="all-minilm", input=texts)
        direct = model.embed(texts)
        assert answer.model == "all-minilm" and len(answer.embeddings) == 2
        assert np.allclose(np.array(answer.embeddings), direct, atol=1e-6)
        assert answer.prompt_eval_count == sum(model.count_tokens(texts))
        one = client.embed(model="all-minilm:latest", input=texts[0])
        assert np.allclose(one.embeddings[0], direct[0], atol=1e-6)
        cut = client.embed(model="all-minilm", input=texts, dimensions=64).embeddings[0]
        assert len(cut) == 64 and abs(float(np.linalg.norm(cut)) - 1.0) < 1e-6
        assert [m.model for m in client.list().models] == [MODEL_NAME]
        shown = client.show("all-minilm")
        assert shown.capabilities == ["embedding"]
        assert shown.modelinfo["bert.embedding_length"] == 384
        for call in (
            lambda: client.show("llama3.2"),
            lambda: client.embed(model="nomic-embed-text", input="x"),
        ):
            try:
                call()
            except ollama.ResponseError as exc:
                assert exc.status_code == 404, exc
            else:
                raise AssertionError("an unknown model must answer 404")
        try:
            client.embed(model="all-minilm", input="word " * 400, truncate=False)
        except ollama.ResponseError as exc:
            assert exc.status_code == 400 and "context length" in exc.error, exc
        else:
            raise AssertionError("truncate=false on a long input must answer 400")
        long = client.embed(model="all-minilm", input="word " * 400)
        assert len(long.embeddings[0]) == 384
        assert httpx.get(server.host + "/api/version").json() == {"version": OLLAMA_VERSION}
        version = importlib.metadata.version("ollama")
        print(f"ollama {version} client against {server.host}: every route answers as Ollama's")
        print(f"cosine of the two texts: {float(direct[0] @ direct[1]):.3f}; stats {server.stats}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", help="the unpacked model (see minilm.py)")
    parser.add_argument("--check", action="store_true", help="run the ollama client against it")
    parser.add_argument("--serve", action="store_true", help="serve until interrupted")
    parser.add_argument("--log", help="with --serve: each event written to this file")
    args = parser.parse_args()
    model = MiniLM(args.model_dir)
    if args.serve:
        log = open(args.log, "a") if args.log else None  # noqa: SIM115 - for the process's life
        with EmbedServer(model, log) as server:
            print(f"OLLAMA_HOST={server.host}", flush=True)
            threading.Event().wait()
    else:
        check(model)


if __name__ == "__main__":
    main()
