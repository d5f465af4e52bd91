"""``localmem mcp`` (the file served to desktop assistants over MCP: ``localmem.mcp_server``)
and ``localmem ui`` (a page to see and correct it in a browser: ``localmem.ui``)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import LocalMemError
from ..summarizer.ollama_client import WAITING_LOGGER
from .base import cli, db_option, open_store, with_store

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore


@cli.command()
@click.option(
    "--session",
    "session_id",
    default=None,
    help="The session tools act on when a call names none (created if missing).",
)
@click.option(
    "--embedding-model",
    envvar="LOCALMEM_EMBEDDING_MODEL",
    default=None,
    help="The local Ollama embedding model for semantic recall [env: LOCALMEM_EMBEDDING_MODEL;"
    " default: none, lexical recall only].",
)
@click.option(
    "--recall-scope",
    envvar="LOCALMEM_RECALL_SCOPE",
    type=click.Choice(["session", "user"]),
    default=None,
    help="What recall draws on: the session, or every session of the user"
    " [env: LOCALMEM_RECALL_SCOPE; default: session].",
)
@click.option(
    "--offline",
    envvar="LOCALMEM_OFFLINE",
    is_flag=True,
    help="Never call the local model [env: LOCALMEM_OFFLINE=1].",
)
@click.option(
    "--timeout",
    envvar="LOCALMEM_OLLAMA_TIMEOUT",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Wait at most this long for each answer of the local model"
    " [env: LOCALMEM_OLLAMA_TIMEOUT; default: 60].",
)
@db_option
def mcp(
    db_path: Path | None,
    session_id: str | None,
    embedding_model: str | None,
    recall_scope: str | None,
    offline: bool,
    timeout: float | None,
) -> None:
    """Serve the memory to a desktop assistant over MCP (stdio).

    For Claude Desktop, LM Studio, VS Code and other MCP clients: they start
    this command and speak the protocol on its stdin and stdout; logs go to
    stderr, starting with the absolute path of the file served. Needs the mcp
    extra: pip install 'localmem[mcp]' (checked before the file is created).
    """
    # A server's log is its stderr (stdout is the protocol): localmem's INFO and up, once
    # (not again through the handler FastMCP gives the root logger), and not the notice
    # before each request to the model (``localmem.waiting``): every recall with an
    # embedding model would write it.
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("localmem: %(message)s"))
    logger = logging.getLogger("localmem")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.getLogger(WAITING_LOGGER).setLevel(logging.WARNING)
    try:
        from ..mcp_server import serve  # the SDK loads for this command only
    except LocalMemError as exc:  # MissingExtra: nothing created
        raise click.ClickException(str(exc)) from None
    config: dict[str, Any] = {}
    if embedding_model:
        config["embedding_model"] = embedding_model
    if recall_scope is not None:
        config["recall_scope"] = recall_scope
    if offline:
        config["offline"] = True
    if timeout is not None:
        config["ollama_timeout"] = timeout
    try:
        with open_store(db_path, create=True, config=config) as store:
            serve(store, session_id)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None


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
