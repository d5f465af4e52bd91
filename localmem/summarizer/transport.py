"""What may reach the local Ollama server, and what may come back: the connection's guards.

- **Where the server is** (:func:`resolve_host`): ``host``, else ``$OLLAMA_HOST``, else the
  default, normalized as the ``ollama`` client does; :func:`is_loopback_host` tells whether
  a host is this machine without looking anything up.
- **The guarded transport** (``GuardedTransport``, the httpx transport every request of
  :class:`~localmem.summarizer.ollama_client.OllamaBackend` goes through): no request outside
  this machine unless allowed, a total deadline for the whole answer (the read timeout of the
  request being made is :data:`REQUEST_TIMEOUT`'s when set), at most
  :data:`DEFAULT_MAX_RESPONSE_BYTES` read, no compressed body.
- **The two outcomes** a failure maps to: :class:`OllamaUnavailable` (no usable connection;
  :class:`OllamaTimeout` when the server took the connection and did not answer in time)
  and :class:`OllamaModelError` (the server answered, not usefully).

``ollama_client`` re-exports every public name here.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import time
import urllib.parse
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Final

import httpx

from localmem.errors import InvalidInput, LocalMemError

OLLAMA_HOST_ENV: Final = "OLLAMA_HOST"
DEFAULT_OLLAMA_HOST: Final = "http://127.0.0.1:11434"
DEFAULT_OLLAMA_PORT: Final = 11434
DEFAULT_MAX_RESPONSE_BYTES: Final = 4 * 1024 * 1024
"""Largest body read from the server; /api/show answers carry licenses and templates."""
REQUEST_TIMEOUT: ContextVar[float | None] = ContextVar("localmem_ollama_timeout", default=None)
"""The timeout of the request being made in this thread, when not the backend's: its
reads and its deadline; connecting too when it is the shorter (``waiting_at_most``)."""

_UNSPECIFIED_HOSTS: Final = {"0.0.0.0": "127.0.0.1", "::": "::1"}
"""A server told to listen on every interface is reached through loopback."""
_ERROR_TEXT_CHARS: Final = 200


class OllamaUnavailable(LocalMemError):
    """The local Ollama server could not be reached (refused, timed out, or not allowed)."""


class OllamaTimeout(OllamaUnavailable):
    """The server took the connection but did not answer within the timeout: it is hung,
    or too busy (an ``OllamaUnavailable``: the summarizer writes an offline summary)."""


class OllamaModelError(LocalMemError):
    """The Ollama server answered, but not with a usable answer (HTTP error, bad JSON...)."""


def resolve_host(host: str | None = None) -> str:
    """The Ollama base URL to use: ``host``, else ``$OLLAMA_HOST``, else the default.

    Normalized the way the ``ollama`` client does (``"127.0.0.1:11434"`` ->
    ``"http://127.0.0.1:11434"``, ``"localhost"`` -> ``"http://localhost:11434"``), except
    that the "every interface" addresses ``0.0.0.0`` and ``::`` (a common server setting of
    ``OLLAMA_HOST``) become their loopback address. Raises :class:`InvalidInput` when the
    value cannot be parsed (a bad port, for instance). Reads the environment, nothing else.
    """
    raw = (host or "").strip() or os.environ.get(OLLAMA_HOST_ENV, "").strip()
    try:
        return _normalize_host(raw)
    except ValueError as exc:
        raise InvalidInput(f"cannot use Ollama host {raw!r}: {exc}") from None


def _normalize_host(raw: str) -> str:
    """Mirror of ``ollama._client._parse_host`` (a private function, so not imported)."""
    scheme, hostname, port, path = _split_host(raw)
    hostname = _UNSPECIFIED_HOSTS.get(hostname, hostname)
    if ":" in hostname and _ip_address(hostname) is not None:
        hostname = f"[{hostname}]"
    base = f"{scheme}://{hostname}:{port}"
    return f"{base}/{path}" if path else base


def _split_host(raw: str) -> tuple[str, str, int, str]:
    """Scheme, host name, port and path of an ``OLLAMA_HOST``-style value (ValueError if bad)."""
    port = DEFAULT_OLLAMA_PORT
    scheme, _, hostport = raw.partition("://")
    if not hostport:
        scheme, hostport = "http", raw
    elif scheme == "http":
        port = 80
    elif scheme == "https":
        port = 443
    split = urllib.parse.urlsplit(f"{scheme}://{hostport}")
    return scheme, split.hostname or "127.0.0.1", split.port or port, split.path.strip("/")


def is_loopback_host(host: str) -> bool:
    """True if ``host`` names this machine's loopback interface; never looks anything up.

    ``host`` may be a host name, an IP address (IPv6 with or without brackets) or a URL as
    ``OLLAMA_HOST`` takes it. True for ``localhost``, ``127.0.0.0/8``, ``::1`` and IPv4-mapped
    loopback addresses; False for anything else, including names that would need DNS and the
    "every interface" address ``0.0.0.0`` (:func:`resolve_host` maps that one to loopback).
    """
    candidate = host.strip()
    if not candidate:
        return False
    address = _ip_address(candidate.strip("[]"))
    if address is None:
        try:
            candidate = _split_host(candidate)[1]
        except ValueError:
            return False
        address = _ip_address(candidate)
    if address is None:
        return candidate.casefold().rstrip(".") == "localhost"
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _ip_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


class BoundedStream(httpx.SyncByteStream):
    """A response body that stops at a size limit and at the request's deadline."""

    def __init__(self, inner: httpx.SyncByteStream, max_bytes: int, deadline: float) -> None:
        self._inner = inner
        self._max_bytes = max_bytes
        self._deadline = deadline

    def __iter__(self) -> Iterator[bytes]:
        received = 0
        for chunk in self._inner:
            received += len(chunk)
            if received > self._max_bytes:
                raise OllamaModelError(f"answer larger than {self._max_bytes} bytes")
            if time.monotonic() > self._deadline:
                raise OllamaTimeout("answer not complete before the timeout")
            yield chunk

    def close(self) -> None:
        self._inner.close()


