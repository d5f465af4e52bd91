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

Where stdin and stdout are pipes or sockets (what an app that spawns the server
gives it) on POSIX, the event loop reads and writes them itself (:func:`open_stdio`):
a request then reaches the server, and its answer the app, without two trips to a
worker thread each (a thread woken has to wait for a core on a busy machine). Any
other stdin or stdout (a terminal, a file, Windows) is read or written in a worker
thread, one call at a time, as the SDK does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import stat
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from io import TextIOWrapper
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
READ_BYTES = 64 * 1024
"""What :class:`PipeReader` asks the pipe for at a time."""
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')


class LockedStdout:
    """The process's stdout as the SDK writes it (``await write(line)``, ``await
    flush()``), one writer at a time, so a refusal never lands inside a response.

    ``stream`` is a plain (blocking) text stream: each ``write`` writes and flushes
    in one trip to a worker thread, and ``flush`` has nothing left to do (the SDK's
    write-then-flush of every message cost two trips, each a thread wake-up, up to
    2 ms on a busy machine, where one does). With ``pipe`` (a stream the event loop
    writes, :func:`open_stdio`), ``stream`` is not used: each ``write`` hands the
    UTF-8 text to the loop and waits until the pipe has taken it, with no thread."""

    def __init__(self, stream: TextIO | None, pipe: asyncio.StreamWriter | None = None) -> None:
        self._stream = stream
        self._pipe = pipe
        self._lock = anyio.Lock()

    def _write(self, text: str) -> None:
        assert self._stream is not None
        self._stream.write(text)
        self._stream.flush()

    async def write(self, text: str) -> None:
        async with self._lock:
            if self._pipe is not None:
                self._pipe.write(text.encode("utf-8"))
                await self._pipe.drain()
            else:
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


class PipeReader:
    """A pipe's bytes as the event loop reads them, a line at a time:
    ``await readline(limit)`` returns what a binary file's ``readline(limit)`` does
    (up to and including the next newline, at most ``limit`` bytes; ``b""`` at the
    end). It holds at most ``limit`` + :data:`READ_BYTES` bytes."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self._buffer = bytearray()
        self._scanned = 0  # the buffer's first bytes, known to hold no newline

    async def readline(self, limit: int) -> bytes:
        while True:
            end = self._buffer.find(b"\n", self._scanned, limit)
            if end >= 0:
                return self._take(end + 1)
            if len(self._buffer) >= limit:
                return self._take(limit)
            self._scanned = len(self._buffer)
            chunk = await self._reader.read(READ_BYTES)
            if not chunk:
                return self._take(len(self._buffer))
            self._buffer += chunk

    def _take(self, size: int) -> bytes:
        out = bytes(self._buffer[:size])
        del self._buffer[:size]
        self._scanned = 0
        return out


class GuardedStdin:
    """The lines of ``raw`` (a binary stream, read in a worker thread) or of ``pipe``
    (read by the event loop) the SDK may parse; the others answered on ``out`` (see
    the module's docstring)."""

    def __init__(self, raw: BinaryIO | None, out: LockedStdout, max_bytes: int = MAX_LINE_BYTES,
                 pipe: PipeReader | None = None) -> None:
        self._raw = raw
        self._out = out
        self._max = max_bytes
        self._pipe = pipe

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _read(self, limit: int) -> bytes:
        if self._pipe is not None:
            return await self._pipe.readline(limit)
        assert self._raw is not None
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


def loop_can_serve(fd: int) -> bool:
    """Whether the event loop can read or write ``fd`` itself: a pipe or a socket, on
    POSIX (asyncio's pipe transports; a terminal is left alone, since making it
    non-blocking would reach the shell that shares it)."""
    if os.name != "posix":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@asynccontextmanager
async def open_stdio(
    stdin: BinaryIO, stdout: BinaryIO, can_serve: Callable[[int], bool] = loop_can_serve
) -> AsyncIterator[tuple[GuardedStdin, LockedStdout]]:
    """The server's stdin and stdout for the SDK: the event loop's own reader and
    writer when both ``can_serve`` (asyncio), else a worker thread per call.

    Both are left open: the loop's side works on duplicates of the two descriptors
    and sets them back to blocking when it closes."""
    fds = _fds(stdin, stdout)
    if fds is None or not all(can_serve(fd) for fd in fds) or not _on_asyncio():
        text = TextIOWrapper(stdout, encoding="utf-8")
        out = LockedStdout(text)
        try:
            yield GuardedStdin(stdin, out), out
        finally:
            text.detach()  # leaves ``stdout`` open: the caller's
        return
    loop = asyncio.get_running_loop()
    async with AsyncExitStack() as stack:
        for fd in fds:
            stack.callback(os.set_blocking, fd, True)
        reader = asyncio.StreamReader(limit=READ_BYTES, loop=loop)
        read_end = os.fdopen(os.dup(fds[0]), "rb", buffering=0)
        source, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), read_end
        )
        stack.callback(source.close)  # (again, at once, by ``_closed``)
        write_end = os.fdopen(os.dup(fds[1]), "wb", buffering=0)
        protocol = asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop)
        sink, _ = await loop.connect_write_pipe(lambda: protocol, write_end)
        writer = asyncio.StreamWriter(sink, protocol, None, loop)
        stack.push_async_callback(_closed, source, writer)
        out = LockedStdout(None, writer)
        yield GuardedStdin(None, out, pipe=PipeReader(reader)), out


async def _closed(source: asyncio.ReadTransport, writer: asyncio.StreamWriter) -> None:
    """Both closed, and their duplicate descriptors with them (each transport closes
    its own on the loop's next turn), so the client sees the end at once."""
    source.close()
    writer.close()
    try:
        await writer.wait_closed()
    except OSError:  # the client closed its end first
        pass
    await asyncio.sleep(0)


def _fds(stdin: BinaryIO, stdout: BinaryIO) -> tuple[int, int] | None:
    try:
        return stdin.fileno(), stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file with a descriptor
        return None


def _on_asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # another backend (trio)
        return False
    return True
