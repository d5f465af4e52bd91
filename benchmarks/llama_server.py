"""A loopback server speaking Ollama's REST API over llama-cpp-python, in-process.

It lets localmem's real summarizer and checkpoint code, through the real ``ollama`` client,
talk to real small GGUF models on a machine where Ollama itself is not installed
(benchmarks/real_models.py). It answers the parts of the API localmem uses:

- ``GET /api/tags``, ``GET /api/version``;
- ``POST /api/show``: ``model_info`` with ``general.architecture`` and
  ``<architecture>.context_length`` (the window this server allocated, at most the model's);
- ``POST /api/chat`` and ``POST /api/generate``, streamed (NDJSON, as Ollama does by default)
  or not, with ``format: "json"`` (a JSON grammar, as Ollama's JSON mode), the options
  ``num_predict``, ``temperature``, ``num_ctx`` and ``seed``, and ``done_reason``
  (``stop``/``length``), ``prompt_eval_count``, ``eval_count`` and the durations in ns.

Like Ollama, a prompt longer than ``num_ctx`` leaves room for ``num_predict`` by losing its
oldest tokens (``prompt_eval_count`` then says how many were read), the chat template is the
model's own (GGUF ``tokenizer.chat_template``), and a streamed answer stops when the client
hangs up. One generation runs at a time (a lock); ``--threads`` is llama.cpp's thread count
(1 by default: the machine is shared). Every request and its raw answer is kept in
``LlamaOllama.log`` for the benchmark to save.

    python benchmarks/llama_server.py --model smollm2:135m=path/to/SmolLM2-135M-Instruct.Q4_1.gguf

prints the host to put in ``OLLAMA_HOST`` and serves until interrupted.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

DEFAULT_CONTEXT = 8192
DEFAULT_NUM_PREDICT = 128  # Ollama's default
DEFAULT_TEMPERATURE = 0.8  # Ollama's default
DEFAULT_NUM_CTX = 2048  # Ollama's default
DEFAULT_SEED = 42
VERSION = "0.6.5-llama-cpp-python"


@dataclass
class Generation:
    """One answer: its text, why it ended, and what it cost."""

    text: str
    done_reason: str
    prompt_eval_count: int
    eval_count: int
    prompt_ns: int
    eval_ns: int


class _Model:
    """One GGUF model, loaded on first use."""

    def __init__(self, name: str, path: Path, context: int, threads: int, seed: int) -> None:
        from llama_cpp import Llama, LlamaGrammar
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter
        from llama_cpp.llama_grammar import JSON_GBNF

        self.name = name
        self.path = path
        self.llm = Llama(str(path), n_ctx=context, n_threads=threads, seed=seed, verbose=False)
        meta = self.llm.metadata
        self.architecture = meta.get("general.architecture", "llama")
        trained = int(meta.get(f"{self.architecture}.context_length", context))
        self.context = min(context, trained)
        eos, bos = (self._special(self.llm.token_eos()), self._special(self.llm.token_bos()))
        self.add_bos = meta.get("tokenizer.ggml.add_bos_token", "true") != "false"
        self.formatter = Jinja2ChatFormatter(
            template=meta["tokenizer.chat_template"], eos_token=eos, bos_token=bos
        )
        self.json_grammar = LlamaGrammar.from_string(JSON_GBNF, verbose=False)
        self.size = path.stat().st_size

    def _special(self, token: int) -> str:
        if token < 0:
            return ""
        return self.llm.detokenize([token], special=True).decode("utf-8", "replace")

    def prompt(self, messages: list[dict[str, str]]) -> tuple[list[int], list[str]]:
        rendered = self.formatter(messages=messages)
        tokens = self.llm.tokenize(rendered.prompt.encode("utf-8"), add_bos=self.add_bos, special=True)
        stops = rendered.stop if isinstance(rendered.stop, list) else [rendered.stop]
        return tokens, [s for s in stops if s]

    def generate(
        self,
        messages: list[dict[str, str]],
        options: dict[str, Any],
        json_mode: bool,
        hung_up: threading.Event,
        on_piece: Any = None,
    ) -> Generation:
        tokens, stop = self.prompt(messages)
        num_predict = int(options.get("num_predict", DEFAULT_NUM_PREDICT))
        if num_predict < 0:
            num_predict = self.context
        num_ctx = min(int(options.get("num_ctx", DEFAULT_NUM_CTX)), self.context)
        room = max(1, num_ctx - num_predict)
        if len(tokens) > room:  # Ollama's truncation: the oldest tokens go
            tokens = tokens[-room:]
        started = time.perf_counter_ns()
        first: int | None = None
        pieces: list[str] = []
        reason = "stop"
        count = 0
        stream = self.llm.create_completion(
            prompt=tokens,
            max_tokens=num_predict,
            temperature=float(options.get("temperature", DEFAULT_TEMPERATURE)),
            seed=int(options.get("seed", DEFAULT_SEED)),
            stop=stop,
            grammar=self.json_grammar if json_mode else None,
            stream=True,
        )
        for chunk in stream:
            if first is None:
                first = time.perf_counter_ns()
            choice = chunk["choices"][0]
            piece = choice.get("text") or ""
            if piece:
                count += 1
                pieces.append(piece)
                if on_piece is not None:
                    on_piece(piece)
            if choice.get("finish_reason"):
                reason = "length" if choice["finish_reason"] == "length" else "stop"
            if hung_up.is_set():
                reason = "hung up"
                break
        ended = time.perf_counter_ns()
        first = first or ended
        return Generation("".join(pieces), reason, len(tokens), count, first - started, ended - first)


class LlamaOllama:
    """The server: ``models`` maps Ollama-style names ("smollm2:135m") to GGUF files."""

    def __init__(
        self,
        models: dict[str, Path],
        *,
        context: int = DEFAULT_CONTEXT,
        threads: int = 1,
        seed: int = DEFAULT_SEED,
        port: int = 0,
    ) -> None:
        self.paths = dict(models)
        self.context = context
        self.threads = threads
        self.seed = seed
        self.port = port
        self.log: list[dict[str, Any]] = []
        self._models: dict[str, _Model] = {}
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        assert self._server is not None, "not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> LlamaOllama:
        self._server = _Server(("127.0.0.1", self.port), _Handler)
        self._server.app = self
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> LlamaOllama:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def model(self, name: object) -> _Model | None:
        if not isinstance(name, str):
            return None
        tagged = name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
        key = next((n for n in self.paths if n in (name, tagged)), None)
        if key is None:
            return None
        with self._lock:
            if key not in self._models:
                self._models[key] = _Model(key, self.paths[key], self.context, self.threads, self.seed)
            return self._models[key]

    def generate(
        self, model: _Model, body: dict[str, Any], hung_up: threading.Event, on_piece: Any = None
    ) -> Generation:
        messages = _messages(body)
        options = body.get("options") or {}
        json_mode = body.get("format") == "json" or isinstance(body.get("format"), dict)
        with self._lock:
            result = model.generate(messages, options, json_mode, hung_up, on_piece)
            self._record(model, body, messages, options, result)
        return result

    def wait_idle(self) -> None:
        """Return once no generation runs (a client that hung up may have left one going)."""
        with self._lock:
            pass

    def _record(
        self,
        model: _Model,
        body: dict[str, Any],
        messages: list[dict[str, str]],
        options: dict[str, Any],
        result: Generation,
    ) -> None:
        self.log.append(
            {
                "model": model.name,
                "messages": messages,
                "options": options,
                "format": body.get("format"),
                "stream": body.get("stream", True),
                "text": result.text,
                "done_reason": result.done_reason,
                "prompt_eval_count": result.prompt_eval_count,
                "eval_count": result.eval_count,
                "seconds": round((result.prompt_ns + result.eval_ns) / 1e9, 3),
            }
        )


def _messages(body: dict[str, Any]) -> list[dict[str, str]]:
    if "messages" in body:
        return [{"role": str(m.get("role")), "content": str(m.get("content") or "")} for m in body["messages"]]
    out = [{"role": "system", "content": str(body["system"])}] if body.get("system") else []
    return out + [{"role": "user", "content": str(body.get("prompt") or "")}]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    app: LlamaOllama


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def do_GET(self) -> None:
        app = self.server.app
        if self.path == "/api/tags":
            self._json(200, {"models": [_entry(name, path) for name, path in app.paths.items()]})
        elif self.path == "/api/version":
            self._json(200, {"version": VERSION})
        else:
            self._json(404, {"error": "not found"})

    def do_POST(self) -> None:
        app = self.server.app
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(400, {"error": "invalid JSON"})
            return
        model = app.model(body.get("model"))
        if self.path not in ("/api/show", "/api/chat", "/api/generate"):
            self._json(404, {"error": "not found"})
        elif model is None:
            self._json(404, {"error": f"model {json.dumps(body.get('model'))} not found, try pulling it first"})
        elif self.path == "/api/show":
            self._json(200, _show(model))
        elif body.get("stream", True):
            self._stream(model, body)
        else:
            result = app.generate(model, body, threading.Event())
            self._json(200, _final(self.path, model, result, result.text))

    def _stream(self, model: _Model, body: dict[str, Any]) -> None:
        """NDJSON: a line per piece, then the final line; stops when the client hangs up."""
        hung_up = threading.Event()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def write(piece: str) -> None:
            if hung_up.is_set():
                return
            line = _piece(self.path, model, piece)
            try:
                self.wfile.write(json.dumps(line).encode() + b"\n")
                self.wfile.flush()
            except OSError:
                hung_up.set()

        result = self.server.app.generate(model, body, hung_up, write)
        if not hung_up.is_set():
            try:
                self.wfile.write(json.dumps(_final(self.path, model, result, "")).encode() + b"\n")
            except OSError:
                pass

    def _json(self, status: int, answer: Any) -> None:
        payload = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())


def _piece(path: str, model: _Model, text: str) -> dict[str, Any]:
    line: dict[str, Any] = {"model": model.name, "created_at": _now(), "done": False}
    if path == "/api/chat":
        line["message"] = {"role": "assistant", "content": text}
    else:
        line["response"] = text
    return line


def _final(path: str, model: _Model, result: Generation, text: str) -> dict[str, Any]:
    line = _piece(path, model, text)
    line.update(
        done=True,
        done_reason=result.done_reason,
        total_duration=result.prompt_ns + result.eval_ns,
        load_duration=0,
        prompt_eval_count=result.prompt_eval_count,
        prompt_eval_duration=result.prompt_ns,
        eval_count=result.eval_count,
        eval_duration=result.eval_ns,
    )
    return line


def _details(model_path: Path) -> dict[str, Any]:
    return {"format": "gguf", "family": "llama", "parameter_size": "", "quantization_level": ""}


def _entry(name: str, path: Path) -> dict[str, Any]:
    return {
        "name": name,
        "model": name,
        "modified_at": _now(),
        "size": path.stat().st_size,
        "digest": "",
        "details": _details(path),
    }


def _show(model: _Model) -> dict[str, Any]:
    return {
        "modelfile": f"FROM {model.path}\n",
        "parameters": "",
        "template": "",
        "details": _details(model.path),
        "model_info": {
            "general.architecture": model.architecture,
            f"{model.architecture}.context_length": model.context,
        },
        "capabilities": ["completion"],
    }


def _iter_models(specs: list[str]) -> Iterator[tuple[str, Path]]:
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            raise SystemExit(f"--model takes NAME=PATH, not {spec!r}")
        yield name, Path(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", required=True, help="NAME=PATH.gguf")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--context", type=int, default=DEFAULT_CONTEXT)
    args = parser.parse_args()
    server = LlamaOllama(
        dict(_iter_models(args.model)), context=args.context, threads=args.threads, port=args.port
    ).start()
    print(f"OLLAMA_HOST={server.host}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
