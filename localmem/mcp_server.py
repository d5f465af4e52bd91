"""``localmem mcp``: the memory file as a Model Context Protocol server over stdio.

Desktop assistants (Claude Desktop, LM Studio, VS Code, Cursor, Jan...) start
one server process per conversation and talk JSON-RPC over its stdin and
stdout: nothing else is ever written to stdout, and logs go to stderr. Each
process holds one :class:`~localmem.store.MemoryStore` on the file; several
processes share the file as any two stores do (WAL, a busy timeout, one
transaction per write). The server uses the store's public API only, and each
call runs in a worker thread, so a wait on the file never stalls the protocol.

The tools (and the current session they act on) are in ``localmem.mcp_tools``;
this module holds the server (one-line error results, unknown arguments
refused), the resources (the memory report, a session's transcript, the
schema) and :func:`serve`.
Built on the official MCP SDK (``pip install 'localmem[mcp]'``, 1.x).
"""

from __future__ import annotations

import inspect
import logging
import sys
from pathlib import Path
from importlib.metadata import version
from typing import Any
from urllib.parse import unquote

from pydantic import ValidationError

from . import mcp_text
from .args import describe
from .errors import InvalidInput, LocalMemError, MissingExtra, SessionNotFound
from .store import MemoryStore

try:
    from mcp.server.fastmcp import FastMCP
    from mcp.server.fastmcp.exceptions import ResourceError, ToolError
    from mcp.server.stdio import stdio_server
except ImportError as exc:  # pragma: no cover - exercised with the SDK hidden
    raise MissingExtra("localmem mcp needs the MCP SDK: pip install 'localmem[mcp]'") from exc

from .mcp_stdio import open_stdio  # noqa: E402
from .mcp_tools import Memory, add_tools  # noqa: E402  (after the SDK is known to be there)

logger = logging.getLogger("localmem")

SERVER_NAME = "localmem"
MAX_ERROR_CHARS = 500
INSTRUCTIONS = """\
localmem is this user's long-term memory, kept in a file on their own machine.
At the start of a conversation, call recall (with the user's question as query) to get the
facts, summaries and recent turns that matter, within a token budget. Store what the user says
with remember, and facts that must never be lost (allergies, names, preferences, deadlines)
with remember_fact. Use search to find something said long ago; list_facts, edit_fact and the
forget_* tools when the user asks what you remember or to change or delete it. A session is
one conversation: tools act on the current session unless given session_id."""


def one_line(exc: BaseException) -> str:
    """An error as one line a model can read: pydantic's first complaint, or the message."""
    text = describe(exc) if isinstance(exc, ValidationError) else str(exc) or type(exc).__name__
    text = " ".join(text.split())
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


