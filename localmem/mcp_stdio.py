"""The MCP server's stdin, checked line by line before the SDK parses it.

The SDK's stdio transport reads whole lines (however long) and hands any line
it cannot parse to the server as an exception, which answers with a log
notification and no response: the client that sent it waits forever. That
happened for valid JSON that is not Unicode (a lone surrogate, ``"\\ud800"``,
which JavaScript writes), for JSON nested 10,000 deep, and a 300 MB line
grew the server to 1.55 GB before any cap refused it.

Here every request line gets a response: :class:`GuardedStdin` reads at most
:data:`MAX_LINE_BYTES` of a line (the rest of a longer one is read and
dropped in pieces, never held), checks that it parses, nests at most
:data:`MAX_DEPTH` deep and holds only Unicode text, and passes the SDK only
lines that pass. Any other line is answered at once with a one-line JSON-RPC
error carrying the request's id (``null`` when it cannot be read), written
through :class:`LockedStdout`, which the SDK's writer shares, so lines never
interleave.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator
from typing import Any, BinaryIO, TextIO

import anyio
import anyio.to_thread

logger = logging.getLogger("localmem")

MAX_LINE_BYTES = 8 * 1024 * 1024
"""A request line longer than this is refused while it is read (a message of
100,000 characters, each escaped as ``\\uXXXX``, takes 600 kB)."""
MAX_DEPTH = 64
"""JSON-RPC requests nest a few levels; tool arguments here are flat."""
DRAIN_BYTES = 1024 * 1024
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')


class LockedStdout:
    """The process's stdout as the SDK writes it (``await write(line)``, ``await
    flush()``), one writer at a time, so a refusal never lands inside a response.

    ``stream`` is a plain (blocking) text stream. Each ``write`` writes and flushes
    in one trip to a worker thread, and ``flush`` has nothing left to do: the SDK's
    write-then-flush of every message cost two trips (each a thread wake-up, up to
    2 ms on a busy machine) where one does."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = anyio.Lock()

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()

    async def write(self, text: str) -> None:
        async with self._lock:
            await anyio.to_thread.run_sync(self._write, text)

    async def flush(self) -> None:
        """Nothing: ``write`` flushed."""

    async def line(self, text: str) -> None:
        """Write one whole line and flush it, as one step."""
        await self.write(text + "\n")


def check(obj: Any) -> str | None:
    """Why a parsed request cannot be served (too deep, not Unicode), or None."""
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"the request nests deeper than {MAX_DEPTH} levels"
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"the request holds a lone surrogate (\\u{ord(value[exc.start]):04x}), not Unicode text"
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return None


def request_id(obj: Any) -> int | str | None:
    """The id of a request to answer (an int or a Unicode string), else None."""
    if isinstance(obj, dict):
        found = obj.get("id")
        if isinstance(found, int) and not isinstance(found, bool):
            return found
        if isinstance(found, str) and check(found) is None:
            return found
    return None


def raw_id(head: bytes) -> int | str | None:
    """The first ``"id"`` in the start of a line that could not be parsed."""
    found = _ID.search(head)
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if check(value) is None else None


def refusal(ident: int | str | None, code: int, message: str) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}},
        ensure_ascii=True,
    )


class GuardedStdin:
    """The lines of ``raw`` (a binary stream) the SDK may parse; the others answered
    on ``out`` (see the module's docstring)."""

    def __init__(self, raw: BinaryIO, out: LockedStdout, max_bytes: int = MAX_LINE_BYTES) -> None:
        self._raw = raw
        self._out = out
        self._max = max_bytes

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _read(self, limit: int) -> bytes:
        return await anyio.to_thread.run_sync(self._raw.readline, limit)

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            chunk = await self._read(self._max + 1)
            if not chunk:
                return
            if len(chunk) > self._max and not chunk.endswith(b"\n"):
                head = chunk[:65536]
                del chunk
                while True:  # the rest of the line, read and dropped
                    rest = await self._read(DRAIN_BYTES)
                    if not rest or rest.endswith(b"\n"):
                        break
                message = f"request line over {self._max:,} bytes: refused unread"
                await self._out.line(refusal(raw_id(head), INVALID_REQUEST, message))
                continue
            line = chunk.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except RecursionError:
                message = f"the request nests deeper than {MAX_DEPTH} levels"
                await self._out.line(refusal(raw_id(chunk[:65536]), INVALID_REQUEST, message))
                continue
            except ValueError as exc:
                message = f"not JSON: {exc}"
                await self._out.line(refusal(raw_id(chunk[:65536]), PARSE_ERROR, message))
                continue
            problem = check(obj)
            if problem is not None:
                if isinstance(obj, dict) and "id" not in obj:  # a notification: no response
                    logger.warning("notification dropped: %s", problem)
                    continue
                await self._out.line(refusal(request_id(obj), INVALID_REQUEST, problem))
                continue
            yield line
