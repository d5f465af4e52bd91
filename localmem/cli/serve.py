"""``localmem mcp``: the file served to desktop assistants over MCP (``localmem.mcp_server``)."""

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