class MemoryServer(FastMCP):
    """FastMCP over one store (``memory``: the store and the current session).

    Every failed call (a rejected argument, an unknown id or session, the
    file busy past the timeout) becomes an error result with one line;
    the process keeps serving. A call with an argument the tool does not
    take is refused rather than run without it.
    """

    def __init__(self, store: MemoryStore, session_id: str | None = None) -> None:
        super().__init__(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
        # FastMCP takes no version and reports the SDK's; an app should see localmem's.
        self._mcp_server.version = version("localmem")
        self.memory = Memory(store, session_id)
        self._params: dict[str, frozenset[str]] | None = None
        add_tools(self, self.memory)
        add_resources(self, self.memory)

    def tool(self, name: str | None = None, title: str | None = None,
             description: str | None = None, **kwargs: Any) -> Any:
        """FastMCP's ``tool`` decorator; a docstring becomes the description without
        its indentation (``inspect.cleandoc``), as a client shows it."""
        def register(fn: Any) -> Any:
            text = description if description is not None else inspect.cleandoc(fn.__doc__ or "")
            return FastMCP.tool(self, name, title, text or None, **kwargs)(fn)

        return register

    async def run_stdio_async(self) -> None:
        """FastMCP's stdio loop, on a stdin checked line by line, read and written by the
        event loop on pipes (``localmem.mcp_stdio``)."""
        options = self._mcp_server.create_initialization_options()
        async with open_stdio(sys.stdin.buffer, sys.stdout.buffer) as (stdin, out):
            async with stdio_server(stdin=stdin, stdout=out) as (read, write):  # type: ignore[arg-type]
                await self._mcp_server.run(read, write, options)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        if self._params is None:
            self._params = {
                t.name: frozenset(t.inputSchema.get("properties", {}))
                for t in await self.list_tools()
            }
        allowed = self._params.get(name)
        unknown = sorted(set(arguments or {}) - allowed) if allowed is not None else []
        if unknown:
            takes = ", ".join(sorted(allowed or ())) or "no arguments"
            raise ToolError(f"{name} takes no argument {unknown[0]!r} (it takes: {takes})")
        try:
            return await super().call_tool(name, arguments or {})
        except ToolError as exc:
            cause = exc.__cause__
            if cause is not None and not isinstance(cause, (LocalMemError, ValidationError)):
                logger.error("tool %s failed", name, exc_info=cause)
            raise ToolError(one_line(cause or exc)) from None

    async def read_resource(self, uri: Any) -> Any:
        try:
            return await super().read_resource(uri)
        except Exception as exc:  # the SDK wraps the store's error (twice): report the store's
            cause: BaseException = exc
            while not isinstance(cause, LocalMemError) and (cause.__cause__ or cause.__context__):
                cause = cause.__cause__ or cause.__context__  # type: ignore[assignment]
            raise ResourceError(one_line(cause)) from None


def add_resources(server: FastMCP, memory: Memory) -> None:
    """The memory report, a session's transcript and the schema, as text resources."""
    store = memory.store

    @server.resource(
        "localmem://memory",
        name="memory",
        title="What localmem remembers",
        description="Every fact remembered about the user and each session's pinned facts,"
        " with where each came from and whether it still holds (store.memory_report).",
        mime_type="text/plain",
    )
    async def report() -> str:
        return await memory.run(_report, store)

    @server.resource(
        "localmem://sessions/{session_id}/transcript",
        name="transcript",
        title="A session's transcript",
        description="Every message of one session, oldest first, with ids, roles and times.",
        mime_type="text/plain",
    )
    async def transcript(session_id: str) -> str:
        return await memory.run(_transcript, store, unquote(session_id))

    @server.resource(
        "localmem://schema",
        name="schema",
        title="The database schema",
        description="The SQLite schema of the memory file (open it with sqlite3 or Datasette).",
        mime_type="application/sql",
    )
    async def schema_sql() -> str:
        return await memory.run(store.schema)


def _report(store: MemoryStore) -> str:
    return store.memory_report().to_text()


def _transcript(store: MemoryStore, session_id: str) -> str:
    session = store.get_session(session_id)
    return mcp_text.transcript_text(session, store.get_messages(session_id))


def open_session(store: MemoryStore, session_id: str) -> str:
    """The server's ``--session``: used as it is, or created (no model, no title) if missing.

    Safe when several servers start at once with the same id: the one that
    loses the race uses the session the winner created.
    """
    try:
        return store.get_session(session_id).id
    except SessionNotFound:
        pass
    try:
        return store.create_session(session_id=session_id).id
    except InvalidInput:
        return store.get_session(session_id).id  # created meanwhile; else the error stands


def serve(store: MemoryStore, session_id: str | None = None) -> None:
    """Serve ``store`` over stdio until the client closes stdin."""
    current = None if session_id is None else open_session(store, session_id)
    path = store.path if str(store.path) == ":memory:" else Path(store.path).resolve()
    logger.info("serving %s over MCP (stdio), session %s", path, current)
    MemoryServer(store, current).run("stdio")
