"""Who may use the page: :class:`Launch` (what one ``localmem ui`` run is reached by)
and :class:`Guard` (the ASGI middleware that refuses everyone else).

The page shows and changes private memory, and any web site the user visits can
make the browser send requests to 127.0.0.1. So, before a request reaches a page:

- its ``Host`` must be ``127.0.0.1:PORT`` or ``localhost:PORT``: a site that
  points its own name at 127.0.0.1 (DNS rebinding) sends its name and is refused;
- its path must begin with the launch's secret (``/SECRET/...``, made by
  ``secrets.token_urlsafe`` for this run): without it every address, pages and
  scripts alike, is refused. The secret is in the path rather than in a cookie
  because browsers share a host's cookies across ports: any other server on
  127.0.0.1 the browser talks to would receive it. ``Referrer-Policy:
  same-origin`` keeps the path from leaving in a ``Referer``, and the page loads
  nothing from elsewhere for it to leave to;
- only GET and HEAD read, only POST changes; a POST must carry an ``Origin``
  that is this server (a form another site submits carries that site's, or
  ``null``) and, in the handler, the launch's anti-forgery token
  (:meth:`Launch.form_ok`).

Every answer, refusals included, carries a strict Content-Security-Policy
(``default-src 'self'``: no script, style, image or frame from anywhere else,
no inline script) and is not cached. The middleware is plain ASGI: it needs
no framework.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECRET_BYTES = 32
"""Random bytes in the launch secret and in the anti-forgery token (43 URL-safe characters)."""
LOOPBACK = "127.0.0.1"
HOST_NAMES = (LOOPBACK, "localhost")
READS = frozenset({"GET", "HEAD"})
WRITES = frozenset({"POST"})
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
)


def _same(given: str, expected: str) -> bool:
    """``given == expected`` in time independent of where they differ."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


@dataclass(frozen=True)
class Launch:
    """One run of the page: its port, the secret its addresses begin with, and the
    token its forms carry. :meth:`new` makes fresh ones."""

    port: int
    secret: str = field(repr=False)
    form_token: str = field(repr=False)

    @classmethod
    def new(cls, port: int) -> Launch:
        return cls(port, secrets.token_urlsafe(SECRET_BYTES), secrets.token_urlsafe(SECRET_BYTES))

    @property
    def base(self) -> str:
        """The path every address of this launch begins with."""
        return f"/{self.secret}"

    @property
    def url(self) -> str:
        """The address to open (printed by ``localmem ui``)."""
        return f"http://{LOOPBACK}:{self.port}{self.base}/"

    @property
    def hosts(self) -> frozenset[str]:
        """The ``Host`` headers accepted."""
        return frozenset(f"{name}:{self.port}" for name in HOST_NAMES)

    @property
    def origins(self) -> frozenset[str]:
        """The ``Origin`` headers a change is accepted from."""
        return frozenset(f"http://{host}" for host in self.hosts)

    def form_ok(self, token: object) -> bool:
        """Whether a submitted form's anti-forgery token is this launch's."""
        return isinstance(token, str) and _same(token, self.form_token)

    def refusal(self, method: str, path: str, headers: dict[str, str]) -> str | None:
        """Why a request is refused, or None when it may reach the page."""
        if headers.get("host", "") not in self.hosts:
            return "Refused: this server answers only to 127.0.0.1 and localhost."
        first, _, _ = path.removeprefix("/").partition("/")
        if not _same(first, self.secret):
            return "Refused: open the address `localmem ui` printed (it holds this launch's secret)."
        if method in READS:
            return None
        if method not in WRITES:
            return "Refused: only GET and POST are answered."
        origin = headers.get("origin")
        if origin is None or origin not in self.origins:
            return "Refused: a change must come from this page."
        if headers.get("sec-fetch-site", "same-origin") != "same-origin":
            return "Refused: a change must come from this page."
        return None


class Guard:
    """ASGI middleware: refuses what :meth:`Launch.refusal` refuses (403, plain text)
    and adds :data:`SECURITY_HEADERS` to every answer. Only HTTP is served."""

    def __init__(self, app: ASGIApp, launch: Launch) -> None:
        self.app = app
        self.launch = launch

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets: nothing here speaks them
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in _SET
                ] + list(SECURITY_HEADERS)
            await send(message)

        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        why = self.launch.refusal(scope["method"], scope["path"], headers)
        if why is None:
            await self.app(scope, receive, send_secured)
            return
        body = (why + "\n").encode()
        await send_secured({
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        })
        await send({"type": "http.response.body", "body": body})


_SET = frozenset(name for name, _ in SECURITY_HEADERS)
