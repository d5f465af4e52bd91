"""``localmem ui`` served: uvicorn on 127.0.0.1, in the foreground until Ctrl-C
(:func:`serve`).

The socket is bound here, before the server starts, so the port (any free one
when 0 is asked) is known for the launch's address and its ``Host`` check, and
a browser opened at once finds it listening.
"""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import InvalidInput, MissingExtra
from .guard import LOOPBACK, Launch
from .pages import create_app

if TYPE_CHECKING:  # handed the store by its caller: its type, for the checker
    from ..store import MemoryStore

try:
    import uvicorn
except ImportError as exc:  # pragma: no cover - exercised with the extra hidden
    raise MissingExtra("localmem ui needs its web parts: pip install 'localmem[ui]'") from exc


def bind(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1:``port`` (0: any free port). Raises
    :class:`InvalidInput` when the port is taken or not allowed."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((LOOPBACK, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise InvalidInput(f"cannot listen on {LOOPBACK}:{port}: {exc.strerror or exc}") from None
    return sock


def server(store: MemoryStore, sock: socket.socket) -> tuple[uvicorn.Server, Launch]:
    """The uvicorn server of the page for ``store`` on ``sock`` (bound by :func:`bind`),
    and its launch (address, secret, token). ``server.run(sockets=[sock])`` serves."""
    launch = Launch.new(sock.getsockname()[1])
    config = uvicorn.Config(
        create_app(store, launch),
        log_config=None,  # the host's logging stays as it is; errors reach "uvicorn.error"
        access_log=False,  # the paths hold the secret
        server_header=False,
        proxy_headers=False,
        lifespan="off",
        ws="none",
    )
    return uvicorn.Server(config), launch


def serve(
    store: MemoryStore, port: int = 0, *, open_browser: bool = True,
    echo: Callable[[str], None] = lambda line: None,
) -> None:
    """Serve the page for ``store`` on 127.0.0.1:``port`` until Ctrl-C (SIGINT; or
    SIGTERM). ``echo`` is given the address to open (with this launch's secret), and
    a last line when the server has stopped; the default browser opens the address
    unless ``open_browser`` is False. Raises :class:`InvalidInput` for a port that
    cannot be listened on."""
    sock = bind(port)
    try:
        web, launch = server(store, sock)
        echo(f"localmem ui: open {launch.url}")
        echo("(this address works until the command stops; Ctrl-C stops it)")
        if open_browser:  # some browsers' launchers block: not on the server's thread
            threading.Thread(target=webbrowser.open, args=(launch.url,), daemon=True).start()
        try:
            web.run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn stops cleanly, then raises Ctrl-C again
            pass
        echo("localmem ui: stopped")
    finally:
        sock.close()
