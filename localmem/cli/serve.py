"""``localmem mcp`` (the file served to desktop assistants over MCP: ``localmem.mcp_server``)
and ``localmem ui`` (a page to see and correct it in a browser: ``localmem.ui``)."""

from __future__ import annotations

import click

from ..store import MemoryStore
from .base import cli, with_store


@cli.command()
@click.option(
    "--session",
    "session_id",
    default=None,
    help="The session tools act on when a call names none (created if missing).",
)
@with_store(create=True)
def mcp(store: MemoryStore, session_id: str | None) -> None:
    """Serve the memory to a desktop assistant over MCP (stdio).

    For Claude Desktop, LM Studio, VS Code and other MCP clients: they start
    this command and speak the protocol on its stdin and stdout; logs go to
    stderr. Needs the mcp extra: pip install 'localmem[mcp]'.
    """
    from ..mcp_server import serve  # the SDK loads for this command only

    serve(store, session_id)


@cli.command()
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, show_default=True,
    help="The port on 127.0.0.1 (0: any free one).",
)
@click.option("--no-open", is_flag=True, help="Print the address; do not open a browser.")
@with_store
def ui(store: MemoryStore, port: int, no_open: bool) -> None:
    """See and correct what is remembered, in a browser (a local page).

    Serves on 127.0.0.1 only, until Ctrl-C, at an address holding a secret
    made for this launch (printed, and opened in the default browser unless
    --no-open). Needs the ui extra: pip install 'localmem[ui]'.
    """
    from ..ui import serve as serve_ui  # the web parts load for this command only

    serve_ui(store, port, open_browser=not no_open, echo=click.echo)
