"""The only network code of localmem: a thin, pessimistic wrapper of the ``ollama`` client.

:class:`OllamaBackend` talks to the local Ollama server through the real ``ollama.Client``
and turns every way that can go wrong into one of two errors:

- :class:`OllamaUnavailable` — no usable connection: refused, DNS failure, timeout, the
  connection dropped before a complete answer, a host outside this machine refused by policy,
  an ``OLLAMA_HOST`` that cannot be parsed. The summarizer writes an *offline* summary.
- :class:`OllamaModelError` — the server answered, but not usefully: an HTTP error status
  (4xx/5xx, "model not found"), a redirect, invalid or unexpected JSON, a body or a reply too
  large. The summarizer writes a *fallback* summary.

Rules kept here and in ``transport`` (the connection's guards: the host policy, the
guarded httpx transport, the two errors):

- **Loopback only.** A conversation never leaves the machine. Unless ``allow_remote`` is set,
  a host that is not ``localhost``, ``127.0.0.0/8`` or ``::1`` gets no traffic at all, and
  the transport checks every request's host again. Redirects are not followed (a local
  server could redirect elsewhere) and proxy environment variables are ignored (a proxy
  would see the conversation).
- **Bounded time.** The timeout is always explicit (the ``ollama`` client's default is none):
  it bounds connecting and every read, and the transport also enforces it as a deadline for
  the whole answer, so a server that dribbles bytes is cut off too. A request therefore ends
  within about twice the timeout. A generation may be given a longer one
  (:func:`scaled_timeout`: ``timeout`` is what a summary-sized request may take, and a
  request that reads or writes more tokens gets proportionally more, up to
  :data:`MAX_TIMEOUT_SCALE` times): on a desktop CPU a 1.5B model's checkpoint takes minutes,
  a small model's summary seconds.
- **Stopped early.** A generation can be read as a stream and dropped as soon as a guard
  says the answer is going nowhere (``chat(stop=...)``: a model looping in JSON mode until
  ``num_predict``); closing the connection makes Ollama stop generating. Not covered: a server that dribbles its *headers* byte by
  byte (httpx has no total timeout; each byte restarts the read timeout, up to httpcore's
  100 KB header limit).
- **Bounded memory.** The ``ollama`` client reads the whole body and parses it; it offers no
  size limit. The transport therefore stops reading past :data:`DEFAULT_MAX_RESPONSE_BYTES`
  and refuses compressed bodies (which could expand without bound); a reply text over
  :data:`DEFAULT_MAX_REPLY_CHARS` is refused as well.
- **Nothing at import.** ``ollama`` itself creates a client when imported, so it is imported
  only when the first request is made; the backend's own client is created then too.
- **Cheap when offline.** The list of local models is cached for ``models_ttl`` seconds and a
  failure for a few seconds, so a machine without Ollama is not probed on every call.

Nothing here logs message text: requests are logged at DEBUG by endpoint, model and time.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from localmem.errors import InvalidInput, LocalMemError

# The connection's guards; their public names are this module's too (the boundary's API).
from .transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_OLLAMA_HOST,
    DEFAULT_OLLAMA_PORT,
    OLLAMA_HOST_ENV,
    REQUEST_TIMEOUT,
    GuardedTransport,
    OllamaModelError,
    OllamaTimeout,
    OllamaUnavailable,
    is_loopback_host,
    map_error,
    resolve_host,
)

# What the server's answers say, read defensively; their names are this module's too.
from .replies import (
    DEFAULT_MAX_REPLY_CHARS,
    STOP_CHECK_CHARS,
    ChatResult,
    context_length_from,
    read_answer,
    read_stream,
)

if TYPE_CHECKING:
    import ollama

logger = logging.getLogger("localmem")
WAITING_LOGGER: Final = "localmem.waiting"
waiting = logging.getLogger(WAITING_LOGGER)
"""Before every request, one INFO record saying what is awaited, for how long (a front end
shows it: the CLI, on standard error). Its attributes: ``ollama_host``, ``ollama_endpoint``,
``ollama_model`` (None for the list of models) and ``ollama_timeout`` (seconds)."""

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES", "DEFAULT_OLLAMA_HOST", "DEFAULT_OLLAMA_PORT", "OLLAMA_HOST_ENV",
    "ChatResult", "OllamaBackend", "OllamaModelError", "OllamaTimeout", "OllamaUnavailable",
    "WAITING_LOGGER", "is_loopback_host", "resolve_host", "scaled_timeout", "tagged",
    "waiting_at_most",
]

T = TypeVar("T")

DEFAULT_TIMEOUT: Final = 60.0
DEFAULT_MODELS_TTL: Final = 30.0
DEFAULT_FAILURE_TTL: Final = 5.0
"""Seconds a failed model listing is remembered (never longer than ``models_ttl``)."""
DEFAULT_NUM_PREDICT: Final = 100
DEFAULT_TEMPERATURE: Final = 0.1

REFERENCE_PROMPT_TOKENS: Final = 2048
"""The prompt of a summary-sized request: ``timeout`` is meant for this much..."""
REFERENCE_PREDICT_TOKENS: Final = DEFAULT_NUM_PREDICT
"""... and this many generated tokens."""
DECODE_WEIGHT: Final = 10
"""On a CPU, generating one token takes about as long as reading ten of the prompt."""
MAX_TIMEOUT_SCALE: Final = 10.0


@contextlib.contextmanager
def waiting_at_most(seconds: float) -> Iterator[None]:
    """Within it, each request this thread makes waits at most ``seconds`` (connecting,
    and for the whole answer), if that is shorter than its own timeout: a probe that must
    answer soon (``doctor``). A request that times out raises :class:`OllamaTimeout`."""
    current = REQUEST_TIMEOUT.get()
    token = REQUEST_TIMEOUT.set(seconds if current is None else min(seconds, current))
    try:
        yield
    finally:
        REQUEST_TIMEOUT.reset(token)


def scaled_timeout(base: float, prompt_tokens: int, num_predict: int) -> float:
    """The timeout of a generation reading ``prompt_tokens`` and writing up to ``num_predict``:
    ``base`` for a summary-sized request or smaller, proportionally more for a larger one,
    at most :data:`MAX_TIMEOUT_SCALE` times ``base``."""
    reference = REFERENCE_PROMPT_TOKENS + DECODE_WEIGHT * REFERENCE_PREDICT_TOKENS
    cost = max(prompt_tokens, 0) + DECODE_WEIGHT * max(num_predict, 0)
    return base * min(MAX_TIMEOUT_SCALE, max(1.0, cost / reference))


@dataclass(frozen=True, slots=True)
class _ModelsEntry:
    expires: float
    models: frozenset[str]
    error: LocalMemError | None
    digests: Mapping[str, str] | None = None


class OllamaBackend:
    """The local Ollama server, as the summarizer sees it.

    ``host`` follows :func:`resolve_host` (``None``: ``$OLLAMA_HOST``, else the default).
    ``timeout`` (seconds, finite and positive) bounds every request. With ``allow_remote``
    False (the default) a host outside this machine is refused: every call raises
    :class:`OllamaUnavailable` and nothing is sent. ``models_ttl`` is how long the list of
    local models is trusted. ``clock`` is injectable for tests of the cache. ``disabled``
    (a reason: offline mode) makes every call raise :class:`OllamaUnavailable` with it,
    sending nothing.

    Every method raises :class:`OllamaUnavailable` or :class:`OllamaModelError` and nothing
    else (any other exception from the client becomes :class:`OllamaModelError`). The object
    is thread-safe; :meth:`close` (or ``with``) releases the connection pool.
    """

    def __init__(
        self,
        host: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        allow_remote: bool = False,
        models_ttl: float = DEFAULT_MODELS_TTL,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        disabled: str | None = None,
    ) -> None:
        if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
            raise InvalidInput(f"the Ollama timeout must be a positive number, not {timeout!r}")
        self.timeout = float(timeout)
        self.allow_remote = allow_remote
        self.models_ttl = models_ttl
        self._clock = clock
        self._max_response_bytes = max_response_bytes
        self._lock = threading.Lock()
        self._client: ollama.Client | None = None
        self._models: _ModelsEntry | None = None
        self._context_lengths: dict[str, int | None] = {}
        self._refusal: str | None = None
        try:
            self.host = resolve_host(host)
        except InvalidInput as exc:
            self.host = (host or os.environ.get(OLLAMA_HOST_ENV, "")).strip()
            self._refusal = str(exc)
        else:
            if not allow_remote and not is_loopback_host(self.host):
                self._refusal = f"Ollama host {self.host} is not on this machine"
        if disabled is not None:
            self._refusal = disabled
        if self._refusal is not None:
            logger.info("Ollama disabled: %s", self._refusal)

    def __repr__(self) -> str:
        return f"OllamaBackend(host={self.host!r}, timeout={self.timeout!r})"

    def __enter__(self) -> OllamaBackend:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP connections, if any; the backend reconnects on its next call."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def local_models(self) -> frozenset[str]:
        """Full names of the installed models (``/api/tags``), cached for ``models_ttl`` s."""
        now = self._clock()
        with self._lock:
            entry = self._models
        if entry is not None and now < entry.expires:
            if entry.error is not None:
                raise type(entry.error)(*entry.error.args)
            return entry.models
        try:
            listing = self._call("tags", None, lambda client: client.list())
            digests = {item.model: item.digest or "" for item in listing.models if item.model}
        except (OllamaUnavailable, OllamaModelError) as exc:
            failure_ttl = min(DEFAULT_FAILURE_TTL, self.models_ttl)
            self._store_models(_ModelsEntry(now + failure_ttl, frozenset(), exc))
            raise
        models = frozenset(digests)
        self._store_models(_ModelsEntry(now + self.models_ttl, models, None, digests))
        return models

    def model_digests(self) -> dict[str, str]:
        """Each installed model's digest ("" when not reported), from the listing
        :meth:`local_models` keeps; raises like it."""
        models = self.local_models()
        with self._lock:
            digests = self._models.digests if self._models is not None else None
        return {name: (digests or {}).get(name, "") for name in models}

    def capabilities(self, model: str) -> frozenset[str] | None:
        """What ``model`` can do, as the server says (``/api/show`` ``capabilities``:
        ``"completion"``, ``"embedding"``, ``"tools"``, ...; Ollama 0.6.4 and later),
        or None when the server does not say. Not cached."""
        shown = self._call("show", model, lambda client: client.show(model))
        said = getattr(shown, "capabilities", None)
        return None if said is None else frozenset(str(c).casefold() for c in said)

    def resolve_model(self, name: str | None) -> str | None:
        """The installed model's full name for ``name``, or None if it is not installed.

        ``"llama3.2"`` matches ``"llama3.2:latest"``; a name with a tag matches that tag only;
        case is ignored. Raises like :meth:`local_models` when the server cannot tell.
        """
        if name is None or not name.strip():
            return None
        wanted = name.strip()
        models = self.local_models()
        if wanted in models:
            return wanted
        key = tagged(wanted).casefold()
        return next((model for model in sorted(models) if tagged(model).casefold() == key), None)

    def context_length(self, model: str) -> int | None:
        """The model's trained context length (``/api/show`` model_info), cached per model.

        None when the server does not report one.
        """
        with self._lock:
            if model in self._context_lengths:
                return self._context_lengths[model]
        shown = self._call("show", model, lambda client: client.show(model))
        length = context_length_from(shown.modelinfo or {})
        with self._lock:
            self._context_lengths[model] = length
        return length

    def chat(
        self,
        model: str,
        messages: Sequence[Mapping[str, str]],
        *,
        num_ctx: int | None,
        num_predict: int = DEFAULT_NUM_PREDICT,
        temperature: float = DEFAULT_TEMPERATURE,
        format: str | None = None,
        think: bool | None = None,
        timeout: float | None = None,
        stop: Callable[[str], str | None] | None = None,
    ) -> ChatResult:
        """One ``/api/chat`` call; ``num_ctx=None`` keeps the server's default.

        ``think`` is passed on when not None (False stops a reasoning model from spending
        ``num_predict`` on thoughts). ``timeout`` replaces the backend's for this request's
        reads and its deadline (see :func:`scaled_timeout`). With ``stop``, the answer is
        streamed and ``stop(text so far)`` is asked every :data:`STOP_CHECK_CHARS` new
        characters: a reason ends the request at once, and the result carries the text so far
        and ``stopped``. Raises :class:`OllamaModelError` for a reply over
        :data:`DEFAULT_MAX_REPLY_CHARS` characters.
        """
        options: dict[str, Any] = {"temperature": temperature, "num_predict": num_predict}
        if num_ctx is not None:
            options["num_ctx"] = num_ctx
        request = {
            "model": model,
            "messages": [dict(message) for message in messages],
            "options": options,
            "format": format,
            "think": think,
        }

        def ask(client: ollama.Client) -> ChatResult:
            if stop is None:
                return read_answer(client.chat(stream=False, **request), model)
            return read_stream(client.chat(stream=True, **request), model, stop)

        outer = REQUEST_TIMEOUT.get()  # a bound set around the call (waiting_at_most) holds
        if timeout is not None and outer is not None:
            timeout = min(timeout, outer)
        token = REQUEST_TIMEOUT.set(timeout) if timeout is not None else None
        try:
            return self._call("chat", model, ask)
        finally:
            if token is not None:
                REQUEST_TIMEOUT.reset(token)

    def embed(self, model: str, inputs: Sequence[str]) -> list[list[float]]:
        """One ``/api/embed`` call: a vector per input, in order.

        Raises :class:`OllamaModelError` unless the answer holds exactly one
        non-empty list of finite numbers per input, all of the same length.
        """
        response = self._call(
            "embed", model, lambda client: client.embed(model=model, input=list(inputs))
        )
        vectors = [list(vector) for vector in (response.embeddings or ())]
        if len(vectors) != len(inputs):
            raise OllamaModelError(f"/api/embed gave {len(vectors)} vectors for {len(inputs)} inputs")
        dims = len(vectors[0]) if vectors else 0
        for vector in vectors:
            if len(vector) != dims or not dims or not finite_numbers(vector):
                raise OllamaModelError("/api/embed gave vectors that are not lists of numbers")
        return vectors

    def _store_models(self, entry: _ModelsEntry) -> None:
        with self._lock:
            self._models = entry

    def _get_client(self) -> ollama.Client:
        if self._refusal is not None:
            raise OllamaUnavailable(self._refusal)
        with self._lock:
            if self._client is None:
                import ollama  # imported late: importing it creates a module-level client

                self._client = ollama.Client(
                    host=self.host,
                    timeout=self.timeout,
                    follow_redirects=False,
                    trust_env=False,
                    transport=GuardedTransport(
                        allow_remote=self.allow_remote,
                        max_bytes=self._max_response_bytes,
                        timeout=self.timeout,
                    ),
                )
            return self._client

    def _call(self, endpoint: str, model: str | None, request: Callable[[ollama.Client], T]) -> T:
        """Run one client request and map whatever it raises to the two errors above."""
        client = self._get_client()
        import ollama

        if waiting.isEnabledFor(logging.INFO):
            timeout = REQUEST_TIMEOUT.get() or self.timeout
            waiting.info(
                "waiting up to %g s for %s at %s (/api/%s)",
                timeout, model or "Ollama", self.host, endpoint,
                extra={"ollama_host": self.host, "ollama_endpoint": endpoint,
                       "ollama_model": model, "ollama_timeout": timeout},
            )
        started = time.monotonic()
        try:
            result = request(client)
        except Exception as exc:
            error = map_error(exc, endpoint, ollama.ResponseError)
            logger.debug(
                "ollama %s %s failed after %.3fs: %s",
                endpoint, model or "", time.monotonic() - started, type(error).__name__,
            )
            raise error from exc
        logger.debug("ollama %s %s took %.3fs", endpoint, model or "", time.monotonic() - started)
        return result


_PLAIN_NUMBERS: Final = frozenset({float, int})


def finite_numbers(values: Sequence[Any]) -> bool:
    """Whether every value is a finite int or float, not a bool. A parsed answer holds
    plain floats: their types are checked in one C loop (a query's 384 numbers in a
    tenth of checking each in Python); any other type (a float subclass, a bool, a
    string) is judged one by one."""
    if not _PLAIN_NUMBERS.issuperset(map(type, values)) and not all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in values
    ):
        return False
    return all(map(math.isfinite, values))


def tagged(name: str) -> str:
    """``name`` with Ollama's implicit ``:latest`` tag (a ``:`` before a ``/`` is a port)."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