class GuardedTransport(httpx.BaseTransport):
    """httpx transport enforcing the host policy, a body size limit and a total deadline."""

    def __init__(self, *, allow_remote: bool, max_bytes: int, timeout: float) -> None:
        # TCP_NODELAY: httpcore writes a POST's headers and body separately; with Nagle the
        # body waits for the server's delayed ACK, 40 ms on every new connection.
        self._inner = httpx.HTTPTransport(
            trust_env=False, socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
        )
        self._allow_remote = allow_remote
        self._max_bytes = max_bytes
        self._timeout = timeout

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self._allow_remote and not is_loopback_host(request.url.host):
            raise OllamaUnavailable("refusing to send a request outside this machine")
        timeout = REQUEST_TIMEOUT.get() or self._timeout
        if timeout != self._timeout:  # a longer generation, or a short probe
            connect = min(timeout, self._timeout)
            request.extensions["timeout"] = {
                "connect": connect, "read": timeout, "write": timeout, "pool": connect
            }
        deadline = time.monotonic() + timeout
        response = self._inner.handle_request(request)
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        declared = response.headers.get("content-length", "")
        if encoding not in ("", "identity"):
            response.close()
            raise OllamaModelError(f"compressed answer ({encoding}) refused")
        if declared.isdigit() and int(declared) > self._max_bytes:
            response.close()
            raise OllamaModelError(f"answer larger than {self._max_bytes} bytes")
        if not isinstance(response.stream, httpx.SyncByteStream):  # not with HTTPTransport
            response.close()
            raise OllamaModelError("unexpected response stream")
        response.stream = BoundedStream(response.stream, self._max_bytes, deadline)
        return response

    def close(self) -> None:
        self._inner.close()


def map_error(
    exc: Exception, endpoint: str, response_error: type[Exception]
) -> OllamaUnavailable | OllamaModelError:
    """The one place deciding "unavailable" versus "bad answer"."""
    if isinstance(exc, (OllamaUnavailable, OllamaModelError)):
        return exc
    if isinstance(exc, response_error):
        status = getattr(exc, "status_code", -1)
        detail = str(getattr(exc, "error", ""))[:_ERROR_TEXT_CHARS]
        return OllamaModelError(f"Ollama /api/{endpoint} answered HTTP {status}: {detail}")
    if isinstance(exc, httpx.TimeoutException):
        return OllamaTimeout(f"Ollama /api/{endpoint} did not answer in time: {type(exc).__name__}")
    if isinstance(exc, (httpx.TransportError, OSError)):
        # ollama maps httpx.ConnectError to the builtin ConnectionError (an OSError) and lets
        # every other httpx error through: timeouts, resets, a body cut short.
        return OllamaUnavailable(f"Ollama /api/{endpoint} unreachable: {type(exc).__name__}")
    return OllamaModelError(f"Ollama /api/{endpoint} gave an unusable answer: {type(exc).__name__}")
